package chess

import "testing"

func TestAppendSANMatchesSAN(t *testing.T) {
	for _, fen := range []string{StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		var ml MoveList
		p.GenerateLegal(&ml)
		buf := []byte("x")
		for _, m := range ml.Slice() {
			if got, want := string(p.AppendSAN(buf[:1], m)[1:]), p.SAN(m); got != want {
				t.Errorf("%s %s: AppendSAN %q, SAN %q", fen, m.UCI(false), got, want)
			}
		}
	}
}

package train

import (
	"bytes"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// FuzzReadRecords: any bytes read without a panic; the records read
// write back as the bytes they came from, and each can be used (its
// pieces walked, mirrored, its target formed).
func FuzzReadRecords(f *testing.F) {
	var b bytes.Buffer
	if err := WriteRecords(&b, randomPositions(4, 3)); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:RecordSize+7])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, tail, err := ReadRecords(bytes.NewReader(data))
		if err == nil && len(ps)*RecordSize+tail != len(data) {
			t.Fatalf("%d records and a tail of %d from %d bytes", len(ps), tail, len(data))
		}
		var out bytes.Buffer
		if err := WriteRecords(&out, ps); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data[:out.Len()]) {
			t.Fatal("records do not write back as read")
		}
		for i := range ps {
			m := ps[i].Mirrored()
			m.each(func(chess.Piece, chess.Square) {})
			_ = ps[i].Target(0.25, 130)
		}
	})
}

// FuzzReadEPD: any text reads without a panic, and each position read is
// a legal record.
func FuzzReadEPD(f *testing.F) {
	f.Add("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce 30; c9 \"1-0\";\n# game 7 1-0\n")
	f.Add("# game \n# game x\n#\n")
	f.Add("8/8/8/8/8/8/8/8 w - - ce 1; c9 \"1/2-1/2\";\n")
	f.Fuzz(func(t *testing.T, text string) {
		ps, _, _ := ReadEPD(strings.NewReader(text))
		for i := range ps {
			if err := ps[i].check(); err != nil {
				t.Fatalf("position %d: %v", i, err)
			}
		}
	})
}

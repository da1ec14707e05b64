package train

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/eval"
	"github.com/squall-chess/squall/engine/nnue"
)

// randomPositions plays random games and labels each position with the
// hand-crafted evaluation as its "search score" and a result that agrees
// with its sign.
func randomPositions(n int, seed uint64) []Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	ev := eval.New()
	var out []Position
	for game := 0; len(out) < n; game++ {
		p := chess.NewPosition()
		var u chess.Undo
		for ply := 0; ply < 80 && len(out) < n; ply++ {
			var ml chess.MoveList
			if p.GenerateLegal(&ml); ml.N == 0 {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.N)], &u)
			if p.InCheck() {
				continue
			}
			score := ev.Evaluate(p)
			white := score
			if p.SideToMove() == chess.Black {
				white = -white
			}
			result := 0.5
			if white > 200 {
				result = 1
			} else if white < -200 {
				result = 0
			}
			out = append(out, Pack(p, score, result, game))
		}
	}
	return out
}

// TestGradientCheck compares lossGrad's gradient with central finite
// differences of the loss, for every kind of parameter.
func TestGradientCheck(t *testing.T) {
	m := NewModel(4, 8, 11)
	for i := range m.B {
		m.B[i] = 0.3 // most activations inside (0, 1), where SCReLU has a slope
	}
	// Positions from several output buckets: every 10th of random games'.
	var ps []Position
	buckets := map[int]bool{}
	for i, r := range randomPositions(60, 3) {
		if i%10 == 9 {
			ps = append(ps, r)
			_, n, b := m.forward(&r, m.newScratch())
			buckets[b] = n > 0
		}
	}
	if len(buckets) < 2 {
		t.Fatalf("the positions are all of one output bucket: %v", buckets)
	}
	const scale float64 = 160 // a WDL scale other than nnue.Scale, so its factor is checked too
	loss := func() float64 {
		s := m.newScratch()
		sum := 0.0
		for i := range ps {
			y, _, _ := m.forward(&ps[i], s)
			d := sigmoid(y*nnue.Scale/scale) - ps[i].Target(0.3, scale)
			sum += d * d
		}
		return sum
	}
	s := m.newScratch()
	for i := range ps {
		m.lossGrad(&ps[i], ps[i].Target(0.3, scale), nnue.Scale/scale, s)
	}
	// Parameters worth checking: every bias and output weight, and the
	// feature weights of the first position's pieces.
	var idx []int
	for i := range m.OB {
		idx = append(idx, len(m.P)-m.K+i)
	}
	for i := range m.B {
		idx = append(idx, nnue.Inputs*m.H+i)
	}
	for i := range m.O {
		idx = append(idx, nnue.Inputs*m.H+m.H+i)
	}
	var fs [2][32]int
	for _, f := range fs[0][:features(&ps[0], &fs)] {
		idx = append(idx, f*m.H, f*m.H+3)
	}
	const eps = 1e-6
	checked := 0
	for _, i := range idx {
		old := m.P[i]
		m.P[i] = old + eps
		up := loss()
		m.P[i] = old - eps
		down := loss()
		m.P[i] = old
		num := (up - down) / (2 * eps)
		got := s.grad.P[i]
		if math.Abs(num-got) > 1e-6+1e-4*math.Abs(num) {
			t.Errorf("parameter %d: gradient %.10f, finite difference %.10f", i, got, num)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d parameters checked", checked)
	}
}

// TestLossFalls is a tiny end-to-end run: a few thousand positions, a
// narrow model; the held-out loss falls well below where it started.
func TestLossFalls(t *testing.T) {
	ps := randomPositions(4000, 5)
	train, valid := Split(ps, 10)
	tr := New(NewModel(32, 1, 1), Options{Lambda: 0.1, LR: 0.01, BatchSize: 128, Threads: 2, Seed: 1})
	before := tr.Loss(valid)
	for range 15 {
		tr.Epoch(train)
	}
	after := tr.Loss(valid)
	t.Logf("held-out loss %.5f -> %.5f", before, after)
	if after > 0.6*before {
		t.Errorf("held-out loss %.5f -> %.5f: not learning", before, after)
	}
}

// TestDeterministicAndResumable: the same seed gives the same weights, and
// a run stopped after an epoch and resumed from its checkpoint (of a model
// with output buckets) ends where the whole run does.
func TestDeterministicAndResumable(t *testing.T) {
	ps := randomPositions(1500, 9)
	opt := Options{Lambda: 0.5, WDLScale: 150, Mirror: true, LR: 0.005, BatchSize: 100, Threads: 3, Seed: 42}
	whole := New(NewModel(8, 4, 2), opt)
	whole.Epoch(ps)
	whole.Epoch(ps)
	again := New(NewModel(8, 4, 2), opt)
	again.Epoch(ps)
	var ck bytes.Buffer
	if err := again.Save(&ck); err != nil {
		t.Fatal(err)
	}
	resumed, err := Load(&ck)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Model.K != 4 {
		t.Fatalf("a checkpoint of 4 output buckets resumed with %d", resumed.Model.K)
	}
	resumed.Epoch(ps)
	if !slices.Equal(whole.Model.P, resumed.Model.P) {
		t.Error("a resumed run differs from the whole run")
	}
	other := New(NewModel(8, 4, 2), Options{Lambda: 0.5, LR: 0.005, BatchSize: 100, Threads: 3, Seed: 43})
	other.Epoch(ps)
	other.Epoch(ps)
	if slices.Equal(whole.Model.P, other.Model.P) {
		t.Error("another seed gave the same weights")
	}
}

// TestQuantiseBest: the scale QuantiseBest picks is the one of least
// held-out loss, and it is finer than Quantise's when the one output weight
// that forces the coarse scale is one whose clipping costs nothing (a
// hidden unit that never activates): r5-256b8 had one such weight past
// 127/128 and lost half its last training's gain to rounding at 64.
func TestQuantiseBest(t *testing.T) {
	m := NewModel(32, 1, 6)
	rng := rand.New(rand.NewPCG(6, 6))
	for i := range m.O {
		m.O[i] = (rng.Float64() - 0.5) * 0.6
	}
	const dead = 5 // a unit that never activates: no feature weight, no bias
	for f := 0; f < nnue.Inputs; f++ {
		m.W[f*m.H+dead] = 0
	}
	m.B[dead] = 0
	m.O[dead] = 1.5
	ps := randomPositions(400, 6)
	tr := New(m, Options{Lambda: 0.5, LR: 0.01, BatchSize: 64, Threads: 2, Seed: 6, WDLScale: 400})
	coarse, err := m.Quantise()
	if err != nil {
		t.Fatal(err)
	}
	if coarse.QB != nnue.QB {
		t.Fatalf("Quantise chose %d with a weight of 1.5, want %d", coarse.QB, nnue.QB)
	}
	loss := func(n *nnue.Net) float64 { return New(FromNet(n), tr.Opt).Loss(ps) }
	best, bestLoss, err := tr.QuantiseBest(ps)
	if err != nil {
		t.Fatal(err)
	}
	if best.QB <= nnue.QB || bestLoss >= loss(coarse) {
		t.Errorf("QuantiseBest chose %d (loss %.8f), Quantise %d (loss %.8f): want a finer scale and a lower loss", best.QB, bestLoss, coarse.QB, loss(coarse))
	}
	if got := loss(best); got != bestLoss {
		t.Errorf("QuantiseBest reports loss %.8f, its network's is %.8f", bestLoss, got)
	}
	for qb := int32(nnue.QB); qb <= nnue.MaxQB; qb *= 2 {
		n, l, err := tr.QuantiseAt(qb, ps)
		if err != nil {
			t.Fatal(err)
		}
		if n.QB != qb || l < bestLoss {
			t.Errorf("QuantiseAt(%d): scale %d, loss %.8f below the best's %.8f", qb, n.QB, l, bestLoss)
		}
		if got := loss(n); got != l {
			t.Errorf("QuantiseAt(%d) reports loss %.8f, its network's is %.8f", qb, l, got)
		}
	}
	for _, qb := range []int32{nnue.QB / 2, 100, 2 * nnue.MaxQB} {
		if _, err := m.QuantiseAt(qb); err == nil {
			t.Errorf("QuantiseAt(%d) took a scale outside the powers of two from %d to %d", qb, nnue.QB, nnue.MaxQB)
		}
	}
}

// TestQuantise: the int16 network scores as the float model does once the
// model's weights lie on the quantisation grid (then only the integer
// divisions of Evaluate differ); and quantising does put them there.
func TestQuantise(t *testing.T) {
	m := NewModel(256, 1, 4)
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range m.O {
		m.O[i] = (rng.Float64() - 0.5) * 0.9
	}
	for i := range m.B {
		m.B[i] = 0.2
	}
	m.OB[0] = 0.05
	snap := func(xs []float64, scale float64) {
		for i, x := range xs {
			xs[i] = math.Round(x*scale) / scale
		}
	}
	snap(m.W, nnue.QA)
	snap(m.B, nnue.QA)
	const qb = 256 // the output weights, within ±0.45, quantise at 256 (127/256 ≈ 0.496)
	snap(m.O, qb)
	snap(m.P[len(m.P)-1:], nnue.QA*qb)
	net, err := m.Quantise()
	if err != nil {
		t.Fatal(err)
	}
	if net.QB != qb {
		t.Errorf("output weights within ±0.45 quantised at %d, want %d", net.QB, qb)
	}
	for _, r := range randomPositions(200, 8) {
		var acc nnue.Accumulator
		p := r.position(t)
		net.Refresh(&acc, p)
		got, want := float64(net.Evaluate(&acc, p)), m.Eval(&r)
		if math.Abs(got-want) > 1.05 { // the two truncating divisions: < 1 cp + 400/(QA·QB)
			t.Errorf("%s: quantised %v, model %.2f", p.FEN(), got, want)
		}
	}
	if _, err := NewModel(8, 1, 1).Quantise(); err == nil {
		t.Error("an 8-wide model quantised")
	}
}

// position rebuilds r as a chess position (for tests).
func (r *Position) position(t *testing.T) *chess.Position {
	t.Helper()
	var board [64]byte
	r.each(func(pc chess.Piece, sq chess.Square) { board[sq] = pc.Letter() })
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := range 8 {
			c := board[rank*8+file]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	side := " w"
	if r.STM == 1 {
		side = " b"
	}
	p, err := chess.ParseFEN(b.String() + side + " - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRecords(t *testing.T) {
	ps := randomPositions(300, 12)
	var b bytes.Buffer
	if err := WriteRecords(&b, ps); err != nil {
		t.Fatal(err)
	}
	if b.Len() != RecordSize*len(ps) {
		t.Fatalf("%d bytes for %d records", b.Len(), len(ps))
	}
	got, tail, err := ReadRecords(bytes.NewReader(append(b.Bytes(), 1, 2, 3)))
	if err != nil || tail != 3 || !slices.Equal(got, ps) {
		t.Fatalf("read back: %d records, tail %d, %v", len(got), tail, err)
	}
	bad := bytes.Clone(b.Bytes())
	bad[RecordSize*5+8] = 0xff // piece code 15 in record 5
	if _, _, err := ReadRecords(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "record 5") {
		t.Errorf("a damaged record: %v", err)
	}
}

func TestReadEPD(t *testing.T) {
	in := `r1b1kb1r/ppqpnp1p/n5p1/2p1p3/2P1P2P/1P1P4/P3NPP1/RNBQKB1R w KQkq - ce 39; c9 "1/2-1/2";
r1b1kb1r/ppqpnp1p/n5p1/2p1p3/2P1P2P/1PNP4/P3NPP1/R1BQKB1R b KQkq - ce -46; c9 "1/2-1/2";
# game 7 1/2-1/2
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 "1-0";
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - ce 20; c9 "1-0";
# game 8 1-0
`
	ps, skipped, err := ReadEPD(strings.NewReader(in))
	if err != nil || len(ps) != 3 || skipped != 1 {
		t.Fatalf("%d positions, %d skipped, %v", len(ps), skipped, err)
	}
	if ps[0].Game != 7 || ps[1].Game != 7 || ps[2].Game != 8 || ps[1].Score != -46 || ps[1].STM != 1 || ps[2].Result != 2 {
		t.Errorf("records %+v", ps)
	}
	// White won, Black to move: the target from Black's view is a loss.
	r := Pack(chess.NewPosition(), 0, 1, 0)
	r.STM = 1
	if got := r.Target(1, 400); got != 0 {
		t.Errorf("a lost game from the loser's side: target %v", got)
	}
	if _, _, err := ReadEPD(strings.NewReader("not/a/fen w - - ce 1; c9 \"1-0\";\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("bad FEN: %v", err)
	}
}

// TestFromNet: the float model of a network quantises back to the same
// network, so training can go on from a network without losing it.
func TestFromNet(t *testing.T) {
	net, err := NewModel(256, 1, 9).Quantise()
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromNet(net).Quantise()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, net) {
		t.Error("FromNet then Quantise changed the network")
	}
}

// TestLRDrop: from the drop epoch on, Adam's steps are a tenth as long.
func TestLRDrop(t *testing.T) {
	ps := randomPositions(2000, 6)
	step := func(drop int) float64 {
		tr := New(NewModel(32, 1, 1), Options{Lambda: 0.1, LR: 0.01, LRDrop: drop, BatchSize: 128, Threads: 1, Seed: 1})
		tr.Epoch(ps)
		before := append([]float64(nil), tr.Model.P...)
		tr.Epoch(ps) // epoch 1: dropped when drop is 1
		d := 0.0
		for i, p := range tr.Model.P {
			d += math.Abs(p - before[i])
		}
		return d
	}
	full, dropped := step(0), step(1)
	if dropped > 0.2*full || dropped == 0 {
		t.Errorf("epoch 1 moved the weights %.4f with the drop, %.4f without", dropped, full)
	}
}

// TestQuantiseTolerance: a trained model (the kept network's weights,
// each moved off its grid by up to half a step, as training leaves them)
// scores, quantised, within 100 cp of the float model on every position
// and within 30 cp on average, over positions of random games whose scores
// average some 650 cp. Measured: mean 16.6 cp, worst 43 (its output
// weights quantise at 128, the finest that holds its largest; at a fixed
// 64, mean 23 cp, worst 66).
func TestQuantiseTolerance(t *testing.T) {
	data, err := os.ReadFile("../nets/round0.sqnn")
	if err != nil {
		t.Fatal(err)
	}
	kept, err := nnue.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	m := FromNet(kept)
	rng := rand.New(rand.NewPCG(9, 9))
	jitter := func(xs []float64, step float64) {
		for i := range xs {
			xs[i] += (rng.Float64() - 0.5) * 0.999 * step
		}
	}
	jitter(m.W, 1.0/nnue.QA)
	jitter(m.B, 1.0/nnue.QA)
	jitter(m.O, 1.0/float64(kept.QB))
	net, err := m.Quantise()
	if err != nil {
		t.Fatal(err)
	}
	var worst, sum, size, near float64
	nNear := 0
	positions := randomPositions(1000, 10)
	for _, r := range positions {
		var acc nnue.Accumulator
		p := r.position(t)
		net.Refresh(&acc, p)
		f := m.Eval(&r)
		d := math.Abs(float64(net.Evaluate(&acc, p)) - f)
		worst, sum, size = max(worst, d), sum+d, size+math.Abs(f)
		if math.Abs(f) < 150 {
			near, nNear = near+d, nNear+1
		}
	}
	n := float64(len(positions))
	t.Logf("quantised against float over %d positions (mean |score| %.0f cp): mean %.2f cp, worst %.2f cp; %d within 1.5 pawns: mean %.2f cp",
		len(positions), size/n, sum/n, worst, nNear, near/float64(max(nNear, 1)))
	if worst > 100 || sum/n > 30 {
		t.Errorf("quantised network off the float model by %.2f cp at worst, %.2f on average", worst, sum/n)
	}
}

// TestFitScale: results drawn from σ(score/k) for a known k are fitted
// back to about k, whatever the scores' spread; scores beyond ±2000 do
// not count.
func TestFitScale(t *testing.T) {
	for _, k := range []float64{120, 400} {
		rng := rand.New(rand.NewPCG(uint64(k), 3))
		ps := make([]Position, 20000)
		for i := range ps {
			score := rng.IntN(1201) - 600
			win := rng.Float64() < sigmoid(float64(score)/k)
			ps[i] = Position{Score: int16(score), Result: 0}
			if win {
				ps[i].Result = 2
			}
			if i%2 == 1 { // Black to move: the result is White's
				ps[i].STM = 1
				ps[i].Result = 2 - ps[i].Result
			}
		}
		// Mate-bound scores the losers reached anyway would pull the fit
		// up if they counted.
		for i := range 2000 {
			ps[i].Score, ps[i].Result, ps[i].STM = 3000, 0, 0
		}
		got := FitScale(ps)
		if math.Abs(got-k) > 0.1*k {
			t.Errorf("results drawn at scale %v: fitted %v", k, got)
		}
	}
}

// TestMirrored: a record's mirror image is the position with every piece
// moved to the other side of the board (file a <-> h), the rest the same,
// and mirroring twice gives the record back.
func TestMirrored(t *testing.T) {
	for _, r := range randomPositions(200, 21) {
		m := r.Mirrored()
		if m.Mirrored() != r {
			t.Fatalf("mirrored twice: %+v, want %+v", m.Mirrored(), r)
		}
		p, q := r.position(t), m.position(t)
		for sq := chess.Square(0); sq < 64; sq++ {
			if p.Piece(sq) != q.Piece(sq^7) {
				t.Fatalf("%s mirrored to %s: %v on %v, %v on %v", p.FEN(), q.FEN(), p.Piece(sq), sq, q.Piece(sq^7), sq^7)
			}
		}
		if m.Score != r.Score || m.Result != r.Result || m.STM != r.STM || m.Game != r.Game {
			t.Fatalf("mirrored %+v to %+v", r, m)
		}
	}
}

// TestWideBucketsEndToEnd: a model of 8 output buckets, trained on a few
// hundred positions of several buckets, quantised, written in the file
// format and read back by engine/nnue, scores as the float model does
// within the quantisation's error (its rounding moves each weight by up
// to half a step; the integer evaluation truncates twice).
func TestWideBucketsEndToEnd(t *testing.T) {
	ps := randomPositions(600, 31)
	tr := New(NewModel(32, 8, 5), Options{Lambda: 0.5, LR: 0.01, BatchSize: 64, Threads: 2, Seed: 5, WDLScale: 400})
	before := tr.Loss(ps)
	for range 4 {
		tr.Epoch(ps)
	}
	if after := tr.Loss(ps); after >= before {
		t.Errorf("training did not lower the loss: %.5f, then %.5f", before, after)
	}
	m := tr.Model
	q, err := m.Quantise()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := q.Write(&b); err != nil {
		t.Fatal(err)
	}
	net, err := nnue.Parse(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if net.Hidden != 32 || net.Buckets != 8 {
		t.Fatalf("read back %d wide with %d buckets", net.Hidden, net.Buckets)
	}
	var worst, sum float64
	used := map[int]bool{}
	for _, r := range ps {
		var acc nnue.Accumulator
		p := r.position(t)
		net.Refresh(&acc, p)
		used[nnue.OutputBucket(p.Occupied().Count(), net.Buckets)] = true
		d := math.Abs(float64(net.Evaluate(&acc, p)) - m.Eval(&r))
		worst, sum = max(worst, d), sum+d
	}
	t.Logf("%d buckets seen; quantised against float: mean %.2f cp, worst %.2f cp", len(used), sum/float64(len(ps)), worst)
	if len(used) < 3 {
		t.Errorf("the positions reached only %d buckets", len(used))
	}
	if worst > 30 || sum/float64(len(ps)) > 6 {
		t.Errorf("quantised network off the float model by %.2f cp at worst, %.2f on average", worst, sum/float64(len(ps)))
	}
}

// TestSplitBuckets: a model of one bucket split into 8 scores every
// position as before, and a model of several does not split.
func TestSplitBuckets(t *testing.T) {
	m := NewModel(16, 1, 3)
	m.OB[0] = 0.1
	s, err := m.SplitBuckets(8)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range randomPositions(300, 4) {
		if a, b := m.Eval(&r), s.Eval(&r); a != b {
			t.Fatalf("split model scores %v, the model %v", b, a)
		}
	}
	if _, err := s.SplitBuckets(2); err == nil {
		t.Error("a model of 8 buckets split")
	}
}

// TestWiden: a model widened from 16 to 48 hidden units scores every
// position exactly as before (its new units' output weights are zero),
// its quantised network as the narrow one's, and a step of training
// gives the new units a say: their output weights move off zero.
func TestWiden(t *testing.T) {
	m := NewModel(16, 4, 3)
	for i := range m.B {
		m.B[i] = 0.01 * float64(i%5)
	}
	m.OB[2] = 0.1
	w, err := m.Widen(48, 9)
	if err != nil {
		t.Fatal(err)
	}
	ps := randomPositions(300, 4)
	for _, r := range ps {
		if a, b := m.Eval(&r), w.Eval(&r); a != b {
			t.Fatalf("widened model scores %v, the model %v", b, a)
		}
	}
	qm, err := m.Quantise()
	if err != nil {
		t.Fatal(err)
	}
	qw, err := w.Quantise()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ps[:50] {
		p := r.position(t)
		var am, aw nnue.Accumulator
		qm.Refresh(&am, p)
		qw.Refresh(&aw, p)
		if a, b := qm.Evaluate(&am, p), qw.Evaluate(&aw, p); a != b {
			t.Fatalf("%s: widened network %d, the network %d", p.FEN(), b, a)
		}
	}
	tr := New(w, Options{LR: 0.001, BatchSize: 64, Threads: 1, Seed: 1, WDLScale: 130})
	tr.Epoch(ps)
	moved := 0
	for half := range 2 * w.K {
		for _, o := range w.O[half*48+16 : (half+1)*48] {
			if o != 0 {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Error("after an epoch every new unit's output weight is still zero")
	}
	if _, err := w.Widen(32, 1); err == nil {
		t.Error("a model 48 wide narrowed to 32")
	}
}

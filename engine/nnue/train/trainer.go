package train

import (
	"encoding/gob"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/squall-chess/squall/engine/nnue"
	"github.com/squall-chess/squall/internal/minimize"
)

// Options are the trainer's settings.
type Options struct {
	// Lambda is the weight of the game result in the target, 1 − Lambda
	// that of the search score (Position.Target): 0 learns the scores
	// alone, 1 the results alone.
	Lambda float64
	// WDLScale is the centipawns of one unit of the logistic: a score s
	// means a win probability of σ(s/WDLScale), for the search scores in
	// the target and the network's output alike (zero: 400). It belongs
	// to the data — how surely a search score of the engine that played
	// the games wins them (FitScale) — and a scale that does not match it
	// lets the result part of the target stretch or squeeze every score
	// the network learns, which the search's margins then misread.
	WDLScale float64
	// Mirror trains on each position or its left-right mirror image, one
	// of the two at random each epoch (Position.Mirrored): more data for
	// the same games, where data is what the network lacks.
	Mirror bool
	// LR is Adam's learning rate; Beta1, Beta2 and Epsilon its constants
	// (zero: 0.9, 0.999, 1e-8).
	LR, Beta1, Beta2, Epsilon float64
	// BatchSize positions per step; Threads workers per batch.
	BatchSize, Threads int
	// LRDrop, when positive, is the epoch from which the learning rate is
	// a tenth of LR: the usual last stretch at a small step, which settles
	// the weights the large step keeps moving around a minimum.
	LRDrop int
	// Seed orders each epoch's batches (epoch e shuffles with seed and e),
	// so a run resumed from a checkpoint goes on exactly as the whole run
	// would have.
	Seed uint64
}

func (o *Options) defaults() {
	if o.WDLScale == 0 {
		o.WDLScale = 400
	}
	if o.Beta1 == 0 {
		o.Beta1 = 0.9
	}
	if o.Beta2 == 0 {
		o.Beta2 = 0.999
	}
	if o.Epsilon == 0 {
		o.Epsilon = 1e-8
	}
	o.BatchSize = max(o.BatchSize, 1)
	o.Threads = max(o.Threads, 1)
}

// Trainer fits a Model with Adam. Its state — the model, the moments, the
// step and the epochs done — is what a checkpoint holds.
type Trainer struct {
	Model  *Model
	Opt    Options
	M, V   []float64 // Adam's first and second moments
	Step   int
	Epochs int // epochs completed

	workers []*scratch
}

// New returns a trainer for m.
func New(m *Model, opt Options) *Trainer {
	opt.defaults()
	return &Trainer{Model: m, Opt: opt, M: make([]float64, len(m.P)), V: make([]float64, len(m.P))}
}

func (t *Trainer) scratches() []*scratch {
	for len(t.workers) < t.Opt.Threads {
		t.workers = append(t.workers, t.Model.newScratch())
	}
	return t.workers[:t.Opt.Threads]
}

// outScale is c of the loss (σ(y·c) − target)²: the model's output y in
// centipawns (nnue.Scale) over the WDL scale, one place for the gradient
// and Loss alike.
func (o *Options) outScale() float64 { return nnue.Scale / o.WDLScale }

// gradient sums the loss gradient of batch into each worker's buffer and
// returns the summed loss.
func (t *Trainer) gradient(batch []Position) float64 {
	return t.each(batch, func(s *scratch) { clear(s.grad.P) }, func(r *Position, s *scratch) float64 {
		return t.Model.lossGrad(r, r.Target(t.Opt.Lambda, t.Opt.WDLScale), t.Opt.outScale(), s)
	})
}

// each runs fn on every position of data with the workers, each on a fixed
// contiguous part after start, and returns the sum of fn's values. Parts
// are added in worker order, so the result does not depend on scheduling.
func (t *Trainer) each(data []Position, start func(*scratch), fn func(*Position, *scratch) float64) float64 {
	ws := t.scratches()
	lo := func(k int) int { return len(data) * k / len(ws) }
	sums := make([]float64, len(ws))
	var wg sync.WaitGroup
	for k, s := range ws {
		wg.Go(func() {
			start(s)
			for i := lo(k); i < lo(k+1); i++ {
				sums[k] += fn(&data[i], s)
			}
		})
	}
	wg.Wait()
	total := 0.0
	for _, v := range sums {
		total += v
	}
	return total
}

// Epoch trains on every position once, in batches, and returns the mean
// training loss.
func (t *Trainer) Epoch(data []Position) float64 {
	order := make([]int, len(data))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(t.Opt.Seed, uint64(t.Epochs)))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	batch := make([]Position, 0, t.Opt.BatchSize)
	total := 0.0
	for start := 0; start < len(order); start += t.Opt.BatchSize {
		batch = batch[:0]
		for _, i := range order[start:min(start+t.Opt.BatchSize, len(order))] {
			p := data[i]
			if t.Opt.Mirror && rng.IntN(2) == 1 {
				p = p.Mirrored()
			}
			batch = append(batch, p)
		}
		total += t.gradient(batch)
		t.adam(len(batch))
	}
	t.Epochs++
	return total / float64(max(len(data), 1))
}

// adam takes one step along the workers' summed gradient, averaged over a
// batch of n, and clips the parameters (clipWeight).
func (t *Trainer) adam(n int) {
	o := t.Opt
	t.Step++
	c1 := 1 - math.Pow(o.Beta1, float64(t.Step))
	c2 := 1 - math.Pow(o.Beta2, float64(t.Step))
	ws := t.workers[:o.Threads]
	p := t.Model.P
	lr := t.rate()
	for i := range p {
		g := 0.0
		for _, w := range ws {
			g += w.grad.P[i]
		}
		g /= float64(n)
		t.M[i] = o.Beta1*t.M[i] + (1-o.Beta1)*g
		t.V[i] = o.Beta2*t.V[i] + (1-o.Beta2)*g*g
		p[i] -= lr * (t.M[i] / c1) / (math.Sqrt(t.V[i]/c2) + o.Epsilon)
		p[i] = max(min(p[i], clipWeight), -clipWeight)
	}
}

// rate is the learning rate of the epoch under way.
func (t *Trainer) rate() float64 {
	if t.Opt.LRDrop > 0 && t.Epochs >= t.Opt.LRDrop {
		return t.Opt.LR / 10
	}
	return t.Opt.LR
}

// Loss is the mean loss over data, without training.
func (t *Trainer) Loss(data []Position) float64 {
	sum := t.each(data, func(*scratch) {}, func(r *Position, s *scratch) float64 {
		y, _, _ := t.Model.forward(r, s)
		d := sigmoid(y*t.Opt.outScale()) - r.Target(t.Opt.Lambda, t.Opt.WDLScale)
		return d * d
	})
	return sum / float64(max(len(data), 1))
}

// QuantiseAt quantises the model at output scale qb (Model.QuantiseAt)
// and reports the network's loss on valid: the quantised weights scored in
// float, so the loss is their rounding's and clipping's, without the
// integer evaluation's truncations.
func (t *Trainer) QuantiseAt(qb int32, valid []Position) (*nnue.Net, float64, error) {
	n, err := t.Model.QuantiseAt(qb)
	if err != nil {
		return nil, 0, err
	}
	return n, New(FromNet(n), t.Opt).Loss(valid), nil
}

// QuantiseBest quantises the model at each output scale from nnue.QB to
// nnue.MaxQB (QuantiseAt) and returns the network whose held-out loss on
// valid is least, with that loss: finer scales round the output weights
// less and clip the largest, and only the data can say which costs more.
func (t *Trainer) QuantiseBest(valid []Position) (*nnue.Net, float64, error) {
	var best *nnue.Net
	bestLoss := math.Inf(1)
	for qb := int32(nnue.QB); qb <= nnue.MaxQB; qb *= 2 {
		n, loss, err := t.QuantiseAt(qb, valid)
		if err != nil {
			return nil, 0, err
		}
		if loss < bestLoss {
			best, bestLoss = n, loss
		}
	}
	return best, bestLoss, nil
}

// checkpoint is a Trainer's saved state.
type checkpoint struct {
	H             int
	K             int // output buckets; 0 in a checkpoint from before them, which had 1
	P, M, V       []float64
	Step, Epochs  int
	Opt           Options
	FormatVersion int
}

const checkpointVersion = 1

// Save writes the trainer's state (gob).
func (t *Trainer) Save(w io.Writer) error {
	return gob.NewEncoder(w).Encode(checkpoint{H: t.Model.H, K: t.Model.K, P: t.Model.P, M: t.M, V: t.V, Step: t.Step, Epochs: t.Epochs, Opt: t.Opt, FormatVersion: checkpointVersion})
}

// Load reads a state written by Save.
func Load(r io.Reader) (*Trainer, error) {
	var c checkpoint
	if err := gob.NewDecoder(r).Decode(&c); err != nil {
		return nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	if c.FormatVersion != checkpointVersion {
		return nil, fmt.Errorf("train: checkpoint version %d, this build reads %d", c.FormatVersion, checkpointVersion)
	}
	m := newShape(c.H, max(c.K, 1))
	if len(c.P) != len(m.P) || len(c.M) != len(m.P) || len(c.V) != len(m.P) {
		return nil, fmt.Errorf("train: checkpoint of a %d-wide model of %d buckets holds %d parameters, want %d", c.H, m.K, len(c.P), len(m.P))
	}
	copy(m.P, c.P)
	t := New(m, c.Opt)
	copy(t.M, c.M)
	copy(t.V, c.V)
	t.Step, t.Epochs = c.Step, c.Epochs
	return t, nil
}

// FitScale returns the WDLScale at which the search scores of ps best
// predict their games' results (least squares of σ(score/scale) against
// the result, Texel's K): the data's own exchange rate between
// centipawns and winning chances. Scores beyond ±2000 (won positions on
// their way to mate) are left out.
func FitScale(ps []Position) float64 {
	loss := func(scale float64) float64 {
		sum := 0.0
		for i := range ps {
			r := &ps[i]
			if r.Score > 2000 || r.Score < -2000 {
				continue
			}
			d := sigmoid(float64(r.Score)/scale) - r.Target(1, scale)
			sum += d * d
		}
		return sum
	}
	// On log(scale), over 25 … 2000 centipawns: the loss has one minimum
	// there, and a relative precision suits a scale.
	x := minimize.Golden(func(x float64) float64 { return loss(math.Exp(x)) }, math.Log(25), math.Log(2000), 1e-6)
	return math.Round(math.Exp(x))
}

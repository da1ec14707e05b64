package tune

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"

	"github.com/squall-chess/squall/engine/eval"
	"github.com/squall-chess/squall/internal/minimize"
)

// Params are the weights as floats: [2i] middlegame, [2i+1] endgame of
// weight i.
type Params []float64

// FromWeights converts packed weights to Params.
func FromWeights(w *eval.Weights) Params {
	p := make(Params, 2*eval.NumWeights)
	for i, s := range w {
		p[2*i], p[2*i+1] = float64(s.MG()), float64(s.EG())
	}
	return p
}

// Weights rounds Params back to packed weights.
func (p Params) Weights() eval.Weights {
	var w eval.Weights
	for i := range w {
		w[i] = eval.S(int(math.Round(p[2*i])), int(math.Round(p[2*i+1])))
	}
	return w
}

// linear is the evaluation of s (White's view, centipawns) under p, the
// same formula as eval.Taper without integer rounding.
func (d *Dataset) linear(s *Sample, p Params) float64 {
	var mg, eg float64
	for j := s.Start; j < s.Start+int32(s.N); j++ {
		i, c := int(d.Index[j]), float64(d.Coef[j])
		mg += c * p[2*i]
		eg += c * p[2*i+1]
	}
	ph := float64(s.Phase)
	return (mg*ph + eg*(eval.MaxPhase-ph)) * float64(s.Scale) / (eval.MaxPhase * eval.ScaleNormal)
}

// sigmoid maps a centipawn score to an expected result with scale k.
func sigmoid(k, cp float64) float64 { return 1 / (1 + math.Pow(10, -k*cp/400)) }

// parallel runs fn over chunks of samples on every core and sums the
// float results.
func parallel(samples []Sample, fn func(part []Sample) float64) float64 {
	n := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0.0
	size := (len(samples) + n - 1) / n
	for lo := 0; lo < len(samples); lo += size {
		part := samples[lo:min(lo+size, len(samples))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := fn(part)
			mu.Lock()
			total += v
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}

// MSE is the mean squared error between sigmoid(k·eval) and the results.
func (d *Dataset) MSE(samples []Sample, p Params, k float64) float64 {
	if len(samples) == 0 {
		return 0
	}
	sum := parallel(samples, func(part []Sample) float64 {
		e := 0.0
		for i := range part {
			r := sigmoid(k, d.linear(&part[i], p)) - float64(part[i].Result)
			e += r * r
		}
		return e
	})
	return sum / float64(len(samples))
}

// FitK finds the sigmoid scale that best explains the results with the
// weights as they are (golden-section search over [0.1, 3]).
func (d *Dataset) FitK(samples []Sample, p Params) float64 {
	return minimize.Golden(func(k float64) float64 { return d.MSE(samples, p, k) }, 0.1, 3, 1e-4)
}

// gradient returns dMSE/dp over samples.
func (d *Dataset) gradient(samples []Sample, p Params, k float64) []float64 {
	n := runtime.GOMAXPROCS(0)
	grads := make([][]float64, n)
	var wg sync.WaitGroup
	size := (len(samples) + n - 1) / n
	for w := 0; w < n; w++ {
		lo, hi := w*size, min((w+1)*size, len(samples))
		if lo >= hi {
			continue
		}
		grads[w] = make([]float64, len(p))
		wg.Add(1)
		go func(g []float64, part []Sample) {
			defer wg.Done()
			for i := range part {
				s := &part[i]
				sg := sigmoid(k, d.linear(s, p))
				// d(σ−r)²/dE = 2(σ−r)·σ(1−σ)·k·ln10/400
				base := 2 * (sg - float64(s.Result)) * sg * (1 - sg) * k * math.Ln10 / 400
				base *= float64(s.Scale) / (eval.MaxPhase * eval.ScaleNormal)
				gm, ge := base*float64(s.Phase), base*float64(eval.MaxPhase-int(s.Phase))
				for j := s.Start; j < s.Start+int32(s.N); j++ {
					i, c := int(d.Index[j]), float64(d.Coef[j])
					g[2*i] += c * gm
					g[2*i+1] += c * ge
				}
			}
		}(grads[w], samples[lo:hi])
	}
	wg.Wait()
	out := make([]float64, len(p))
	for _, g := range grads {
		for i, v := range g {
			out[i] += v
		}
	}
	for i := range out {
		out[i] /= float64(len(samples))
	}
	return out
}

// Options control a tuning run.
type Options struct {
	Epochs int     // full-batch Adam steps
	Rate   float64 // Adam step size in centipawns
	// L2 pulls each weight towards its starting value with the penalty
	// L2·(w − w₀)², so that rarely seen features are not fitted to noise.
	L2 float64
	// Lambda is the weight of the game result in each training target;
	// the rest is the win probability of the search score (ce) where the
	// data has one: λ·result + (1−λ)·σ(K·ce). Results alone say little per
	// position (one label for a whole game); search scores say something
	// about each. 0 means 1: results only. Validation always uses results.
	Lambda float64
	Log    io.Writer
	// Every reports progress every so many epochs (0: never).
	Every int
}

// Result summarises a run.
type Result struct {
	K                       float64
	Train, Valid            int // positions in each set
	TrainBefore, TrainAfter float64
	ValidBefore, ValidAfter float64
}

// Tune fits K, then minimises the training error with Adam (full batch),
// starting from p, which it updates. The validation error is reported, not
// used, so it measures generalisation honestly.
func (d *Dataset) Tune(p Params, opt Options) Result {
	train, valid := d.Split()
	k := d.FitK(train, p)
	if l := opt.Lambda; l > 0 && l < 1 {
		for i := range train {
			if s := &train[i]; s.CE != NoCE {
				s.Result = float32(l*float64(s.Result) + (1-l)*sigmoid(k, float64(s.CE)))
			}
		}
	}
	r := Result{K: k, Train: len(train), Valid: len(valid), TrainBefore: d.MSE(train, p, k), ValidBefore: d.MSE(valid, p, k)}
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, "K = %.4f; %d training, %d validation positions; MSE train %.6f valid %.6f\n",
			k, len(train), len(valid), r.TrainBefore, r.ValidBefore)
	}
	start := append(Params(nil), p...)
	m := make([]float64, len(p))
	v := make([]float64, len(p))
	const b1, b2, eps = 0.9, 0.999, 1e-8
	for t := 1; t <= opt.Epochs; t++ {
		g := d.gradient(train, p, k)
		if opt.L2 > 0 {
			for i := range g {
				g[i] += 2 * opt.L2 * (p[i] - start[i])
			}
		}
		c1, c2 := 1-math.Pow(b1, float64(t)), 1-math.Pow(b2, float64(t))
		for i := range p {
			m[i] = b1*m[i] + (1-b1)*g[i]
			v[i] = b2*v[i] + (1-b2)*g[i]*g[i]
			p[i] -= opt.Rate * (m[i] / c1) / (math.Sqrt(v[i]/c2) + eps)
		}
		if opt.Log != nil && opt.Every > 0 && t%opt.Every == 0 {
			fmt.Fprintf(opt.Log, "epoch %d: MSE train %.6f valid %.6f\n", t, d.MSE(train, p, k), d.MSE(valid, p, k))
		}
	}
	r.TrainAfter, r.ValidAfter = d.MSE(train, p, k), d.MSE(valid, p, k)
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, "after %d epochs: MSE train %.6f valid %.6f\n", opt.Epochs, r.TrainAfter, r.ValidAfter)
	}
	return r
}

// Package minimize finds the minimum of a function of one variable.
package minimize

import "math"

// Golden returns the x in [a, b] where f, which must have a single
// minimum there, is least, to within tol: golden-section search, one
// evaluation of f per step (f here is a loss over a whole data set, so
// evaluations are what cost). Both Texel's K (engine/tune) and the
// network's WDL scale (engine/nnue/train) are fitted with it.
func Golden(f func(float64) float64, a, b, tol float64) float64 {
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	for b-a > tol {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	return (a + b) / 2
}

package fit

import "math"

// minimize2 minimizes f over the plane by Nelder and Mead's simplex from
// x0, with a first simplex of side step, until the values at the three
// corners agree to tol (relative) or maxEvals evaluations are spent. It is
// deterministic and does not allocate per step.
func minimize2(f func(x, y float64) float64, x0, y0, step, tol float64, maxEvals int) (x, y, fx float64) {
	type point struct{ x, y, f float64 }
	p := [3]point{{x0, y0, 0}, {x0 + step, y0, 0}, {x0, y0 + step, 0}}
	for i := range p {
		p[i].f = f(p[i].x, p[i].y)
	}
	evals := 3
	order := func() {
		if p[1].f < p[0].f {
			p[0], p[1] = p[1], p[0]
		}
		if p[2].f < p[1].f {
			p[1], p[2] = p[2], p[1]
		}
		if p[1].f < p[0].f {
			p[0], p[1] = p[1], p[0]
		}
	}
	at := func(cx, cy, t float64) point {
		q := point{x: cx + t*(p[2].x-cx), y: cy + t*(p[2].y-cy)}
		q.f = f(q.x, q.y)
		evals++
		return q
	}
	for evals < maxEvals {
		order()
		if math.Abs(p[2].f-p[0].f) <= tol*(math.Abs(p[0].f)+tol) {
			break
		}
		cx, cy := (p[0].x+p[1].x)/2, (p[0].y+p[1].y)/2
		r := at(cx, cy, -1)
		switch {
		case r.f < p[0].f:
			if e := at(cx, cy, -2); e.f < r.f {
				p[2] = e
			} else {
				p[2] = r
			}
		case r.f < p[1].f:
			p[2] = r
		default:
			var c point
			if r.f < p[2].f {
				c = at(cx, cy, -0.5) // outside contraction
			} else {
				c = at(cx, cy, 0.5) // inside contraction
			}
			if c.f < math.Min(r.f, p[2].f) {
				p[2] = c
				continue
			}
			for i := 1; i < 3; i++ { // shrink towards the best
				p[i].x = p[0].x + (p[i].x-p[0].x)/2
				p[i].y = p[0].y + (p[i].y-p[0].y)/2
				p[i].f = f(p[i].x, p[i].y)
				evals++
			}
		}
	}
	order()
	return p[0].x, p[0].y, p[0].f
}

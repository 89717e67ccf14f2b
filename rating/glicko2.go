// Package rating computes Glicko-2 ratings (Mark E. Glickman, "Example of
// the Glicko-2 system", Boston University, 2013): a rating, its deviation
// (RD) and a volatility per player, updated once per rating period from
// every result of that period against the opponents' ratings as they
// stood before it. It is pure arithmetic; the league decides what a
// period is.
package rating

import "math"

// Scale converts between the Glicko scale (1500 ± 350) and Glicko-2's
// internal one (0 ± 2.01...), step 2 of the paper.
const Scale = 173.7178

// Defaults of a new player and of the system (the paper's step 1).
const (
	DefaultRating     = 1500
	DefaultRD         = 350
	DefaultVolatility = 0.06
	DefaultTau        = 0.5
	// Epsilon is the convergence tolerance of the volatility iteration.
	Epsilon = 0.000001
)

// Rating is a player's standing on the Glicko scale.
type Rating struct {
	R   float64 `json:"rating"`
	RD  float64 `json:"rd"`
	Vol float64 `json:"volatility"`
}

// New is an unrated player.
func New() Rating { return Rating{R: DefaultRating, RD: DefaultRD, Vol: DefaultVolatility} }

// Result is one game of a period: the opponent's rating before the
// period, and the score, 1 for a win, 0.5 for a tie, 0 for a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// System holds the system constant τ, which bounds how fast volatility
// changes; the zero System uses DefaultTau.
type System struct {
	Tau float64
}

func (s System) tau() float64 {
	if s.Tau <= 0 {
		return DefaultTau
	}
	return s.Tau
}

// g and e are the paper's g(φ) and E(μ, μj, φj).
func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func e(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Update returns r after a period with the given results. A period
// without games returns r unchanged: the league adds no deviation for
// inactivity.
func (s System) Update(r Rating, results []Result) Rating {
	if len(results) == 0 {
		return r
	}
	// Step 2: the Glicko-2 scale.
	mu, phi, sigma := (r.R-DefaultRating)/Scale, r.RD/Scale, r.Vol
	// Steps 3 and 4: the estimated variance v from the game outcomes and
	// the estimated improvement Δ.
	var vInv, sum float64
	for _, res := range results {
		muj, phij := (res.Opponent.R-DefaultRating)/Scale, res.Opponent.RD/Scale
		gj, ej := g(phij), e(mu, muj, phij)
		vInv += gj * gj * ej * (1 - ej)
		sum += gj * (res.Score - ej)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility.
	sigma = s.volatility(phi, sigma, v, delta)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	return Rating{R: Scale*muNew + DefaultRating, RD: Scale * phiNew, Vol: sigma}
}

// volatility solves step 5 of the paper by its Illinois iteration.
func (s System) volatility(phi, sigma, v, delta float64) float64 {
	tau := s.tau()
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	// Bracket the root between A and B.
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > Epsilon {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

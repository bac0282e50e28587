package episode

import "fmt"

// Rate is a count out of a number of episodes, with its 95 % Wilson
// interval.
type Rate struct {
	Count    int      `json:"count"`
	Of       int      `json:"of"`
	Rate     float64  `json:"rate"`
	Interval Interval `json:"interval"`
}

// NewRate is k out of n.
func NewRate(k, n int) Rate {
	r := Rate{Count: k, Of: n, Interval: Wilson(k, n)}
	if n > 0 {
		r.Rate = float64(k) / float64(n)
	}
	return r
}

// String is "k/n p% [low, high]".
func (r Rate) String() string {
	return fmt.Sprintf("%d/%d %.1f%% [%.1f, %.1f]", r.Count, r.Of, 100*r.Rate, 100*r.Interval.Low, 100*r.Interval.High)
}

func formatP(p float64) string {
	if p < 0.0001 {
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.4f", p)
}

package metrics

import "math"

// Confidence is the confidence level of the intervals across
// replications.
const Confidence = 0.95

// Interval is the mean of N values with the half-width of its
// [Confidence] interval, Student's t with N - 1 degrees of freedom:
// Half = t(0.975, N-1) s / sqrt(N), s the sample standard deviation.
// Half is NaN for fewer than 2 values.
type Interval struct {
	N          int
	Mean, Half float64
}

// Excludes0 reports whether the interval lies wholly above or below 0.
func (iv Interval) Excludes0() bool {
	return !math.IsNaN(iv.Half) && (iv.Mean-iv.Half > 0 || iv.Mean+iv.Half < 0)
}

// MeanInterval returns the mean of vals (NaNs left out) and its
// [Confidence] interval's half-width.
func MeanInterval(vals []float64) Interval {
	var iv Interval
	var sum float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			iv.N++
			sum += v
		}
	}
	iv.Mean, iv.Half = math.NaN(), math.NaN()
	if iv.N == 0 {
		return iv
	}
	iv.Mean = sum / float64(iv.N)
	if iv.N < 2 {
		return iv
	}
	var ss float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			ss += (v - iv.Mean) * (v - iv.Mean)
		}
	}
	sd := math.Sqrt(ss / float64(iv.N-1))
	iv.Half = TQuantile(1-(1-Confidence)/2, iv.N-1) * sd / math.Sqrt(float64(iv.N))
	return iv
}

// TQuantile returns the p-quantile (0 < p < 1) of Student's t
// distribution with df >= 1 degrees of freedom, by bisection on its CDF
// (the regularized incomplete beta function) to 1e-12.
func TQuantile(p float64, df int) float64 {
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -TQuantile(1-p, df)
	}
	lo, hi := 0.0, 1.0
	for tCDF(hi, df) < p {
		hi *= 2
	}
	for hi-lo > 1e-12*math.Max(1, hi) {
		mid := (lo + hi) / 2
		if tCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tCDF is Student's t CDF at t >= 0: 1 - I_x(df/2, 1/2) / 2 with x =
// df / (df + t^2).
func tCDF(t float64, df int) float64 {
	v := float64(df)
	return 1 - 0.5*betaInc(v/2, 0.5, v/(v+t*t))
}

// betaInc is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (Lentz's method).
func betaInc(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x > (a+1)/(a+b+2) {
		return 1 - betaInc(b, a, 1-x)
	}
	const tiny = 1e-300
	f, c, d := 1.0, 1.0, 0.0
	for i := 0; i <= 400; i++ {
		m := float64(i / 2)
		var num float64
		switch {
		case i == 0:
			num = 1
		case i%2 == 0:
			num = m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
		default:
			num = -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
		}
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		d = 1 / d
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		cd := c * d
		f *= cd
		if math.Abs(1-cd) < 1e-15 {
			break
		}
	}
	return front * (f - 1) / a
}

// PairedDifference returns the interval of the differences a[i] - b[i]
// over the replications both have (paired: replication i of every setting
// ran on the same jobs).
func PairedDifference(a, b []float64) Interval {
	var d []float64
	for i := range min(len(a), len(b)) {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			d = append(d, a[i]-b[i])
		}
	}
	return MeanInterval(d)
}

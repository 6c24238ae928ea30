package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// The range of GenerateOverlap's separations, in standard deviations of
// its blobs. Two equal isotropic Gaussians have a density with two modes
// along the line between their centres when the centres are more than 2
// standard deviations apart; at OverlapMinSep the valley between them is
// 87 % of the peaks (barely two clusters), at OverlapMaxSep 9 % (two
// clusters any density method should find). The range is that of the
// question "are these touching blobs one cluster or two", set by the
// mixture's geometry, not by any method's results.
const (
	OverlapMinSep = 2.5
	OverlapMaxSep = 5.0
)

// OverlapMaxCentres is the largest number of centres of GenerateOverlap.
const OverlapMaxCentres = 10

// GenerateOverlap returns n points in 2-D of k ∈ [2, OverlapMaxCentres]
// isotropic Gaussian blobs of standard deviation 1 at controlled
// separations: overlapping blobs as scikit-learn's make_blobs draws them,
// but with the distance between neighbours bounded. The first centre is
// the origin; each further centre is drawn beside a uniformly chosen
// earlier one, at a distance uniform in [OverlapMinSep, OverlapMaxSep] in
// a uniform direction, and redrawn until it is at least OverlapMinSep from
// every earlier centre. So every blob has a neighbour at most
// OverlapMaxSep away and none closer than OverlapMinSep. The classes hold
// n/k points each (largest remainders first), labels 0..k−1, features
// "x1" and "x2", shuffled as by [Generate]. The data are a deterministic
// function of n, k and seed (the centres are drawn first, from the same
// source). It returns an error if k is out of range or n < k.
func GenerateOverlap(n, k int, seed uint64) (*Dataset, error) {
	if k < 2 || k > OverlapMaxCentres {
		return nil, fmt.Errorf("dataset: GenerateOverlap: %d centres; need 2 to %d", k, OverlapMaxCentres)
	}
	if n < k {
		return nil, fmt.Errorf("dataset: GenerateOverlap: %d points for %d centres; need n ≥ k", n, k)
	}
	if err := checkValues("GenerateOverlap", n, 2); err != nil {
		return nil, err
	}
	sh := shape{dim: 2, weights: ones(k), start: func(rnd *rand.Rand) pointFunc {
		c := overlapCentres(rnd, k)
		return func(rnd *rand.Rand, k, _, _ int, p []float64) {
			p[0] = c[k][0] + rnd.NormFloat64()
			p[1] = c[k][1] + rnd.NormFloat64()
		}
	}}
	data := make([]float64, 0, 2*n)
	labels := make([]int, 0, n)
	rnd := draw(sh, split(n, sh.weights), seed, func(_ int, p []float64, k int) {
		data = append(data, p...)
		labels = append(labels, k)
	})
	rnd.Shuffle(n, func(i, j int) {
		data[2*i], data[2*j] = data[2*j], data[2*i]
		data[2*i+1], data[2*j+1] = data[2*j+1], data[2*i+1]
		labels[i], labels[j] = labels[j], labels[i]
	})
	classes := make([]string, k)
	for c := range classes {
		classes[c] = strconv.Itoa(c)
	}
	return &Dataset{X: mat.NewDense(n, 2, data), Labels: labels, Names: names(2), Classes: classes}, nil
}

// overlapCentres draws the k centres of GenerateOverlap.
func overlapCentres(rnd *rand.Rand, k int) [][2]float64 {
	c := [][2]float64{{0, 0}}
	for len(c) < k {
		b := c[rnd.IntN(len(c))]
		r := OverlapMinSep + (OverlapMaxSep-OverlapMinSep)*rnd.Float64()
		t := 2 * math.Pi * rnd.Float64()
		p := [2]float64{b[0] + r*math.Cos(t), b[1] + r*math.Sin(t)}
		ok := true
		for _, q := range c {
			ok = ok && math.Hypot(p[0]-q[0], p[1]-q[1]) >= OverlapMinSep
		}
		if ok {
			c = append(c, p)
		}
	}
	return c
}

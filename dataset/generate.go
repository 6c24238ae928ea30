package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Kind names a synthetic data set made by [Generate]. The four kinds of
// [Kinds] are the 2-D sets of the paper's figures and of svclust demo; each
// has well separated classes, so that a good clusterer can recover them
// (adjusted Rand index near 1). [AllKinds] adds twelve more shapes, on
// which, with those four, the automatic defaults of package svclust were
// calibrated: rings, blobs of unequal spread or size, stretched blobs,
// spiral arms, many blobs, 8 dimensions, uniform noise, a line, a cube and
// many touching blobs.
// Not all of them are easy: some test where a density clusterer breaks.
type Kind string

// The synthetic data sets of the figures.
const (
	// Moons is two interleaving half circles as made by scikit-learn's
	// make_moons: class 0 is (cos t, sin t) and class 1 is
	// (1 − cos t, 0.5 − sin t), for t evenly spaced on [0, π]. So both are
	// halves of unit circles, the second turned upside down and centred on
	// (1, 0.5). Gaussian noise with standard deviation 0.08 is added to both
	// coordinates. Class 0 gets the extra point when n is odd.
	Moons Kind = "moons"

	// Nested is the paper's "two outside rings and one Gaussian
	// distribution at center" (its Fig. 1): class 0 is a Gaussian blob at
	// the origin with standard deviation 0.3, and classes 1 and 2 are rings
	// of radius 2 and 4 whose radii have Gaussian noise with standard
	// deviation 0.15. The points are split 1:2:4 between the blob and the
	// rings, so that both rings have the same number of points per unit
	// length.
	Nested Kind = "nested"

	// Gauss3 is three isotropic Gaussians with standard deviation 0.5,
	// centred on the corners (0, 0), (4, 0) and (2, 2√3) of an equilateral
	// triangle with side 4.
	Gauss3 Kind = "gauss3"

	// Gauss4 is four isotropic Gaussians with standard deviation 0.5,
	// centred on the corners (0, 0), (4, 0), (4, 4) and (0, 4) of a square
	// with side 4.
	Gauss4 Kind = "gauss4"
)

// The further shapes of the calibration. Classes have equal numbers of
// points unless said otherwise.
const (
	// Circles is two concentric noisy circles as made by scikit-learn's
	// make_circles(factor=0.5, noise=0.05): class 0 has radius 1 and
	// class 1 radius 0.5, each point at an angle uniform on [0, 2π), with
	// Gaussian noise of standard deviation 0.05 added to both coordinates.
	Circles Kind = "circles"

	// Varied is three isotropic Gaussians of different spread, as in
	// scikit-learn's "varied" blobs: standard deviations 1, 2.5 and 0.5
	// about the centres (−5, −5), (0, 5) and (5, −2).
	Varied Kind = "varied"

	// Aniso is three stretched Gaussians: the points c + (u, v) with u, v
	// standard Gaussian about the centres c = (−4, 2), (0, 0) and (4, −3),
	// mapped by the linear map (a, b) ↦ (0.6a − 0.64b, −0.41a + 0.85b),
	// which maps the centres as well.
	Aniso Kind = "aniso"

	// Spirals3 is three spiral arms about the origin: a point of class k
	// is t(cos θ, sin θ) with t uniform on [0.5, 3.5] and θ = 2t + 2πk/3,
	// plus Gaussian noise of standard deviation 0.08 in both coordinates.
	// Along a ray the arms are π/3 apart.
	Spirals3 Kind = "spirals3"

	// Grid25 is 25 isotropic Gaussians with standard deviation 0.5 on a
	// 5 × 5 grid with spacing 4: class k is centred on (4(k mod 5), 4⌊k/5⌋).
	Grid25 Kind = "grid25"

	// HD8 is five Gaussians in 8 dimensions with standard deviation 1 in
	// each coordinate. Their centres are drawn first, from the same seed,
	// with coordinates Gaussian with standard deviation 4, so they differ
	// from seed to seed and two may happen to lie close.
	HD8 Kind = "hd8"

	// NoisyBlobs is four isotropic Gaussians with standard deviation 0.8
	// centred on (−3, −3), (3, 3), (−3, 3) and (3, −3) (classes 0–3, 22.5 %
	// of the points each), and uniform noise on the square [−7, 7]² as
	// class 4 (10 % of the points).
	NoisyBlobs Kind = "noisyblobs"

	// Unbal is two Gaussians of unequal size and spread, 10 : 1: class 0
	// is standard Gaussian about the origin, and class 1 has standard
	// deviation 0.5 about (4, 0).
	Unbal Kind = "unbal"

	// Line3 is three tight blobs on a line: class k is (5k + 0.01u, 0)
	// with u standard Gaussian, so the second feature is constant and the
	// structure is one-dimensional.
	Line3 Kind = "line3"

	// Cube is uniform in the unit cube [0, 1)³, in 3 dimensions, as one
	// class: data without clusters.
	Cube Kind = "cube"

	// Touch20 is twenty isotropic Gaussians with standard deviation 1
	// whose centres are drawn first, from the same seed, uniformly in the
	// square [0, 24]² and at least 4 apart (redrawn until they are), so
	// that neighbouring clusters touch: many clusters of a few per cent of
	// the points each, with shallow valleys between them, as in the UEF
	// sets D31 and R15.
	Touch20 Kind = "touch20"

	// Birch is 100 isotropic Gaussians with standard deviation 1 on a
	// 10 × 10 grid with spacing 4√2: class k is centred on
	// 4√2·(k mod 10, ⌊k/10⌋). It is the layout of the data set DS1 of the
	// BIRCH paper (Zhang, Ramakrishnan, Livny, SIGMOD 1996: grid, K = 100,
	// radius √2, k_g = 4), from which the benchmark set Birch1 is drawn:
	// many clusters of 1 % of the points each, whose neighbours touch
	// lightly (the valley between two is 2.8 standard deviations from
	// either centre).
	Birch Kind = "birch"
)

// Kinds returns the four kinds of the paper's figures, which svclust demo
// shows: Moons, Nested, Gauss3 and Gauss4.
func Kinds() []Kind {
	return []Kind{Moons, Nested, Gauss3, Gauss4}
}

// AllKinds returns every kind accepted by [Generate]: those of [Kinds]
// followed by the twelve further shapes on which the automatic defaults of
// package svclust were calibrated.
func AllKinds() []Kind {
	return append(Kinds(), Circles, Varied, Aniso, Spirals3, Grid25, HD8, NoisyBlobs, Unbal, Line3, Cube, Touch20, Birch)
}

// ParseKind returns the Kind with the given name, ignoring case.
func ParseKind(s string) (Kind, error) {
	var names []string
	for _, k := range AllKinds() {
		if strings.EqualFold(s, string(k)) {
			return k, nil
		}
		names = append(names, string(k))
	}
	return "", fmt.Errorf("dataset: unknown kind %q (valid: %s)", s, strings.Join(names, ", "))
}

// pointFunc writes point i of the m points of class k to p, whose length
// is the dimension of the shape.
type pointFunc func(rnd *rand.Rand, k, i, m int, p []float64)

// shape describes how Generate draws one kind.
type shape struct {
	// dim is the number of features.
	dim int
	// weights gives the relative number of points in each class.
	weights []float64
	// point draws a point.
	point pointFunc
	// start, if not nil, replaces point: it draws what the points share
	// (HD8's centres) from the source before any point and returns the
	// function that draws the points.
	start func(rnd *rand.Rand) pointFunc
}

// ones returns k equal weights.
func ones(k int) []float64 {
	w := make([]float64, k)
	for i := range w {
		w[i] = 1
	}
	return w
}

// blobs returns the shape of 2-D isotropic Gaussians with standard
// deviation sd[k] about centres[k], with equal numbers of points.
func blobs(sd []float64, centres [][2]float64) shape {
	return shape{
		dim:     2,
		weights: ones(len(centres)),
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			p[0] = centres[k][0] + sd[k]*rnd.NormFloat64()
			p[1] = centres[k][1] + sd[k]*rnd.NormFloat64()
		},
	}
}

// gaussians returns the shape of isotropic Gaussians with standard
// deviation sd at the given centres, with equal numbers of points.
func gaussians(sd float64, centres ...[2]float64) shape {
	sds := make([]float64, len(centres))
	for k := range sds {
		sds[k] = sd
	}
	return blobs(sds, centres)
}

// grid returns the centres of a side × side grid with the given spacing,
// class k at spacing·(k mod side, ⌊k/side⌋): Grid25 and Birch.
func grid(side int, spacing float64) [][2]float64 {
	c := make([][2]float64, side*side)
	for k := range c {
		c[k] = [2]float64{spacing * float64(k%side), spacing * float64(k/side)}
	}
	return c
}

var shapes = map[Kind]shape{
	Moons: {
		dim:     2,
		weights: []float64{1, 1},
		point: func(rnd *rand.Rand, k, i, m int, p []float64) {
			// Noise standard deviation as in make_moons(noise=0.08).
			const sd = 0.08
			t := 0.0
			if m > 1 {
				t = math.Pi * float64(i) / float64(m-1)
			}
			x, y := math.Cos(t), math.Sin(t)
			if k == 1 {
				x, y = 1-x, 0.5-y
			}
			p[0], p[1] = x+sd*rnd.NormFloat64(), y+sd*rnd.NormFloat64()
		},
	},
	Nested: {
		dim:     2,
		weights: []float64{1, 2, 4},
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			const (
				blobSD = 0.3
				ringSD = 0.15
			)
			if k == 0 {
				p[0], p[1] = blobSD*rnd.NormFloat64(), blobSD*rnd.NormFloat64()
				return
			}
			radius := 2*float64(k) + ringSD*rnd.NormFloat64()
			t := 2 * math.Pi * rnd.Float64()
			p[0], p[1] = radius*math.Cos(t), radius*math.Sin(t)
		},
	},
	Gauss3: gaussians(0.5, [2]float64{0, 0}, [2]float64{4, 0}, [2]float64{2, 2 * math.Sqrt(3)}),
	Gauss4: gaussians(0.5, [2]float64{0, 0}, [2]float64{4, 0}, [2]float64{4, 4}, [2]float64{0, 4}),

	Circles: {
		dim:     2,
		weights: []float64{1, 1},
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			// make_circles(factor=0.5, noise=0.05).
			const sd = 0.05
			radius := 1.0
			if k == 1 {
				radius = 0.5
			}
			t := 2 * math.Pi * rnd.Float64()
			p[0] = radius*math.Cos(t) + sd*rnd.NormFloat64()
			p[1] = radius*math.Sin(t) + sd*rnd.NormFloat64()
		},
	},
	Varied: blobs([]float64{1, 2.5, 0.5}, [][2]float64{{-5, -5}, {0, 5}, {5, -2}}),
	Aniso: {
		dim:     2,
		weights: ones(3),
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			c := [3][2]float64{{-4, 2}, {0, 0}, {4, -3}}[k]
			a, b := c[0]+rnd.NormFloat64(), c[1]+rnd.NormFloat64()
			p[0], p[1] = 0.6*a-0.64*b, -0.41*a+0.85*b
		},
	},
	Spirals3: {
		dim:     2,
		weights: ones(3),
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			const sd = 0.08
			t := 0.5 + 3*rnd.Float64()
			theta := 2*t + 2*math.Pi*float64(k)/3
			p[0] = t*math.Cos(theta) + sd*rnd.NormFloat64()
			p[1] = t*math.Sin(theta) + sd*rnd.NormFloat64()
		},
	},
	Grid25: gaussians(0.5, grid(5, 4)...),
	Birch:  gaussians(1, grid(10, 4*math.Sqrt2)...),
	HD8: {
		dim:     8,
		weights: ones(5),
		start: func(rnd *rand.Rand) pointFunc {
			const spread = 4
			centres := make([][8]float64, 5)
			for k := range centres {
				for j := range centres[k] {
					centres[k][j] = spread * rnd.NormFloat64()
				}
			}
			return func(rnd *rand.Rand, k, _, _ int, p []float64) {
				for j := range p {
					p[j] = centres[k][j] + rnd.NormFloat64()
				}
			}
		},
	},
	Touch20: {
		dim:     2,
		weights: ones(20),
		start: func(rnd *rand.Rand) pointFunc {
			const (
				side = 24
				sep  = 4
			)
			var c [][2]float64
			for len(c) < 20 {
				p := [2]float64{side * rnd.Float64(), side * rnd.Float64()}
				ok := true
				for _, q := range c {
					if math.Hypot(p[0]-q[0], p[1]-q[1]) < sep {
						ok = false
						break
					}
				}
				if ok {
					c = append(c, p)
				}
			}
			return func(rnd *rand.Rand, k, _, _ int, p []float64) {
				p[0] = c[k][0] + rnd.NormFloat64()
				p[1] = c[k][1] + rnd.NormFloat64()
			}
		},
	},
	NoisyBlobs: {
		dim:     2,
		weights: []float64{9, 9, 9, 9, 4},
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			const (
				sd   = 0.8
				half = 7 // the noise fills [−half, half]²
			)
			if k == 4 {
				p[0] = 2*half*rnd.Float64() - half
				p[1] = 2*half*rnd.Float64() - half
				return
			}
			c := [4][2]float64{{-3, -3}, {3, 3}, {-3, 3}, {3, -3}}[k]
			p[0], p[1] = c[0]+sd*rnd.NormFloat64(), c[1]+sd*rnd.NormFloat64()
		},
	},
	Unbal: {
		dim:     2,
		weights: []float64{10, 1},
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			if k == 0 {
				p[0], p[1] = rnd.NormFloat64(), rnd.NormFloat64()
				return
			}
			p[0], p[1] = 4+0.5*rnd.NormFloat64(), 0.5*rnd.NormFloat64()
		},
	},
	Line3: {
		dim:     2,
		weights: ones(3),
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			p[0], p[1] = 5*float64(k)+0.01*rnd.NormFloat64(), 0
		},
	},
	Cube: {
		dim:     3,
		weights: []float64{1},
		point: func(rnd *rand.Rand, _, _, _ int, p []float64) {
			for j := range p {
				p[j] = rnd.Float64()
			}
		},
	},
}

// names returns the feature names x1..xd.
func names(d int) []string {
	s := make([]string, d)
	for j := range s {
		s[j] = "x" + strconv.Itoa(j+1)
	}
	return s
}

// Generate returns n points of the synthetic data set kind, one of
// [AllKinds], with features named "x1".."xd" (d is 2 except for HD8, 8, and
// Cube, 3) and labels 0..k-1 whose Classes are "0".."k-1". The classes get
// n in proportion to the weights described at each [Kind] (largest
// remainders first, earlier classes winning ties), so a class may be empty
// when n is small. The points are shuffled so that the labels do not come
// in blocks.
//
// The data are a deterministic function of kind, n and seed, drawn from
// rand.New(rand.NewPCG(seed, seed)). Generate returns an error if n < 1 or
// kind is unknown; case is ignored in kind, as in [ParseKind]. It returns
// an error naming n and its bound, before allocating anything by n, if the
// n·d feature values would be more than [MaxGenerateValues] (n above 2³⁰
// for the 2-D kinds); [GenerateCSV] writes larger sets without holding
// them.
func Generate(kind Kind, n int, seed uint64) (*Dataset, error) {
	sh, counts, err := plan(kind, n)
	if err != nil {
		return nil, err
	}
	return drawn("Generate", sh, counts, n, seed)
}

// drawn returns the n points of the shape sh, counts[k] of class k, drawn
// from seed and shuffled, as [Generate] describes, or the error of
// checkValues (fn names the caller).
func drawn(fn string, sh shape, counts []int, n int, seed uint64) (*Dataset, error) {
	d := sh.dim
	if err := checkValues(fn, n, d); err != nil {
		return nil, err
	}
	data := make([]float64, 0, d*n)
	labels := make([]int, 0, n)
	rnd := draw(sh, counts, seed, func(_ int, p []float64, k int) {
		data = append(data, p...)
		labels = append(labels, k)
	})
	rnd.Shuffle(n, func(i, j int) {
		for c := range d {
			data[d*i+c], data[d*j+c] = data[d*j+c], data[d*i+c]
		}
		labels[i], labels[j] = labels[j], labels[i]
	})

	classes := make([]string, len(counts))
	for k := range classes {
		classes[k] = strconv.Itoa(k)
	}
	return &Dataset{
		X:       mat.NewDense(n, d, data),
		Labels:  labels,
		Names:   names(d),
		Classes: classes,
	}, nil
}

// MaxGenerateValues is the largest number of feature values, n·d for n
// points of d features, that [Generate] and [GenerateHigh] hold: 2³¹
// float64s, 16 GiB (with 8 bytes more per point for its label), about what
// one machine can hold. It is far beyond the sets fitted in memory (the
// sample a streamed run of the command line keeps is at most 10⁷ rows),
// and makes a mistyped n an error naming n rather than a crash of the
// process for lack of memory, or a makeslice panic when n·d overflows.
// The command svclust gen writes through [GenerateCSV] instead, which
// holds 4 bytes a point and takes up to 2³¹ − 1 points; gen bounds -n at
// 10⁹, below that.
const MaxGenerateValues = 1 << 31

// checkValues returns the error of fn (Generate or GenerateHigh) for n
// points of d features if n·d > MaxGenerateValues, else nil; it does not
// overflow for any n and d ≥ 1.
func checkValues(fn string, n, d int) error {
	if limit := MaxGenerateValues / d; n > limit {
		return fmt.Errorf("dataset: n = %d is too large: %s holds at most %d points of %d features (MaxGenerateValues = 2³¹ values, 16 GiB)", n, fn, limit, d)
	}
	return nil
}

// plan returns the shape of kind and the number of points of each class
// among n, or the error of Generate for a bad kind or n.
func plan(kind Kind, n int) (shape, []int, error) {
	kind, err := ParseKind(string(kind))
	if err != nil {
		return shape{}, nil, err
	}
	if n < 1 {
		return shape{}, nil, fmt.Errorf("dataset: cannot generate %d points; need n ≥ 1", n)
	}
	sh := shapes[kind]
	return sh, split(n, sh.weights), nil
}

// draw calls keep(g, p, k) for point g of class k, drawing the points of
// shape sh class by class (counts[k] of class k) from a new source seeded by
// seed, and returns the source, for Generate's shuffle. The slice p is
// reused from call to call.
func draw(sh shape, counts []int, seed uint64, keep func(g int, p []float64, k int)) *rand.Rand {
	rnd := rand.New(rand.NewPCG(seed, seed))
	point := sh.point
	if sh.start != nil {
		point = sh.start(rnd)
	}
	p := make([]float64, sh.dim)
	g := 0
	for k, m := range counts {
		for i := range m {
			point(rnd, k, i, m, p)
			keep(g, p, k)
			g++
		}
	}
	return rnd
}

// split divides n into parts proportional to weights by the largest
// remainder method, giving ties to earlier parts.
func split(n int, weights []float64) []int {
	var total float64
	for _, w := range weights {
		total += w
	}
	counts := make([]int, len(weights))
	rem := make([]float64, len(weights))
	left := n
	for k, w := range weights {
		q := float64(n) * w / total
		counts[k] = int(q)
		rem[k] = q - float64(counts[k])
		left -= counts[k]
	}
	for ; left > 0; left-- {
		best := 0
		for k := range rem {
			if rem[k] > rem[best] {
				best = k
			}
		}
		counts[best]++
		rem[best] = -1
	}
	return counts
}

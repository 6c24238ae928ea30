package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Kind names a synthetic 2-D data set made by [Generate]. Every kind has
// well separated classes, so that a good clusterer can recover them (adjusted
// Rand index near 1).
type Kind string

// The synthetic data sets.
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

// Kinds returns all kinds accepted by [Generate].
func Kinds() []Kind {
	return []Kind{Moons, Nested, Gauss3, Gauss4}
}

// ParseKind returns the Kind with the given name, ignoring case.
func ParseKind(s string) (Kind, error) {
	var names []string
	for _, k := range Kinds() {
		if strings.EqualFold(s, string(k)) {
			return k, nil
		}
		names = append(names, string(k))
	}
	return "", fmt.Errorf("dataset: unknown kind %q (valid: %s)", s, strings.Join(names, ", "))
}

// shape describes how Generate draws one kind.
type shape struct {
	// weights gives the relative number of points in each class.
	weights []float64
	// point returns point i of the m points of class k.
	point func(rnd *rand.Rand, k, i, m int) (x, y float64)
}

// gaussians returns the shape of isotropic Gaussians with standard
// deviation sd at the given centres, with equal numbers of points.
func gaussians(sd float64, centres ...[2]float64) shape {
	w := make([]float64, len(centres))
	for k := range w {
		w[k] = 1
	}
	return shape{
		weights: w,
		point: func(rnd *rand.Rand, k, _, _ int) (float64, float64) {
			return centres[k][0] + sd*rnd.NormFloat64(), centres[k][1] + sd*rnd.NormFloat64()
		},
	}
}

var shapes = map[Kind]shape{
	Moons: {
		weights: []float64{1, 1},
		point: func(rnd *rand.Rand, k, i, m int) (float64, float64) {
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
			return x + sd*rnd.NormFloat64(), y + sd*rnd.NormFloat64()
		},
	},
	Nested: {
		weights: []float64{1, 2, 4},
		point: func(rnd *rand.Rand, k, _, _ int) (float64, float64) {
			const (
				blobSD = 0.3
				ringSD = 0.15
			)
			if k == 0 {
				return blobSD * rnd.NormFloat64(), blobSD * rnd.NormFloat64()
			}
			radius := 2*float64(k) + ringSD*rnd.NormFloat64()
			t := 2 * math.Pi * rnd.Float64()
			return radius * math.Cos(t), radius * math.Sin(t)
		},
	},
	Gauss3: gaussians(0.5, [2]float64{0, 0}, [2]float64{4, 0}, [2]float64{2, 2 * math.Sqrt(3)}),
	Gauss4: gaussians(0.5, [2]float64{0, 0}, [2]float64{4, 0}, [2]float64{4, 4}, [2]float64{0, 4}),
}

// Generate returns n points of the synthetic data set kind, with features
// named "x1" and "x2" and labels 0..k-1 whose Classes are "0".."k-1". The
// classes get n in proportion to the weights described at each [Kind]
// (largest remainders first, earlier classes winning ties), so a class may
// be empty when n is small. The points are shuffled so that the labels do
// not come in blocks.
//
// The data are a deterministic function of kind, n and seed, drawn from
// rand.New(rand.NewPCG(seed, seed)). Generate returns an error if n < 1 or
// kind is unknown; case is ignored in kind, as in [ParseKind].
func Generate(kind Kind, n int, seed uint64) (*Dataset, error) {
	sh, counts, err := plan(kind, n)
	if err != nil {
		return nil, err
	}
	data := make([]float64, 0, 2*n)
	labels := make([]int, 0, n)
	rnd := draw(sh, counts, seed, func(_ int, x, y float64, k int) {
		data = append(data, x, y)
		labels = append(labels, k)
	})
	rnd.Shuffle(n, func(i, j int) {
		data[2*i], data[2*j] = data[2*j], data[2*i]
		data[2*i+1], data[2*j+1] = data[2*j+1], data[2*i+1]
		labels[i], labels[j] = labels[j], labels[i]
	})

	classes := make([]string, len(counts))
	for k := range classes {
		classes[k] = strconv.Itoa(k)
	}
	return &Dataset{
		X:       mat.NewDense(n, 2, data),
		Labels:  labels,
		Names:   []string{"x1", "x2"},
		Classes: classes,
	}, nil
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

// draw calls keep(g, x, y, k) for point g of class k, drawing the points of
// shape sh class by class (counts[k] of class k) from a new source seeded by
// seed, and returns the source, for Generate's shuffle.
func draw(sh shape, counts []int, seed uint64, keep func(g int, x, y float64, k int)) *rand.Rand {
	rnd := rand.New(rand.NewPCG(seed, seed))
	g := 0
	for k, m := range counts {
		for i := range m {
			x, y := sh.point(rnd, k, i, m)
			keep(g, x, y, k)
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

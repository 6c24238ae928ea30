package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// HighKind names a high-dimensional mixture of [GenerateHigh]: a family
// letter and the dimension, such as "t32".
//
//   - g: four isotropic Gaussians of standard deviation 1 whose centres
//     are 4 apart pairwise (a regular simplex in a random subspace):
//     along the line between two centres the classes overlap as two unit
//     Gaussians 4 apart;
//   - o: the same with centres 3 apart (more overlap, a shallower dip);
//   - t: four multivariate Student-t clusters (ν = 3, scale 1), centres 5
//     apart: heavy tails;
//   - m: three noisy circles of radius 1, each in a random 2-plane, centres
//     3 apart, noise of norm about 0.25 (standard deviation 0.25/√d per
//     coordinate): clusters on one-dimensional manifolds embedded in d
//     dimensions.
type HighKind string

// HighKinds returns the high-dimensional kinds the defaults are calibrated
// on: each family in 8, 32 and 128 dimensions.
func HighKinds() []HighKind {
	var ks []HighKind
	for _, f := range "gotm" {
		for _, d := range []int{8, 32, 128} {
			ks = append(ks, HighKind(string(f)+strconv.Itoa(d)))
		}
	}
	return ks
}

// GenerateHigh returns n points of the high-dimensional kind, class i%k for
// row i (k = 4, or 3 for the circles), every random direction and point
// drawn from seed. It returns an error for n < 1, an unknown family, a
// dimension below 4 or above [MaxColumns] (the widest set [Read] accepts),
// or n·d above [MaxGenerateValues], before allocating anything by n or d.
func GenerateHigh(kind HighKind, n int, seed uint64) (*Dataset, error) {
	s := string(kind)
	if len(s) < 2 {
		return nil, fmt.Errorf("dataset: unknown high-dimensional kind %q", s)
	}
	fam := s[0]
	d, err := strconv.Atoi(s[1:])
	sep := map[byte]float64{'g': 4, 'o': 3, 't': 5, 'm': 3}[fam]
	if err != nil || sep == 0 || d < 4 {
		return nil, fmt.Errorf("dataset: unknown high-dimensional kind %q (want g, o, t or m and a dimension ≥ 4)", s)
	}
	if d > MaxColumns {
		return nil, fmt.Errorf("dataset: high-dimensional kind %q: dimension %s is too large, at most %d (MaxColumns)", s, s[1:], MaxColumns)
	}
	if n < 1 {
		return nil, fmt.Errorf("dataset: n = %d, must be ≥ 1", n)
	}
	if err := checkValues("GenerateHigh", n, d); err != nil {
		return nil, err
	}
	rnd := rand.New(rand.NewPCG(seed, seed^0x5bd1e995))
	k := 4
	if fam == 'm' {
		k = 3
	}
	// Orthonormal directions by Gram–Schmidt of Gaussian vectors: k for
	// the centres and 2k for the circles' planes, reused cyclically when
	// d is smaller.
	nd := min(d, 3*k+1)
	dirs := make([][]float64, nd)
	for a := range dirs {
		v := make([]float64, d)
		for j := range v {
			v[j] = rnd.NormFloat64()
		}
		for _, u := range dirs[:a] {
			var dot float64
			for j := range v {
				dot += v[j] * u[j]
			}
			for j := range v {
				v[j] -= dot * u[j]
			}
		}
		var nrm float64
		for _, x := range v {
			nrm += x * x
		}
		nrm = math.Sqrt(nrm)
		for j := range v {
			v[j] /= nrm
		}
		dirs[a] = v
	}
	dir := func(a int) []float64 { return dirs[a%nd] }
	data := make([]float64, 0, n*d)
	labels := make([]int, 0, n)
	p := make([]float64, d)
	for i := range n {
		c := i % k
		for j := range p {
			p[j] = sep / math.Sqrt2 * dir(c)[j]
		}
		switch fam {
		case 'g', 'o':
			for j := range p {
				p[j] += rnd.NormFloat64()
			}
		case 't':
			// t₃ = Z/√(χ²₃/3), one scale for the whole vector.
			var chi float64
			for range 3 {
				z := rnd.NormFloat64()
				chi += z * z
			}
			sc := 1 / math.Sqrt(chi/3)
			for j := range p {
				p[j] += sc * rnd.NormFloat64()
			}
		case 'm':
			th := 2 * math.Pi * rnd.Float64()
			u, w := dir(k+2*c), dir(k+2*c+1)
			for j := range p {
				p[j] += math.Cos(th)*u[j] + math.Sin(th)*w[j] + 0.25/math.Sqrt(float64(d))*rnd.NormFloat64()
			}
		}
		data = append(data, p...)
		labels = append(labels, c)
	}
	classes := make([]string, k)
	for c := range classes {
		classes[c] = strconv.Itoa(c)
	}
	return &Dataset{X: mat.NewDense(n, d, data), Labels: labels, Names: names(d), Classes: classes}, nil
}

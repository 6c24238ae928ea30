package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestEachPart: with and without the index of the support vectors,
// EachPart gives EachOwner's f and owner to the bit, and parts that sum to
// f + 1 (to the rounding of f = sum − 1, 1e-12·(1 + sum)) and equal to
// those of a full pass (Parts); LogParts gives their logarithms
// where no term underflows, and finite values where every one does.
func TestEachPart(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const d, b, k = 2, 400, 3
	sv, alpha := clusteredSVs(r, b, d)
	group := make([]int, b)
	for j := range group {
		group[j] = j % 5 % k // the 5 centres in 3 groups
	}
	f := &Field{SV: sv, Alpha: alpha, Gamma: 200, D: d}
	n := 500
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, 4*r.Float64())
		}
	}
	x.Set(n-1, 0, 1e6) // far: every term underflows
	for _, terms := range []*Terms{nil, NewTermsOf(f)} {
		wantF := make([]float64, n)
		wantO := make([]int32, n)
		f.EachOwner(x, terms, 2, nil, func(i int, fx float64, o int32) { wantF[i], wantO[i] = fx, o })
		// EachDist: the same f and owner, and the squared distances
		// the terms came from (nil with the index).
		f.EachDist(x, terms, 2, nil, func(i int, xi []float64, total float64, o int32, d2 []float64) {
			if fx := total - 1; math.Float64bits(fx) != math.Float64bits(wantF[i]) || o != wantO[i] {
				t.Fatalf("EachDist, terms %v row %d: f %v owner %d, EachOwner %v %d", terms != nil, i, fx, o, wantF[i], wantO[i])
			}
			if (d2 == nil) != (terms != nil) || d2 != nil && !slices.Equal(d2, SqDistRowTo(nil, xi, sv)) {
				t.Fatalf("EachDist, terms %v row %d: squared distances %v", terms != nil, i, d2 != nil)
			}
		})
		row, top, logPart, parts := make([]float64, b), make([]float64, k), make([]float64, k), make([]float64, k)
		f.EachPart(x, terms, group, k, 1, nil, func(i int, xi []float64, total float64, o int32, part []float64) {
			fx := total - 1 // as EachOwner forms f
			if math.Float64bits(fx) != math.Float64bits(wantF[i]) || o != wantO[i] {
				t.Fatalf("terms %v row %d: f %v owner %d, EachOwner %v %d", terms != nil, i, fx, o, wantF[i], wantO[i])
			}
			var sum float64
			for _, p := range part {
				sum += p
			}
			if math.Abs(sum-(fx+1)) > 1e-12*(1+sum) { // f = sum − 1 rounds to 2⁻⁵³ absolute
				t.Fatalf("terms %v row %d: parts sum to %v, f + 1 = %v", terms != nil, i, sum, fx+1)
			}
			f.LogParts(logPart, row, top, xi, group)
			f.Parts(parts, row, xi, group)
			for c := range k {
				// The index leaves out terms below e⁻⁴⁰ of the largest.
				if math.Abs(part[c]-parts[c]) > 1e-12*(1+sum) {
					t.Fatalf("terms %v row %d group %d: part %v, full pass %v", terms != nil, i, c, part[c], parts[c])
				}
				switch {
				case parts[c] > 1e-300:
					if math.Abs(logPart[c]-math.Log(parts[c])) > 1e-9 {
						t.Fatalf("row %d group %d: LogParts %v, log of Parts %v", i, c, logPart[c], math.Log(parts[c]))
					}
				case i == n-1 && (math.IsInf(logPart[c], 0) || math.IsNaN(logPart[c]) || logPart[c] > -1e6):
					t.Fatalf("far row, group %d: LogParts %v, want finite and very negative", c, logPart[c])
				}
			}
		})
	}
}

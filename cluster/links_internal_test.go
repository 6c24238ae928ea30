package cluster

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/svclust/svclust/internal/kernel"
)

// TestRankClusters: two blobs of 100 rows in the plane, 10 apart, each
// holding two modes of f; the rank-based links put the two modes of a
// blob together and the blobs apart, with birth at the level of the edge
// between them. One blob alone has no second cluster: nil.
func TestRankClusters(t *testing.T) {
	const per = 100
	rows := func(blobs int) ([]float64, []int32, []int) {
		var data []float64
		var owner []int32
		var svMode []int
		for b := range blobs {
			for i := range per {
				// a sunflower spiral of radius 1 around (10b, 0)
				r, a := math.Sqrt(float64(i)/per), float64(i)*2.39996
				data = append(data, 10*float64(b)+r*math.Cos(a), r*math.Sin(a))
				owner = append(owner, int32(len(owner)))
				svMode = append(svMode, 2*b+i%2)
			}
		}
		return data, owner, svMode
	}
	data, owner, svMode := rows(2)
	reps := []float64{0, 0, 0.1, 0, 10, 0, 10.1, 0}
	edges := []modeEdge{{h: 0.9, i: 0, j: 1}, {h: 0.8, i: 2, j: 3}, {h: 0.1, i: 1, j: 2}}
	mc, birth, stab := rankClusters(data, 2*per, 2, owner, svMode, 4, edges, reps, 0, rankMinPts, 1)
	if mc == nil || mc[0] != mc[1] || mc[2] != mc[3] || mc[0] == mc[2] || len(birth) != 2 {
		t.Fatalf("modes to clusters %v, births %v: want {0,1} and {2,3}", mc, birth)
	}
	if birth[0] != 0.1 || birth[1] != 0.1 || stab[0] != per || stab[1] != per {
		t.Errorf("births %v, sampled rows %v: want 0.1 each and %d rows each", birth, stab, per)
	}
	data, owner, svMode = rows(1)
	if mc, _, _ := rankClusters(data, per, 2, owner, svMode, 2, edges[:1], reps[:4], 0, rankMinPts, 1); mc != nil {
		t.Errorf("one blob: modes to clusters %v, want nil", mc)
	}
}

// TestModeEdgesTerms: the segment tests through kernel.Terms, which keeps
// the terms within kernel.CutOff of the largest, give every edge the level
// of the full pass within the bound of the dropped terms and the rounding
// of the sums: with B positive terms, each dropped one below e⁻⁴⁰ of the
// largest, itself at most f + 1, |Δf| ≤ B·(e⁻⁴⁰ + 2⁻⁵²)·(f + 1).
func TestModeEdgesTerms(t *testing.T) {
	const b, nm, d = 400, 40, 2
	rng := rand.New(rand.NewPCG(5, 23))
	sv := make([]float64, b*d)
	alpha := make([]float64, b)
	for i := range b {
		c := float64(i % 4)
		sv[i*d], sv[i*d+1] = c+0.3*rng.NormFloat64(), 0.3*rng.NormFloat64()
		alpha[i] = 0.5 + rng.Float64()
	}
	f := &kernel.Field{SV: sv, Alpha: alpha, Gamma: 60, D: d}
	terms := kernel.NewTermsOf(f)
	if terms == nil {
		t.Fatal("no index for 400 support vectors in the plane at γ = 60")
	}
	reps := make([]float64, nm*d)
	for i := range reps {
		reps[i] = sv[rng.IntN(b*d)]
	}
	full := modeEdges(f, nil, reps, nm, d, 5, 20, 2)
	cut := modeEdges(f, terms, reps, nm, d, 5, 20, 2)
	if len(full) != len(cut) {
		t.Fatalf("%d edges with the index, %d without", len(cut), len(full))
	}
	level := map[[2]int]float64{}
	for _, e := range full {
		level[[2]int{e.i, e.j}] = e.h
	}
	for _, e := range cut {
		want, ok := level[[2]int{e.i, e.j}]
		if !ok {
			t.Fatalf("edge %d–%d only with the index", e.i, e.j)
		}
		if bound := b * (math.Exp(-40) + 0x1p-52) * (want + 1); math.Abs(e.h-want) > bound {
			t.Errorf("edge %d–%d: level %v with the index, %v without (bound %v)", e.i, e.j, e.h, want, bound)
		}
	}
}

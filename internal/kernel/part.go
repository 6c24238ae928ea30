package kernel

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/rowmajor"
)

// EachPart is EachOwner that also splits f(x) + 1 into the parts of k
// groups of support vectors, group[j] in [0, k) being the group of
// support vector j: do gets part[c] = Σ_{j: group[j] = c} αⱼk(x, svⱼ)
// beside sum = f(xᵢ) + 1 (the sum of the terms, from which EachOwner's
// f(xᵢ) is sum − 1) and the owner, and the row xᵢ itself. The parts cost k
// floats of scratch per goroutine and one addition per term; EachOwner
// is EachPart without groups (group nil, k 0). With terms only the
// terms kept by Terms.Owner are added (see Terms.OwnerParts), so a group
// whose every term is below e⁻⁴⁰ of the largest has part 0. part and xi
// are the goroutine's scratch, valid during the call only.
func (f *Field) EachPart(x mat.Matrix, terms *Terms, group []int, k int, w int, report func(int), do func(i int, xi []float64, sum float64, owner int32, part []float64)) {
	f.each(x, terms, group, k, false, w, report, func(i int, xi []float64, sum float64, o int32, part, _ []float64) {
		do(i, xi, sum, o, part)
	})
}

// EachDist is EachOwner that also gives do the row xᵢ, sum = f(xᵢ) + 1 and,
// where terms is nil (every term evaluated), the squared distances
// d2[j] = ‖xᵢ − svⱼ‖² (SqDistRowTo) from which the pass computed its
// terms, so that a caller needing them does not compute them again; d2 is
// nil with terms. xi and d2 are the goroutine's scratch, valid during the
// call only.
func (f *Field) EachDist(x mat.Matrix, terms *Terms, w int, report func(int), do func(i int, xi []float64, sum float64, owner int32, d2 []float64)) {
	f.each(x, terms, nil, 0, true, w, report, func(i int, xi []float64, sum float64, o int32, _, d2 []float64) {
		do(i, xi, sum, o, d2)
	})
}

// each is EachPart, which also keeps the squared distances of each row
// when dist is set and terms is nil.
func (f *Field) each(x mat.Matrix, terms *Terms, group []int, k int, dist bool, w int, report func(int), do func(i int, xi []float64, sum float64, owner int32, part, d2 []float64)) {
	n, d := x.Dims()
	rows := rowmajor.Source(x)
	var scratch sync.Pool
	if terms != nil {
		scratch.New = func() any { return terms.NewScratch() }
	}
	parallel.For(n, ScoreChunk, w, func(_, lo, hi int) {
		buf := rowmajor.Buffer(x, d)
		part := make([]float64, k)
		if terms != nil {
			s := scratch.Get().(*TermsScratch)
			defer scratch.Put(s)
			for i := lo; i < hi; i++ {
				xi := rows(i, buf)
				sum, o := terms.OwnerParts(xi, s, group, part)
				do(i, xi, sum, int32(o), part, nil)
			}
		} else {
			row := make([]float64, len(f.Alpha))
			var d2 []float64
			if dist {
				d2 = make([]float64, len(f.Alpha))
			}
			for i := lo; i < hi; i++ {
				xi := rows(i, buf)
				sum, o := f.ownerParts(row, d2, xi, group, part)
				do(i, xi, sum, o, part, d2)
			}
		}
		if report != nil {
			report(hi - lo)
		}
	})
}

// ownerParts is owner that returns f(x) + 1, the sum of the terms, and
// also sets part[c] to group c's part of it when group is not nil, from
// the same terms in the same order. With d2 not nil it keeps the squared
// distances in d2 and computes the terms from them, to the same bits.
func (f *Field) ownerParts(row, d2, x []float64, group []int, part []float64) (float64, int32) {
	if d2 != nil {
		OfSqDistRowTo(row, SqDistRowTo(d2, x, f.SV), f.Gamma, f.Gammas)
	} else {
		f.kernelRow(row, x)
	}
	clear(part)
	var s float64
	best, bi := math.Inf(-1), 0
	for j, k := range row {
		t := f.Alpha[j] * k
		s += t
		if group != nil {
			part[group[j]] += t
		}
		if t > best {
			best, bi = t, j
		}
	}
	if best <= 0 {
		bi = f.logOwner(row, x)
	}
	return s, int32(bi)
}

// kernelRow sets row[j] to k(x, svⱼ).
func (f *Field) kernelRow(row, x []float64) {
	if f.Gammas != nil {
		RowEachTo(row, x, f.SV, f.Gammas)
	} else {
		RowTo(row, x, f.SV, f.Gamma)
	}
}

// Parts sets part[c] to group c's part of f(x) + 1 (see EachPart) from a
// full pass over the terms and returns part; row is scratch of length B.
func (f *Field) Parts(part, row, x []float64, group []int) []float64 {
	f.kernelRow(row, x)
	clear(part)
	for j, kv := range row {
		part[group[j]] += f.Alpha[j] * kv
	}
	return part
}

// LogParts sets logPart[c] to the logarithm of group c's part of f(x) + 1
// (see EachPart), computed in logs from the terms with a positive
// coefficient, log αⱼ − γⱼ‖x − svⱼ‖², so that it stays finite where
// every term underflows to 0; −Inf for a group without such a term. It
// returns logPart; row is scratch of length B and top of length
// len(logPart).
func (f *Field) LogParts(logPart, row, top, x []float64, group []int) []float64 {
	SqDistRowTo(row, x, f.SV)
	for c := range top {
		top[c] = math.Inf(-1)
	}
	for j, d2 := range row {
		if a := f.Alpha[j]; a > 0 {
			g := f.Gamma
			if f.Gammas != nil {
				g = f.Gammas[j]
			}
			row[j] = math.Log(a) - g*d2
			top[group[j]] = max(top[group[j]], row[j])
		} else {
			row[j] = math.Inf(-1)
		}
	}
	// log Σ exp(tⱼ) = top + log Σ exp(tⱼ − top), per group.
	clear(logPart)
	for j, t := range row {
		if c := group[j]; !math.IsInf(top[c], -1) {
			logPart[c] += math.Exp(t - top[c])
		}
	}
	for c, s := range logPart {
		if math.IsInf(top[c], -1) {
			logPart[c] = math.Inf(-1)
			continue
		}
		logPart[c] = top[c] + math.Log(s)
	}
	return logPart
}

// OwnerParts is Owner that also sets part[c] to the sum of the kept terms
// of the support vectors j with group[j] = c (indices of the model, not
// of the tree); it returns Owner's sum and owner.
func (t *Terms) OwnerParts(x []float64, s *TermsScratch, group []int, part []float64) (sum float64, owner int) {
	clear(part)
	return t.owner(x, s, group, part)
}

package cluster

import (
	"slices"
	"sync"

	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// The trajectories' tolerances, in units of ℓ = 1/√γ, shared with
// baseline's FSVC (see assign.StepTol, MaxSteps and SameTol), and the
// anchors of large strips: strips of at least defaultAnchorMin points are
// clustered in two rounds. The trajectories from every anchorStride-th
// strip point run to their end, and their distinct equilibria become
// anchors; every other trajectory stops as soon as it comes within
// anchorRadius·ℓ of an anchor and takes the anchor's place. Near an
// equilibrium a trajectory converges linearly, so this saves the slow
// final approach; an anchor is a local maximum of f, so a trajectory that
// close would almost always have ended there (docs/defaults.md, "Anchors";
// TestAnchorsKeepPartition). Predict stops at the same anchors.
const (
	trajectoryTol     = assign.StepTol
	trajectoryMaxIter = assign.MaxSteps
	mergeTol          = assign.SameTol
	anchorStride      = 8
	anchorRadius      = mergeTol
	defaultAnchorMin  = 2048
)

// firstSlots returns the number of leading slots of a strip of n points
// whose trajectories run to their end: all of them for n < anchorMin,
// otherwise every anchorStride-th point's. The trajectories from the
// other slots stop early at the anchors, the first ones' distinct ends.
func firstSlots(n, anchorMin int) int {
	if n < anchorMin {
		return n
	}
	return (n + anchorStride - 1) / anchorStride
}

// slot returns the slot of the k-th point (from 0, in the order of the
// data) of a strip of n points: every anchorStride-th point takes one of
// the firstSlots(n, anchorMin) leading slots, the others follow in order.
func slot(k, n, anchorMin int) int {
	first := firstSlots(n, anchorMin)
	switch {
	case first == n:
		return k
	case k%anchorStride == 0:
		return k / anchorStride
	}
	return first + k - k/anchorStride - 1
}

// trajectories moves each row of the row-major eq to its equilibrium on w
// goroutines, stopping early at anchors (row-major equilibria found
// before) if there are any.
func trajectories(f *kernel.Field, eq []float64, anchors []float64, w int, report func(int)) {
	d := f.D
	var tree *assign.Tree
	if len(anchors) > 0 {
		tree = assign.NewTree(anchors, d)
	}
	parallel.For(len(eq)/d, 64, w, func(_, lo, hi int) {
		scratch := assign.NewScratch(f)
		for k := lo; k < hi; k++ {
			equilibrium(f, eq[k*d:k*d+d], scratch, tree)
		}
		if report != nil {
			report(hi - lo)
		}
	})
}

// progressOf returns the function that trajectories calls with the number
// of trajectories of a chunk just followed, which adds them up and calls
// progress with the total so far, serialised; nil if progress is nil.
func progressOf(progress func(done, total int), total int) func(int) {
	if progress == nil {
		return nil
	}
	var mu sync.Mutex
	done := 0
	return func(n int) {
		mu.Lock()
		defer mu.Unlock()
		done += n
		progress(done, total)
	}
}

// equilibrium moves e along its trajectory to its end or, with anchors, to
// the first anchor within anchorRadius·ℓ of it, and returns e. Fit and
// Predict share it, so that Predict reproduces Fit's labels.
func equilibrium(f *kernel.Field, e []float64, scratch *assign.Scratch, anchors *assign.Tree) []float64 {
	scale := f.Scale()
	a := assign.EquilibriumNear(f, e, scratch, trajectoryTol*scale, trajectoryMaxIter, anchors, anchorRadius*scale)
	if a >= 0 {
		copy(e, anchors.Point(a))
	}
	return e
}

// anchoredTrajectories moves each row of the row-major eq to its
// equilibrium as trajectories does, in two rounds as a large strip of
// Components is (see anchorStride), except that a trajectory of the
// second round stops at any point of a trajectory of the first, not only
// at its end: the trajectories from every anchorStride-th row (rows 0,
// anchorStride, …) run to their end, and each other trajectory stops as
// soon as it comes within anchorRadius·ℓ of a point one of them passed
// through, and takes that one's end. The fixed-point map moves points
// that close alike, so the two would have ended together but where the
// point lies on the border of two basins. The rows keep their order; the
// result does not depend on w.
func anchoredTrajectories(f *kernel.Field, eq []float64, w int) {
	d := f.D
	n := len(eq) / d
	first := firstSlots(n, 0)
	if first == n {
		trajectories(f, eq, nil, w, nil)
		return
	}
	scale := f.Scale()
	// The first round, recording each trajectory's path.
	paths := make([][]float64, first)
	ends := make([]float64, first*d)
	for k := range first {
		copy(ends[k*d:k*d+d], eq[k*anchorStride*d:k*anchorStride*d+d])
	}
	parallel.For(first, 8, w, func(_, lo, hi int) {
		scratch := assign.NewScratch(f)
		scratch.Record = true
		for k := lo; k < hi; k++ {
			scratch.Path = scratch.Path[:0]
			assign.EquilibriumNear(f, ends[k*d:k*d+d], scratch, trajectoryTol*scale, trajectoryMaxIter, nil, 0)
			paths[k] = slices.Clone(scratch.Path)
		}
	})
	var pts []float64
	var owner []int
	for k, p := range paths {
		pts = append(pts, ends[k*d:k*d+d]...)
		owner = append(owner, k)
		pts = append(pts, p...)
		for range len(p) / d {
			owner = append(owner, k)
		}
	}
	tree := assign.NewTree(pts, d)
	parallel.For(n, 64, w, func(_, lo, hi int) {
		scratch := assign.NewScratch(f)
		for i := lo; i < hi; i++ {
			e := eq[i*d : i*d+d]
			if i%anchorStride == 0 {
				k := i / anchorStride
				copy(e, ends[k*d:k*d+d])
				continue
			}
			a := assign.EquilibriumNear(f, e, scratch, trajectoryTol*scale, trajectoryMaxIter, tree, anchorRadius*scale)
			if a >= 0 {
				k := owner[a]
				copy(e, ends[k*d:k*d+d])
			}
		}
	})
}

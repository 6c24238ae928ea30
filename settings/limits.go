package settings

import (
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/internal/numfmt"
)

// The upper bounds of the size flags. Each is far beyond any sensible
// setting and keeps memory and time within what one machine has, so that a
// mistyped value is an error naming the flag rather than a crash for lack
// of memory or a run of hours.
const (
	// MaxBudget bounds -budget: the cache of distances between support
	// vectors takes 8·s² bytes for s ≤ min(budget, n) + 2 support
	// vectors, at most 3.2 GB here.
	MaxBudget = 20_000
	// MaxM bounds -m, the points of the segment test between two
	// equilibria; the paper uses 20. It is the library's bound.
	MaxM = cluster.MaxM
	// MaxIter bounds -max-iter and -min-iter: 10⁹ SGD steps take hours
	// even with a small budget.
	MaxIter = 1_000_000_000
	// MaxSample bounds -sample, the rows a streamed run keeps in memory.
	MaxSample = 10_000_000
	// MaxWorkers bounds -workers.
	MaxWorkers = 1024
)

// AtMost returns the error "FLAG V: must be ≤ MAX", MAX with thousands
// separators, if v > max, else nil.
func AtMost(flag string, v, max int) error {
	if v > max {
		return errorf(flag, "%s %d: must be ≤ %s", flagRef(flag), v, numfmt.Thousands(int64(max)))
	}
	return nil
}

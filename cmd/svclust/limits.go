package main

// The upper bounds of the size flags. Each is far beyond any sensible
// setting and keeps memory and time within what one machine has, so that
// a mistyped value is a usage error naming the flag rather than a crash
// for lack of memory or a run of hours (issue 13). doc.go lists them.
const (
	// maxBudget bounds -budget: the cache of distances between support
	// vectors takes 8·s² bytes for s ≤ min(budget, n) + 2 support
	// vectors, at most 3.2 GB here.
	maxBudget = 20_000
	// maxM bounds -m, the points of the segment test between two
	// equilibria; the paper uses 20.
	maxM = 1000
	// maxIter bounds -max-iter and -min-iter: 10⁹ SGD steps take hours
	// even with a small budget.
	maxIter = 1_000_000_000
	// maxSample bounds -sample, the rows fit -stream keeps in memory.
	maxSample = 10_000_000
	// maxWorkers bounds -workers.
	maxWorkers = 1024
	// maxGenN bounds gen -n (10⁹ rows are about 40 GB of CSV).
	maxGenN = 1_000_000_000
	// maxDemoN bounds demo -n, the points of each data set it fits.
	maxDemoN = 1_000_000
	// maxGrid bounds plot -grid, whose square is the number of values of
	// f evaluated.
	maxGrid = 5000
	// maxRuns bounds reproduce -runs, and maxTuneRuns tune -runs, which
	// multiplies every grid point's fits.
	maxRuns     = 10_000
	maxTuneRuns = 100
	// maxGridPoints bounds the settings of tune, the product of the
	// lengths of -gamma-grid and -C-grid (the paper's grid has 36), each
	// a full fit.
	maxGridPoints = 10_000
)

// atMost returns the usage error "FLAG must be ≤ MAX" if v > max, else nil.
func atMost(flag string, v, max int) error {
	if v > max {
		return usagef("%s %d: must be ≤ %s", flag, v, thousands(int64(max)))
	}
	return nil
}

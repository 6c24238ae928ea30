package main

import "github.com/svclust/svclust/settings"

// The upper bounds of the size flags of the commands; those of the run
// settings (-budget, -m, -max-iter, -sample, -workers) are package
// settings'. Each is far beyond any sensible setting and keeps memory and
// time within what one machine has, so that a mistyped value is a usage
// error naming the flag rather than a crash for lack of memory or a run of
// hours. doc.go lists them.
const (
	// maxGenN bounds gen -n (10⁹ rows are about 40 GB of CSV).
	maxGenN = 1_000_000_000
	// maxDemoN bounds demo -n, the points of each data set it fits.
	maxDemoN = 1_000_000
	// maxRuns bounds reproduce -runs, and maxTuneRuns tune -runs, which
	// multiplies every grid point's fits.
	maxRuns     = 10_000
	maxTuneRuns = 100
	// maxGridPoints bounds the settings of tune, the product of the
	// lengths of -gamma-grid and -C-grid (the paper's grid has 36), each
	// a full fit.
	maxGridPoints = 10_000
)

// atMost returns the usage error "FLAG must be ≤ MAX" if v > max, else
// nil: settings.AtMost's message, as a usage error.
func atMost(flag string, v, max int) error {
	return configError(settings.AtMost(flag, v, max))
}

package cluster_test

import (
	"testing"

	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/settings"
)

// TestMaxMAgreesWithCLI: the library's bound on M is the command line's
// bound on -m, so that a setting the command line accepts the library
// accepts too, and the other way round.
func TestMaxMAgreesWithCLI(t *testing.T) {
	if cluster.MaxM != settings.MaxM {
		t.Errorf("cluster.MaxM = %d, settings.MaxM = %d: the bounds of M and -m differ", cluster.MaxM, settings.MaxM)
	}
}

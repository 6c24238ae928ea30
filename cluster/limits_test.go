package cluster

import (
	"errors"
	"strings"
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// TestHugeM: an M above 1,000, the bound of the command line's -m, is a
// *svclust.ConfigError naming M and the bound, from Validate and from Fit
// before any work, for both rules; 1,000 itself is valid. (M = 1<<40 on
// 300 rows ran for minutes: every segment test evaluates f at M points.)
func TestHugeM(t *testing.T) {
	ds := generated(t, dataset.Gauss3, 300)
	m, err := svclust.Train(ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mm := range []int{1001, 1 << 40, 1<<63 - 1} {
		for _, method := range []Method{&Levels{M: mm}, &Components{M: mm}, &Components{All: true, M: mm}} {
			var ce *svclust.ConfigError
			if err := method.Validate(); !errors.As(err, &ce) || ce.Field != "M" || !strings.Contains(err.Error(), "1,000") {
				t.Fatalf("%s M = %d: Validate returned %v, want a ConfigError for M naming the bound 1,000", method.Rule(), mm, err)
			}
			if _, err := Fit(m, ds.X, method); !errors.As(err, &ce) || ce.Field != "M" {
				t.Fatalf("%s M = %d: Fit returned %v, want a ConfigError for M", method.Rule(), mm, err)
			}
		}
	}
	for _, method := range []Method{&Levels{M: 1000}, &Components{M: 1000}} {
		if err := method.Validate(); err != nil {
			t.Errorf("%s M = 1000: %v", method.Rule(), err)
		}
	}
}

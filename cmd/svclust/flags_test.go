package main

import (
	"strings"
	"testing"
)

// TestDefaultKWithSmallBudget: the default -k (5) is capped by a smaller
// -budget, while an explicit -k above the budget is a usage error.
func TestDefaultKWithSmallBudget(t *testing.T) {
	data := genFile(t, "gauss3", 100)
	if code, _, errs := cli(t, "fit", "-maintain", "project-knn", "-budget", "3", data); code != 0 {
		t.Errorf("-budget 3: exit %d: %s", code, errs)
	}
	code, _, errs := cli(t, "fit", "-maintain", "project-knn", "-budget", "3", "-k", "5", data)
	if code != 2 || !strings.Contains(errs, "-k 5: must not exceed the budget 3") {
		t.Errorf("-budget 3 -k 5: exit %d, message %q; want 2 naming -k", code, errs)
	}
}

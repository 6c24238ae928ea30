package main

import "testing"

// TestDefaultKWithSmallBudget: the default -k (5) is capped by a smaller
// -budget. An explicit -k above the budget is a usage error, which
// TestRobust checks ("-k above -budget").
func TestDefaultKWithSmallBudget(t *testing.T) {
	data := genFile(t, "gauss3", 100)
	if code, _, errs := cli(t, "fit", "-maintain", "project-knn", "-budget", "3", data); code != 0 {
		t.Errorf("-budget 3: exit %d: %s", code, errs)
	}
}

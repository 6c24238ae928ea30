package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSummaryText: the text summary lists the cluster sizes and, with
// -outliers, the number of outliers, as counted from the labels of -o;
// says "1 cluster", and says why Davies–Bouldin is undefined rather than
// printing NaN (issue 13).
func TestSummaryText(t *testing.T) {
	in := genFile(t, "gauss3", 300)
	dir := t.TempDir()
	lab := filepath.Join(dir, "l.csv")
	out := mustCLI(t, "fit", "-budget", "20", "-outliers", "-o", lab, in)
	labels := parseLabels(t, readFile(t, lab))
	k := 0
	for _, l := range labels {
		k = max(k, l+1)
	}
	sizes := make([]string, k)
	outliers := 0
	for c := range k {
		n := 0
		for _, l := range labels {
			if l == c {
				n++
			}
		}
		sizes[c] = thousands(int64(n))
	}
	for _, l := range labels {
		if l < 0 {
			outliers++
		}
	}
	want := fmt.Sprintf("sizes %s; %s (f < 0)", strings.Join(sizes, ", "), plural(outliers, "outlier"))
	if !strings.Contains(out, want) {
		t.Errorf("summary lacks %q:\n%s", want, out)
	}
	// C ≤ 1: every point is in one cluster.
	out = mustCLI(t, "fit", "-budget", "20", "-C", "0.5", "-quiet", in)
	for _, want := range []string{"1 cluster from", "sizes 300\n", "Davies–Bouldin undefined with 1 cluster"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"NaN", "1 clusters", "1 equilibria"} {
		if strings.Contains(out, bad) {
			t.Errorf("summary shows %q:\n%s", bad, out)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{
		{0, "cluster", "0 clusters"}, {1, "cluster", "1 cluster"}, {2, "cluster", "2 clusters"},
		{1, "equilibrium", "1 equilibrium"}, {25, "equilibrium", "25 equilibria"}, {1200, "point", "1,200 points"},
	} {
		if got := plural(tc.n, tc.noun); got != tc.want {
			t.Errorf("plural(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
	if got := clusterSizes([]int{0, 1, 1, -1, 1}, 2, false); got != "sizes 1, 3" {
		t.Errorf("clusterSizes = %q", got)
	}
	many := make([]int, 20)
	for i := range many {
		many[i] = i
	}
	if got := clusterSizes(many, 20, true); got != "sizes 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 and 8 more; 0 outliers (f < 0)" {
		t.Errorf("clusterSizes of 20 = %q", got)
	}
}

// TestClusterProgress: the cluster phase reports its trajectories with a
// percentage and the time left, as the read phase does (issue 13: only
// the elapsed time), and its summary line counts every trajectory.
func TestClusterProgress(t *testing.T) {
	var w bytes.Buffer
	clock := time.Unix(0, 0)
	p := fakeProgress(&w, false, 0, &clock)
	p.begin("cluster", "trajectories", 0)
	clock = clock.Add(2 * time.Second)
	p.setTotal(250, 1000)
	if got, want := p.status(clock), "cluster: 250 of 1,000 trajectories (25.0%), 125 trajectories/s, 6.0 s left"; got != want {
		t.Errorf("status %q, want %q", got, want)
	}

	in := genFile(t, "gauss3", 300)
	_, _, stderr := cli(t, "fit", "-budget", "20", "-progress", "-json", in)
	strip := (&robustRun{stdout: mustCLI(t, "fit", "-budget", "20", "-json", in)}).report(t).StripSize
	if want := fmt.Sprintf("svclust fit: cluster: %s trajectories in ", thousands(int64(strip))); !strings.Contains(stderr, want) {
		t.Errorf("progress lacks %q:\n%s", want, stderr)
	}
}

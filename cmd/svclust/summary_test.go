package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svclust/svclust/internal/numfmt"
)

// TestSummaryText: the text summary lists the cluster sizes and, with
// -outliers, the number of outliers and the rule that made them, as
// counted from the labels of -o; says "1 cluster", and says why
// Davies–Bouldin is undefined rather than printing NaN (issue 13).
func TestSummaryText(t *testing.T) {
	in := genFile(t, "gauss3", 300)
	for _, tc := range []struct {
		args []string
		why  string
	}{
		// Outliers of either rule: outlier score at or above the
		// threshold.
		{nil, "outlier score ≥ 0.5"},
		{[]string{"-rule", "components", "-outlier-threshold", "0.25"}, "outlier score ≥ 0.25"},
	} {
		dir := t.TempDir()
		lab := filepath.Join(dir, "l.csv")
		out := mustCLI(t, append(append([]string{"fit", "-budget", "20", "-outliers", "-o", lab}, tc.args...), in)...)
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
			sizes[c] = numfmt.Thousands(int64(n))
		}
		for _, l := range labels {
			if l < 0 {
				outliers++
			}
		}
		want := fmt.Sprintf("sizes %s; %s (%s)\n", strings.Join(sizes, ", "), plural(outliers, "outlier"), tc.why)
		if !strings.Contains(out, want) {
			t.Errorf("%v: summary lacks %q:\n%s", tc.args, want, out)
		}
	}
	// One cluster: with -rule levels when the smallest cluster is every
	// row, so that no split leaves two parts of at least -min-size (the
	// root of the condensed tree is then the one cluster); with -rule
	// components when C ≤ 1 leaves the domain f ≥ 0 empty.
	for _, tc := range []struct {
		args      []string
		want, bad []string
	}{
		{[]string{"-min-size", "300"},
			[]string{"1 cluster from the level tree of ", " (smallest cluster 300 rows; 0 clusters joined as ripples), ", "sizes 300\n", "Davies–Bouldin undefined with 1 cluster"},
			[]string{"1 modes", "strip", "ε ="}},
		{[]string{"-rule", "components", "-C", "0.5"},
			[]string{"1 cluster from ", ", strip of ", "sizes 300\n", "Davies–Bouldin undefined with 1 cluster"},
			[]string{"1 equilibria", "level tree"}},
	} {
		out := mustCLI(t, append(append([]string{"fit", "-budget", "20", "-quiet"}, tc.args...), in)...)
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%v: summary lacks %q:\n%s", tc.args, want, out)
			}
		}
		for _, bad := range append(tc.bad, "NaN", "1 clusters") {
			if strings.Contains(out, bad) {
				t.Errorf("%v: summary shows %q:\n%s", tc.args, bad, out)
			}
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
	if got := clusterSizes(labelCounts([]int{0, 1, 1, -1, 1}, 2), ""); got != "sizes 1, 3" {
		t.Errorf("clusterSizes = %q", got)
	}
	many := make([]int, 20)
	for i := range many {
		many[i] = i
	}
	if got := clusterSizes(labelCounts(many, 20), "f < 0"); got != "sizes 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 and 8 more; 0 outliers (f < 0)" {
		t.Errorf("clusterSizes of 20 = %q", got)
	}
}

// TestClusterProgress: the cluster phase reports its progress with a
// percentage and the time left, as the read phase does (issue 13: only
// the elapsed time), in the unit of the rule: with -rule levels
// cluster.Levels.Progress counts the rows scored, so the summary line
// counts every row; with -rule components it counts the trajectories of
// the strip, so the summary line counts the strip.
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
	p.begin("cluster", "rows", 0)
	clock = clock.Add(4 * time.Second)
	p.setTotal(12000, 50000)
	if got, want := p.status(clock), "cluster: 12,000 of 50,000 rows (24.0%), 3,000 rows/s, 12.7 s left"; got != want {
		t.Errorf("status %q, want %q", got, want)
	}

	in := genFile(t, "gauss3", 300)
	_, _, stderr := cli(t, "fit", "-budget", "20", "-progress", "-json", in)
	if want := "svclust fit: cluster: 300 rows in "; !strings.Contains(stderr, want) {
		t.Errorf("levels: progress lacks %q:\n%s", want, stderr)
	}
	_, _, stderr = cli(t, "fit", "-rule", "components", "-budget", "20", "-progress", "-json", in)
	strip := (&robustRun{stdout: mustCLI(t, "fit", "-rule", "components", "-budget", "20", "-json", in)}).report(t).StripSize
	if strip == 0 || strip == 300 {
		t.Fatalf("strip of %d points: the check below cannot tell it from the rows", strip)
	}
	if want := fmt.Sprintf("svclust fit: cluster: %s trajectories in ", numfmt.Thousands(int64(strip))); !strings.Contains(stderr, want) {
		t.Errorf("components: progress lacks %q:\n%s", want, stderr)
	}
}

// TestSummaryBudget: the model line of the summary shows the budget used,
// marked (auto) when -budget auto chose it (the budget of fit -json), a
// given one as given, and "none" rather than the library's NoBudget (−1)
// for -budget 0.
func TestSummaryBudget(t *testing.T) {
	in := genFile(t, "gauss3", 300)
	auto := (&robustRun{stdout: mustCLI(t, "fit", "-json", in)}).report(t).Budget
	if auto < 50 {
		t.Fatalf("auto budget %d, below auto.MinBudget", auto)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, fmt.Sprintf(", budget %d (auto), maintenance merge, ", auto)},
		{[]string{"-budget", "20"}, ", budget 20, maintenance merge, "},
		{[]string{"-budget", "0"}, ", budget none, maintenance none (no budget), "},
	} {
		out := mustCLI(t, append(append([]string{"fit"}, tc.args...), in)...)
		if !strings.Contains(out, tc.want) || strings.Contains(out, "budget -1") {
			t.Errorf("%v: summary lacks %q:\n%s", tc.args, tc.want, out)
		}
	}
}

// TestStreamSummarySizes: with -stream the cluster sizes of the summary
// are those of every row of the file, counted in the second pass, not
// those of the sample: they add up to the 600 rows, not the -sample 100.
func TestStreamSummarySizes(t *testing.T) {
	data := genFile(t, "gauss3", 600)
	out := mustCLI(t, "fit", "-stream", "-sample", "100", "-outliers", data)
	_, line, ok := strings.Cut(out, "clusters    sizes ")
	if !ok {
		t.Fatalf("no sizes in\n%s", out)
	}
	line, _, _ = strings.Cut(line, "\n")
	sizes, outliers, _ := strings.Cut(line, "; ")
	total := 0
	for _, f := range strings.Split(sizes, ", ") {
		n, err := strconv.Atoi(strings.ReplaceAll(f, ",", ""))
		if err != nil {
			t.Fatalf("sizes %q: %v", sizes, err)
		}
		total += n
	}
	var out1 int
	fmt.Sscanf(outliers, "%d", &out1)
	if total+out1 != 600 {
		t.Errorf("sizes %q and %q add up to %d, want the 600 rows", sizes, outliers, total+out1)
	}
}

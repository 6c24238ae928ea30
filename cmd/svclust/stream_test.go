package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fitFiles runs fit with args and DATA data, writing the labels and the
// model to new files, and returns their contents and standard output.
func fitFiles(t *testing.T, data string, args ...string) (labels, model, stdout string) {
	t.Helper()
	dir := t.TempDir()
	lp, mp := filepath.Join(dir, "labels.csv"), filepath.Join(dir, "model.json")
	stdout = mustCLI(t, append(append([]string{"fit", "-o", lp, "-model", mp}, args...), data)...)
	return readFile(t, lp), readFile(t, mp), stdout
}

// fitMetrics returns the "metrics" object of a fit -json report.
func fitMetrics(t *testing.T, out string) map[string]any {
	t.Helper()
	var v struct {
		N       int
		Sample  int
		Metrics map[string]any
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return v.Metrics
}

// TestStreamMatchesFitAll checks issue 4's requirement: on a file of at
// most -sample rows, fit -stream gives the labels and the model file of
// fit, byte for byte, whatever -workers: of plain fit with -rule levels, of
// fit -all with -rule components. The sample is then every row in file
// order and the scaling is fitted by the same sums, so training and
// clustering see the very matrix fit sees, and Partition.Predict returns
// Cluster's labels on the data given to Cluster (by the owner support
// vector with levels, by every row's trajectory with components, hence
// -all). The external indices come from a contingency table that numbers
// labels as Evaluate does, so they agree bit for bit too.
func TestStreamMatchesFitAll(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	moons := genFile(t, "moons", 500)
	gauss := genFile(t, "gauss3", 400)
	for _, tc := range []struct {
		name string
		data string
		args []string
	}{
		{"moons zscore", moons, nil},
		{"gauss3 minmax outliers", gauss, []string{"-scale", "minmax", "-outliers", "-maintain", "removal"}},
		{"gauss3 none", gauss, []string{"-scale", "none", "-seed", "7"}},
		{"components moons zscore", moons, []string{"-rule", "components"}},
		{"components gauss3 minmax outliers", gauss, []string{"-rule", "components", "-scale", "minmax", "-outliers", "-maintain", "removal"}},
		{"components gauss3 none", gauss, []string{"-rule", "components", "-scale", "none", "-seed", "7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := []string{"-json", "-workers", "1"}
			if strings.HasPrefix(tc.name, "components") {
				ref = append(ref, "-all")
			}
			wantL, wantM, wantOut := fitFiles(t, tc.data, append(ref, tc.args...)...)
			want := fitMetrics(t, wantOut)
			for _, workers := range []string{"1", "2", "3"} {
				gotL, gotM, gotOut := fitFiles(t, tc.data, append([]string{"-stream", "-json", "-workers", workers}, tc.args...)...)
				if gotL != wantL {
					t.Errorf("-workers %s: labels differ from fit %s", workers, strings.Join(ref, " "))
				}
				// The run sections differ: -stream records its sample.
				if withoutRun(gotM) != withoutRun(wantM) {
					t.Errorf("-workers %s: model file differs from fit %s", workers, strings.Join(ref, " "))
				}
				got := fitMetrics(t, gotOut)
				for _, k := range []string{"purity", "rand", "ari", "nmi", "clusters"} {
					if got[k] != want[k] {
						t.Errorf("-workers %s: %s = %v, fit %v", workers, k, got[k], want[k])
					}
				}
				// Davies–Bouldin needs a third pass; -stream leaves it out.
				if got["db"] != nil {
					t.Errorf("-workers %s: db = %v, want null", workers, got["db"])
				}
			}
		})
	}
}

// TestStreamSample checks a file longer than the sample: every row gets a
// label, the scaling is still fitted on every row (the model file's scaler
// equals fit's), predict with the model gives the same labels, and the run
// does not depend on -workers.
func TestStreamSample(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	data := genFile(t, "gauss3", 1500)
	_, fitModel, _ := fitFiles(t, data, "-rule", "components", "-all")
	labels, model, out := fitFiles(t, data, "-stream", "-sample", "400", "-json", "-workers", "1")
	if n := strings.Count(labels, "\n"); n != 1501 || !strings.HasPrefix(labels, "cluster,outlier\n") {
		t.Fatalf("labels file has %d lines", n)
	}
	var v struct{ N, Sample, Clusters int }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.N != 1500 || v.Sample != 400 {
		t.Errorf("n = %d, sample = %d; want 1500 and 400", v.N, v.Sample)
	}
	if m := fitMetrics(t, out); !(m["ari"].(float64) > 0.9) {
		// Three well separated Gaussians: any sample of 400 finds them.
		t.Errorf("ARI %v on gauss3, want > 0.9", m["ari"])
	}
	if a, b := scalerOf(t, model), scalerOf(t, fitModel); a != b {
		t.Errorf("scaler %s, fit's %s", a, b)
	}
	dir := t.TempDir()
	mp := filepath.Join(dir, "m.json")
	if err := os.WriteFile(mp, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mustCLI(t, "predict", "-model", mp, data); got != labels {
		t.Error("predict with the -stream model differs from the -stream labels")
	}
	labels2, model2, _ := fitFiles(t, data, "-stream", "-sample", "400", "-workers", "3")
	if labels2 != labels || model2 != model {
		t.Error("-workers 3 gives other outputs than -workers 1")
	}
	// Another seed draws another sample, so another model.
	if _, model3, _ := fitFiles(t, data, "-stream", "-sample", "400", "-seed", "2"); model3 == model {
		t.Error("-seed 2 gives the model of -seed 1")
	}
}

// scalerOf returns the JSON text of the scaler of a model file.
func scalerOf(t *testing.T, model string) string {
	t.Helper()
	var v struct{ Scaler json.RawMessage }
	if err := json.Unmarshal([]byte(model), &v); err != nil {
		t.Fatal(err)
	}
	return string(v.Scaler)
}

// TestStreamStdout checks -o - with -stream: the labels on standard output,
// the summary on standard error.
func TestStreamStdout(t *testing.T) {
	data := genFile(t, "gauss4", 300)
	for _, tc := range []struct{ ref, stream []string }{
		{nil, nil},
		{[]string{"-rule", "components", "-all"}, []string{"-rule", "components"}},
	} {
		want, _, _ := fitFiles(t, data, tc.ref...)
		args := append(append([]string{"fit", "-stream", "-o", "-"}, tc.stream...), data)
		code, out, errs := cli(t, args...)
		if code != 0 || out != want {
			t.Errorf("%v: exit %d; labels on stdout equal fit %v's: %v\n%s", args, code, tc.ref, out == want, errs)
		}
		if !strings.Contains(errs, "stream") || !strings.Contains(errs, "ARI") {
			t.Errorf("%v: summary not on stderr:\n%s", args, errs)
		}
	}
}

func TestStreamUsage(t *testing.T) {
	data := genFile(t, "gauss3", 100)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-stream", "-"}, "standard input"},
		{[]string{"-sample", "10", data}, "-sample needs -stream"},
		{[]string{"-stream", "-sample", "0", data}, "-sample must be ≥ 1"},
		{[]string{"-progress", "-quiet", data}, "exclude"},
	} {
		code, _, errs := cli(t, append([]string{"fit"}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.msg) {
			t.Errorf("fit %q: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.msg)
		}
	}
	// A data error reports the position, as without -stream.
	bad := writeFile(t, "bad.csv", "x,y\n1,2\n3,x\n")
	code, _, errs := cli(t, "fit", "-stream", bad)
	if code != 1 || !strings.Contains(errs, "bad.csv:3:2: not a number") {
		t.Errorf("bad data: exit %d, stderr %q", code, errs)
	}
}

// TestStreamInterrupted checks that an interrupted -stream run leaves
// neither the output nor its temporary file behind: pass 2 checks for the
// interrupt after each chunk and removes the temporary file.
func TestStreamInterrupted(t *testing.T) {
	data := genFile(t, "gauss3", 200)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, &stdout, &stderr, []string{"fit", "-stream", "-o", filepath.Join(dir, "labels.csv"), data})
	if code != 130 {
		t.Errorf("exit %d, want 130; stderr %q", code, stderr.String())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestProgress checks that -progress reports the phases on standard error
// and never on standard output, which stays one JSON value, and that -quiet
// silences progress and warnings.
func TestProgress(t *testing.T) {
	data := genFile(t, "gauss3", 300)
	for _, tc := range []struct {
		args   []string
		phases []string
	}{
		{[]string{"-json", "-progress"}, []string{"read: 0.0", "train: done in", "cluster: ", "metrics: done in", "write: done in"}},
		{[]string{"-json", "-progress", "-stream"}, []string{"read: 0.0", "train: done in", "cluster: ", "assign: 300 rows in", "write: done in"}},
		{[]string{"-json", "-progress", "-stream", "-sample", "100"}, []string{"read: 0.0", "scale: 0.0", "train: done in", "cluster: ", "assign: 300 rows in", "write: done in"}},
	} {
		code, out, errs := cli(t, append(append([]string{"fit"}, tc.args...), data)...)
		if code != 0 {
			t.Fatalf("fit %q: exit %d\n%s", tc.args, code, errs)
		}
		for _, p := range tc.phases {
			if !strings.Contains(errs, "svclust fit: "+p) {
				t.Errorf("fit %q: stderr lacks %q:\n%s", tc.args, p, errs)
			}
		}
		if strings.Contains(out, "svclust fit:") {
			t.Errorf("fit %q: progress on stdout", tc.args)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("fit %q: stdout is not one JSON value: %v", tc.args, err)
		}
	}
	for _, args := range [][]string{{"-quiet", "-C", "0.5"}, {"-quiet", "-stream", "-progress=false"}} {
		code, _, errs := cli(t, append(append([]string{"fit"}, args...), data)...)
		if code != 0 || errs != "" {
			t.Errorf("fit %q: exit %d, stderr %q; want 0 and nothing", args, code, errs)
		}
	}
	// Without -quiet the C ≤ 1 warning of -rule components stays; stderr
	// is no terminal here, so there is no progress. -rule levels, which
	// reads every level of f, does not warn (warnC).
	if _, _, errs := cli(t, "fit", "-rule", "components", "-C", "0.5", data); !strings.HasPrefix(errs, "svclust: warning: -C 0.5") || strings.Contains(errs, "svclust fit:") {
		t.Errorf("stderr %q", errs)
	}
	if _, _, errs := cli(t, "fit", "-C", "0.5", data); errs != "" {
		t.Errorf("-rule levels: stderr %q, want nothing", errs)
	}
}

func TestMemProfile(t *testing.T) {
	data := genFile(t, "gauss3", 100)
	dir := t.TempDir()
	prof := filepath.Join(dir, "mem.prof")
	mustCLI(t, "fit", "-memprofile", prof, data)
	b, err := os.ReadFile(prof)
	// pprof writes a gzip-compressed protocol buffer: magic 1f 8b.
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("no gzip profile: %v, %d bytes", err, len(b))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("directory holds %v, want the profile only", ents)
	}
	// An unwritable profile fails before the work, naming the flag.
	code, _, errs := cli(t, "fit", "-memprofile", filepath.Join(dir, "no", "mem.prof"), data)
	if code != 1 || !strings.Contains(errs, "-memprofile") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	// tune has it too.
	prof2 := filepath.Join(dir, "tune.prof")
	mustCLI(t, "tune", "-memprofile", prof2, "-gamma-grid", "1", "-C-grid", "8", data)
	if fi, err := os.Stat(prof2); err != nil || fi.Size() == 0 {
		t.Errorf("tune: no profile: %v", err)
	}
}

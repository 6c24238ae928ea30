package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svclust/svclust/reproduce"
)

// tinyData writes 60 points of gauss3 and moons as NAME.csv into a new
// directory and returns it.
func tinyData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, k := range []string{"gauss3", "moons"} {
		mustCLI(t, "gen", "-kind", k, "-n", "60", "-seed", "1", "-o", filepath.Join(dir, k+".csv"))
	}
	return dir
}

// tinyReproduce is a reproduce command line on tinyData with a 2×2 grid.
func tinyReproduce(data, out string, extra ...string) []string {
	args := []string{"reproduce", "-data", data, "-datasets", "gauss3,moons,absent",
		"-methods", "svc,bsgd-pnn", "-runs", "2", "-gamma-grid", "0.5,2", "-C-grid", "8,32", "-out", out}
	return append(args, extra...)
}

func TestReproduce(t *testing.T) {
	data, out := tinyData(t), t.TempDir()
	code, stdout, stderr := cli(t, tinyReproduce(data, out, "-json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var recs []map[string]any
	if err := json.Unmarshal([]byte(stdout), &recs); err != nil {
		t.Fatalf("stdout is not a JSON array of records: %v\n%s", err, stdout)
	}
	if len(recs) != 6 {
		t.Fatalf("%d records, want 3 data sets × 2 methods", len(recs))
	}
	for _, r := range recs {
		want := "ok"
		if r["dataset"] == "absent" {
			want = "skipped: no file " + filepath.Join(data, "absent.csv")
		}
		if r["status"] != want {
			t.Errorf("%v/%v: status %q, want %q", r["dataset"], r["method"], r["status"], want)
		}
		for _, k := range []string{"gamma", "C", "runs", "purity", "rand", "ari", "nmi", "compactness", "db", "train_seconds", "cluster_seconds", "clusters"} {
			if _, ok := r[k]; !ok {
				t.Errorf("record lacks %q", k)
			}
		}
	}
	// Progress goes to standard error, never to standard output.
	for _, want := range []string{"gauss3: svc: best γ=", "absent: skipped: no file", "moons: bsgd-pnn: ok"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "REPRODUCTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"svclust reproduce -C-grid 8,32 -data " + data, // the command line, flags by name
		"## Table 3: NMI",
		"| Dataset | SVC | BSGD-PNN |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPRODUCTION.md lacks %q", want)
		}
	}

	// -from renders the same Markdown from the saved JSON report.
	out2 := t.TempDir()
	code, stdout, stderr = cli(t, "reproduce", "-from", filepath.Join(out, "reproduction.json"), "-out", out2)
	if code != 0 {
		t.Fatalf("-from: exit %d: %s", code, stderr)
	}
	md2, err := os.ReadFile(filepath.Join(out2, "REPRODUCTION.md"))
	if err != nil || string(md2) != string(md) {
		t.Errorf("-from rendered a different report (%v)", err)
	}
	if !strings.Contains(stdout, "4 of 6 (data set, method) pairs ok") {
		t.Errorf("summary: %s", stdout)
	}
}

func TestReproduceUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"-methods", "svc,kmeans"}, "-methods"},
		{[]string{"-runs", "0"}, "-runs"},
		{[]string{"-svc-budget", "-1s"}, "-svc-budget"},
		{[]string{"-fsvc-grid", "0.5,2"}, "-fsvc-grid"},
		{[]string{"-datasets", "../iris"}, "-datasets"},
		{[]string{"-skip", "musk"}, "-skip"},
		{[]string{"extra"}, "unexpected"},
	} {
		code, _, stderr := cli(t, append([]string{"reproduce", "-out", t.TempDir()}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.flag) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", tc.args, code, stderr, tc.flag)
		}
	}
}

// TestReproduceSkip checks that a pair named by -skip is not run and is
// reported with the status "skipped: by -skip", and that -skip defaults to
// running every pair.
func TestReproduceSkip(t *testing.T) {
	data := tinyData(t)
	code, stdout, stderr := cli(t, "reproduce", "-data", data, "-datasets", "gauss3", "-methods", "svc",
		"-skip", "gauss3/SVC", "-out", t.TempDir(), "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var recs []map[string]any
	if err := json.Unmarshal([]byte(stdout), &recs); err != nil {
		t.Fatalf("stdout is not a JSON array of records: %v\n%s", err, stdout)
	}
	if len(recs) != 1 || recs[0]["status"] != "skipped: by -skip" {
		t.Errorf("records %v, want one with status %q", recs, "skipped: by -skip")
	}
	if f := newReproduce().Flag.Lookup("skip"); f == nil || f.DefValue != "" {
		t.Errorf("-skip default %v, want empty", f)
	}
}

// TestReproduceOutputChecked: an output of reproduce that cannot be written
// fails the command before any data set is run, naming the path, as fit's
// outputs do. The run would skip the missing data set "absent" with a
// progress line, so its absence shows that nothing ran.
func TestReproduceOutputChecked(t *testing.T) {
	for _, name := range []string{"REPRODUCTION.md", "reproduction.json"} {
		out := t.TempDir()
		path := filepath.Join(out, name)
		if err := os.Mkdir(path, 0o777); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := cli(t, "reproduce", "-data", t.TempDir(), "-datasets", "absent", "-methods", "svc", "-out", out)
		if want := "-out " + path + ": cannot write: is a directory"; code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s a directory: exit %d, stderr %q; want 1 and %q", name, code, stderr, want)
		}
		if strings.Contains(stderr, "absent: skipped") {
			t.Errorf("%s a directory: the run started before the output was checked:\n%s", name, stderr)
		}
	}
}

// TestReproduceFromWithoutData: -from renders a report whose data sets are
// not under -data, with a warning that the Reach section leaves them out.
func TestReproduceFromWithoutData(t *testing.T) {
	dir := t.TempDir()
	rec := reproduce.Record{Dataset: "jain", Method: reproduce.BSGDR, N: 373, Status: "ok", NMI: reproduce.Stat{Mean: 0.5}}
	rep := &reproduce.Report{Records: []reproduce.Record{rec}}
	f, err := os.Create(filepath.Join(dir, "reproduction.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, _, stderr := cli(t, "reproduce", "-from", filepath.Join(dir, "reproduction.json"), "-data", t.TempDir(), "-out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "leaves out the Reach") || !strings.Contains(stderr, "jain.csv") {
		t.Errorf("no warning naming jain.csv: %q", stderr)
	}
	md, err := os.ReadFile(filepath.Join(dir, "REPRODUCTION.md"))
	if err != nil || strings.Contains(string(md), "## Why the grid of C") {
		t.Errorf("report: %v; Reach section present without data", err)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

	// The extended grid runs by default: BSGD-PNN, the budgeted method,
	// on the two sets read (60 points each), C over the default extended
	// grid (9 values) and the 2 γ of -gamma-grid; SVC and "absent" do not.
	for _, want := range []string{
		"- Faithful tables: all but those of the section \"Beyond the paper's grid: C up to 2¹¹\"",
		"## Beyond the paper's grid: C up to 2¹¹",
		"reruns the budgeted method BSGD-PNN on the 2 data sets of at most 1000 points (gauss3, moons) with C ∈ {0.03125, 0.125, 0.5, 2, 8, 32, 128, 512, 2048}",
		"### NMI and setting chosen with C up to 2¹¹",
		"- Runs: both parts come from one run",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPRODUCTION.md lacks %q", want)
		}
	}
	var full struct {
		Records  []map[string]any
		Extended struct {
			Protocol struct{ Cs []float64 }
			Records  []map[string]any
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "reproduction.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &full); err != nil {
		t.Fatal(err)
	}
	if len(full.Records) != 6 || len(full.Extended.Records) != 2 || !slices.Equal(full.Extended.Protocol.Cs, reproduce.ExtendedGrid()) {
		t.Errorf("reproduction.json: %d records, %d extended, extended Cs %v; want 6, 2, the extended grid", len(full.Records), len(full.Extended.Records), full.Extended.Protocol.Cs)
	}
	for _, r := range full.Extended.Records {
		if r["method"] != "bsgd-pnn" || r["status"] != "ok" || r["grid_total"] != 18.0 {
			t.Errorf("extended record %v/%v: %v, grid %v; want bsgd-pnn ok, 18 points", r["dataset"], r["method"], r["status"], r["grid_total"])
		}
	}
	if !strings.Contains(stderr, "extended grid, C ∈ {0.03125,0.125,0.5,2,8,32,128,512,2048}: 2 data sets × 1 methods") {
		t.Errorf("stderr lacks the extended grid's progress:\n%s", stderr)
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

// TestReproducePaperFrom: -extended-C-grid none runs the paper's grid
// alone, as before; -paper-from then takes those records and runs only
// the extended grid, and the report says that the parts come from two
// runs.
func TestReproducePaperFrom(t *testing.T) {
	data, out := tinyData(t), t.TempDir()
	code, _, stderr := cli(t, tinyReproduce(data, out, "-quiet", "-extended-C-grid", "none")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	paper, err := os.ReadFile(filepath.Join(out, "reproduction.json"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "REPRODUCTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(paper), `"extended"`) || strings.Contains(string(md), "Beyond the paper's grid") {
		t.Errorf("-extended-C-grid none wrote an extended part")
	}

	out2 := t.TempDir()
	code, _, stderr = cli(t, "reproduce", "-data", data, "-paper-from", filepath.Join(out, "reproduction.json"),
		"-extended-C-grid", "8,32,128", "-out", out2, "-quiet")
	if code != 0 {
		t.Fatalf("-paper-from: exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(out2, "reproduction.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := reproduce.ReadReport(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	old, err := reproduce.ReadReport(strings.NewReader(string(paper)))
	if err != nil {
		t.Fatal(err)
	}
	// The paper part is the file's: same records, command and date.
	a, _ := json.Marshal(old.Records)
	b, _ := json.Marshal(rep.Records)
	if string(a) != string(b) || rep.Date != old.Date || rep.Command != old.Command {
		t.Errorf("-paper-from changed the paper part")
	}
	// The extended part: BSGD-PNN on gauss3 and moons, the file's 2 γ
	// (its -gamma-grid) × 3 C, the file's 2 runs.
	e := rep.Extended
	if e == nil || len(e.Records) != 2 || !slices.Equal(e.Protocol.Cs, []float64{8, 32, 128}) || e.Protocol.Runs != 2 {
		t.Fatalf("extended part %+v", e)
	}
	for _, r := range e.Records {
		if r.Method != reproduce.BSGDPNN || r.GridTotal != 6 || !r.OK() {
			t.Errorf("extended record %s/%s: %s, grid %d", r.Dataset, r.Method, r.Status, r.GridTotal)
		}
	}
	md2, err := os.ReadFile(filepath.Join(out2, "REPRODUCTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Beyond the paper's grid: C up to 2⁷", "**two runs of different dates**", "- Extended part: command `svclust reproduce -data "} {
		if !strings.Contains(string(md2), want) {
			t.Errorf("REPRODUCTION.md lacks %q", want)
		}
	}

	// A report that has an extended part cannot take another; the input
	// is never an output.
	code, _, stderr = cli(t, "reproduce", "-data", data, "-paper-from", filepath.Join(out2, "reproduction.json"), "-out", t.TempDir(), "-quiet")
	if code != 1 || !strings.Contains(stderr, "already has an extended part") {
		t.Errorf("-paper-from a combined report: exit %d, %q", code, stderr)
	}
	code, _, stderr = cli(t, "reproduce", "-data", data, "-paper-from", filepath.Join(out, "reproduction.json"), "-out", out, "-quiet")
	if code != 2 || !strings.Contains(stderr, "is the same file as -paper-from") {
		t.Errorf("-paper-from OUT/reproduction.json: exit %d, %q", code, stderr)
	}
}

func TestReproduceUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"-methods", "svc,kmeans"}, "-methods"},
		{[]string{"-runs", "0"}, "-runs"},
		{[]string{"-svc-timeout", "-1s"}, "-svc-timeout"},
		// The deprecated old name sets the same limit.
		{[]string{"-svc-budget", "-1s"}, "-svc-timeout"},
		{[]string{"-grid-budget", "-1s"}, "-grid-timeout"},
		{[]string{"-paper-from", "r.json", "-runs-budget", "1s"}, "-runs-budget"},
		{[]string{"-fsvc-grid", "0.5,2"}, "-fsvc-grid"},
		{[]string{"-datasets", "../iris"}, "-datasets"},
		{[]string{"-skip", "musk"}, "-skip"},
		{[]string{"extra"}, "unexpected"},
		{[]string{"-extended-C-grid", "8,x"}, "-extended-C-grid"},
		{[]string{"-extended-C-grid", "8,-1"}, "-extended-C-grid"},
		{[]string{"-extended-C-grid", "8,,32"}, "-extended-C-grid"},
		{[]string{"-paper-from", "r.json", "-extended-C-grid", "none"}, "-extended-C-grid none"},
		{[]string{"-paper-from", "r.json", "-extended-C-grid", ""}, "-extended-C-grid none"}, // "" is none
		{[]string{"-paper-from", "r.json", "-runs", "3"}, "-runs"},
		{[]string{"-paper-from", "r.json", "-C-grid", "1,2"}, "-C-grid"},
		{[]string{"-paper-from", "r.json", "-from", "r.json"}, "-from"},
	} {
		code, _, stderr := cli(t, append([]string{"reproduce", "-out", t.TempDir()}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.flag) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", tc.args, code, stderr, tc.flag)
		}
	}
}

// TestReproduceDeprecatedHidden checks that -h lists the time limits under
// their names and not under their deprecated ones.
func TestReproduceDeprecatedHidden(t *testing.T) {
	t.Parallel()
	_, _, stderr := cli(t, "reproduce", "-h")
	for _, name := range []string{"-grid-timeout", "-runs-timeout", "-svc-timeout"} {
		if !strings.Contains(stderr, name+" ") {
			t.Errorf("reproduce -h lacks %s:\n%s", name, stderr)
		}
	}
	if strings.Contains(stderr, "-budget") || strings.Contains(stderr, "deprecated") {
		t.Errorf("reproduce -h lists a deprecated flag:\n%s", stderr)
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

// TestReproduceNoData checks that a -data holding none of the data sets
// (a typo) fails naming -data and leaves the report of before as it was:
// it was replaced by one of 105 skipped pairs, exit 0.
func TestReproduceNoData(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	md := filepath.Join(out, "REPRODUCTION.md")
	if err := os.WriteFile(md, []byte("the report of before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(out, "no-such-dir"), t.TempDir(), md} {
		code, _, errs := cli(t, "reproduce", "-quiet", "-data", dir, "-out", out)
		if code != 1 || !strings.Contains(errs, "-data "+dir) {
			t.Errorf("-data %s: exit %d, %s", dir, code, errs)
		}
	}
	// A data set whose row 3 has no label: the pair cannot run, and the
	// report of before stays.
	data := tinyData(t)
	path := filepath.Join(data, "gauss3.csv")
	lines := strings.Split(readFile(t, path), "\n")
	lines[3] = lines[3][:strings.LastIndexByte(lines[3], ',')+1]
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := cli(t, "reproduce", "-quiet", "-data", data, "-datasets", "gauss3", "-methods", "svc", "-gamma-grid", "1", "-C-grid", "8", "-out", out)
	if code != 1 || !strings.Contains(errs, "gauss3.csv:4: the label is missing") || !strings.Contains(errs, "the report is not written") {
		t.Errorf("a label missing: exit %d, %s", code, errs)
	}
	if readFile(t, md) != "the report of before\n" {
		t.Error("the report was replaced")
	}
}

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svclust/svclust/modelfile"
)

// runOf returns the run section of the model file path.
func runOf(t *testing.T, path string) (*modelfile.Run, int) {
	t.Helper()
	var mf struct {
		Version int            `json:"version"`
		Run     *modelfile.Run `json:"run"`
	}
	if err := json.Unmarshal([]byte(readFile(t, path)), &mf); err != nil {
		t.Fatal(err)
	}
	if mf.Run == nil {
		t.Fatalf("%s has no run section", path)
	}
	return mf.Run, mf.Version
}

// TestModelRunInfo: every model file records how it was made (issue 13):
// the tool, the seed, strategy and budget and how it was chosen, the
// cluster rule, γ and C and how they were chosen, the data's name, rows
// and SHA-256 (computed here independently), and the creation time.
func TestModelRunInfo(t *testing.T) {
	in := genFile(t, "gauss3", 200)
	sum := sha256.Sum256([]byte(readFile(t, in)))
	hash := hex.EncodeToString(sum[:])
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }

	mustCLI(t, "fit", "-budget", "20", "-seed", "5", "-maintain", "project-knn", "-k", "3", "-gamma", "2", "-model", p("a.json"), in)
	r, v := runOf(t, p("a.json"))
	want := modelfile.Run{Tool: readBuildInfo().String(), Created: "2023-11-14T22:13:20Z", Seed: 5, Strategy: "project-knn", Budget: 20, BudgetFrom: "given", Rule: "levels", K: 3,
		Gamma: 2, GammaFrom: "given", C: r.C, CFrom: "auto", Width: "global", Data: in, Rows: 200, DataSHA256: hash}
	if v != modelfile.Version || *r != want {
		t.Errorf("version %d, run %+v\nwant version %d, run %+v", v, *r, modelfile.Version, want)
	}
	if !(r.C > 0) || !strings.HasPrefix(r.Tool, "svclust ") {
		t.Errorf("C %v, tool %q", r.C, r.Tool)
	}
	if m := readFile(t, p("a.json")); withoutRun(m) == m {
		t.Error("withoutRun removed nothing")
	}

	mustCLI(t, "fit", "-budget", "20", "-stream", "-sample", "50", "-model", p("b.json"), in)
	if r, _ := runOf(t, p("b.json")); r.Sample != 50 || r.Rows != 200 || r.DataSHA256 != hash || r.GammaFrom != "auto" || r.Strategy != "merge" ||
		r.Rule != "levels" || r.BudgetFrom != "given" || r.Budget != 20 || r.Width != "adaptive" {
		t.Errorf("-stream run %+v", *r)
	}
	mustCLI(t, "tune", "-gamma-grid", "1,2", "-C-grid", "8", "-model", p("c.json"), in)
	if r, _ := runOf(t, p("c.json")); r.GammaFrom != "tune" || r.CFrom != "tune" || r.C != 8 || r.DataSHA256 != hash {
		t.Errorf("tune run %+v", *r)
	}
	// The kernel-width rule: adaptive by default (b.json), global when
	// asked for.
	mustCLI(t, "fit", "-width", "global", "-model", p("w.json"), in)
	if r, _ := runOf(t, p("w.json")); r.Width != "global" || r.GammaFrom != "auto" {
		t.Errorf("-width global run %+v", *r)
	}
	mustCLI(t, "fit", "-budget", "0", "-model", p("d.json"), in)
	// The budget used: −1 (svclust.NoBudget) for none.
	if r, _ := runOf(t, p("d.json")); r.Strategy != "none" || r.Budget != -1 || r.BudgetFrom != "given" {
		t.Errorf("no-budget run %+v", *r)
	}
	// -budget auto records the budget Choose picked, the one fit -json
	// reports; -rule is recorded as given.
	out := mustCLI(t, "fit", "-rule", "components", "-json", "-model", p("f.json"), in)
	rep := (&robustRun{stdout: out}).report(t)
	if r, _ := runOf(t, p("f.json")); r.BudgetFrom != "auto" || r.Budget != rep.Budget || r.Budget < 50 || r.Rule != "components" ||
		rep.Choice == nil || !rep.Choice.BudgetAuto || rep.Rule != "components" {
		t.Errorf("auto-budget run %+v, fit -json budget %d, rule %q, choice %+v", *r, rep.Budget, rep.Rule, rep.Choice)
	}

	// Without SOURCE_DATE_EPOCH the time is the time of the run.
	t.Setenv("SOURCE_DATE_EPOCH", "")
	before := time.Now().Add(-time.Second)
	mustCLI(t, "fit", "-budget", "20", "-model", p("e.json"), in)
	r, _ = runOf(t, p("e.json"))
	if c, err := time.Parse(time.RFC3339, r.Created); err != nil || c.Before(before.Truncate(time.Second)) || c.After(time.Now()) {
		t.Errorf("created %q (%v), want the time of the run", r.Created, err)
	}
}

// TestModelVersions: a file of a version newer than this svclust reads
// is refused clearly. (Every older form loads and labels as it did:
// package modelfile's TestOldFiles.)
func TestModelVersions(t *testing.T) {
	in := genFile(t, "gauss3", 200)
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	mustCLI(t, "fit", "-budget", "20", "-model", m, in)
	cur := fmt.Sprintf(`"version":%d,`, modelfile.Version)
	next := writeFile(t, "next.json", strings.Replace(readFile(t, m), cur, fmt.Sprintf(`"version":%d,`, modelfile.Version+1), 1))
	for _, cmd := range []string{"predict", "score"} {
		code, _, stderr := cli(t, cmd, "-model", next, in)
		if code != 1 || !strings.Contains(stderr, fmt.Sprintf("model file version %d is newer than this svclust reads", modelfile.Version+1)) {
			t.Errorf("%s of a version %d file: exit %d\n%s", cmd, modelfile.Version+1, code, stderr)
		}
	}
}

// TestVersion: svclust version prints the module version line and the Go
// version.
func TestVersion(t *testing.T) {
	out := mustCLI(t, "version")
	if !strings.HasPrefix(out, "svclust ") || !strings.Contains(out, "go1.") {
		t.Errorf("version printed %q", out)
	}
	if code, _, _ := cli(t, "version", "x"); code != 2 {
		t.Errorf("version x: exit %d, want 2", code)
	}
}

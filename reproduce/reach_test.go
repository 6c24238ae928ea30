package reproduce

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestReach checks Reach on three points whose mean kernel values follow
// by hand: two at 0 (class 0) and one at 10 (class 1).
//   - γ = 1: k(0, 10) = e⁻¹⁰⁰ ≈ 4e−44, so the means are 2/3 at 0 and 1/3 at
//     10 (to far below an ulp). With the largest C of the grid, 2, the
//     threshold 1/C = 1/2 admits the two points of class 0 only: all 2/3,
//     worst class 0.
//   - γ = 10⁻⁴: k(0, 10) = e^(−0.01) ≈ 0.990, and the mean at 10 is
//     (1 + 2·0.990)/3 ≈ 0.993 ≥ 1/2: every point, all 1, worst 1.
func TestReach(t *testing.T) {
	d := &Data{DataSet: Lookup("jain"), X: mat.NewDense(3, 1, []float64{0, 0, 10}), Labels: []int{0, 0, 1}, Classes: 2}
	for _, workers := range []int{1, 3} {
		p := &Protocol{Gammas: []float64{1, 1e-4}, Cs: []float64{0.5, 2}, Workers: workers}
		r := p.Reach(d)
		// 2/3 is computed as 2.0/3.0 in both places: exact equality.
		if r.Dataset != "jain" || r.C != 2 || len(r.All) != 2 || len(r.Worst) != 2 {
			t.Fatalf("workers %d: Reach = %+v", workers, r)
		}
		if r.All[0] != 2.0/3 || r.Worst[0] != 0 || r.All[1] != 1 || r.Worst[1] != 1 {
			t.Errorf("workers %d: All %v, Worst %v; want [2/3 1], [0 1]", workers, r.All, r.Worst)
		}
	}
	// With the largest C 4 the threshold 1/4 admits the point at 10 at
	// γ = 1 too (1/3 ≥ 1/4).
	r := (&Protocol{Gammas: []float64{1}, Cs: []float64{4}}).Reach(d)
	if r.All[0] != 1 || r.Worst[0] != 1 {
		t.Errorf("C = 4: All %v, Worst %v; want [1], [1]", r.All, r.Worst)
	}

	var buf bytes.Buffer
	rep := &Report{Records: []Record{fakeRecord("jain", 373, BSGDR, 0.5, 0)}}
	rep.Reach = []Reach{(&Protocol{Gammas: []float64{1, 1e-4}, Cs: []float64{2}}).Reach(d)}
	if err := rep.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Why the grid of C limits", "| Dataset | C | γ = 1 | γ = 0.0001 |", "| Jain | 2 | 0.67 / 0.00 | 1.00 / 1.00 |"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestReportsRendered: the committed report is what the code renders from
// its JSON, with the Reach section computed from the data (as
// `svclust reproduce -from` does). It skips without the data.
func TestReportsRendered(t *testing.T) {
	dir := "../../shared/datasets"
	if _, err := os.Stat(filepath.Join(dir, "iris.csv")); err != nil {
		t.Skipf("the paper's data sets are not in %s: %v", dir, err)
	}
	const doc = "../docs"
	f, err := os.Open(filepath.Join(doc, "reproduction.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ReadReport(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.AddReach(dir); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(doc, "REPRODUCTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("%s/REPRODUCTION.md is not what reproduce -from renders: run svclust reproduce -from %s/reproduction.json -out %s", doc, doc, doc)
	}
}

// TestAddReachMissing: a data set that cannot be read is left out of
// Reach, and its error is returned.
func TestAddReachMissing(t *testing.T) {
	rep := &Report{Records: []Record{fakeRecord("jain", 373, BSGDR, 0.5, 0)}}
	err := rep.AddReach(t.TempDir())
	if !errors.Is(err, fs.ErrNotExist) || len(rep.Reach) != 0 {
		t.Errorf("AddReach on an empty directory: %v, %d rows", err, len(rep.Reach))
	}
}

// TestCommittedReportParts: the committed report's JSON holds both parts,
// the paper's grid in records and the extended grid under "extended", and
// its Markdown without the extended part's lines and section is what the
// paper-grid records alone render.
func TestCommittedReportParts(t *testing.T) {
	f, err := os.Open("../docs/reproduction.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ReadReport(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Extended == nil || len(rep.Extended.Records) == 0 {
		t.Fatal("docs/reproduction.json has no extended part")
	}
	if !slices.Equal(orDefault(rep.Protocol.Cs, Grid), Grid()) || !slices.Equal(rep.Extended.Protocol.Cs, ExtendedGrid()) {
		t.Errorf("grids of C %v and %v; want the paper's and ExtendedGrid", rep.Protocol.Cs, rep.Extended.Protocol.Cs)
	}
	for _, r := range rep.Extended.Records {
		if !r.Method.Budgeted() || r.N > SmallLimit {
			t.Errorf("extended record %s/%s (N %d) outside the scope", r.Dataset, r.Method, r.N)
		}
	}
	for _, r := range rep.Records {
		if r.OK() && r.C > slices.Max(Grid()) {
			t.Errorf("paper-grid record %s/%s has C = %g", r.Dataset, r.Method, r.C)
		}
	}
	checkPaperPart(t, rep)
}

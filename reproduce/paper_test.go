package reproduce

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/svclust/svclust/dataset"
)

// paperTeX is the paper's LaTeX source, relative to this package.
const paperTeX = "../../shared/paper/scalable-svc-budget.tex"

// titleToName maps the paper's row titles to our data set names.
func titleToName() map[string]string {
	m := map[string]string{}
	for _, d := range dataSets {
		m[d.Title] = d.Name
	}
	return m
}

// parseTeXTable returns the rows of the LaTeX table labelled label, in
// order: the data set title, the budget in "{[}B{]}" and the six values
// with \textbf and thousands separators removed.
func parseTeXTable(t *testing.T, tex, label string) (titles []string, budgets []int, rows [][]float64) {
	t.Helper()
	end := strings.Index(tex, `\label{`+label+`}`)
	if end < 0 {
		t.Fatalf("no \\label{%s} in the paper", label)
	}
	start := strings.LastIndex(tex[:end], `\begin{table}`)
	row := regexp.MustCompile(`^(.*?) \{\[\}(\d+)\{\]\}\s*&(.*)\\tabularnewline`)
	bold := regexp.MustCompile(`\\textbf\{(.*)\}`)
	for _, line := range strings.Split(tex[start:end], "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		b, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatal(err)
		}
		var vals []float64
		for _, f := range strings.Split(m[3], "&") {
			f = bold.ReplaceAllString(strings.TrimSpace(f), "$1")
			v, err := strconv.ParseFloat(strings.ReplaceAll(f, ",", ""), 64)
			if err != nil {
				t.Fatalf("%s: cell %q: %v", label, f, err)
			}
			vals = append(vals, v)
		}
		titles = append(titles, strings.TrimSpace(m[1]))
		budgets = append(budgets, b)
		rows = append(rows, vals)
	}
	return titles, budgets, rows
}

// TestPaperTables compares every cell of the transcribed tables, and the
// row order and budgets of DataSets, with the paper's LaTeX source.
func TestPaperTables(t *testing.T) {
	b, err := os.ReadFile(paperTeX)
	if err != nil {
		t.Skipf("paper source not available (%v): the transcription cannot be checked", err)
	}
	tex := string(b)
	names := titleToName()
	for _, tab := range Tables() {
		titles, budgets, rows := parseTeXTable(t, tex, tab.Label)
		if len(rows) != len(dataSets) {
			t.Fatalf("%s: %d rows in the paper, %d data sets", tab.Label, len(rows), len(dataSets))
		}
		for i, title := range titles {
			name, ok := names[title]
			if !ok {
				t.Fatalf("%s: unknown row %q", tab.Label, title)
			}
			if name != dataSets[i].Name || budgets[i] != dataSets[i].Budget {
				t.Errorf("%s: row %d is %s [%d], DataSets has %s [%d]", tab.Label, i, name, budgets[i], dataSets[i].Name, dataSets[i].Budget)
			}
			if len(rows[i]) != 6 {
				t.Fatalf("%s: %s has %d cells, want 6", tab.Label, title, len(rows[i]))
			}
			for j, m := range methods[:6] {
				got, ok := Paper(tab.Index, name, m)
				// The transcription must be the same decimal literal,
				// so the floats are equal exactly.
				if !ok || got != rows[i][j] {
					t.Errorf("%s: %s %s = %v (%v), paper %v", tab.Label, name, m, got, ok, rows[i][j])
				}
			}
		}
	}
}

func TestPaperLookup(t *testing.T) {
	// Spot checks typed from the paper's PDF-visible tables: NMI of
	// Spiral with BSGD-R (Table tab:nmi) and the clustering time of Shuttle
	// with SVC ("1,972.61", Table tab:clustime).
	if v, ok := Paper(NMI, "spiral", BSGDR); !ok || v != 0.85 {
		t.Errorf("Paper(NMI, spiral, BSGD-R) = %v, %v; want 0.85", v, ok)
	}
	if v, ok := Paper(ClusterTime, "shuttle", SVC); !ok || v != 1972.61 {
		t.Errorf("Paper(ClusterTime, shuttle, SVC) = %v, %v; want 1972.61", v, ok)
	}
	if _, ok := Paper(NMI, "spiral", BSGDM); ok {
		t.Error("the paper has no BSGD-M column")
	}
	if _, ok := Paper(NMI, "moons", SVC); ok {
		t.Error("the paper has no moons row")
	}
	if d := Lookup("shuttle"); d.Budget != 100 || d.Title != "Shuttle" {
		t.Errorf("Lookup(shuttle) = %+v", d)
	}
	if d := Lookup("tiny"); d.Budget != DefaultBudget || d.Title != "tiny" {
		t.Errorf("Lookup(tiny) = %+v", d)
	}
	for _, m := range Methods() {
		got, err := ParseMethod(strings.ToUpper(string(m)))
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %q, %v", m, got, err)
		}
	}
	if _, err := ParseMethod("kmeans"); err == nil {
		t.Error("ParseMethod(kmeans): no error")
	}
}

// TestPurityNoteSets: the purity note names every data set on which one of
// the paper's purities is below the share of the largest class, the least
// standard purity can be (one cluster), and says how many there are. The
// shares come from the data files; it skips without them.
func TestPurityNoteSets(t *testing.T) {
	dir := "../../shared/datasets"
	if _, err := os.Stat(filepath.Join(dir, "iris.csv")); err != nil {
		t.Skipf("the paper's data sets are not in %s: %v", dir, err)
	}
	note := Tables()[Purity].Note
	below := 0
	for _, ds := range DataSets() {
		if _, ok := Paper(Purity, ds.Name, SVC); !ok {
			continue // not one of the paper's sets
		}
		d, err := Load(dir, ds, dataset.ScaleNone)
		if err != nil {
			t.Fatal(err)
		}
		size := make([]int, d.Classes)
		for _, l := range d.Labels {
			size[l]++
		}
		share := float64(slices.Max(size)) / float64(len(d.Labels))
		for _, m := range Methods() {
			// The paper's values have 2 decimals: below by more than
			// the rounding, 0.005.
			if v, ok := Paper(Purity, ds.Name, m); ok && v < share-0.005 {
				below++
				if !strings.Contains(note, ds.Title+" ") {
					t.Errorf("note does not name %s (%s %.2f, largest class %.2f)", ds.Title, m.Title(), v, share)
				}
				break
			}
		}
	}
	if want := fmt.Sprintf("on %d of the 15 sets", below); !strings.Contains(note, want) {
		t.Errorf("note lacks %q", want)
	}
}

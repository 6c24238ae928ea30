package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// recorded returns a fitted file whose run record is what svclust fit
// writes: γ, C and the budget of the model, and how they were chosen.
func recorded(t testing.TB) (*File, []byte) {
	t.Helper()
	m, _ := fitted(t, 60)
	ch := m.Model.Choice
	m.Run = &Run{
		Tool: "test", Created: "2023-11-14T22:13:20Z", Seed: 1, Strategy: "merge",
		Budget: ch.Budget, BudgetFrom: "given", Rule: "levels",
		Gamma: m.Model.Gamma, GammaFrom: "auto", C: m.Model.C, CFrom: "auto", Width: "adaptive",
		Data: "gauss3.csv", Rows: 60, DataSHA256: strings.Repeat("ab", 32),
	}
	if m.Model.Gammas == nil {
		m.Run.Width = "global"
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return m, buf.Bytes()
}

// TestTamperedFiles: a model file that is valid JSON but contradicts
// itself is refused with an error that names the field (issue 26: a run
// record of γ = 5 "given" beside a model γ of 18.79, or run.rows = −300,
// were accepted).
func TestTamperedFiles(t *testing.T) {
	_, good := recorded(t)
	if _, err := Read(bytes.NewReader(good), 0); err != nil {
		t.Fatalf("the untampered file: %v", err)
	}
	for _, c := range []struct{ name, old, new, msg string }{
		{"run gamma given", `"gamma_from":"auto"`, `"gamma_from":"given"`, "run: gamma_from"},
		{"run gamma value", `"run":{`, `"run":{"gamma":5,"x":0,`, "duplicate key"},
		{"run rows", `"rows":60`, `"rows":-300`, "run: rows: -300 is negative"},
		{"run sample", `"rows":60`, `"rows":60,"sample":61`, "run: sample: 61 rows sampled of 60"},
		{"run budget", `"strategy":"merge"`, `"strategy":"merge","k":-1`, "run: k"},
		{"run width", `"width":"adaptive"`, `"width":"global"`, "run: width"},
		{"run width name", `"width":"adaptive"`, `"width":"wide"`, "run: width"},
		{"run rule", `"rule":"levels","gamma"`, `"rule":"components","gamma"`, "run: rule"},
		{"run C_from", `"C_from":"auto"`, `"C_from":"guess"`, "run: C_from"},
		{"run budget_from", `"budget_from":"given"`, `"budget_from":"auto"`, "run: budget_from"},
		{"run sha", `"data_sha256":"abab`, `"data_sha256":"zz`, "run: data_sha256"},
		{"run created", `"created":"2023-11-14T22:13:20Z"`, `"created":"yesterday"`, "run: created"},
		{"stats updates", `"updates":`, `"updates":1e9,"x":`, `model.stats.updates: number 1e9 is not a whole number (in digits)`},
		{"stats more updates than iterations", `"iterations":`, `"iterations":0,"iterationsx":`, "unknown field"},
		{"nan", `"objective":`, `"objective":NaN,"x":`, "invalid character"},
		{"inf", `"objective":`, `"objective":1e999,"x":`, "model.stats.objective: number 1e999 is not a number within float64"},
		{"negative iterations", `"iterations":`, `"iterations":-1,"x":`, "unknown field"},
		{"sv_cluster out of range", `"sv_cluster":[`, `"sv_cluster":[99,`, "support-vector clusters for"},
		{"clusters", `"clusters":3`, `"clusters":2`, "birth levels for 2 clusters"},
		{"negative m", `"m":20`, `"m":-20`, "m = -20"},
	} {
		in := strings.Replace(string(good), c.old, c.new, 1)
		if in == string(good) {
			t.Errorf("%s: the file has no %s", c.name, c.old)
			continue
		}
		_, err := Read(strings.NewReader(in), 0)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.msg)
		}
		if err != nil && !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v does not wrap ErrFormat", c.name, err)
		}
	}
	// Fields set through the decoded form, where a textual edit is awkward.
	for _, c := range []struct {
		name string
		edit func(m map[string]any)
		msg  string
	}{
		{"run gamma", func(m map[string]any) { run(m)["gamma"] = 5.0; run(m)["gamma_from"] = "given" }, "run: gamma: 5 (given), but the model's gamma is"},
		{"run C", func(m map[string]any) { run(m)["C"] = 1.5 }, "run: C: 1.5"},
		{"run budget", func(m map[string]any) { run(m)["budget"] = 3.0 }, "run: budget: 3"},
		{"run budget −2", func(m map[string]any) { run(m)["budget"] = -2.0 }, "run: budget: -2"},
		{"choice gamma", func(m map[string]any) { choice(m)["gamma"] = 5.0 }, "choice: gamma = 5"},
		{"choice c", func(m map[string]any) { choice(m)["c"] = 5.0 }, "choice: c = 5"},
		{"choice narrowed", func(m map[string]any) { choice(m)["narrowed"] = 1e6 }, "choice: narrowed"},
		{"stats updates", func(m map[string]any) { stats(m)["updates"] = 1e12 }, "stats: 1000000000000 updates"},
		{"stats negative", func(m map[string]any) { stats(m)["maintenance"] = -1.0 }, "negative count in stats"},
		{"cluster without SV", func(m map[string]any) {
			p := m["partition"].(map[string]any)
			sc := p["sv_cluster"].([]any)
			for i := range sc {
				sc[i] = 0.0
			}
		}, "holds no support vector"},
	} {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		c.edit(m)
		in, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Read(bytes.NewReader(in), 0)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v, want ErrFormat with %q", c.name, err, c.msg)
		}
	}
}

func run(m map[string]any) map[string]any { return m["run"].(map[string]any) }
func choice(m map[string]any) map[string]any {
	return m["model"].(map[string]any)["choice"].(map[string]any)
}
func stats(m map[string]any) map[string]any {
	return m["model"].(map[string]any)["stats"].(map[string]any)
}

// TestDeepNesting: a file nested a million deep is refused at depth
// 10,000 (jsonkeys.MaxDepth), having read about that many bytes, rather
// than after 337 MB.
func TestDeepNesting(t *testing.T) {
	n := 1_000_000
	in := `{"format":"svclust-model","version":5,"run":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + "}"
	r := &countingReader{r: strings.NewReader(in)}
	_, err := Read(r, 0)
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") || !errors.Is(err, ErrFormat) {
		t.Fatalf("error %v, want ErrFormat, nested too deeply", err)
	}
	if r.n > 1<<20 {
		t.Errorf("read %d bytes before refusing, want at most 1 MiB", r.n)
	}
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// consistencyFields are the numbers of a model file that
// FuzzConsistency sets, as paths of keys.
var consistencyFields = [][]string{
	{"run", "gamma"}, {"run", "C"}, {"run", "budget"}, {"run", "rows"}, {"run", "sample"}, {"run", "k"}, {"run", "seed"},
	{"model", "gamma"}, {"model", "c"}, {"model", "dim"},
	{"model", "stats", "iterations"}, {"model", "stats", "updates"}, {"model", "stats", "maintenance"},
	{"model", "stats", "objective"}, {"model", "stats", "objective_rows"},
	{"model", "choice", "gamma"}, {"model", "choice", "c"}, {"model", "choice", "budget"}, {"model", "choice", "sample"},
	{"model", "choice", "narrowed"}, {"model", "choice", "cover"},
	{"partition", "m"}, {"partition", "clusters"},
	{"model", "alpha", "0"}, {"model", "gammas", "0"}, {"model", "sv", "0", "0"},
	{"partition", "sv_cluster", "0"}, {"partition", "birth", "0"},
	{"scaler", "mul", "0"}, {"scaler", "shift", "0"},
}

// FuzzConsistency: a model file with any one number changed either is
// refused (wrapping ErrFormat) or is consistent: its run record agrees
// with its model, it writes and reads back to the same bytes, and it
// labels finite rows with clusters in [−1, clusters) and finite scores.
func FuzzConsistency(f *testing.F) {
	_, good := recorded(f)
	f.Add(uint8(0), 5.0)
	f.Add(uint8(3), -300.0)
	f.Add(uint8(21), 1.0)
	f.Add(uint8(26), 99.0)
	f.Add(uint8(23), 1e308)
	f.Fuzz(func(t *testing.T, field uint8, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return // JSON has no such number
		}
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		path := consistencyFields[int(field)%len(consistencyFields)]
		var cur any = m
		for i, k := range path {
			last := i == len(path)-1
			switch c := cur.(type) {
			case map[string]any:
				if last {
					c[k] = v
				} else {
					cur = c[k]
				}
			case []any:
				if len(c) == 0 {
					return
				}
				if last {
					c[0] = v
				} else {
					cur = c[0]
				}
			default:
				return
			}
		}
		in, err := json.Marshal(m)
		if err != nil {
			return
		}
		mf, err := Read(bytes.NewReader(in), 0)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("%v = %v: error %v does not wrap ErrFormat", path, v, err)
			}
			return
		}
		if r := mf.Run; r != nil && (r.Gamma != mf.Model.Gamma || r.C != mf.Model.C || r.Rows < 0 || r.Sample < 0) {
			// recorded writes every field, so none reads as "not recorded".
			t.Fatalf("%v = %v: loaded a run record that contradicts the model: %+v", path, v, r)
		}
		var a, b bytes.Buffer
		if err := mf.Write(&a); err != nil {
			t.Fatalf("%v = %v: loaded, but does not write: %v", path, v, err)
		}
		back, err := Read(bytes.NewReader(a.Bytes()), 0)
		if err != nil {
			t.Fatalf("%v = %v: written, but does not read back: %v", path, v, err)
		}
		if err := back.Write(&b); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%v = %v: not the same bytes written again (%v)", path, v, err)
		}
		x := mat.NewDense(3, mf.Model.Dim(), nil)
		for i := range 3 {
			for j := range mf.Model.Dim() {
				x.Set(i, j, float64(i-j))
			}
		}
		if scores, err := mf.Score(nil, x, 1); err == nil {
			for _, s := range scores {
				if math.IsNaN(s) || math.IsInf(s, 0) {
					t.Fatalf("%v = %v: score %v", path, v, s)
				}
			}
		}
		if mf.Partition != nil {
			if labels, err := mf.Predict(nil, x, 1); err == nil {
				for _, l := range labels {
					if l < -1 || l >= mf.Partition.Clusters() {
						t.Fatalf("%v = %v: label %d of %d clusters", path, v, l, mf.Partition.Clusters())
					}
				}
			}
		}
	})
}

package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// trainGauss3 trains a small model on the Gauss3 set (γ and C automatic:
// adaptive widths) and, unless method is nil, clusters it; the file has
// the identity scaling.
func trainGauss3(t *testing.T, method cluster.Method) (*File, *dataset.Dataset) {
	t.Helper()
	ds, err := dataset.Generate(dataset.Gauss3, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	f := &File{Scale: dataset.ScaleNone, Scaler: &dataset.Scaler{Shift: []float64{0, 0}, Mul: []float64{1, 1}}, Model: m}
	if method != nil {
		cl, err := cluster.Fit(m, ds.X, method)
		if err != nil {
			t.Fatal(err)
		}
		f.Partition = cl.Partition
	}
	return f, ds
}

// TestRoundTripRules: a file of either rule, or without a partition,
// reads back to the same model (scores bit for bit, Choice and Stats but
// the runtime), the same partition (labels) and the same bytes.
func TestRoundTripRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method cluster.Method
	}{
		{"unclustered", nil},
		{"strip", &cluster.Components{}},
		{"all", &cluster.Components{All: true}},
		{"outliers", &cluster.Components{Outliers: true}},
		{"levels", &cluster.Levels{}},
		{"levels outliers", &cluster.Levels{Outliers: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, ds := trainGauss3(t, tc.method)
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
			m := f.Model
			if m.Gammas == nil || !bytes.Contains(b.Bytes(), []byte(`"gammas":[`)) {
				t.Fatalf("adaptive widths %v, file %.80s", m.Gammas != nil, b.Bytes())
			}
			got, err := Read(bytes.NewReader(b.Bytes()), 0)
			if err != nil {
				t.Fatal(err)
			}
			// Same inputs through the same computation: compare with ==.
			want := m.Score(nil, ds.X, 1)
			have := got.Model.Score(nil, ds.X, 1)
			for i := range want {
				if math.Float64bits(want[i]) != math.Float64bits(have[i]) {
					t.Fatalf("score %d: got %v, want %v", i, have[i], want[i])
				}
			}
			st := m.Stats
			st.Runtime = 0
			if !slices.Equal(got.Model.Gammas, m.Gammas) || got.Model.Gamma != m.Gamma || got.Model.C != m.C ||
				got.Model.Status != m.Status || got.Model.Stats != st || got.Model.Choice != m.Choice {
				t.Errorf("model differs: got %+v, want %+v", got.Model, m)
			}
			if tc.method == nil {
				if got.Partition != nil {
					t.Fatal("a partition from a file without one")
				}
				if _, err := got.Predict(nil, ds.X, 1); !errors.Is(err, ErrNotClustered) {
					t.Errorf("Predict without a partition: %v", err)
				}
			} else {
				p, q := f.Partition, got.Partition
				if q.Model() != got.Model || q.Rule() != p.Rule() || q.Clusters() != p.Clusters() || q.Outliers() != p.Outliers() {
					t.Errorf("partition: got %v, %d clusters, outliers %v; want %v, %d, %v",
						q.Rule(), q.Clusters(), q.Outliers(), p.Rule(), p.Clusters(), p.Outliers())
				}
				if !slices.Equal(p.Predict(nil, ds.X, 1), q.Predict(nil, ds.X, 2)) {
					t.Error("the partition read back labels differently")
				}
			}
			var again bytes.Buffer
			if err := got.Write(&again); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
				t.Errorf("second round trip changed the file (%v)", err)
			}
		})
	}
}

// TestWriteInvalid: a model Read would reject is not written, nor a file
// whose other parts Read would reject (they were written, and could then
// never be loaded again).
func TestWriteInvalid(t *testing.T) {
	for name, m := range map[string]*svclust.Model{
		"empty": {},
		"nan":   func() *svclust.Model { f, _ := trainGauss3(t, nil); f.Model.Alpha[0] = math.NaN(); return f.Model }(),
	} {
		f := &File{Scaler: &dataset.Scaler{}, Model: m}
		var b bytes.Buffer
		if err := f.Write(&b); !errors.Is(err, svclust.ErrNotTrained) || b.Len() != 0 {
			t.Errorf("%s: %v after %d bytes", name, err, b.Len())
		}
	}
	for name, edit := range map[string]func(f *File){
		"features too many": func(f *File) { f.Features = []string{"a", "b", "c"} },
		"features twice":    func(f *File) { f.Features = []string{"a", "a"} },
		"feature is label":  func(f *File) { f.Features, f.Label = []string{"a", "label"}, "label" },
		"scaler short":      func(f *File) { f.Scaler = &dataset.Scaler{Shift: []float64{0}, Mul: []float64{-1}} },
		"scaler NaN":        func(f *File) { f.Scaler.Shift[0] = math.NaN() },
		"scaler tiny":       func(f *File) { f.Scaler.Mul[0] = 5e-324 },
		"none not identity": func(f *File) { f.Scale, f.Scaler.Mul[1] = dataset.ScaleNone, 2 },
		"run rows":          func(f *File) { f.Run = &Run{Rows: -5} },
	} {
		f, _ := trainGauss3(t, &cluster.Levels{})
		f.Scale = dataset.ScaleZScore
		f.Scaler = &dataset.Scaler{Shift: []float64{0, 0}, Mul: []float64{1, 1}}
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatalf("%s: the file before the edit: %v", name, err)
		}
		edit(f)
		b.Reset()
		if err := f.Write(&b); err == nil || b.Len() != 0 {
			t.Errorf("%s: %v after %d bytes", name, err, b.Len())
		}
	}
	f, _ := trainGauss3(t, &cluster.Levels{})
	other, _ := trainGauss3(t, nil)
	f.Model = other.Model
	if err := f.Write(&bytes.Buffer{}); err == nil {
		t.Error("a partition of another model was written")
	}
}

// failWriter accepts n bytes, then fails.
type failWriter struct{ n int }

var errWrite = errors.New("disk full")

func (w *failWriter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		k := w.n
		w.n = 0
		return k, errWrite
	}
	w.n -= len(b)
	return len(b), nil
}

// TestWriteErrors checks that Write, which streams through a buffer,
// reports a failing writer at any point of the file (the buffer is 64 KiB,
// so the cut points include the final flush and writes in the middle of
// the strip), and that an invalid model writes nothing.
func TestWriteErrors(t *testing.T) {
	ds, err := dataset.Generate(dataset.Moons, 20000, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := cluster.Fit(m, ds.X, &cluster.Components{})
	if err != nil {
		t.Fatal(err)
	}
	f := &File{Scaler: &dataset.Scaler{Shift: []float64{0, 0}, Mul: []float64{1, 1}}, Model: m, Partition: cl.Partition}
	var all strings.Builder
	if err := f.Write(&all); err != nil {
		t.Fatal(err)
	}
	size := all.Len()
	if size < 3*64<<10 {
		t.Fatalf("model file of %d bytes does not span several buffers", size)
	}
	for _, n := range []int{0, 1, 64 << 10, size / 2, size - 1} {
		if err := f.Write(&failWriter{n: n}); !errors.Is(err, errWrite) {
			t.Errorf("writer failing after %d of %d bytes: got %v", n, size, err)
		}
	}
	m.Alpha[0] = math.Inf(1)
	w := &failWriter{n: 1 << 30}
	if err := f.Write(w); !errors.Is(err, svclust.ErrNotTrained) || w.n != 1<<30 {
		t.Errorf("invalid model: got %v after writing %d bytes", err, 1<<30-w.n)
	}
}

// TestCorrupt: every corrupt or hostile model file (bad JSON, wrong
// format, non-finite or out-of-range values, sizes that disagree or that
// declare 10⁹ values and more) fails with an error, leaves the File
// unchanged, and allocates in proportion to the file.
func TestCorrupt(t *testing.T) {
	fc, _ := trainGauss3(t, &cluster.Components{})
	b, err := json.Marshal(fc)
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	fl, _ := trainGauss3(t, &cluster.Levels{})
	bl, err := json.Marshal(fl)
	if err != nil {
		t.Fatal(err)
	}
	// editFile decodes a good file, applies f and encodes it again; edit
	// edits the file of the Components rule, editL that of LevelTree.
	editFile := func(b []byte, f func(map[string]any)) string {
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		f(v)
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	edit := func(f func(map[string]any)) string { return editFile(b, f) }
	editL := func(f func(map[string]any)) string { return editFile(bl, f) }
	part := func(v map[string]any) map[string]any { return v["partition"].(map[string]any) }
	mod := func(v map[string]any) map[string]any { return v["model"].(map[string]any) }
	tests := []struct {
		name, in string
	}{
		{"empty", ""},
		{"null", "null"},
		{"truncated", good[:len(good)/2]},
		{"trailing", good + "{}"},
		{"array", "[]"},
		{"wrong format", edit(func(v map[string]any) { v["format"] = "other" })},
		{"no format", edit(func(v map[string]any) { delete(v, "format") })},
		{"wrong version", edit(func(v map[string]any) { v["version"] = 9 })},
		{"no choice", edit(func(v map[string]any) { delete(mod(v), "choice") })},
		{"choice count negative", edit(func(v map[string]any) { mod(v)["choice"].(map[string]any)["cover"] = -1 })},
		{"model with format", edit(func(v map[string]any) { mod(v)["format"] = "svclust-model" })},
		{"model with partition", edit(func(v map[string]any) { mod(v)["partition"] = part(v) })},
		{"levels without rule", editL(func(v map[string]any) { delete(part(v), "rule") })},
		{"levels birth long", editL(func(v map[string]any) { part(v)["birth"] = append(part(v)["birth"].([]any), 1.0) })},
		{"outlier shift overflows", editL(func(v map[string]any) { part(v)["outlier_spread"] = []any{1e-320, 1.0} })},
		{"outlier radius negative", editL(func(v map[string]any) { part(v)["outlier_radius"].([]any)[0] = -1.0 })},
		// "gammas": one positive, finite width per support vector.
		{"gammas short", edit(func(v map[string]any) { mod(v)["gammas"] = ones(len(mod(v)["alpha"].([]any)) - 1) })},
		{"gammas zero", edit(func(v map[string]any) {
			g := ones(len(mod(v)["alpha"].([]any)))
			g[1] = 0.0
			mod(v)["gammas"] = g
		})},
		{"unknown rule", edit(func(v map[string]any) { part(v)["rule"] = "density" })},
		{"components with sv_cluster", edit(func(v map[string]any) { part(v)["sv_cluster"] = []any{0} })},
		{"levels sv_cluster short", editL(func(v map[string]any) { s := part(v)["sv_cluster"].([]any); part(v)["sv_cluster"] = s[1:] })},
		{"levels sv_cluster out of range", editL(func(v map[string]any) { part(v)["sv_cluster"].([]any)[0] = 99 })},
		{"levels birth short", editL(func(v map[string]any) { part(v)["birth"] = []any{} })},
		{"levels birth string", editL(func(v map[string]any) { part(v)["birth"].([]any)[0] = "NaN" })},
		{"levels clusters beyond svs", editL(func(v map[string]any) { part(v)["clusters"] = 1 << 40 })},
		{"levels with strip", editL(func(v map[string]any) { part(v)["strip"] = []any{[]any{1.0, 2.0}} })},
		{"levels m one", editL(func(v map[string]any) { part(v)["m"] = 1 })},
		{"unknown key", edit(func(v map[string]any) { v["extra"] = 1 })},
		// Duplicate keys (issue 13): encoding/json keeps the last value, so
		// a file could show one γ to a reader and hide another.
		{"duplicate gamma", strings.Replace(good, `"model":{"gamma":`, `"model":{"gamma":-1,"gamma":`, 1)},
		{"duplicate gamma, valid both", strings.Replace(good, `"model":{"gamma":`, `"model":{"gamma":2,"gamma":`, 1)},
		{"duplicate nested key", strings.Replace(good, `"iterations":`, `"iterations":1,"iterations":`, 1)},
		{"gamma zero", edit(func(v map[string]any) { mod(v)["gamma"] = 0 })},
		{"gamma negative", edit(func(v map[string]any) { mod(v)["gamma"] = -1 })},
		{"gamma NaN string", edit(func(v map[string]any) { mod(v)["gamma"] = "NaN" })},
		{"gamma overflow", strings.Replace(good, `"model":{"gamma":`, `"model":{"gamma":1e999,"x":`, 1)},
		{"C zero", edit(func(v map[string]any) { mod(v)["c"] = 0 })},
		{"dim zero", edit(func(v map[string]any) { mod(v)["dim"] = 0 })},
		{"huge dim", edit(func(v map[string]any) {
			mod(v)["dim"] = 1 << 40
			mod(v)["sv"] = []any{[]any{1.0}}
			mod(v)["alpha"] = []any{1.0}
		})},
		{"huge dim overflow", edit(func(v map[string]any) { mod(v)["dim"] = 1e30 })},
		{"ragged sv", edit(func(v map[string]any) { mod(v)["sv"].([]any)[1] = []any{1.0} })},
		{"no sv", edit(func(v map[string]any) { mod(v)["sv"] = []any{}; mod(v)["alpha"] = []any{} })},
		{"null sv", edit(func(v map[string]any) { mod(v)["sv"] = nil })},
		{"alpha short", edit(func(v map[string]any) { a := mod(v)["alpha"].([]any); mod(v)["alpha"] = a[1:] })},
		{"alpha string", edit(func(v map[string]any) { mod(v)["alpha"].([]any)[0] = "Inf" })},
		{"sv NaN", edit(func(v map[string]any) { mod(v)["sv"].([]any)[0].([]any)[0] = "NaN" })},
		{"bad status", edit(func(v map[string]any) { mod(v)["status"] = "done" })},
		{"no stats", edit(func(v map[string]any) { delete(mod(v), "stats") })},
		{"negative iterations", edit(func(v map[string]any) { mod(v)["stats"].(map[string]any)["iterations"] = -1 })},
		{"negative updates", edit(func(v map[string]any) { mod(v)["stats"].(map[string]any)["updates"] = -5 })},
		{"negative eps", edit(func(v map[string]any) { part(v)["eps"] = -1 })},
		{"m one", edit(func(v map[string]any) { part(v)["m"] = 1 })},
		{"clusters zero", edit(func(v map[string]any) { part(v)["clusters"] = 0 })},
		{"negative clusters", edit(func(v map[string]any) { part(v)["clusters"] = -3 })},
		{"no equilibria", edit(func(v map[string]any) { delete(part(v), "equilibria") })},
		{"no partition rule", edit(func(v map[string]any) { delete(part(v), "rule") })},
		{"empty equilibria", edit(func(v map[string]any) { part(v)["equilibria"] = []any{}; part(v)["equilibrium_cluster"] = []any{} })},
		{"ragged equilibria", edit(func(v map[string]any) { part(v)["equilibria"].([]any)[0] = []any{1.0, 2.0, 3.0} })},
		{"equilibrium cluster short", edit(func(v map[string]any) { part(v)["equilibrium_cluster"] = []any{} })},
		{"equilibrium cluster out of range", edit(func(v map[string]any) { part(v)["equilibrium_cluster"].([]any)[0] = 99 })},
		{"negative anchors", edit(func(v map[string]any) { part(v)["anchors"] = -1 })},
		{"anchors beyond equilibria", edit(func(v map[string]any) { part(v)["anchors"] = 1 << 40 })},
		{"strip cluster negative", edit(func(v map[string]any) { part(v)["strip_cluster"].([]any)[0] = -1 })},
		{"strip mismatch", edit(func(v map[string]any) { s := part(v)["strip_cluster"].([]any); part(v)["strip_cluster"] = s[1:] })},
		{"no strip", edit(func(v map[string]any) { part(v)["strip"] = []any{}; part(v)["strip_cluster"] = []any{} })},
		{"strip with all", edit(func(v map[string]any) { part(v)["all"] = true })},
		{"ragged strip", edit(func(v map[string]any) { part(v)["strip"].([]any)[0] = []any{} })},
		{"negative dim", edit(func(v map[string]any) { mod(v)["dim"] = -2 })},
		{"huge clusters", edit(func(v map[string]any) { part(v)["clusters"] = 1_000_000_000 })},
		{"max int clusters", edit(func(v map[string]any) { part(v)["clusters"] = math.MaxInt64 })},
		{"NaN alpha", strings.Replace(good, `"alpha":[`, `"alpha":[NaN,`, 1)},
		{"overflowing alpha", strings.Replace(good, `"alpha":[`, `"alpha":[1e999,`, 1)},
		{"alpha sum overflow", edit(func(v map[string]any) { a := mod(v)["alpha"].([]any); a[0], a[1] = 1e308, -1e308 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got File
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Read(strings.NewReader(tc.in), 0)
			uerr := json.Unmarshal([]byte(tc.in), &got)
			runtime.ReadMemStats(&after)
			if err == nil || uerr == nil {
				t.Fatalf("no error for %.200s", tc.in)
			}
			if got.Model != nil {
				t.Error("file changed on error")
			}
			// Loading allocates in proportion to the file, never to the
			// sizes it declares: 64 MiB is far above what decoding a file
			// of a few kilobytes needs and far below the 8 GB that 10⁹
			// declared values would take.
			if a := after.TotalAlloc - before.TotalAlloc; a > 64<<20 {
				t.Errorf("loading allocated %d bytes", a)
			}
		})
	}
	// Errors of content wrap the format sentinel.
	if _, err := Read(strings.NewReader(`{"format":"svclust-model","version":5}`), 0); !errors.Is(err, ErrFormat) {
		t.Errorf("got %v, want ErrFormat", err)
	}
}

// ones returns n values 1.0 as a JSON array.
func ones(n int) []any {
	v := make([]any, n)
	for i := range v {
		v[i] = 1.0
	}
	return v
}

package cluster_test

import (
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

// trainGauss3 trains a small model on the Gauss3 set and, unless cc is nil,
// clusters it.
func trainGauss3(t *testing.T, cc *cluster.Config) (*svclust.Model, *cluster.Partition, *dataset.Dataset) {
	t.Helper()
	ds, err := dataset.Generate(dataset.Gauss3, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if cc == nil {
		return m, nil, ds
	}
	cl, err := cluster.Fit(m, ds.X, cc)
	if err != nil {
		t.Fatal(err)
	}
	return m, cl.Partition, ds
}

// isZero reports whether p is the zero Partition, whose methods panic.
func isZero(p *cluster.Partition) (zero bool) {
	defer func() { zero = recover() != nil }()
	p.Model()
	return false
}

func TestModelJSONRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		cc   *cluster.Config
	}{
		{"unclustered", nil},
		{"strip", &cluster.Config{Rule: cluster.Components}},
		{"all", &cluster.Config{Rule: cluster.Components, All: true}},
		{"outliers", &cluster.Config{Rule: cluster.Components, Outliers: true}},
		{"levels", &cluster.Config{}},
		{"levels outliers", &cluster.Config{Outliers: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, p, ds := trainGauss3(t, tc.cc)
			var b []byte
			var err error
			if p == nil {
				b, err = json.Marshal(m)
			} else {
				b, err = json.Marshal(p)
			}
			if err != nil {
				t.Fatal(err)
			}
			// γ and C automatic: adaptive widths, which versions 3 on
			// store, and c_auto, which version 4 added (ModelVersion).
			if m.Gammas == nil || !strings.Contains(string(b), `"version":4,`) || !strings.Contains(string(b), `"gammas":[`) ||
				!strings.Contains(string(b), `"c_auto":true,`) {
				t.Fatalf("adaptive widths %v, file %.80s", m.Gammas != nil, b)
			}
			var got svclust.Model
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			// Same inputs through the same computation: compare with ==.
			want := m.Score(nil, ds.X, 1)
			have := got.Score(nil, ds.X, 1)
			for i := range want {
				if math.Float64bits(want[i]) != math.Float64bits(have[i]) {
					t.Fatalf("score %d: got %v, want %v", i, have[i], want[i])
				}
			}
			if !slices.Equal(got.Gammas, m.Gammas) || got.Gamma != m.Gamma || got.C != m.C || got.Status != m.Status ||
				got.Choice.CAuto != m.Choice.CAuto || got.Stats.Iterations != m.Stats.Iterations || got.Stats.Objective != m.Stats.Objective {
				t.Errorf("header differs: got %+v, want %+v", got, m)
			}
			// The model alone, as a Model read from any model file
			// writes it: with its partition null.
			bm, err := json.Marshal(&got)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(bm), `"partition":null`) {
				t.Errorf("partition not null in %s", bm)
			}
			var gotp cluster.Partition
			err = json.Unmarshal(b, &gotp)
			if tc.cc == nil {
				if !errors.Is(err, cluster.ErrNotClustered) || !isZero(&gotp) {
					t.Fatalf("a Partition from a model file without one: %v", err)
				}
				if string(b) != string(bm) {
					t.Error("second round trip changed the file")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if gotp.Rule() != p.Rule() || gotp.Clusters() != p.Clusters() || gotp.Outliers() != p.Outliers() {
				t.Errorf("partition: got %v, %d clusters, outliers %v; want %v, %d, %v",
					gotp.Rule(), gotp.Clusters(), gotp.Outliers(), p.Rule(), p.Clusters(), p.Outliers())
			}
			pw := p.Predict(nil, ds.X, 1)
			ph := gotp.Predict(nil, ds.X, 1)
			for i := range pw {
				if pw[i] != ph[i] {
					t.Fatalf("label %d: got %d, want %d", i, ph[i], pw[i])
				}
			}
			// A second round trip gives the same bytes.
			b2, err := json.Marshal(&gotp)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != string(b2) {
				t.Error("second round trip changed the file")
			}
		})
	}
}

func TestModelJSONMarshalInvalid(t *testing.T) {
	for name, m := range map[string]*svclust.Model{
		"empty": {},
		"nan":   func() *svclust.Model { m, _, _ := trainGauss3(t, nil); m.Alpha[0] = math.NaN(); return m }(),
	} {
		if _, err := json.Marshal(m); err == nil {
			t.Errorf("%s: no error", name)
		}
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

// TestWriteJSONErrors checks that WriteJSON, which streams through a
// buffer, reports a failing writer at any point of the file (the buffer
// is 64 KiB, so the cut points include the final flush and writes in the
// middle of the strip), and that an invalid model writes nothing.
func TestWriteJSONErrors(t *testing.T) {
	ds, err := dataset.Generate(dataset.Moons, 20000, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := cluster.Fit(m, ds.X, &cluster.Config{Rule: cluster.Components})
	if err != nil {
		t.Fatal(err)
	}
	p := cl.Partition
	var all strings.Builder
	if err := p.WriteJSON(&all); err != nil {
		t.Fatal(err)
	}
	size := all.Len()
	if size < 3*64<<10 {
		t.Fatalf("model file of %d bytes does not span several buffers", size)
	}
	for _, n := range []int{0, 1, 64 << 10, size / 2, size - 1} {
		if err := p.WriteJSON(&failWriter{n: n}); !errors.Is(err, errWrite) {
			t.Errorf("writer failing after %d of %d bytes: got %v", n, size, err)
		}
	}
	m.Alpha[0] = math.Inf(1)
	w := &failWriter{n: 1 << 30}
	if err := p.WriteJSON(w); !errors.Is(err, svclust.ErrModelFormat) || w.n != 1<<30 {
		t.Errorf("invalid model: got %v after writing %d bytes", err, 1<<30-w.n)
	}
}

// TestModelJSONCorrupt: every corrupt or hostile model file (bad JSON,
// wrong format, non-finite or out-of-range values, sizes that disagree or
// that declare 10⁹ values and more) fails with an error, leaves the model
// unchanged, and allocates in proportion to the file.
func TestModelJSONCorrupt(t *testing.T) {
	_, p, _ := trainGauss3(t, &cluster.Config{Rule: cluster.Components})
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	_, pl, _ := trainGauss3(t, &cluster.Config{})
	bl, err := json.Marshal(pl)
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
		{"wrong version", edit(func(v map[string]any) { v["version"] = 5 })},
		// Version 4 added "c_auto", present from version 4 on only.
		{"c_auto in version 3", edit(func(v map[string]any) { v["version"] = 3 })},
		{"no c_auto in version 4", edit(func(v map[string]any) { delete(v, "c_auto") })},
		{"c_auto not a bool", edit(func(v map[string]any) { v["c_auto"] = 1 })},
		// Version 3 added "gammas" (modeljson.go, check): one positive,
		// finite width per support vector, in version 3 only.
		{"gammas in version 2", edit(func(v map[string]any) {
			v["version"], v["gammas"] = 2, ones(len(v["alpha"].([]any)))
			delete(v, "c_auto")
		})},
		{"gammas short", edit(func(v map[string]any) {
			v["version"] = 3
			v["gammas"] = ones(len(v["alpha"].([]any)) - 1)
			delete(v, "c_auto")
		})},
		{"gamma zero", edit(func(v map[string]any) {
			g := ones(len(v["alpha"].([]any)))
			g[1] = 0.0
			v["version"], v["gammas"] = 3, g
			delete(v, "c_auto")
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
		{"duplicate gamma", strings.Replace(good, `"gamma":`, `"gamma":-1,"gamma":`, 1)},
		{"duplicate gamma, valid both", strings.Replace(good, `"gamma":`, `"gamma":2,"gamma":`, 1)},
		{"duplicate nested key", strings.Replace(good, `"iterations":`, `"iterations":1,"iterations":`, 1)},
		{"gamma zero", edit(func(v map[string]any) { v["gamma"] = 0 })},
		{"gamma negative", edit(func(v map[string]any) { v["gamma"] = -1 })},
		{"gamma NaN string", edit(func(v map[string]any) { v["gamma"] = "NaN" })},
		{"gamma overflow", strings.Replace(good, `"gamma":`, `"gamma":1e999,"x":`, 1)},
		{"C zero", edit(func(v map[string]any) { v["c"] = 0 })},
		{"dim zero", edit(func(v map[string]any) { v["dim"] = 0 })},
		{"huge dim", edit(func(v map[string]any) { v["dim"] = 1 << 40; v["sv"] = []any{[]any{1.0}}; v["alpha"] = []any{1.0} })},
		{"huge dim overflow", edit(func(v map[string]any) { v["dim"] = 1e30 })},
		{"ragged sv", edit(func(v map[string]any) { v["sv"].([]any)[1] = []any{1.0} })},
		{"no sv", edit(func(v map[string]any) { v["sv"] = []any{}; v["alpha"] = []any{} })},
		{"null sv", edit(func(v map[string]any) { v["sv"] = nil })},
		{"alpha short", edit(func(v map[string]any) { a := v["alpha"].([]any); v["alpha"] = a[1:] })},
		{"alpha string", edit(func(v map[string]any) { v["alpha"].([]any)[0] = "Inf" })},
		{"sv NaN", edit(func(v map[string]any) { v["sv"].([]any)[0].([]any)[0] = "NaN" })},
		{"bad status", edit(func(v map[string]any) { v["status"] = "done" })},
		{"no stats", edit(func(v map[string]any) { delete(v, "stats") })},
		{"negative iterations", edit(func(v map[string]any) { v["stats"].(map[string]any)["iterations"] = -1 })},
		{"negative updates", edit(func(v map[string]any) { v["stats"].(map[string]any)["updates"] = -5 })},
		{"negative eps", edit(func(v map[string]any) { part(v)["eps"] = -1 })},
		{"m one", edit(func(v map[string]any) { part(v)["m"] = 1 })},
		{"clusters zero", edit(func(v map[string]any) { part(v)["clusters"] = 0 })},
		{"negative clusters", edit(func(v map[string]any) { part(v)["clusters"] = -3 })},
		{"no equilibria", edit(func(v map[string]any) { delete(part(v), "equilibria") })},
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
		{"negative dim", edit(func(v map[string]any) { v["dim"] = -2 })},
		{"huge clusters", edit(func(v map[string]any) { part(v)["clusters"] = 1_000_000_000 })},
		{"max int clusters", edit(func(v map[string]any) { part(v)["clusters"] = math.MaxInt64 })},
		{"NaN alpha", strings.Replace(good, `"alpha":[`, `"alpha":[NaN,`, 1)},
		{"overflowing alpha", strings.Replace(good, `"alpha":[`, `"alpha":[1e999,`, 1)},
		{"alpha sum overflow", edit(func(v map[string]any) { a := v["alpha"].([]any); a[0], a[1] = 1e308, -1e308 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got svclust.Model
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := json.Unmarshal([]byte(tc.in), &got)
			if err == nil {
				err = got.UnmarshalJSON([]byte(tc.in))
			}
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatalf("no error for %.200s", tc.in)
			}
			// encoding/json rejects invalid JSON (NaN, a truncated file)
			// before calling UnmarshalJSON, with a *json.SyntaxError.
			var syntax *json.SyntaxError
			if !errors.Is(err, svclust.ErrModelFormat) && !errors.As(err, &syntax) {
				t.Errorf("got %v, want ErrModelFormat or a syntax error", err)
			}
			if got.SV != nil {
				t.Error("model changed on error")
			}
			// A Partition validates the same file the same way.
			var gotp cluster.Partition
			perr := json.Unmarshal([]byte(tc.in), &gotp)
			if !errors.Is(perr, svclust.ErrModelFormat) && !errors.As(perr, &syntax) {
				t.Errorf("Partition: got %v, want ErrModelFormat or a syntax error", perr)
			}
			if !isZero(&gotp) {
				t.Error("partition changed on error")
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
	// Direct calls report the format sentinel.
	var x svclust.Model
	if err := x.UnmarshalJSON([]byte(`{"format":"svclust-model","version":9}`)); !errors.Is(err, svclust.ErrModelFormat) {
		t.Errorf("got %v, want ErrModelFormat", err)
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

// TestRefitLoadedModel: a model written to a file and read back clusters
// again exactly as the one Train returned, on each of the 16 generated
// kinds with every default. Before version 4 of the model file, which
// stores whether C was automatic (read by the LevelTree rule), 7 of the
// kinds clustered differently when loaded (birch 1 → 4 clusters, spirals3
// 9 → 16, cube 1 → 2, ...).
func TestRefitLoadedModel(t *testing.T) {
	for _, kind := range dataset.AllKinds() {
		ds, err := dataset.Generate(kind, 300, 1)
		if err != nil {
			t.Fatal(err)
		}
		dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
		m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		fit, err := cluster.Fit(m, ds.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(fit.Partition)
		if err != nil {
			t.Fatal(err)
		}
		var loaded svclust.Model
		if err := json.Unmarshal(b, &loaded); err != nil {
			t.Fatal(err)
		}
		if loaded.Choice.CAuto != m.Choice.CAuto || loaded.Stats.Iterations != m.Stats.Iterations {
			t.Errorf("%s: loaded CAuto %v, iterations %d; want %v, %d", kind,
				loaded.Choice.CAuto, loaded.Stats.Iterations, m.Choice.CAuto, m.Stats.Iterations)
		}
		again, err := cluster.Fit(&loaded, ds.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(again.Labels, fit.Labels) {
			t.Errorf("%s: the loaded model clusters into %d clusters, fit's into %d", kind, again.Clusters, fit.Clusters)
		}
	}
}

// TestModelJSONOlderVersions: files of versions 2 and 3, which have no
// "c_auto", still load, as models with a given C, and label as before.
func TestModelJSONOlderVersions(t *testing.T) {
	_, p, ds := trainGauss3(t, &cluster.Config{})
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []int{2, 3} {
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		v["version"] = version
		delete(v, "c_auto")
		if version == 2 {
			delete(v, "gammas") // a model of one width: its labels change
		}
		old, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m svclust.Model
		if err := json.Unmarshal(old, &m); err != nil {
			t.Fatalf("version %d: %v", version, err)
		}
		if m.Choice.CAuto {
			t.Errorf("version %d: CAuto set without c_auto", version)
		}
		var q cluster.Partition
		if err := json.Unmarshal(old, &q); err != nil {
			t.Fatalf("version %d: %v", version, err)
		}
		if version == 3 && !slices.Equal(q.Predict(nil, ds.X, 1), p.Predict(nil, ds.X, 1)) {
			t.Errorf("version %d: labels differ", version)
		}
	}
}

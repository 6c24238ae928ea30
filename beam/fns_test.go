package beam

import (
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/util/jsonx"

	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/sample"
	"github.com/svclust/svclust/settings"
)

// TestTrainFnCarriesSettings checks that the train step's settings reach
// the worker whole: Beam sends a DoFn to its workers as JSON (jsonx, the
// encoder of its graph), and the worker must build the library's
// configurations that the settings build here.
func TestTrainFnCarriesSettings(t *testing.T) {
	st := settings.Default()
	st.Gamma, st.C, st.Budget = settings.Float{Value: 2.5}, settings.Float{Value: 40}, settings.Int{Value: 300}
	st.Maintain, st.K, st.KGiven = "project-knn", 3, true
	st.Tol, st.MaxIter, st.MinIter, st.M, st.Seed, st.Workers = 1e-4, 5000, 100, 7, 99, 3
	st.Width, st.MinSize, st.Outliers, st.Sample = "global", settings.Int{Value: 12}, true, 500
	for _, rule := range []string{"levels", "components"} {
		st.Rule = rule
		if rule == "components" {
			st.MinSize, st.Eps = settings.Int{Auto: true}, settings.Float{Value: 0.3}
		}
		o := &Options{Settings: st, Tool: "test"}
		f := &trainFn{Names: []string{"x1", "x2"}, Model: "m.json", Settings: o.settings(), Tool: o.Tool, Data: "in*"}
		b, err := jsonx.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var g trainFn
		if err := jsonx.Unmarshal(&g, b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&g, f) {
			t.Errorf("-rule %s: the worker's train step\n%+v\nwant\n%+v", rule, g, *f)
		}
		cfg, err := g.Settings.Config()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := st.Config()
		if !reflect.DeepEqual(cfg, want) {
			t.Errorf("-rule %s: train config on the worker\n%+v\nwant\n%+v", rule, cfg, want)
		}
		m, err := g.Settings.ClusterMethod()
		if err != nil {
			t.Fatal(err)
		}
		// The pipeline labels every row by the partition: with -rule
		// components every sample row follows its trajectory.
		switch c := m.(type) {
		case *cluster.Levels:
			if rule != "levels" || c.MinSize != st.MinSize.Value || !c.Outliers || c.M != 7 || c.Workers != 3 {
				t.Errorf("-rule %s: cluster method on the worker %+v", rule, c)
			}
		case *cluster.Components:
			if rule != "components" || !c.All || c.Eps != st.Eps.Value || !c.Outliers || c.M != 7 || c.Workers != 3 {
				t.Errorf("-rule %s: cluster method on the worker %+v", rule, c)
			}
		}
	}
}

// TestTrainOverflow checks that the train step names the file, line and
// feature of a sample value that overflows when scaled, now that it
// scales through settings.Settings.FitRows, the pipeline of fit and the
// Python package.
func TestTrainOverflow(t *testing.T) {
	st := settings.Default()
	st.Scale = "none"
	o := &Options{Settings: st, Tool: "test"}
	f := &trainFn{Names: []string{"x1", "x2"}, Model: "m.json", Settings: o.settings(), Tool: o.Tool, Data: "in*"}
	fitter := dataset.NewScaleFitter(dataset.ScaleNone, 2)
	s := sample.NewBottomK(10)
	rows := [][]float64{{0, 1}, {1, 2}, {2, -1e200}, {3, 4}}
	for i, r := range rows {
		fitter.Add(r)
		s.Add(uint64(i), sample.RowID{File: "a.csv", Line: i + 2}, r)
	}
	_, err := f.train(summary{Files: []filePart{{File: "a.csv", Moments: fitter}}, Sample: s})
	want := `a.csv:4: feature "x2": the value -1e+200 overflows when scaled (to -1e+200)`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}

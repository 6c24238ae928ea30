package beam

import (
	"reflect"
	"testing"

	"github.com/svclust/svclust"

	"github.com/svclust/svclust/cluster"
)

// TestSettingsCarryOptions checks that the train step trains and clusters
// with every field of Options.Train and Options.Cluster that a pipeline
// can carry to a worker (all but Progress; Seed is Options.Seed): settings
// is their encodable copy, and a field left out of it is silently dropped
// on the worker. A field added to svclust.Config or cluster.Config fails
// the count below until this test, and settings, know it.
func TestSettingsCarryOptions(t *testing.T) {
	o := &Options{
		Seed: 7,
		Train: svclust.Config{Gamma: 2.5, C: 40, Budget: 300, Maintainer: svclust.Projection{Pick: svclust.Nearest, K: 3},
			Tol: 1e-4, MaxIter: 5000, MinIter: 100, Seed: 99, Workers: 3, Width: svclust.GlobalWidth},
		Cluster: cluster.Config{Rule: cluster.LevelTree, MinSize: 12, RippleZ: -1, LevelPower: 0.8, Outliers: true,
			M: 7, Neighbors: 9, Workers: 3},
	}
	if n := reflect.TypeFor[svclust.Config]().NumField(); n != 11 {
		t.Errorf("svclust.Config has %d fields, this test sets 10 of 11 (all but Progress): check settings", n)
	}
	if n := reflect.TypeFor[cluster.Config]().NumField(); n != 11 {
		t.Errorf("cluster.Config has %d fields, this test sets 10 of 11 (all but Progress): check settings", n)
	}
	f := newTrainFn(o, &Plan{Names: []string{"x1", "x2"}})
	cfg, err := f.Settings.config()
	if err != nil {
		t.Fatal(err)
	}
	want := o.Train
	want.Seed = o.Seed
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("train config on the worker\n%+v\nwant\n%+v", cfg, want)
	}
	if got := f.Settings.cluster(); !reflect.DeepEqual(got, o.Cluster) {
		t.Errorf("cluster config on the worker\n%+v\nwant\n%+v", got, o.Cluster)
	}
	// Components: Eps and All, which LevelTree leaves at zero; All is
	// set by the pipeline, so that Predict can label new rows.
	o.Cluster = cluster.Config{Rule: cluster.Components, Eps: 0.3, Outliers: true}
	f = newTrainFn(o, &Plan{Names: []string{"x1", "x2"}})
	want2 := o.Cluster
	want2.All = true
	if got := f.Settings.cluster(); !reflect.DeepEqual(got, want2) {
		t.Errorf("components config on the worker\n%+v\nwant\n%+v", got, want2)
	}
}

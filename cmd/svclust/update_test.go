package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// batches writes the rows of gen's gauss3 of 3·n rows as three CSV files
// of n rows each.
func batches(t *testing.T, n int) []string {
	t.Helper()
	all := strings.SplitAfter(readFile(t, genFile(t, "gauss3", 3*n)), "\n")
	head := all[0]
	var out []string
	for k := range 3 {
		out = append(out, writeFile(t, "b"+string(rune('0'+k))+".csv", head+strings.Join(all[1+k*n:1+(k+1)*n], "")))
	}
	return out
}

// fromModel returns the bytes of a model file from "model": on: what
// every front end writes alike (the run record names the tool and data).
func fromModel(t *testing.T, b []byte) []byte {
	t.Helper()
	i := bytes.Index(b, []byte(`"model":`))
	if i < 0 {
		t.Fatalf("no model in %.80q", b)
	}
	return b[i:]
}

func TestUpdate(t *testing.T) {
	b := batches(t, 600)
	dir := t.TempDir()
	m0, m1, m2, m2w := filepath.Join(dir, "m0.json"), filepath.Join(dir, "m1.json"), filepath.Join(dir, "m2.json"), filepath.Join(dir, "m2w.json")
	mustCLI(t, "fit", "-seed", "2", "-model", m0, b[0])
	var rep struct {
		Clusters int `json:"clusters"`
		Update   struct {
			RowsSeen int   `json:"rows_seen"`
			Batches  int   `json:"batches"`
			IDs      []int `json:"ids"`
			Born     []int `json:"born"`
		} `json:"update"`
	}
	if err := json.Unmarshal([]byte(mustCLI(t, "update", "-from", m0, "-model", m1, "-json", b[1])), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Update.RowsSeen != 1200 || rep.Update.Batches != 1 || rep.Clusters != 3 || len(rep.Update.IDs) != 3 || len(rep.Update.Born) != 0 {
		t.Errorf("update -json: %+v", rep)
	}
	labels := filepath.Join(dir, "l2.csv")
	mustCLI(t, "update", "-from", m1, "-model", m2, "-o", labels, "-workers", "1", b[2])
	mustCLI(t, "update", "-from", m1, "-model", m2w, "-workers", "2", b[2])
	if readFile(t, m2) != readFile(t, m2w) {
		t.Error("the updated model depends on -workers")
	}
	// The labels written are the stable ids predict gives.
	if got := mustCLI(t, "predict", "-model", m2, b[2]); got != readFile(t, labels) {
		t.Error("update -o differs from predict with the updated model")
	}
	if !regexp.MustCompile(`"training":\{"steps":\d+,"rows":1800,"batches":2,`).MatchString(readFile(t, m2)) {
		t.Error("the model file does not record 1,800 rows seen in 2 updates")
	}

	// The library's update of the same file and rows: the same model,
	// partition and ids.
	f, err := modelfile.ReadFile(m0, 0)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.ReadFile(b[1], dataset.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Scaler.Transform(ds.X)
	m, err := svclust.Update(context.Background(), f.Model, ds.X, &svclust.UpdateConfig{Maintainer: svclust.Merge{}})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := cluster.FitUpdate(m, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := cluster.Track(f.Partition, nil, cl.Partition, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := &modelfile.File{Scale: f.Scale, Scaler: f.Scaler, Features: f.Features, Label: f.Label, Model: m, Partition: cl.Partition, ClusterIDs: l.IDs, NextClusterID: l.Next}
	var buf bytes.Buffer
	if err := g.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fromModel(t, buf.Bytes()), fromModel(t, []byte(readFile(t, m1)))) {
		t.Error("the library's update differs from the command's")
	}
	if !slices.Equal(l.IDs, rep.Update.IDs) {
		t.Errorf("ids %v, the command's %v", l.IDs, rep.Update.IDs)
	}
}

func TestUpdateErrors(t *testing.T) {
	b := batches(t, 200)
	dir := t.TempDir()
	m0 := filepath.Join(dir, "m0.json")
	mustCLI(t, "fit", "-seed", "2", "-model", m0, b[0])
	// A model file of version 7, without the training state.
	old := regexp.MustCompile(`,"training":\{[^}]*\}`).ReplaceAllString(readFile(t, m0), "")
	v7 := writeFile(t, "v7.json", strings.Replace(old, `"version":8`, `"version":7`, 1))
	wide := writeFile(t, "wide.csv", "a,b,c\n1,2,3\n4,5,6\n")
	out := filepath.Join(dir, "new.json")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"update", "-model", out, b[1]}, 2, "-from is required"},
		{[]string{"update", "-from", m0, b[1]}, 2, "-model is required"},
		{[]string{"update", "-from", m0, "-model", m0, b[1]}, 2, "same file as -from"},
		{[]string{"update", "-from", m0, "-model", out, "-forget", "1", b[1]}, 2, "-forget must be a rate"},
		{[]string{"update", "-from", m0, "-model", out, "-steps", "-1", b[1]}, 2, "-steps must be ≥ 0"},
		{[]string{"update", "-from", m0, "-model", out}, 2, "missing DATA"},
		{[]string{"update", "-from", v7, "-model", out, b[1]}, 1, "no training state"},
		{[]string{"update", "-from", m0, "-model", out, wide}, 1, "features"},
		{[]string{"update", "-from", m0, "-model", out, "-min-size", "0", b[1]}, 2, `-min-size must be ≥ 1 or "auto"`},
		{[]string{"update", "-from", m0, "-model", out, "-min-size", "x", b[1]}, 2, "-min-size"},
		{[]string{"update", "-from", m0, "-model", out, "-eps", "0.1", b[1]}, 2, "-eps apply only to -rule components"},
	} {
		code, _, errs := cli(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("svclust %s: exit %d, %q; want %d and %q", strings.Join(c.args, " "), code, errs, c.code, c.msg)
		}
	}
	if got := readFile(t, m0); !strings.Contains(got, `"training":`) {
		t.Error("the input model was changed")
	}
	if _, err := modelfile.ReadFile(out, 0); err == nil {
		t.Error("a failed update wrote its output")
	}
}

// TestUpdateMinSize: -min-size is the re-clustering's, as fit's is (the
// model file does not keep fit's): a smallest cluster larger than every
// cluster of the batch and its support rows leaves one cluster, and the
// default (auto) is that of no flag.
func TestUpdateMinSize(t *testing.T) {
	b := batches(t, 600)
	dir := t.TempDir()
	m0 := filepath.Join(dir, "m0.json")
	mustCLI(t, "fit", "-seed", "2", "-model", m0, b[0])
	clusters := func(extra ...string) int {
		var rep struct {
			Clusters int `json:"clusters"`
		}
		args := append([]string{"update", "-from", m0, "-model", filepath.Join(dir, "m1.json"), "-json"}, extra...)
		if err := json.Unmarshal([]byte(mustCLI(t, append(args, b[1])...)), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Clusters
	}
	auto := clusters()
	if auto < 2 {
		t.Fatalf("the update found %d cluster; the test needs two or more", auto)
	}
	if got := clusters("-min-size", "auto"); got != auto {
		t.Errorf("-min-size auto: %d clusters, without the flag %d", got, auto)
	}
	if got := clusters("-min-size", "100000"); got != 1 {
		t.Errorf("-min-size 100000: %d clusters, want 1 (every cluster is smaller)", got)
	}
}

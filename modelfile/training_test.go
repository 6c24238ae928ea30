package modelfile

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// TestTrainingRoundTrip: the training state survives the file, so that an
// update of the model read back is the update of the model written, with
// a budget that merges and one without.
func TestTrainingRoundTrip(t *testing.T) {
	for _, budget := range []int{6, svclust.NoBudget} {
		f, _ := fitted(t, 90)
		if budget != 6 {
			m, err := svclust.Train(mustRows(t, 90, 1), &svclust.Config{Budget: budget, MaxIter: 300, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			f.Model, f.Partition, f.Run = m, nil, nil
		}
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := Read(bytes.NewReader(buf.Bytes()), 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Model.Training, f.Model.Training) {
			t.Fatalf("budget %d: the training state read back differs", budget)
		}
		batch := mustRows(t, 60, 2)
		a, err := svclust.Update(context.Background(), f.Model, batch, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := svclust.Update(context.Background(), back.Model, batch, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wa, wb bytes.Buffer
		for _, c := range []struct {
			m *svclust.Model
			w *bytes.Buffer
		}{{a, &wa}, {b, &wb}} {
			g := *f
			g.Model, g.Partition, g.Run = c.m, nil, nil
			if err := g.Write(c.w); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(wa.Bytes(), wb.Bytes()) {
			t.Errorf("budget %d: the update of the model read back is not that of the model written", budget)
		}
		if !strings.Contains(wa.String(), `"rows":150,"batches":1,`) {
			t.Errorf("budget %d: the updated file does not record 150 rows seen in 1 update", budget)
		}
	}
}

// TestNoTraining: a file without the training state (as files before
// version 8) loads and labels, and its model cannot be updated.
func TestNoTraining(t *testing.T) {
	f, ds := fitted(t, 90)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	i := strings.Index(s, `,"training":{`)
	j := strings.Index(s[i:], `"}`) // the end of "rng", the last key
	old := strings.Replace(s[:i]+s[i+j+2:], `"version":8`, `"version":7`, 1)
	g, err := Read(strings.NewReader(old), 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.Model.Training != nil {
		t.Fatal("a file without training read with one")
	}
	if _, err := g.Predict(nil, ds.X, 1); err != nil {
		t.Errorf("a file without training does not label: %v", err)
	}
	if _, err := svclust.Update(context.Background(), g.Model, ds.X, nil); !errors.Is(err, svclust.ErrNoTraining) {
		t.Errorf("update of a model without training: %v, want ErrNoTraining", err)
	}
}

func mustRows(t *testing.T, n int, seed uint64) *mat.Dense {
	t.Helper()
	ds, err := dataset.Generate(dataset.Gauss3, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return ds.X
}

// TestClusterIDs: stable ids are written, read back and returned by
// Predict in place of the partition's numbers; bad ids are refused.
func TestClusterIDs(t *testing.T) {
	f, _ := fitted(t, 90)
	raw := mustRows(t, 90, 1)
	plain, err := f.Predict(nil, raw, 1)
	if err != nil {
		t.Fatal(err)
	}
	k := f.Partition.Clusters()
	ids := make([]int, k)
	for c := range ids {
		ids[c] = 10 + k - c
	}
	f.ClusterIDs, f.NextClusterID = ids, 11+k
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()), 0)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := back.PredictScores(nil, nil, raw, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range plain {
		if c >= 0 {
			c = ids[c]
		}
		if got[i] != c {
			t.Fatalf("row %d: label %d, want the stable id %d", i, got[i], c)
		}
	}
	for _, bad := range [][]int{ids[:k-1], append(slices.Clone(ids[1:]), ids[1]), append([]int{-1}, ids[1:]...), append([]int{11 + k}, ids[1:]...)} {
		g := *f
		g.ClusterIDs = bad
		if err := g.Write(&bytes.Buffer{}); err == nil {
			t.Errorf("ids %v (next %d) written", bad, g.NextClusterID)
		}
	}
	text := strings.Replace(buf.String(), `"version":8`, `"version":7`, 1)
	text = regexp.MustCompile(`,"training":\{[^}]*\}`).ReplaceAllString(text, "") // otherwise valid
	if _, err := Read(strings.NewReader(text), 0); err == nil || !strings.Contains(err.Error(), "version 7 has no clusters") {
		t.Errorf("clusters in a file of version 7: %v", err)
	}
}

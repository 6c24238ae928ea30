package beam

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svclust/svclust/dataset"
)

// whenStaged waits until a staged model file (Plan.StagedModel) appears
// in dir, then calls do; it gives up when stop is closed.
func whenStaged(dir string, stop <-chan struct{}, do func()) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		if m, _ := filepath.Glob(filepath.Join(dir, ".m.json.svclust-beam-*")); len(m) > 0 {
			do()
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// outputs returns the contents of the files of dir, by name.
func outputs(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

// TestInterruptedAndChanged: on Prism, a run cancelled while it labels
// (as SIGTERM cancels svclust-beam's) returns ErrInterrupted and leaves the
// model and the shards of the run before as they were, with no staged
// file left; a run whose inputs grow while it labels (300 rows appended to
// each) returns a *ChangedError naming one and changes nothing either
// (issue 26: the model was the new run's and the shards the old run's;
// the shards held 401,200 rows of a "400000 rows labelled").
func TestInterruptedAndChanged(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	files, _ := split(t, in, dataset.Moons, 120_000, 2) // labelling takes a while after training
	o := &Options{Input: filepath.Join(in, "part-*"), Output: filepath.Join(out, "shard"), Model: filepath.Join(out, "m.json"), Settings: streamSettings(5000, 1)}
	if _, err := Run(context.Background(), "prism", o); err != nil {
		t.Fatal(err)
	}
	before := outputs(t, out)
	if len(before) != 3 {
		t.Fatalf("outputs %d files, want 3", len(before))
	}

	ctx, cancel := context.WithCancel(context.Background())
	stop := make(chan struct{})
	go whenStaged(out, stop, cancel)
	_, err := Run(ctx, "prism", o)
	close(stop)
	cancel()
	if !errors.Is(err, ErrInterrupted) {
		t.Errorf("interrupted: error %v, want ErrInterrupted", err)
	}
	if got := outputs(t, out); !sameFiles(got, before) {
		t.Errorf("interrupted: outputs changed: %d files", len(got))
	}

	plain := files[0] // part-0.csv; part-1.csv.gz is gzip
	stop = make(chan struct{})
	go whenStaged(out, stop, func() {
		f, err := os.OpenFile(plain, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(strings.Repeat("0.5, 0.5, 0\r\n", 300))
		f.Close()
	})
	_, err = Run(context.Background(), "prism", o)
	close(stop)
	var ce *ChangedError
	if !errors.As(err, &ce) || ce.Path != plain {
		t.Errorf("input grown: error %v, want a *ChangedError of %s", err, plain)
	}
	if got := outputs(t, out); !sameFiles(got, before) {
		t.Errorf("input grown: outputs changed: %d files", len(got))
	}
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

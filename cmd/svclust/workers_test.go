package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestWorkersDeterministic: with the same data and seed, fit writes the
// same labels and model files byte for byte and the same JSON report apart
// from its timings for any -workers, and predict and score write the same
// output; the library promises results independent of Config.Workers.
func TestWorkersDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	data := genFile(t, "moons", 600)
	for _, flags := range [][]string{
		nil,
		{"-maintain", "project-random", "-rule", "components", "-all", "-outliers"},
		{"-outliers"},
		{"-maintain", "removal", "-budget", "20", "-scale", "minmax"},
	} {
		var first map[string]string
		for _, w := range []string{"1", "2", "3"} {
			dir := t.TempDir()
			labels, model := filepath.Join(dir, "labels.csv"), filepath.Join(dir, "model.json")
			args := append([]string{"fit", "-json", "-seed", "9", "-workers", w, "-o", labels, "-model", model}, flags...)
			report := mustCLI(t, append(args, data)...)
			var j fitJSON
			if err := json.Unmarshal([]byte(report), &j); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{
				"labels":  readFile(t, labels),
				"model":   readFile(t, model),
				"report":  untimed(t, &j),
				"predict": mustCLI(t, "predict", "-model", model, "-workers", w, data),
				"score":   mustCLI(t, "score", "-model", model, "-workers", w, data),
			}
			if got["predict"] != got["labels"] {
				t.Errorf("%v -workers %s: predict differs from fit -o", flags, w)
			}
			if first == nil {
				first = got
				continue
			}
			for k, v := range got {
				if v != first[k] {
					t.Errorf("%v: %s with -workers %s differs from -workers 1", flags, k, w)
				}
			}
		}
	}
}

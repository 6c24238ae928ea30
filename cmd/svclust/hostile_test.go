package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugeSettings: fit refuses settings whose model float64 cannot hold,
// naming the flag, with the usage status 2 and without writing the model
// or -json; a finite extreme (γ = 1e300) fits and writes (docs/guarantees.md).
func TestHugeSettings(t *testing.T) {
	data := genFile(t, "moons", 200)
	model := filepath.Join(t.TempDir(), "m.json")
	for _, args := range [][]string{
		{"-C", "1e200"},
		{"-gamma", "1", "-C", "1e300"},
		{"-budget", "0", "-C", "1e155"},
	} {
		all := append(append([]string{"fit", "-json", "-model", model}, args...), data)
		code, out, errs := cli(t, all...)
		if code != 2 || !strings.Contains(errs, "-C ") || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 naming -C, no output", args, code, out, errs)
		}
		if _, err := os.Stat(model); !os.IsNotExist(err) {
			t.Errorf("%v: the model was written", args)
		}
	}
	out := mustCLI(t, "fit", "-json", "-gamma", "1e300", "-model", model, data)
	if !strings.Contains(out, `"gamma": 1e+300`) {
		t.Errorf("γ = 1e300: -json %s", out)
	}
	mustCLI(t, "predict", "-model", model, data)
}

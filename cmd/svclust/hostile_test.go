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

// TestPredictColumnsByName: predict and score match the columns of DATA to
// the model's features by name, so a file whose columns are in another
// order gives the same labels and scores (it gave 134 of 300 labels wrong
// with a warning when columns went by position); a missing or extra column
// is an error naming it; -features maps or lists columns explicitly
// (docs/guarantees.md).
func TestPredictColumnsByName(t *testing.T) {
	data := genFile(t, "moons", 300)
	model := filepath.Join(t.TempDir(), "m.json")
	mustCLI(t, "fit", "-model", model, "-o", filepath.Join(t.TempDir(), "fit.csv"), data)
	lines := strings.Split(strings.TrimSuffix(readFile(t, data), "\n"), "\n")
	if lines[0] != "x1,x2,label" {
		t.Fatalf("header %q", lines[0])
	}
	// rewrite returns the data with header h and each row's fields
	// (x1, x2, label) arranged by f.
	rewrite := func(name, h string, f func(x1, x2, l string) string) string {
		out := []string{h}
		for _, l := range lines[1:] {
			v := strings.Split(l, ",")
			out = append(out, f(v[0], v[1], v[2]))
		}
		return writeFile(t, name, strings.Join(out, "\n")+"\n")
	}
	swapped := rewrite("swapped.csv", "x2,label,x1", func(x1, x2, l string) string { return x2 + "," + l + "," + x1 })
	renamed := rewrite("renamed.csv", "b,a,label", func(x1, x2, l string) string { return x2 + "," + x1 + "," + l })
	extra := rewrite("extra.csv", "id,x1,x2,label", func(x1, x2, l string) string { return "7," + x1 + "," + x2 + "," + l })
	missing := rewrite("missing.csv", "x1,label", func(x1, _, l string) string { return x1 + "," + l })

	for _, cmd := range []string{"predict", "score"} {
		want := mustCLI(t, cmd, "-model", model, data)
		for _, c := range []struct {
			name string
			args []string
		}{
			{"reordered", []string{swapped}},
			{"map", []string{"-features", "x1=a,x2=b", renamed}},
			{"partial map", []string{"-features", "x2=b", rewrite("half.csv", "b,x1,label", func(x1, x2, l string) string { return x2 + "," + x1 + "," + l })}},
			{"list", []string{"-features", "a,b", renamed}},
			{"drop", []string{"-drop", "id", extra}},
		} {
			code, out, errs := cli(t, append([]string{cmd, "-model", model}, c.args...)...)
			if code != 0 || out != want {
				t.Errorf("%s %s: exit %d, %s; output differs: %v", cmd, c.name, code, errs, out != want)
			}
		}
		for _, c := range []struct {
			name string
			code int
			msg  string
			args []string
		}{
			{"renamed", 1, `no column "x1", a feature of the model`, []string{renamed}},
			{"missing", 1, `no column "x2"`, []string{missing}},
			{"extra", 1, `column "id" is no feature of the model; drop it with -drop id`, []string{extra}},
			{"map to no feature", 2, `"x3" is no feature of the model`, []string{"-features", "x3=a", renamed}},
			{"map twice", 2, `mapped twice`, []string{"-features", "x1=a,x1=b", renamed}},
			{"map to no column", 1, `"c"`, []string{"-features", "x1=c,x2=b", renamed}},
		} {
			code, out, errs := cli(t, append([]string{cmd, "-model", model}, c.args...)...)
			if code != c.code || out != "" || !strings.Contains(errs, c.msg) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want %d and %q", cmd, c.name, code, out, errs, c.code, c.msg)
			}
		}
	}
}

// TestOutputPathKinds: what fit -o does with each kind of output path. A
// loop of symbolic links is an error ("too many levels of symbolic
// links") that leaves the links as they were (it replaced one by a regular
// file); a directory, or the input itself, is an error that changes
// nothing; a dangling link gets its target created and stays a link; a
// FIFO is written in place (docs/guarantees.md).
func TestOutputPathKinds(t *testing.T) {
	data := genFile(t, "moons", 100)
	before := readFile(t, data)
	dir := t.TempDir()
	la, lb := filepath.Join(dir, "la"), filepath.Join(dir, "lb")
	if err := os.Symlink("lb", la); err != nil {
		t.Skip(err)
	}
	os.Symlink("la", lb)
	code, _, errs := cli(t, "fit", "-o", la, data)
	if code != 1 || !strings.Contains(errs, "too many levels of symbolic links") {
		t.Errorf("loop: exit %d, %q", code, errs)
	}
	for _, l := range []string{la, lb} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("loop: %s is no longer a link", l)
		}
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	if code, _, errs := cli(t, "fit", "-o", sub, data); code == 0 || !strings.Contains(errs, "is a directory") {
		t.Errorf("directory: exit %d, %q", code, errs)
	}
	if code, _, errs := cli(t, "fit", "-o", data, data); code != 2 || !strings.Contains(errs, "same file") {
		t.Errorf("the input: exit %d, %q", code, errs)
	}
	if code, _, _ := cli(t, "fit", "-model", data, data); code != 2 {
		t.Errorf("-model the input: exit %d", code)
	}
	if readFile(t, data) != before {
		t.Error("the input was changed")
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("target.csv", dangling)
	mustCLI(t, "fit", "-o", dangling, data)
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("dangling: no longer a link")
	}
	if !strings.HasPrefix(readFile(t, filepath.Join(dir, "target.csv")), "cluster") {
		t.Error("dangling: the target holds no labels")
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		if code, _, errs := cli(t, "fit", "-o", filepath.Join(ro, "out.csv"), data); code == 0 || !strings.Contains(errs, "permission denied") {
			t.Errorf("read-only directory: exit %d, %q", code, errs)
		}
	}
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// snapshot returns the content of every file under dir, by path relative
// to dir, and the target of every symbolic link, prefixed with "->".
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			l, err := os.Readlink(p)
			m[rel] = "->" + l
			return err
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			m[rel] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOutputIsInput: an output that is an input or another output, as a
// file (through "./", a symbolic link, a hard link, a linked directory or
// a dangling link), is a usage error naming both flags, and no file
// changes or appears. The first case is issue 13's: -cpuprofile over the
// data left it a 256-byte profile; -o X -model ./X exited 0.
func TestOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	data := readFile(t, genFile(t, "gauss3", 60))
	in := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.json")
	mustCLI(t, "fit", "-budget", "10", "-model", model, "-o", filepath.Join(dir, "lab.png"), in)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("d.csv", filepath.Join(dir, "link.csv")))
	must(os.Link(in, filepath.Join(dir, "hard.csv")))
	must(os.Symlink(dir, filepath.Join(dir, "sub")))
	must(os.Symlink("new.csv", filepath.Join(dir, "dangling")))
	must(os.Mkdir(filepath.Join(dir, "rep"), 0o777))
	must(os.WriteFile(filepath.Join(dir, "rep", "REPRODUCTION.md"), []byte("old\n"), 0o644))
	p := func(name string) string { return filepath.Join(dir, name) }
	dot := dir + "/./"

	cases := []struct {
		args  []string
		flags []string // both must be in the message
	}{
		{[]string{"fit", "-cpuprofile", in, in}, []string{"-cpuprofile", "DATA"}},
		{[]string{"fit", "-cpuprofile", dot + "d.csv", in}, []string{"-cpuprofile", "DATA"}},
		{[]string{"fit", "-stream", "-cpuprofile", p("link.csv"), in}, []string{"-cpuprofile", "DATA"}},
		{[]string{"tune", "-cpuprofile", p("hard.csv"), in}, []string{"-cpuprofile", "DATA"}},
		{[]string{"fit", "-memprofile", p("sub/d.csv"), in}, []string{"-memprofile", "DATA"}},
		{[]string{"fit", "-o", p("hard.csv"), in}, []string{"-o", "DATA"}},
		{[]string{"fit", "-o", p("x.csv"), "-model", dot + "x.csv", in}, []string{"-o", "-model"}},
		{[]string{"fit", "-o", p("x.csv"), "-model", p("sub/x.csv"), in}, []string{"-o", "-model"}},
		{[]string{"fit", "-o", p("dangling"), "-model", p("new.csv"), in}, []string{"-o", "-model"}},
		{[]string{"fit", "-cpuprofile", p("prof"), "-memprofile", dot + "prof", in}, []string{"-cpuprofile", "-memprofile"}},
		{[]string{"fit", "-model", p("y"), "-cpuprofile", p("sub/y"), in}, []string{"-model", "-cpuprofile"}},
		{[]string{"fit", "-o", "-", "-model", "-", in}, []string{"-o", "-model"}},
		{[]string{"predict", "-model", model, "-o", dot + "m.json", in}, []string{"-o", "-model"}},
		{[]string{"score", "-model", model, "-o", p("link.csv"), in}, []string{"-o", "DATA"}},
		{[]string{"plot", "-model", model, "-labels", p("lab.png"), "-o", dot + "lab.png", in}, []string{"-o", "-labels"}},
		{[]string{"reproduce", "-from", p("rep/REPRODUCTION.md"), "-out", p("sub/rep")}, []string{"-out", "-from"}},
	}
	for _, tc := range cases {
		before := snapshot(t, dir)
		code, stdout, stderr := cli(t, tc.args...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != 2 {
			t.Errorf("svclust %s: exit %d, want 2\n%s", strings.Join(tc.args, " "), code, stderr)
		}
		for _, f := range tc.flags {
			if !strings.Contains(first, f+" ") {
				t.Errorf("svclust %s: message %q does not name %s", strings.Join(tc.args, " "), first, f)
			}
		}
		if stdout != "" {
			t.Errorf("svclust %s: wrote %q to standard output", strings.Join(tc.args, " "), stdout)
		}
		if after := snapshot(t, dir); !maps.Equal(before, after) {
			t.Errorf("svclust %s: files changed", strings.Join(tc.args, " "))
		}
	}
}

// TestNonRegularOutput: outputs that are writable but not regular files,
// /dev/null and a named pipe, are written in place; issue 13 found
// "-o /dev/null" refused with "not a regular file".
func TestNonRegularOutput(t *testing.T) {
	in := genFile(t, "gauss3", 60)
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	labels := mustCLI(t, "fit", "-budget", "10", "-o", "-", in)
	for _, args := range [][]string{
		{"fit", "-budget", "10", "-o", os.DevNull, "-model", model, in},
		{"fit", "-budget", "10", "-o", os.DevNull, "-model", os.DevNull, "-cpuprofile", os.DevNull, "-memprofile", os.DevNull, in},
		{"predict", "-model", model, "-o", os.DevNull, in},
		{"score", "-model", model, "-o", os.DevNull, in},
		{"gen", "-o", os.DevNull},
	} {
		if code, _, stderr := cli(t, args...); code != 0 {
			t.Errorf("svclust %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in %s, want only m.json", len(ents), dir)
	}

	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no named pipes:", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if code, _, stderr := cli(t, "predict", "-model", model, "-o", fifo, in); code != 0 {
		t.Fatalf("predict -o FIFO: exit %d\n%s", code, stderr)
	}
	if s := <-got; s != labels {
		t.Errorf("the pipe read %d bytes, want the %d of fit's labels", len(s), len(labels))
	}
}

// TestModelNotRegular: a model read from a device fails at its first
// invalid byte (issue 13: predict -model /dev/urandom grew to 4 GB before
// failing), and one read from a named pipe, which cannot be read twice,
// loads.
func TestModelNotRegular(t *testing.T) {
	in := genFile(t, "gauss3", 60)
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	mustCLI(t, "fit", "-budget", "10", "-model", model, in)
	if _, err := os.Stat("/dev/urandom"); err == nil {
		code, _, stderr := cli(t, "predict", "-model", "/dev/urandom", "-o", os.DevNull, in)
		if code != 1 || !strings.Contains(stderr, "/dev/urandom: not a model file") {
			t.Errorf("predict -model /dev/urandom: exit %d\n%s", code, stderr)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no named pipes:", err)
	}
	good := readFile(t, model)
	go func() {
		os.WriteFile(fifo, []byte(good), 0o600)
	}()
	want := mustCLI(t, "predict", "-model", model, in)
	if got := mustCLI(t, "predict", "-model", fifo, in); got != want {
		t.Error("the model read from a pipe labels differently")
	}
}

// TestReproduceFromBounded: reproduce -from reads at most maxReportBytes,
// so that a huge or endless file fails rather than filling memory: checked
// on readReport with a limit of 1 MiB, and through the command on a file
// one byte over the limit the command sets.
func TestReproduceFromBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	big := writeFile(t, "r.json", `{"records":[`+strings.Repeat(" ", 2<<20)+`]}`)
	if _, err := readReport(big, 1<<20); err == nil || !strings.Contains(err.Error(), "r.json: larger than 1 MiB") {
		t.Errorf("readReport of 2 MiB with a limit of 1 MiB: %v", err)
	}
	over := filepath.Join(t.TempDir(), "over.json")
	f, err := os.Create(over)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"records":[`)
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for range maxReportBytes >> 20 {
		f.Write(spaces)
	}
	if _, err := f.WriteString(`]}`); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, "reproduce", "-from", over, "-out", t.TempDir())
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("over.json: larger than %d MiB", maxReportBytes>>20)) {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

// TestOutputDevStdout: -o /dev/stdout writes the labels to standard output,
// a file or a pipe, with the summary on standard error as for -o -, and
// /dev/stdout stays the link it is. Before, with standard output
// redirected to a file, the rename of the temporary file replaced the link
// /dev/stdout itself by a regular file.
func TestOutputDevStdout(t *testing.T) {
	fi, err := os.Lstat("/dev/stdout")
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Skip("no /dev/stdout link")
	}
	if testing.Short() {
		t.Skip("runs child processes")
	}
	in := genFile(t, "gauss3", 60)
	want := mustCLI(t, "fit", "-budget", "10", "-o", "-", in)
	file := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pipe, stderr strings.Builder
	for _, out := range []any{f, &pipe} {
		cmd := svclustCmd(t, "fit", "-budget", "10", "-o", "/dev/stdout", in)
		switch w := out.(type) {
		case *os.File:
			cmd.Stdout = w
		case *strings.Builder:
			cmd.Stdout = w
		}
		stderr.Reset()
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %s", err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "clustering ") {
			t.Errorf("the summary is not on standard error: %q", stderr.String())
		}
	}
	if got := readFile(t, file); got != want {
		t.Errorf("the file holds %q, want the labels", got)
	}
	if pipe.String() != want {
		t.Errorf("the pipe read %q, want the labels", pipe.String())
	}
	if fi, err := os.Lstat("/dev/stdout"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("/dev/stdout is no longer a link (%v)", err)
	}
}

// TestOutputIsStdin checks that an output naming the file standard input
// is redirected from, when DATA is -, is refused before anything is read
// or written (the labels were appended to the input, exit 0), and that
// an empty -o of predict and gen is a usage error naming it.
func TestOutputIsStdin(t *testing.T) {
	t.Parallel()
	in := genFile(t, "gauss3", 60)
	data := readFile(t, in)
	model := filepath.Join(t.TempDir(), "m.json")
	mustCLI(t, "fit", "-model", model, in)
	for _, args := range [][]string{
		{"fit", "-quiet", "-o", "/dev/stdin", "-"},
		{"fit", "-model", "/proc/self/fd/0", "-"},
		{"fit", "-o", in, "-"},
		{"predict", "-model", model, "-o", "/dev/stdin", "-"},
		{"score", "-model", model, "-o", "/dev/stdin", "-"},
	} {
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		cmd := svclustCmd(t, args...)
		cmd.Stdin = f
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		f.Close()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "standard input reads") {
			t.Errorf("%v: %v, %s", args, err, stderr.String())
		}
		if readFile(t, in) != data {
			t.Fatalf("%v changed the input", args)
		}
	}
	for _, args := range [][]string{{"predict", "-model", model, "-o", "", in}, {"gen", "-o", ""}} {
		if code, _, errs := cli(t, args...); code != 2 || !strings.Contains(errs, "-o needs a file name") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
}

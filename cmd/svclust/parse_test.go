package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInterleavedFlags: flags after DATA act as before it (issue 13:
// "svclust fit data.csv -json" took -json for a second DATA), "--" ends
// the flags, and the outputs are those of the flags-first command line.
func TestInterleavedFlags(t *testing.T) {
	in := genFile(t, "gauss3", 60)
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	want := mustCLI(t, "fit", "-budget", "10", "-json", "-o", p("a.csv"), in)
	got := mustCLI(t, "fit", in, "-budget", "10", "-json", "-o", p("b.csv"))
	if untimedJSON(t, got) != untimedJSON(t, want) || readFile(t, p("a.csv")) != readFile(t, p("b.csv")) {
		t.Error("flags after DATA give other results")
	}
	got = mustCLI(t, "fit", "-budget", "10", in, "-json", "-o", p("c.csv"))
	if readFile(t, p("c.csv")) != readFile(t, p("a.csv")) || untimedJSON(t, got) != untimedJSON(t, want) {
		t.Error("flags around DATA give other results")
	}
	mustCLI(t, "fit", "-budget", "10", "-model", p("m.json"), in)
	mustCLI(t, "plot", "-model", p("m.json"), in, "-o", p("f.png"))
	if _, err := os.Stat(p("f.png")); err != nil {
		t.Error(err)
	}
	// "--" ends the flags: a data file whose name starts with "-".
	dash := p("-data.csv")
	if err := os.WriteFile(dash, []byte(readFile(t, in)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if out := mustCLI(t, "fit", "-budget", "10", "-json", "--", "-data.csv"); untimedJSON(t, out) != untimedJSON(t, want) {
		t.Error("fit -- -data.csv gives other results")
	}
	// After "--", "-json" is a second DATA argument.
	if code, _, stderr := cli(t, "fit", "--", "-data.csv", "-json"); code != 2 || !strings.Contains(stderr, "want one DATA argument, got 2") {
		t.Errorf("fit -- DATA -json: exit %d\n%s", code, stderr)
	}
	// "--" as the value of a flag is no end of the flags.
	if code, _, stderr := cli(t, "fit", "-label", "--", in, "-budget", "10"); code != 1 || !strings.Contains(stderr, `no column is named "--"`) {
		t.Errorf("fit -label -- DATA: exit %d\n%s", code, stderr)
	}
}

// untimedJSON returns the fit -json report s without its timings.
func untimedJSON(t *testing.T, s string) string {
	t.Helper()
	r := &robustRun{stdout: s}
	return untimed(t, r.report(t))
}

// TestUnknownFlag: a mistyped flag is one line naming the nearest flag,
// not the usage (issue 13: 50 lines of usage).
func TestUnknownFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "-budgte", "5", "d.csv"}, "svclust fit: unknown flag -budgte: did you mean -budget?\n"},
		{[]string{"fit", "d.csv", "--jsno"}, "svclust fit: unknown flag -jsno: did you mean -json?\n"},
		{[]string{"predict", "-modle", "m.json", "d.csv"}, "svclust predict: unknown flag -modle: did you mean -model?\n"},
		{[]string{"tune", "-gamma", "1", "d.csv"}, "svclust tune: unknown flag -gamma: did you mean -gamma-grid?\n"},
		{[]string{"gen", "-xyzzy"}, "svclust gen: unknown flag -xyzzy\n"},
		{[]string{"fit", "-budget", "many", "d.csv"}, "svclust fit: invalid value \"many\" for flag -budget: not a whole number or \"auto\"\n"},
		{[]string{"fit", "d.csv", "-o"}, "svclust fit: flag needs an argument: -o\n"},
	} {
		code, stdout, stderr := cli(t, tc.args...)
		if code != 2 || stderr != tc.want || stdout != "" {
			t.Errorf("svclust %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
}

// TestUnknownCommand: a mistyped command names the nearest one.
func TestUnknownCommand(t *testing.T) {
	for args, want := range map[string]string{
		"fti":     `svclust: unknown command "fti": did you mean fit?`,
		"predcit": `svclust: unknown command "predcit": did you mean predict?`,
		"cluster": `svclust: unknown command "cluster"` + "\n",
		"versoin": `svclust: unknown command "versoin": did you mean version?`,
	} {
		code, _, stderr := cli(t, args, "d.csv")
		if code != 2 || !strings.HasPrefix(stderr, want) {
			t.Errorf("svclust %s: exit %d, stderr %q; want 2 and %q", args, code, stderr, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"budget", "budget", 0}, {"budgte", "budget", 1}, {"bugdet", "budget", 1},
		{"budgt", "budget", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, // the textbook example
	} {
		if d := editDistance(tc.a, tc.b); d != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}

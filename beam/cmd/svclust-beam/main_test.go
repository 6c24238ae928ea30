package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
)

// TestExitStatus checks the command's contract: 0 and the shards and model
// on success, 2 with the flag named for usage errors, 1 with file:line:col
// for bad data, and never a panic trace.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	var data bytes.Buffer
	if err := dataset.GenerateCSV(&data, dataset.Gauss3, 600, 1); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.csv"), data.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.csv"), []byte("x1,x2,label\n1,2,a\n1,,b\n"), 0o644)
	out, model := filepath.Join(dir, "out"), filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		want   string // in standard error
	}{
		{"ok", []string{"-input", filepath.Join(dir, "a.csv"), "-output", out, "-model", model, "-sample", "300"}, 0, ""},
		{"no input", []string{"-output", out, "-model", model}, 2, "-input is required"},
		{"bad gamma", []string{"-input", "x", "-output", out, "-model", model, "-gamma", "-1"}, 2, "-gamma must be > 0"},
		{"gamma not a number", []string{"-input", "x", "-output", out, "-model", model, "-gamma", "wide"}, 2, "-gamma"},
		{"unknown flag", []string{"-budgte", "5"}, 2, "-budgte"},
		{"min-size with components", []string{"-input", "x", "-output", out, "-model", model, "-rule", "components", "-min-size", "5"}, 2, "-min-size applies only"},
		{"bad width", []string{"-input", "x", "-output", out, "-model", model, "-width", "local"}, 2, "-width must be adaptive or global"},
		{"bad maintain", []string{"-input", "x", "-output", out, "-model", model, "-maintain", "prune"}, 2, "-maintain must be removal, project-knn, project-random or merge"},
		{"argument", []string{"-input", "x", "-output", out, "-model", model, "extra.csv"}, 2, "unexpected argument"},
		{"bad data", []string{"-input", filepath.Join(dir, "bad.csv"), "-output", out + "2", "-model", model + "2"}, 1, filepath.Join(dir, "bad.csv") + ":3:2: "},
		{"no such dir", []string{"-input", filepath.Join(dir, "a.csv"), "-output", filepath.Join(dir, "no", "out"), "-model", model + "3"}, 1, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tc.args, &stdout, &stderr)
			if status != tc.status {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", status, tc.status, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) || strings.Contains(stderr.String(), "panic") || strings.Contains(stderr.String(), "goroutine 1 [") {
				t.Errorf("stderr %q: want %q and no trace", stderr.String(), tc.want)
			}
		})
	}
	// The successful run wrote one shard and a model that labels.
	if _, err := os.Stat(out + "-00000-of-00001.csv"); err != nil {
		t.Error(err)
	}
	if _, err := modelfile.ReadFile(model, 0); err != nil {
		t.Error(err)
	}
	for _, f := range []string{model + "2", model + "3"} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s written by a failed run", f)
		}
	}
}

// TestWidthFlag checks that -width reaches the library's Config.Width:
// adaptive by default, as for svclust fit, global on request.
func TestWidthFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want auto.WidthRule
	}{
		{nil, auto.AdaptiveWidth},
		{[]string{"-width", "adaptive"}, auto.AdaptiveWidth},
		{[]string{"-width", "global"}, auto.GlobalWidth},
	} {
		o := &flags{}
		fs := newFlagSet(o, io.Discard)
		args := append([]string{"-input", "x", "-output", "o", "-model", "m"}, tc.args...)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		opt, err := o.options(fs.Args())
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := opt.Settings.Config()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != tc.want {
			t.Errorf("%v: Config.Width %v, want %v", tc.args, cfg.Width, tc.want)
		}
	}
}

// TestSameSettingsAsFit checks that svclust-beam makes of each command
// line of the flags it shares with svclust fit what fit -stream makes of
// it: the same settings, hence the same library configurations and run
// record, or the same usage error. The golden file is written by
// svclust fit's TestSharedFlags.
func TestSameSettingsAsFit(t *testing.T) {
	b, err := os.ReadFile("../../../settings/testdata/shared_flags.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Args     []string
		Settings *settings.Settings
		Error    string
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, tc := range cases {
		o := &flags{}
		fs := newFlagSet(o, io.Discard)
		if err := fs.Parse(append([]string{"-input", "x", "-output", "o", "-model", "m"}, tc.Args...)); err != nil {
			t.Fatalf("%v: %v", tc.Args, err)
		}
		opt, err := o.options(fs.Args())
		switch {
		case tc.Error != "":
			if err == nil || err.Error() != tc.Error {
				t.Errorf("%v: error %v, fit's %q", tc.Args, err, tc.Error)
			}
		case err != nil:
			t.Errorf("%v: %v; fit accepts it", tc.Args, err)
		case !reflect.DeepEqual(opt.Settings, tc.Settings):
			t.Errorf("%v: settings\n%+v\nfit's\n%+v", tc.Args, *opt.Settings, *tc.Settings)
		}
	}
}

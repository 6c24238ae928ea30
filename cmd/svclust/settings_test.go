package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"reflect"
	"testing"

	"github.com/svclust/svclust/settings"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sharedFlags is the golden file of the run settings that fit gives each
// command line of sharedArgs; svclust-beam's TestSameSettingsAsFit checks
// that it gives the same from the same flags.
const sharedFlags = "../../settings/testdata/shared_flags.json"

// sharedCase is one command line of the shared flags and what fit -stream
// makes of it: its settings, or the message of its usage error.
type sharedCase struct {
	Args     []string           `json:"args"`
	Settings *settings.Settings `json:"settings,omitempty"`
	Error    string             `json:"error,omitempty"`
}

// sharedArgs are command lines of the flags fit and svclust-beam share.
var sharedArgs = [][]string{
	{},
	{"-gamma", "0.5", "-C", "20", "-budget", "0", "-seed", "7"},
	{"-budget", "80", "-maintain", "project-knn", "-k", "3", "-width", "global", "-label", "y"},
	{"-maintain", "project-random", "-budget", "3"},
	{"-rule", "components", "-eps", "0.1", "-outliers", "-all"},
	{"-rule", "levels", "-min-size", "9", "-tol", "0", "-max-iter", "5000", "-min-iter", "-1", "-m", "30", "-scale", "minmax", "-workers", "2"},
	{"-gamma", "-1"},
	{"-C", "NaN"},
	{"-budget", "-1"},
	{"-budget", "50000"},
	{"-width", "local"},
	{"-rule", "density"},
	{"-min-size", "0"},
	{"-rule", "components", "-min-size", "5"},
	{"-all"},
	{"-rule", "components", "-eps", "0"},
	{"-k", "0"},
	{"-k", "4"},
	{"-maintain", "project-knn", "-budget", "3", "-k", "5"},
	{"-maintain", "prune"},
	{"-tol", "-1"},
	{"-max-iter", "-1"},
	{"-min-iter", "-2"},
	{"-m", "0"},
	{"-m", "5000"},
	{"-scale", "unit"},
	{"-workers", "-3"},
}

// TestSharedFlags writes (with -update) or checks the golden file of the
// settings of sharedArgs under fit -stream, wired as newFit wires them.
func TestSharedFlags(t *testing.T) {
	t.Parallel()
	var cases []sharedCase
	for _, args := range sharedArgs {
		o := defaultFit()
		fs := flag.NewFlagSet("fit", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.register(fs)
		o.data.register(fs)
		o.registerFit(fs)
		if err := fs.Parse(append([]string{"-stream"}, args...)); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		c := sharedCase{Args: args}
		if err := o.validate(); err != nil {
			if _, ok := err.(*usageError); !ok {
				t.Errorf("%v: %v is not a usage error", args, err)
			}
			c.Error = err.Error()
		} else {
			c.Settings = &o.run
		}
		cases = append(cases, c)
	}
	b, err := json.MarshalIndent(cases, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if *update {
		if err := os.WriteFile(sharedFlags, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(sharedFlags)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, want) {
		var old []sharedCase
		json.Unmarshal(want, &old)
		for i := range min(len(old), len(cases)) {
			if !reflect.DeepEqual(old[i], cases[i]) {
				t.Errorf("%v: fit gives %+v, %s has %+v", cases[i].Args, cases[i], sharedFlags, old[i])
			}
		}
		t.Errorf("%s differs from fit's settings; after a deliberate change, run go test -run TestSharedFlags -update", sharedFlags)
	}
}

package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// buildInfo is what the binary knows of its build: the module version
// ("(devel)" for a build from a work tree), the version control revision,
// its time and whether the tree had local changes.
type buildInfo struct {
	Version, Revision, Time string
	Modified                bool
}

// readBuildInfo returns the build information of the running binary, as
// far as debug.ReadBuildInfo has it.
func readBuildInfo() buildInfo {
	var b buildInfo
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Version = bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String returns the one-line form stored in model files: "svclust
// v1.2.0", with " revision 0123abcd… (2026-01-02T…)" and " modified" when
// known.
func (b buildInfo) String() string {
	v := b.Version
	if v == "" {
		v = "(unknown version)"
	}
	s := "svclust " + v
	if b.Revision != "" {
		s += " revision " + b.Revision
		if b.Time != "" {
			s += " (" + b.Time + ")"
		}
	}
	if b.Modified {
		s += " modified"
	}
	return s
}

func newVersion() *Command {
	c := &Command{
		UsageLine: "version",
		Short:     "print the version of svclust",
		Long: `
Version prints the module version of svclust, the version control
revision it was built from, with its time and whether the tree had local
changes, as the Go toolchain recorded them, and the Go version. Model
files record the same in their "run" section.`,
		Flag: flag.NewFlagSet("version", flag.ContinueOnError),
	}
	c.Run = func(_ context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("unexpected arguments: %s", strings.Join(args, " "))
		}
		b := readBuildInfo()
		v := b.Version
		if v == "" {
			v = "(unknown version)"
		}
		fmt.Fprintf(e.stdout, "svclust %s\n", v)
		if b.Revision != "" {
			fmt.Fprintf(e.stdout, "revision %s\n", b.Revision)
		}
		if b.Time != "" {
			fmt.Fprintf(e.stdout, "committed %s\n", b.Time)
		}
		if b.Modified {
			fmt.Fprintf(e.stdout, "built from a modified tree\n")
		}
		fmt.Fprintf(e.stdout, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return nil
	}
	return c
}

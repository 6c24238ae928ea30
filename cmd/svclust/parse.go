package main

import (
	"errors"
	"flag"
	"io"
	"strings"
)

// parseArgs parses the flags of fs anywhere in args, before, between and
// after the positional arguments, as most command-line tools do: "svclust
// fit data.csv -json" is "svclust fit -json data.csv". "--" ends the flags;
// what follows it is positional even if it starts with "-", and so is "-"
// (standard input). It returns the positional arguments in order.
//
// On an error, the flag package's message is returned as a usage error of
// one line: an unknown flag names the closest defined flag, if one is
// close ("unknown flag -budgte: did you mean -budget?"). flag.ErrHelp is
// returned unchanged.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	var pos []string
	for {
		// The flag package stops at the first positional argument; parse
		// again after it. It also stops after "--", which it consumes.
		n := len(args)
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, flagError(fs, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := n - len(rest); used > 0 && args[used-1] == "--" && !isValueOf(fs, args[:used-1]) {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// isValueOf reports whether the argument after args would be the value of
// the last of args, a non-boolean flag given without "=": then a "--" in
// that place was a value, not the end of the flags.
func isValueOf(fs *flag.FlagSet, args []string) bool {
	if len(args) == 0 {
		return false
	}
	name, ok := flagName(args[len(args)-1])
	if !ok || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, isBool := f.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

// flagName returns the name of the flag argument a ("-name" or "--name",
// with any "=value"), and whether a is one.
func flagName(a string) (string, bool) {
	if len(a) < 2 || a[0] != '-' || a == "--" {
		return "", false
	}
	a = strings.TrimPrefix(a[1:], "-")
	return a, a != ""
}

// flagError turns an error of fs.Parse into a usage error of one line.
func flagError(fs *flag.FlagSet, err error) error {
	const unknown = "flag provided but not defined: -"
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, unknown); ok {
		msg = "unknown flag -" + name
		if s := closest(fs, name); s != "" {
			msg += ": did you mean -" + s + "?"
		}
	}
	return &usageError{msg}
}

// closest returns the defined flag of fs nearest to name: the one within
// the smallest edit distance, at most a third of the name's length (at
// least 1), or else one that name is a prefix of or that is a prefix of
// name; "" if none is.
func closest(fs *flag.FlagSet, name string) string {
	best, bestD := "", max(1, len(name)/3)+1
	var prefix string
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
		if prefix == "" && (strings.HasPrefix(f.Name, name) || strings.HasPrefix(name, f.Name)) {
			prefix = f.Name
		}
	})
	if best != "" {
		return best
	}
	return prefix
}

// editDistance returns the Damerau–Levenshtein distance (with adjacent
// transpositions, as in "budgte" for "budget") between a and b, in bytes.
func editDistance(a, b string) int {
	// d[i][j] is the distance between a[:i] and b[:j].
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

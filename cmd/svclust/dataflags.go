package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/settings"
)

// dataFlags are the flags that say how to read DATA, shared by the
// commands that read it: fit, tune, predict and score.
type dataFlags struct {
	sep      string
	decimal  string
	drop     listFlag
	features listFlag
	maxLine  int
	na       string
	noHeader bool
}

// listFlag is a comma-separated list of column names that records whether
// it was given: "" given is the list of the one empty name.
type listFlag struct {
	names []string
	set   bool
}

func (l *listFlag) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(l.names, ",")
}

func (l *listFlag) Set(v string) error {
	l.names, l.set = strings.Split(v, ","), true
	return nil
}

func (o *dataFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.sep, "sep", "", "field `separator` of DATA: , ; or tab; by default the header's: , if it holds commas, else ; if it holds semicolons, else tab")
	fs.StringVar(&o.decimal, "decimal", ".", "decimal `separator` of the features: . or , (a comma needs fields separated by ; or tab)")
	fs.Var(&o.drop, "drop", "comma-separated `names` of columns that are neither features nor labels, such as an id; an empty name (-drop \"\") drops the unnamed columns, such as pandas' index or R's row names")
	fs.Var(&o.features, "features", "comma-separated `names` of the feature columns, in the order the model takes them; the other columns but the label are dropped")
	fs.IntVar(&o.maxLine, "max-line", dataset.DefaultMaxLine, "longest line of DATA accepted, in `bytes`")
	fs.BoolVar(&o.noHeader, "no-header", false, "DATA has no header line: its first line is a row, and its columns are named x1, x2, … (as -label, -drop and -features name them), as numpy.savetxt writes by default")
	fs.StringVar(&o.na, "na", "error", "what a missing value (an empty field, NA) is: `error`, or drop, which skips its row (and NaN rows) and writes an empty result at the row's place")
}

// options returns the reading options of the data file path with the label
// column label (required when given is set), parsed on the goroutines of
// -workers, or a usage error naming the flag at fault.
func (o *dataFlags) options(path, label string, required bool, workers int) (dataset.ReadOptions, error) {
	opt := dataset.ReadOptions{Name: path, Label: label, RequireLabel: required, MaxLine: o.maxLine, Workers: workers, NoHeader: o.noHeader}
	sep, err := settings.ParseSep(o.sep)
	if err != nil {
		return opt, configError(err)
	}
	opt.Sep = sep
	switch o.decimal {
	case "", ".":
	case ",":
		if opt.Sep == ',' {
			return opt, usagef("-decimal , needs -sep ; or tab: with -sep , a comma separates fields")
		}
		opt.Decimal = ','
	default:
		return opt, usagef("-decimal must be . or , not %q", o.decimal)
	}
	switch o.na {
	case "", "error":
	case "drop":
		opt.NA = dataset.NADrop
	default:
		return opt, usagef("-na must be error or drop, not %q", o.na)
	}
	if o.maxLine < 1 {
		return opt, usagef("-max-line must be ≥ 1 (the default is %d)", dataset.DefaultMaxLine)
	}
	if o.drop.set {
		opt.Drop = o.drop.names
	}
	if o.features.set {
		if len(o.features.names) == 1 && o.features.names[0] == "" {
			return opt, usagef("-features names no column")
		}
		opt.Features = o.features.names
	}
	return opt, nil
}

// dataError returns err, a data error of reading with opt, with a hint at
// the flag that changes what caused it.
func dataError(err error, opt dataset.ReadOptions) error {
	var pe *dataset.ParseError
	switch {
	case opt.NoHeader && errors.Is(err, dataset.ErrNotNumber) && errors.As(err, &pe) && pe.Line == 1:
		return fmt.Errorf("%w; with -no-header line 1 is a row: if it names the columns, leave -no-header out", err)
	case errors.Is(err, dataset.ErrMissing) && !strings.Contains(err.Error(), "every row has one"):
		return fmt.Errorf("%w (-na drop skips those rows)", err)
	case errors.Is(err, dataset.ErrNotNumber) && errors.As(err, &pe) && pe.Field != "":
		return fmt.Errorf("%w; %s", err, notNumeric(pe))
	}
	switch {
	case errors.Is(err, dataset.ErrLineTooLong):
		return fmt.Errorf("%w (raise the limit with -max-line)", err)
	case errors.Is(err, dataset.ErrColumnName) && strings.Contains(err.Error(), "has no name"):
		return fmt.Errorf("%w (-drop \"\" drops the unnamed columns)", err)
	case errors.Is(err, dataset.ErrSeparator):
		return fmt.Errorf("%w (choose it with -sep)", err)
	case errors.Is(err, dataset.ErrNoHeader):
		return fmt.Errorf("%w (-no-header reads it as the first row, naming the columns x1, x2, …)", err)
	}
	return err
}

// notNumeric returns the hint of a value that is not a number in the
// column of pe: a decimal comma for -decimal ,; otherwise the column is
// text, to -drop, or to read as the classes with -label when its value
// looks like a class name (letters only, no digit of an id).
func notNumeric(pe *dataset.ParseError) string {
	msg := pe.Err.Error()
	var text string
	if i := strings.IndexByte(msg, '"'); i >= 0 {
		text, _ = strconv.Unquote(quotedPrefix(msg[i:]))
	}
	if decimalComma(text) {
		return "-decimal , reads a decimal comma"
	}
	name := shellWord(pe.Field)
	hint := fmt.Sprintf("column %q is not numeric; -drop %s to ignore it", pe.Field, name)
	if classLike(text) {
		hint += fmt.Sprintf(", or -label %s if it holds the classes", name)
	}
	return hint
}

// quotedPrefix returns the Go string literal that s starts with, or "".
func quotedPrefix(s string) string {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return ""
	}
	return q
}

// decimalComma reports whether s is a number written with a decimal comma,
// such as 1,5 or -0,25.
func decimalComma(s string) bool {
	i := strings.IndexByte(s, ',')
	if i < 0 || strings.Count(s, ",") != 1 {
		return false
	}
	_, err := strconv.ParseFloat(s[:i]+"."+s[i+1:], 64)
	return err == nil && !strings.ContainsAny(s, "eE_xXpP")
}

// classLike reports whether s looks like the name of a class (setosa,
// Yes, "red wine") rather than an id or code: letters, spaces, hyphens or
// underscores only, at most 30 bytes.
func classLike(s string) bool {
	if s == "" || len(s) > 30 {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' && r != '_' {
			return false
		}
	}
	return true
}

// shellWord returns s as one word of a shell command line: as it is when
// it holds only safe characters, else in single quotes.
func shellWord(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-.:/+@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// labelNames are the column names that usually hold the classes rather
// than a feature; a feature so named gets a warning naming -label.
var labelNames = []string{"class", "target", "y", "cluster", "species", "label", "labels", "classes"}

// warnLabelLike warns, unless quiet, about each feature whose name is one
// of labelNames: it is most likely the classes, read as a number.
func warnLabelLike(e *env, quiet bool, names []string) {
	if quiet {
		return
	}
	for _, n := range names {
		if slices.Contains(labelNames, strings.ToLower(n)) {
			fmt.Fprintf(e.stderr, "svclust: warning: feature %q is named like a label column; if it holds the classes, -label %s reads it as the ground truth (or -drop %s ignores it)\n", n, shellWord(n), shellWord(n))
		}
	}
}

// checkRereadable returns a usage error unless the data file path can be
// read twice, as fit -stream reads it: a pipe, a FIFO or a process
// substitution such as <(zcat x.gz) would block or be empty the second
// time. A path that cannot be examined is left to the open that follows.
func checkRereadable(path string) error {
	if path == "-" {
		return usagef("-stream reads DATA twice, so it must be a file, not standard input")
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
		return nil
	}
	kind := "not a regular file"
	switch m := fi.Mode(); {
	case m&os.ModeNamedPipe != 0:
		kind = "a pipe (a FIFO, or a process substitution such as <(cmd))"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	case m&os.ModeDevice != 0:
		kind = "a device"
	}
	return usagef("-stream reads DATA twice, so it must be a regular file; %s is %s, which can be read only once (write it to a file first)", path, kind)
}

// overflowError is the error of the value v of the feature name, at where
// in the data file path, which the scaling sc maps to u. When the scaling
// of the column itself overflowed (column: its shift or multiplier is not
// finite), the error is about the column rather than the value.
func overflowError(path, where, name string, v, u float64, column bool, sc string) error {
	if column {
		return fmt.Errorf("%s: feature %q: its mean, range or standard deviation overflows float64, so its values cannot be scaled (-scale %s); divide the column by a power of ten", displayPath(path), name, sc)
	}
	why := fmt.Sprintf("to %v", u)
	if finite(u) {
		why = fmt.Sprintf("to %.3g, beyond ±%.0e, where the squared distances of the kernel overflow", u, dataset.MaxScaled)
	}
	return fmt.Errorf("%s: feature %q: the value %v overflows when scaled (-scale %s): it scales %s; divide the column by a power of ten", where, name, v, sc, why)
}

// displayPath returns the name of the data file path in messages.
func displayPath(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return path
}

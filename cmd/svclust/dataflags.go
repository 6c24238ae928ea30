package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

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
}

// options returns the reading options of the data file path with the label
// column label (required when given is set), or a usage error naming the
// flag at fault.
func (o *dataFlags) options(path, label string, required bool) (dataset.ReadOptions, error) {
	opt := dataset.ReadOptions{Name: path, Label: label, RequireLabel: required, MaxLine: o.maxLine}
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

// dataError returns err, a data error, with a hint at the flag that
// changes what caused it.
func dataError(err error) error {
	switch {
	case errors.Is(err, dataset.ErrLineTooLong):
		return fmt.Errorf("%w (raise the limit with -max-line)", err)
	case errors.Is(err, dataset.ErrColumnName) && strings.Contains(err.Error(), "has no name"):
		return fmt.Errorf("%w (-drop \"\" drops the unnamed columns)", err)
	case errors.Is(err, dataset.ErrSeparator):
		return fmt.Errorf("%w (choose it with -sep)", err)
	}
	return err
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

// checkScaled returns an error that names the first value of ds, read from
// path, that scaler makes overflow (see dataset.Scaler.Overflow), with its
// line: data row i is line i+2, since the reader rejects blank lines and
// newlines in quotes. sc names the scaling (-scale) in the message.
func checkScaled(path string, ds *dataset.Dataset, scaler *dataset.Scaler, sc string) error {
	n, _ := ds.X.Dims()
	for i := range n {
		row := ds.X.RawRowView(i)
		if j, u := scaler.Overflow(row); j >= 0 {
			return overflowError(path, fmt.Sprintf("%s:%d", displayPath(path), i+2), ds.Names[j], row[j], u, !finite(scaler.Shift[j]) || !finite(scaler.Mul[j]), sc)
		}
	}
	return nil
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

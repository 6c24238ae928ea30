package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteCSV writes d to w in the format read by [Read]: a header of the
// feature names (x1..xd when Names is nil), followed by a label column named
// "label" when Labels is not nil. Values are written in the shortest form
// that reads back to the same float64, and labels as their Classes text (the
// label number when Classes is nil), so WriteCSV followed by Read gives back
// the same values bit for bit.
//
// WriteCSV returns an error if a name or class text contains a comma, a
// quote or a line break, or starts or ends with a space or tab, since Read
// could not read it back, and one (rather than a panic) for a nil
// Dataset, X or w, and for Names or Labels not nil whose length does not
// match X.
func (d *Dataset) WriteCSV(w io.Writer) error {
	if d == nil || d.X == nil || w == nil {
		return errors.New("dataset: WriteCSV: nil Dataset, X or io.Writer")
	}
	r, c := d.X.Dims()
	names := d.Names
	if names == nil {
		names = make([]string, c)
		for j := range names {
			names[j] = "x" + strconv.Itoa(j+1)
		}
	}
	if len(names) != c {
		return fmt.Errorf("dataset: WriteCSV: %d names for %d columns of X", len(names), c)
	}
	if d.Labels != nil && len(d.Labels) != r {
		return fmt.Errorf("dataset: WriteCSV: %d labels for %d rows of X", len(d.Labels), r)
	}
	for _, s := range names {
		if err := checkText("column name", s); err != nil {
			return err
		}
	}
	for _, s := range d.Classes {
		if err := checkText("class", s); err != nil {
			return err
		}
	}

	bw := bufio.NewWriter(w)
	buf := []byte(strings.Join(names, ","))
	if d.Labels != nil {
		buf = append(buf, ",label"...)
	}
	buf = append(buf, '\n')
	for i := range r {
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
		for j, v := range d.X.RawRowView(i) {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		if d.Labels != nil {
			buf = append(buf, ',')
			if k := d.Labels[i]; k >= 0 && k < len(d.Classes) {
				buf = append(buf, d.Classes[k]...)
			} else {
				buf = strconv.AppendInt(buf, int64(k), 10)
			}
		}
		buf = append(buf, '\n')
	}
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}

// checkText returns an error if s cannot be written as a CSV field that Read
// reads back unchanged.
func checkText(what, s string) error {
	if strings.ContainsAny(s, ",\"\r\n") || strings.TrimSpace(s) != s {
		return fmt.Errorf("dataset: cannot write %s %q: it has a comma, quote, line break or surrounding space", what, s)
	}
	return nil
}

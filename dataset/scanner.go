package dataset

import (
	"bufio"
	"bytes"
	"io"
	"slices"
)

// Scanner reads a data set in CSV form one row at a time, for data too
// large to hold in memory. It parses the format of [Read] with the same code
// and reports the same errors, so
//
//	s, err := NewScanner(r, opt)
//	for s.Scan() {
//		use(s.Row(), s.Label())
//	}
//	err = s.Err()
//
// accepts exactly the inputs Read accepts. Its memory use is one row plus
// the longest line and the distinct label texts.
//
// Unlike Read, which numbers the classes once it has seen them all, a
// Scanner numbers the label texts in order of first appearance: Label
// returns an index into Classes, which grows as new texts appear. Read's
// numbering is the sorted order of the same texts.
type Scanner struct {
	p        parser
	ncol     int      // fields per line
	labelCol int      // 0-based index of the label column, or -1
	names    []string // feature column names
	row      []float64
	label    int
	ids      map[string]int // index into classes of each label text
	classes  []string       // label texts in order of first appearance
	rows     int
	err      error
}

// NewScanner returns a Scanner that reads the CSV data of r with the options
// opt, as [Read] does. It reads the header line and returns its errors, such
// as [ErrEmpty] or [ErrNoLabel], as a *[ParseError].
func NewScanner(r io.Reader, opt ReadOptions) (*Scanner, error) {
	s := &Scanner{
		p: parser{
			br:   bufio.NewReaderSize(r, bufSize),
			name: displayName(opt.Name),
		},
		label: -1,
	}
	if err := s.header(opt); err != nil {
		return nil, err
	}
	s.row = make([]float64, len(s.names))
	return s, nil
}

// header reads the header line and finds the label column.
func (s *Scanner) header(opt ReadOptions) error {
	p := &s.p
	head, err := p.next()
	if err == io.EOF {
		return p.errorf(1, 0, "%w: empty input", ErrEmpty)
	}
	if err != nil {
		return err
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if len(trimSpace(head)) == 0 {
		return p.errorf(1, 0, "%w: line 1 is blank", ErrEmpty)
	}

	var cols []string
	for f := range bytes.SplitSeq(head, []byte(",")) {
		cols = append(cols, string(trimSpace(f)))
	}
	if allNumbers(cols) {
		return p.errorf(1, 0, "%w: line 1 holds only numbers; the first line must name the columns", ErrNoHeader)
	}

	// Find the label column: labelCol is its 0-based index, or -1.
	labelCol := -1
	if !opt.NoLabel {
		want := opt.Label
		if want == "" {
			want = "label"
		}
		for j, c := range cols {
			if c != want {
				continue
			}
			if labelCol >= 0 {
				return p.errorf(1, j+1, "%w %q (columns %d and %d)", ErrDuplicateColumn, want, labelCol+1, j+1)
			}
			labelCol = j
		}
		if labelCol < 0 && opt.RequireLabel {
			return p.errorf(1, 0, "%w: no column is named %q", ErrNoLabel, want)
		}
	}
	names := cols
	if labelCol >= 0 {
		names = slices.Delete(slices.Clone(cols), labelCol, labelCol+1)
		s.ids = make(map[string]int)
	}
	if len(names) == 0 {
		return p.errorf(1, 0, "%w: the header has only the label column", ErrNoFeatures)
	}
	s.ncol, s.labelCol, s.names = len(cols), labelCol, names
	return nil
}

// Names returns the feature column names, in the order of the values of Row.
// The caller must not modify the slice.
func (s *Scanner) Names() []string { return s.names }

// Labelled reports whether the data have a label column.
func (s *Scanner) Labelled() bool { return s.labelCol >= 0 }

// Scan reads the next row, which is then available through Row and Label.
// It returns false at the end of the input or at the first error, which Err
// then returns. Input with a header but no rows is an error ([ErrNoRows]),
// as it is for Read.
func (s *Scanner) Scan() bool { return s.next(s.row) }

// next parses the next row into dst, which has one element per feature.
func (s *Scanner) next(dst []float64) bool {
	if s.err != nil {
		return false
	}
	p := &s.p
	line, err := p.next()
	if err == io.EOF {
		if s.rows == 0 {
			s.err = p.errorf(p.line+1, 0, "%w: the input has only a header", ErrNoRows)
		} else {
			s.err = io.EOF
		}
		return false
	}
	if err != nil {
		s.err = err
		return false
	}
	ncol := s.ncol
	got := bytes.Count(line, []byte(",")) + 1
	if len(trimSpace(line)) == 0 {
		got = 0 // A blank line has no fields rather than one empty one.
	}
	if got != ncol {
		s.err = p.errorf(p.line, min(got, ncol)+1, "%w: expected %d, got %d", ErrRagged, ncol, got)
		return false
	}
	k := 0
	for j := 0; j < ncol; j++ {
		var f []byte
		if i := bytes.IndexByte(line, ','); i >= 0 {
			f, line = line[:i], line[i+1:]
		} else {
			f, line = line, nil
		}
		f = trimSpace(f)
		if j == s.labelCol {
			id, ok := s.ids[string(f)]
			if !ok {
				id = len(s.classes)
				t := string(f)
				s.ids[t] = id
				s.classes = append(s.classes, t)
			}
			s.label = id
			continue
		}
		v, err := parseFloat(f)
		if err != nil {
			s.err = p.errorf(p.line, j+1, "%w", err)
			return false
		}
		dst[k] = v
		k++
	}
	s.rows++
	return true
}

// Row returns the feature values of the row read by the last call to Scan.
// The slice is overwritten by the next call.
func (s *Scanner) Row() []float64 { return s.row }

// Label returns the class of the row read by the last call to Scan, an
// index into Classes, or -1 when the data have no label column.
func (s *Scanner) Label() int { return s.label }

// Classes returns the label texts seen so far, in order of first
// appearance: Classes()[Label()] is the text of the current row's label. The
// caller must not modify the slice.
func (s *Scanner) Classes() []string { return s.classes }

// Rows returns the number of rows read so far.
func (s *Scanner) Rows() int { return s.rows }

// Line returns the number of the input line last read: the line of the
// current row after a successful Scan.
func (s *Scanner) Line() int { return s.p.line }

// Err returns the first error met by Scan, or nil at the normal end of the
// input. Errors in the input are *[ParseError]s, as for Read.
func (s *Scanner) Err() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}

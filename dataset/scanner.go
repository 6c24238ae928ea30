package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
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
// the longest line and the distinct label texts, and with more than one
// worker (ReadOptions.Workers) a batch of lines read ahead: at most 4,096
// lines and 1 MiB plus one line, and their values (at most 8 bytes per
// byte and line of the batch).
//
// Unlike Read, which numbers the classes once it has seen them all, a
// Scanner numbers the label texts in order of first appearance: Label
// returns an index into Classes, which grows as new texts appear. Read's
// numbering is the sorted order of the same texts.
type Scanner struct {
	p        parser
	sep      byte     // field separator
	ncol     int      // fields per line
	labelCol int      // 0-based index of the label column, or -1
	dest     []int    // for each column, its index in row, or labelDest or dropDest
	names    []string // feature column names
	cols     []string // the header's names of every column
	row      []float64
	label    int
	ids      map[string]int // index into classes of each label text
	classes  []string       // label texts in order of first appearance
	rows     int
	line     int    // number of the line last read, for Line
	text     []byte // the line last read, for Text
	kept     []byte // a copy of text that outlives the reader's buffer (see next)
	err      error
	comma    bool // features have a decimal comma
	noHeader bool // ReadOptions.NoHeader: line 1 is data

	// Missing values (see ReadOptions.NA).
	naDrop       bool
	rowMissing   bool        // the row being parsed has one
	missingRows  int         // rows that had one
	missingCols  []int       // per column, the rows with one there
	firstMissing *ParseError // where the first was
	dropped      []int       // NADrop: data rows skipped

	// Scratch space of the parse in the caller's goroutine.
	sc scratch

	// Parsing in batches on several goroutines (see batch.go); workers is
	// 1 when lines are parsed one at a time as they are read.
	workers int
	size    batchSize
	batch   batch
	work    []scratch // one per goroutine of a batch
}

// scratch is the space that parsing a line needs, one per goroutine.
type scratch struct {
	// The fields of a line that holds a quote, split by splitQuoted.
	fields [][]byte
	buf    []byte
	ends   []int
	num    []byte // a feature with a point in place of its decimal comma

	// The label texts of the quoted lines a worker parsed.
	labels []byte
}

// Values of Scanner.dest for the columns that are not features.
const (
	labelDest = -1
	dropDest  = -2
)

// gzipMagic starts every gzip stream (RFC 1952, section 2.3.1).
var gzipMagic = []byte{0x1f, 0x8b}

// NewScanner returns a Scanner that reads the CSV data of r with the options
// opt, as [Read] does. It reads the header line and returns its errors, such
// as [ErrEmpty] or [ErrNoLabel], as a *[ParseError].
func NewScanner(r io.Reader, opt ReadOptions) (*Scanner, error) {
	return newScanner(r, opt, defaultBatch)
}

// newScanner is NewScanner with the batches of the given size, which tests
// make small.
func newScanner(r io.Reader, opt ReadOptions, size batchSize) (*Scanner, error) {
	if r == nil {
		return nil, fmt.Errorf("dataset: %s: nil io.Reader", displayName(opt.Name))
	}
	s := &Scanner{
		p: parser{
			br:      bufio.NewReaderSize(r, bufSize),
			name:    displayName(opt.Name),
			maxLine: opt.MaxLine,
		},
		label:  -1,
		naDrop: opt.NA == NADrop,
	}
	if opt.NA != NAError && opt.NA != NADrop {
		return nil, fmt.Errorf("dataset: %v is not a missing-value policy", opt.NA)
	}
	if opt.Workers < 0 {
		return nil, fmt.Errorf("dataset: Workers is %d; it must be ≥ 0 (0 means GOMAXPROCS)", opt.Workers)
	}
	s.workers = opt.Workers
	if s.workers == 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	s.size = size
	if s.p.maxLine == 0 {
		s.p.maxLine = DefaultMaxLine
	}
	if magic, _ := s.p.br.Peek(len(gzipMagic)); bytes.Equal(magic, gzipMagic) {
		z, err := gzip.NewReader(s.p.br)
		if err != nil {
			return nil, s.p.errorf(1, 0, "%w: %v", ErrGzip, err)
		}
		s.p.br = bufio.NewReaderSize(gzipErrors{z}, bufSize)
		if magic, _ := s.p.br.Peek(len(gzipMagic)); bytes.Equal(magic, gzipMagic) {
			return nil, s.p.errorf(1, 0, "%w: the data are compressed twice", ErrGzip)
		}
	}
	// Excel's "Unicode Text" is UTF-16 with a byte order mark; read as
	// bytes it would give names and fields interleaved with NULs.
	if bom, _ := s.p.br.Peek(2); string(bom) == "\xff\xfe" || string(bom) == "\xfe\xff" {
		return nil, s.p.errorf(1, 0, "%w: the text is UTF-16 (as Excel's Unicode Text); save it as CSV UTF-8", ErrEncoding)
	}
	if err := s.header(opt); err != nil {
		return nil, err
	}
	s.row = make([]float64, len(s.names))
	return s, nil
}

// gzipErrors reads a gzip stream and says so in its errors, which
// compress/gzip leaves as bare as "unexpected EOF".
type gzipErrors struct{ z *gzip.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.z.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: %w", ErrGzip, err)
	}
	return n, err
}

// header reads the header line, chooses the separator and decides what each
// column is.
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
	s.line = p.line
	s.text = head
	if len(trimSpace(head)) == 0 {
		return p.errorf(1, 0, "%w: line 1 is blank", ErrEmpty)
	}
	if bytes.IndexByte(head, '\r') >= 0 {
		// A file whose lines end in CR alone (as classic Mac OS, and
		// Excel's "CSV (Macintosh)", write them) reads as one line.
		return p.errorf(1, 0, "%w: lines end in CR alone (classic Mac OS); save the file with LF or CRLF line ends", ErrEncoding)
	}
	switch opt.Decimal {
	case 0, '.':
	case ',':
		s.comma = true
	default:
		return p.errorf(1, 0, "%w: decimal separator %q: use '.' or ','", ErrSeparator, opt.Decimal)
	}
	if s.sep, err = separator(head, opt.Sep, s.comma); err != nil {
		return p.errorf(1, 0, "%w", err)
	}
	if n := bytes.Count(head, []byte{s.sep}) + 1; n > MaxColumns {
		return p.errorf(1, 0, "%w: %d, at most %d", ErrTooManyColumns, n, MaxColumns)
	}
	var cols []string
	if bytes.IndexByte(head, '"') >= 0 {
		if err := s.splitQuoted(head); err != nil {
			return err
		}
		for _, f := range s.sc.fields {
			cols = append(cols, string(f))
		}
	} else {
		for f := range bytes.SplitSeq(head, []byte{s.sep}) {
			cols = append(cols, string(trimSpace(f)))
		}
	}
	// Names are text, compared with the model's and written into it: a
	// byte that is not UTF-8 (Windows-1252's é is 0xe9) would be stored
	// as U+FFFD and then match no name, so it is refused, naming the
	// column, rather than changed.
	for j, c := range cols {
		if !opt.NoHeader && !utf8.ValidString(c) {
			k := 0
			for k < len(c) {
				r, size := utf8.DecodeRuneInString(c[k:])
				if r == utf8.RuneError && size == 1 {
					break
				}
				k += size
			}
			return p.errorf(1, j+1, "%w: the name of column %d, %q, holds the byte 0x%02x at offset %d, which is not UTF-8 (a file in Windows-1252 or Latin-1?); save the file as UTF-8", ErrEncoding, j+1, c, c[k], k)
		}
	}
	if opt.NoHeader {
		// Line 1 is data: the columns get names, and the line is read
		// again as the first row, as line 1.
		for j := range cols {
			cols[j] = "x" + strconv.Itoa(j+1)
		}
		first := append(append(make([]byte, 0, len(head)+1), head...), '\n')
		p.br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(first), p.br), bufSize)
		p.line = 0
		s.line, s.text, s.noHeader = 0, nil, true
	} else if allNumbers(cols, s.comma) {
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
	if labelCol >= 0 {
		s.ids = make(map[string]int)
		s.classes = []string{} // not nil: the data have a label column
	}
	s.ncol, s.labelCol, s.cols = len(cols), labelCol, cols
	return s.choose(cols, opt)
}

// separator returns the field separator of a file with the header line
// head: sep if it is not 0, otherwise the one found in head outside quotes
// by the rule of the package documentation. With a decimal comma
// (decimalComma set) the separator is not ','.
func separator(head []byte, sep byte, decimalComma bool) (byte, error) {
	switch {
	case decimalComma && sep == ',':
		return 0, fmt.Errorf("%w: fields separated by ',' cannot have a decimal comma", ErrSeparator)
	case sep == ',' || sep == ';' || sep == '\t':
		return sep, nil
	case sep != 0:
		return 0, fmt.Errorf("%w %q: use ',', ';' or tab", ErrSeparator, sep)
	}
	var comma, semicolon, tab bool
	quoted := false
	for _, c := range head {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == ',':
			comma = true
		case c == ';':
			semicolon = true
		case c == '\t':
			tab = true
		}
	}
	if decimalComma {
		// Commas in the header are decimal commas (of a missing header)
		// or part of names.
		if !semicolon && tab && len(bytes.Fields(head)) > 1 {
			return '\t', nil
		}
		return ';', nil
	}
	switch {
	case comma && semicolon:
		return 0, fmt.Errorf("%w: the header holds both ',' and ';'; say which separates the fields", ErrSeparator)
	case semicolon:
		return ';', nil
	case !comma && tab && len(bytes.Fields(head)) > 1:
		// Tabs that separate names, not tabs around a single name.
		return '\t', nil
	}
	return ',', nil
}

// choose sets s.dest and s.names from the column names cols, the label
// column and opt.Drop and opt.Features.
func (s *Scanner) choose(cols []string, opt ReadOptions) error {
	p := &s.p
	s.dest = make([]int, len(cols))
	col := make(map[string]int, len(cols)) // 0-based column of each name, the first if repeated
	last := make(map[string]int, len(cols))
	for j, c := range cols {
		if _, ok := col[c]; !ok {
			col[c] = j
		}
		last[c] = j
	}
	for _, name := range opt.Drop {
		j, ok := col[name]
		switch {
		case !ok && name == "":
			return p.errorf(1, 0, "%w: every column has a name, but an unnamed one is to be dropped", ErrNoColumn)
		case !ok:
			return p.errorf(1, 0, "%w %q to drop", ErrNoColumn, name)
		case j == s.labelCol:
			return p.errorf(1, j+1, "%w: %q is the label column, which is never a feature", ErrNoColumn, name)
		}
		for k, c := range cols {
			if c == name {
				s.dest[k] = dropDest
			}
		}
	}
	if s.labelCol >= 0 {
		s.dest[s.labelCol] = labelDest
	}
	if opt.Features != nil {
		if len(opt.Features) == 0 {
			return p.errorf(1, 0, "%w: the list of features is empty", ErrNoFeatures)
		}
		pos := make([]int, len(cols)) // 1 + position in opt.Features, or 0
		for k, name := range opt.Features {
			j, ok := col[name]
			switch {
			case !ok:
				return p.errorf(1, 0, "%w %q among the features", ErrNoColumn, name)
			case j == s.labelCol:
				return p.errorf(1, j+1, "%w: %q is the label column, which is never a feature", ErrNoColumn, name)
			case s.dest[j] == dropDest:
				return p.errorf(1, j+1, "%w: %q is both dropped and a feature", ErrNoColumn, name)
			case pos[j] != 0:
				return p.errorf(1, j+1, "%w: %q is named twice among the features", ErrColumnName, name)
			case last[name] != j:
				return p.errorf(1, last[name]+1, "%w: %q names columns %d and %d", ErrColumnName, name, j+1, last[name]+1)
			}
			pos[j] = k + 1
		}
		for j := range cols {
			if s.dest[j] >= 0 {
				s.dest[j] = pos[j] - 1
				if pos[j] == 0 {
					s.dest[j] = dropDest
				}
			}
		}
		s.names = slices.Clone(opt.Features)
	} else {
		for j, c := range cols {
			if s.dest[j] >= 0 {
				s.dest[j] = len(s.names)
				s.names = append(s.names, c)
			}
		}
	}
	// A column that is read needs a name of its own: an unnamed one is
	// most often an index, which is no feature.
	first := make(map[string]int, len(s.names))
	for j, c := range cols {
		if s.dest[j] < 0 {
			continue
		}
		if c == "" {
			return p.errorf(1, j+1, "%w: column %d has no name (as the index pandas' to_csv and the row names R's write.csv write there); drop unnamed columns or name it", ErrColumnName, j+1)
		}
		if k, ok := first[c]; ok {
			return p.errorf(1, j+1, "%w: %q names columns %d and %d", ErrColumnName, c, k+1, j+1)
		}
		first[c] = j
	}
	if len(s.names) == 0 {
		if s.labelCol >= 0 {
			return p.errorf(1, 0, "%w: the header has only the label column", ErrNoFeatures)
		}
		return p.errorf(1, 0, "%w: every column is dropped", ErrNoFeatures)
	}
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
// as it is for Read. A row with a missing value is skipped with
// ReadOptions.NA = NADrop (see Dropped); with NAError the scan goes on to
// the end of the input, counting them, and then fails with [ErrMissing].
func (s *Scanner) Scan() bool { return s.next(s.row) }

// Dropped returns the data rows skipped so far for a missing value (see
// Dataset.Dropped). The caller must not modify the slice.
func (s *Scanner) Dropped() []int { return s.dropped }

// RowLine returns the line of the input that the i-th row scanned (from
// 0) was read from, as [Dataset.Line] does; i must not be beyond the rows
// scanned so far.
func (s *Scanner) RowLine(i int) int {
	if s.noHeader {
		return DataRow(i, s.dropped) + 1
	}
	return DataRow(i, s.dropped) + 2
}

// next parses the next row into dst, which has one element per feature,
// skipping the rows with a missing value.
func (s *Scanner) next(dst []float64) bool {
	for {
		ok := s.next1(dst)
		if !s.rowMissing {
			if !ok && s.err == io.EOF && s.missingRows > 0 && !s.naDrop {
				s.err = s.missingError()
			}
			return ok
		}
		s.rowMissing = false
		if !ok {
			return false
		}
		if s.naDrop {
			s.dropped = append(s.dropped, s.rows+len(s.dropped))
		}
		// The line skipped is the line last read until another is: if
		// reading the next fails (too long, gzip), Text must still give
		// it, but with one worker it is a slice of the reader's buffer,
		// which that read overwrites. A copy, for skipped rows only.
		s.kept = append(s.kept[:0], s.text...)
		s.text = s.kept
	}
}

// fieldError returns the error err of field j (0-based) of the current
// line, naming its column.
func (s *Scanner) fieldError(j int, err error) error {
	return &ParseError{File: s.p.name, Line: s.line, Column: j + 1, Field: s.cols[j], Err: err}
}

// blankLine is the error of a blank line in data of n columns: an
// ErrRagged whose message says what the line is.
type blankLine int

func (n blankLine) Error() string {
	return fmt.Sprintf("blank line (a row has %s); delete it", plural(int(n), "field"))
}

// Is makes a blank line an ErrRagged, a row with no fields.
func (blankLine) Is(target error) bool { return target == ErrRagged }

// missingField reports whether f, field j of a feature column that did not
// parse as a number, is a missing value, and records it.
func (s *Scanner) missingField(j int, f []byte) bool {
	if !isMissing(f) && !isNaN(f) {
		return false
	}
	if !s.rowMissing {
		s.rowMissing = true
		s.missingRows++
	}
	if s.missingCols == nil {
		s.missingCols = make([]int, s.ncol)
	}
	s.missingCols[j]++
	if s.firstMissing == nil {
		s.firstMissing = &ParseError{File: s.p.name, Line: s.line, Column: j + 1, Err: fmt.Errorf("%w %s", ErrMissing, quote(f))}
	}
	return true
}

// missingError returns the error of the missing values found: at the first
// of them, with how many rows and which columns have one. With NADrop it is
// the error of input whose every row was dropped.
func (s *Scanner) missingError() error {
	var cols []string
	for j, n := range s.missingCols {
		if n > 0 {
			cols = append(cols, strconv.Quote(s.names[s.dest[j]]))
		}
	}
	list := strings.Join(cols, ", ")
	if len(cols) > 6 {
		list = strings.Join(cols[:6], ", ") + fmt.Sprintf(" and %d more", len(cols)-6)
	}
	e := *s.firstMissing
	what := fmt.Sprintf("%s have missing values, in %s (%s)", plural(s.missingRows, "row"), plural(len(cols), "column"), list)
	if s.missingRows == 1 {
		what = fmt.Sprintf("1 row has missing values, in %s (%s)", plural(len(cols), "column"), list)
	}
	if s.naDrop {
		e.Err = fmt.Errorf("%w: every row has one; %s", ErrMissing, what)
		return &e
	}
	e.Err = fmt.Errorf("%w; %s", e.Err, what)
	return &e
}

// plural returns n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// next1 parses the next line into dst; a row with a missing value sets
// rowMissing and is not counted in rows.
func (s *Scanner) next1(dst []float64) bool {
	if s.err != nil {
		return false
	}
	if s.workers > 1 {
		return s.nextBatched(dst)
	}
	line, err := s.p.next()
	if err != nil {
		s.end(err)
		return false
	}
	s.line = s.p.line
	s.text = line
	return s.parseLine(line, dst)
}

// end sets s.err at the end of the lines: err is io.EOF, or the error
// of reading the next line.
func (s *Scanner) end(err error) {
	if err != io.EOF {
		s.err = err
		return
	}
	switch {
	case s.rows == 0 && s.naDrop && len(s.dropped) > 0:
		s.err = s.missingError()
	case s.rows == 0 && s.missingRows == 0:
		s.err = s.p.errorf(s.line+1, 0, "%w: the input has only a header", ErrNoRows)
	default:
		s.err = io.EOF
	}
}

// parseLine parses line, the line numbered s.line, into dst, recording its
// missing values, its label and its error in s; a row with a missing value
// sets rowMissing and is not counted in rows.
func (s *Scanner) parseLine(line []byte, dst []float64) bool {
	p := &s.p
	if bytes.IndexByte(line, '"') >= 0 {
		return s.nextQuoted(line, dst)
	}
	// The fast path: no field is quoted.
	ncol, sep := s.ncol, s.sep
	got := bytes.Count(line, []byte{sep}) + 1
	if len(trimSpace(line)) == 0 {
		// A blank line has no fields rather than one empty one, unless
		// the one column of the data may have missing values.
		if ncol != 1 || !s.naDrop {
			s.err = &ParseError{File: p.name, Line: s.line, Err: blankLine(ncol)}
			return false
		}
	}
	if got != ncol {
		s.err = p.errorf(s.line, min(got, ncol)+1, "%w: expected %d, got %d", ErrRagged, ncol, got)
		return false
	}
	for j := 0; j < ncol; j++ {
		var f []byte
		if i := bytes.IndexByte(line, sep); i >= 0 {
			f, line = line[:i], line[i+1:]
		} else {
			f, line = line, nil
		}
		f = trimSpace(f)
		if k := s.dest[j]; k >= 0 && !s.comma {
			// The common case, inline, with the fast path of parseFloat.
			if v, ok := parseSimple(f); ok {
				dst[k] = v
				continue
			}
			v, err := parseFloat(f)
			if err != nil {
				if s.missingField(j, f) {
					continue
				}
				s.err = s.fieldError(j, err)
				return false
			}
			dst[k] = v
		} else if !s.field(j, f, dst) {
			return false
		}
	}
	if !s.rowMissing {
		s.rows++
	}
	return true
}

// nextQuoted parses a line that holds a quote into dst.
func (s *Scanner) nextQuoted(line []byte, dst []float64) bool {
	if err := s.splitQuoted(line); err != nil {
		s.err = err
		return false
	}
	if got := len(s.sc.fields); got != s.ncol {
		s.err = s.p.errorf(s.line, min(got, s.ncol)+1, "%w: expected %d, got %d", ErrRagged, s.ncol, got)
		return false
	}
	for j, f := range s.sc.fields {
		if !s.field(j, f, dst) {
			return false
		}
	}
	if !s.rowMissing {
		s.rows++
	}
	return true
}

// field stores field f of column j (0-based) into dst or the label, or
// records its error.
func (s *Scanner) field(j int, f []byte, dst []float64) bool {
	switch k := s.dest[j]; k {
	case dropDest:
	case labelDest:
		s.intern(f)
	default:
		var v float64
		var err error
		if s.comma {
			v, s.sc.num, err = parseComma(f, s.sc.num)
		} else {
			v, err = parseFloat(f)
		}
		if err != nil {
			if s.missingField(j, f) {
				return true
			}
			s.err = s.fieldError(j, err)
			return false
		}
		dst[k] = v
	}
	return true
}

// intern makes f the label of the row, numbering a new text; a missing
// label (empty, NA or NaN, after spaces) makes the row unlabelled (−1).
func (s *Scanner) intern(f []byte) {
	if t := trimSpace(f); isMissing(t) || isNaN(t) {
		s.label = -1
		return
	}
	id, ok := s.ids[string(f)]
	if !ok {
		id = len(s.classes)
		t := string(f)
		s.ids[t] = id
		s.classes = append(s.classes, t)
	}
	s.label = id
}

// splitQuoted splits line, a line that holds a quote, into s.sc.fields
// with scratch.splitQuoted.
func (s *Scanner) splitQuoted(line []byte) error {
	return s.sc.splitQuoted(line, s.sep, &s.p, s.line)
}

// splitQuoted splits a line that holds a quote into c.fields by the rules of
// RFC 4180: a field that starts with a quote, after spaces, ends at the
// next lone quote, and "" within it stands for one quote. Spaces around a
// quoted field are ignored, as they are around an unquoted one, but those
// within the quotes are kept. Its errors are at line n of p's input.
func (c *scratch) splitQuoted(line []byte, sep byte, p *parser, n int) error {
	c.buf, c.ends = c.buf[:0], c.ends[:0]
	j := 0 // 0-based column
	for {
		i := 0
		for i < len(line) && line[i] != sep && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		line = line[i:]
		if len(line) > 0 && line[0] == '"' {
			line = line[1:]
			for {
				i := bytes.IndexByte(line, '"')
				if i < 0 {
					return p.errorf(n, j+1, "%w: the quoted field is not closed on its line (newlines inside quotes are not supported)", ErrQuote)
				}
				c.buf = append(c.buf, line[:i]...)
				line = line[i+1:]
				if len(line) > 0 && line[0] == '"' {
					c.buf = append(c.buf, '"')
					line = line[1:]
					continue
				}
				break
			}
			rest := line
			if i := bytes.IndexByte(line, sep); i >= 0 {
				rest = line[:i]
			}
			if len(trimSpace(rest)) != 0 {
				return p.errorf(n, j+1, "%w: text after the closing quote", ErrQuote)
			}
			line = line[len(rest):]
		} else {
			f := line
			if i := bytes.IndexByte(line, sep); i >= 0 {
				f = line[:i]
			}
			if bytes.IndexByte(f, '"') >= 0 {
				return p.errorf(n, j+1, "%w: a quote inside an unquoted field", ErrQuote)
			}
			c.buf = append(c.buf, trimSpace(f)...)
			line = line[len(f):]
		}
		c.ends = append(c.ends, len(c.buf))
		j++
		if len(line) == 0 {
			break
		}
		line = line[1:] // the separator
	}
	c.fields = c.fields[:0]
	start := 0
	for _, end := range c.ends {
		c.fields = append(c.fields, c.buf[start:end:end])
		start = end
	}
	return nil
}

// Row returns the feature values of the row read by the last call to Scan.
// The slice is overwritten by the next call.
func (s *Scanner) Row() []float64 { return s.row }

// Label returns the class of the row read by the last call to Scan, an
// index into Classes, or -1 when the data have no label column or the
// row's label is missing: empty, NA or NaN (in any case, after spaces), as
// for a feature. A missing label is not a class.
func (s *Scanner) Label() int { return s.label }

// Classes returns the label texts seen so far, in order of first
// appearance: Classes()[Label()] is the text of the current row's label
// when Label() ≥ 0. It is nil only without a label column. The caller
// must not modify the slice.
func (s *Scanner) Classes() []string { return s.classes }

// Rows returns the number of rows read so far.
func (s *Scanner) Rows() int { return s.rows }

// Line returns the number of the input line last read: the line of the
// current row after a successful Scan.
func (s *Scanner) Line() int { return s.line }

// Text returns the text of the line last read, without its line end (LF
// or CRLF): the current row's line after a successful Scan, or the header
// line, without a UTF-8 byte order mark, before the first Scan (nil with
// ReadOptions.NoHeader). Its fields
// are as they are in the input, quotes and spaces included. The slice is
// overwritten by the next call to Scan.
func (s *Scanner) Text() []byte { return s.text }

// Sep returns the field separator, given in ReadOptions.Sep or found in the
// header line.
func (s *Scanner) Sep() byte { return s.sep }

// Err returns the first error met by Scan, or nil at the normal end of the
// input. Errors in the input are *[ParseError]s, as for Read.
func (s *Scanner) Err() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}

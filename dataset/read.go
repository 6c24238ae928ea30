package dataset

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// Dataset is a set of samples with optional ground-truth labels.
type Dataset struct {
	// X holds the n samples as the rows of an n×d matrix. Take a sample
	// with X.RawRowView(i).
	X *mat.Dense

	// Labels holds the ground-truth class 0..k-1 of each row, or is nil when
	// the data have no label column. A row whose label is missing (empty,
	// NA or NaN, as for a feature) is unlabelled: its Labels entry is −1,
	// and it is counted in no class. NA policies concern features only:
	// an unlabelled row is kept.
	Labels []int

	// Names holds the d feature column names, in the order of the columns
	// of X.
	Names []string

	// Classes[k] is the original text of label value k. It is nil when
	// Labels is nil.
	Classes []string

	// Dropped lists, in increasing order, the data rows skipped for a
	// missing value with ReadOptions.NA = NADrop, numbered from 0 over
	// every data row of the input (data row i is line i+2, or i+1 with
	// ReadOptions.NoHeader); X, Labels hold the other rows in order. It
	// is nil when no row was skipped.
	Dropped []int

	// noHeader records ReadOptions.NoHeader for Line.
	noHeader bool
}

// Line returns the line of the input that row i of X was read from,
// counting from 1: after the header line, if there was one, and the rows
// of Dropped.
func (d *Dataset) Line(i int) int {
	if d.noHeader {
		return DataRow(i, d.Dropped) + 1
	}
	return DataRow(i, d.Dropped) + 2
}

// NAPolicy says what [Read] does with a missing value: see
// [ReadOptions.NA].
type NAPolicy int

const (
	// NAError makes a missing value an error ([ErrMissing]).
	NAError NAPolicy = iota
	// NADrop skips the rows that have a missing value.
	NADrop
)

// String returns "error" or "drop", as [ParseNA] reads them.
func (p NAPolicy) String() string {
	if p == NADrop {
		return "drop"
	}
	if p == NAError {
		return "error"
	}
	return fmt.Sprintf("NAPolicy(%d)", int(p))
}

// ParseNA returns the NAPolicy named "error" or "drop".
func ParseNA(s string) (NAPolicy, error) {
	switch s {
	case "error":
		return NAError, nil
	case "drop":
		return NADrop, nil
	}
	return 0, fmt.Errorf("dataset: unknown missing-value policy %q (want error or drop)", s)
}

// ReadOptions configure [Read] and [ReadFile]. The zero value reads a CSV file
// whose label column, if there is one, is named "label".
type ReadOptions struct {
	// Name is the file name used in error messages. "" is shown as
	// "<input>" and "-" as "<stdin>".
	Name string

	// NoHeader says that the first line is a data row, not a header, as
	// numpy.savetxt writes by default: the columns are named x1, x2, …
	// in order (as WriteCSV names features without names), and Label,
	// Drop and Features refer to them by those names. Data row i is then
	// line i+1 (see [Dataset.Line]).
	NoHeader bool

	// Label is the header name of the ground-truth column; "" means
	// "label". If no column has this name, the data have no labels and
	// Dataset.Labels is nil, unless RequireLabel is set.
	Label string

	// RequireLabel makes a missing label column an error (ErrNoLabel).
	RequireLabel bool

	// NoLabel makes every column a feature column. Label and RequireLabel
	// are then ignored.
	NoLabel bool

	// Rows, if positive, is the expected number of data rows, such as
	// [LineCount] gives: Read then allocates the storage for that many
	// rows at once (up to 1 GiB of values) instead of in chunks that are
	// copied together at the end, which halves its peak memory. A wrong
	// value costs only memory or time, never data.
	Rows int

	// Sep is the field separator: ',', ';' or '\t'. 0 detects it from the
	// header line as the package documentation describes. Other values
	// are an error ([ErrSeparator]).
	Sep byte

	// Decimal is the decimal separator of the features: '.' (or 0) or
	// ','. A decimal comma needs a separator other than ',' (given or
	// detected, else [ErrSeparator]), and makes a point in a feature an
	// error, since it may then separate thousands.
	Decimal byte

	// Drop names columns that are read as neither features nor labels,
	// such as an id column. The empty name drops the columns that have
	// no name, such as the index column that pandas' to_csv writes. Every
	// name must be in the header ([ErrNoColumn]).
	Drop []string

	// Features, if not nil, names the feature columns, in the order of
	// the columns of Dataset.X; the other columns, except the label
	// column, are dropped. Every name must be in the header once
	// ([ErrNoColumn], [ErrColumnName]).
	Features []string

	// NA says what a missing value in a feature column is: an empty
	// field (pandas' spelling), NA (R's) or NaN in any case (NumPy's).
	// NAError, the zero value, makes it an error ([ErrMissing]) that
	// counts the rows and columns that have one; NADrop skips those rows,
	// which Dataset.Dropped lists.
	NA NAPolicy

	// MaxLine is the length in bytes of the longest line accepted; a
	// longer one is an error ([ErrLineTooLong]) found before it is held in
	// memory. 0 means [DefaultMaxLine] and a negative value no limit.
	MaxLine int

	// Workers is the number of goroutines that parse the lines, in
	// batches of a few thousand lines read ahead; 0 means GOMAXPROCS,
	// and 1 parses each line in the caller's goroutine as it is read.
	// The rows, labels, positions and errors do not depend on it. A
	// negative value is an error.
	Workers int
}

// DefaultMaxLine is the longest line [Read] accepts by default: 16 MiB, the
// size of a row of about a million features.
const DefaultMaxLine = 16 << 20

// MaxColumns is the largest number of columns [Read] accepts
// ([ErrTooManyColumns]), so that a hostile header of separators cannot
// make it hold millions of names.
const MaxColumns = 1 << 21

// LineCount returns the number of lines of f, an upper bound on the rows of
// the data set it holds, and moves f back to its start. It returns 0 when f
// is not a regular file, is compressed, or cannot be read to the end and
// back, so that its result can be passed to ReadOptions.Rows as it is. It
// reads f once, which costs little next to parsing it.
func LineCount(f *os.File) int {
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	buf := make([]byte, bufSize)
	lines := 0
	last := byte('\n')
	for first := true; ; first = false {
		n, err := f.Read(buf)
		if first && bytes.HasPrefix(buf[:n], gzipMagic) {
			lines = 0
			break
		}
		if n > 0 {
			lines += bytes.Count(buf[:n], []byte{'\n'})
			last = buf[n-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			lines = 0
			break
		}
	}
	if last != '\n' {
		lines++ // a last line without a newline
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0
	}
	return lines
}

// minChunk and chunkSize are the least and greatest number of values in a
// chunk of parsed data.
const (
	minChunk  = 1 << 8
	chunkSize = 1 << 16
)

// maxReserve is the largest number of values read allocates at once from
// ReadOptions.Rows: 1 GiB of float64s.
const maxReserve = 1 << 27

// bufSize is the size of the bufio.Reader used by Read. Longer lines are
// assembled in a growing buffer up to ReadOptions.MaxLine.
const bufSize = 64 << 10

// ReadFile reads a data set from the named CSV file, as [Read] does. The path
// "-" means standard input. If opt.Name is empty it is set to path.
func ReadFile(path string, opt ReadOptions) (*Dataset, error) {
	if opt.Name == "" {
		opt.Name = path
	}
	if path == "-" {
		return Read(os.Stdin, opt)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	if opt.Rows == 0 {
		opt.Rows = LineCount(f)
	}
	return Read(f, opt)
}

// Read reads a data set in CSV form from r. The format is described in the
// package documentation. Errors in the input are returned as a *ParseError
// wrapping one of the Err sentinels; errors of r are wrapped in a *ParseError
// too.
//
// The label texts are numbered 0..k-1 as follows: if every distinct text is
// a base-10 integer they are ordered by value (so "10" comes after "9"),
// otherwise in byte-wise string order. Distinct texts stay distinct classes
// even when they denote the same integer (as "1" and "01" do). Classes
// records the text of each class.
//
// Read streams its input through a Scanner and keeps only the parsed
// values, so its memory use is about 8 bytes per feature value (twice that
// for a moment while X is assembled, unless opt.Rows is right) plus the
// Scanner's: the longest line, and with more than one worker a batch of
// lines read ahead (see Scanner).
func Read(r io.Reader, opt ReadOptions) (*Dataset, error) {
	s, err := NewScanner(r, opt)
	if err != nil {
		return nil, err
	}
	return read(s, opt.Rows)
}

// ReadSum reads a data set as [Read] does and also returns the SHA-256 of
// every byte of r in hexadecimal, those after the last row included, so
// that it is the hash of the file (unless reading past the last row
// fails, which only shortens the hash): the run record of a model file names
// its training data by it.
func ReadSum(r io.Reader, opt ReadOptions) (*Dataset, string, error) {
	h := sha256.New()
	ds, err := Read(io.TeeReader(r, h), opt)
	if err != nil {
		return nil, "", err
	}
	// The data are complete: an error reading past the last row leaves
	// the hash short but not the data.
	io.Copy(h, r)
	return ds, hex.EncodeToString(h.Sum(nil)), nil
}

// displayName returns the name of the input as shown in error messages.
func displayName(name string) string {
	switch name {
	case "":
		return "<input>"
	case "-":
		return "<stdin>"
	}
	return name
}

// parser reads the lines of the input of a Scanner.
type parser struct {
	br      *bufio.Reader
	long    []byte // holds lines longer than the bufio.Reader's buffer
	line    int    // number of the last line returned by next
	name    string
	maxLine int // longest line accepted, in bytes, line ending included; < 0 for no limit
}

// next returns the next line without its line ending, or io.EOF when the
// input is exhausted. A final newline does not start another line. The
// returned slice is valid until the next call.
func (p *parser) next() ([]byte, error) {
	s, err := p.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		p.long = append(p.long[:0], s...)
		for err == bufio.ErrBufferFull {
			if p.maxLine >= 0 && len(p.long) > p.maxLine {
				break
			}
			s, err = p.br.ReadSlice('\n')
			p.long = append(p.long, s...)
		}
		s = p.long
	}
	if p.maxLine >= 0 && len(bytes.TrimSuffix(bytes.TrimSuffix(s, []byte("\n")), []byte("\r"))) > p.maxLine {
		return nil, p.errorf(p.line+1, 0, "%w: more than %d bytes", ErrLineTooLong, p.maxLine)
	}
	switch {
	case err == io.EOF && len(s) == 0:
		return nil, io.EOF
	case err != nil && err != io.EOF:
		return nil, p.errorf(p.line+1, 0, "%w", err)
	}
	p.line++
	if n := len(s); n > 0 && s[n-1] == '\n' {
		s = s[:n-1]
	}
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s, nil
}

// errorf returns a *ParseError at the given position.
func (p *parser) errorf(line, col int, format string, args ...any) error {
	return &ParseError{File: p.name, Line: line, Column: col, Err: fmt.Errorf(format, args...)}
}

// read reads the rows of s into a Dataset, expecting the given number of
// rows if it is positive.
func read(s *Scanner, rows int) (*Dataset, error) {
	d := len(s.names)
	// Without the number of rows, the values are collected in chunks and
	// copied once into the matrix at the end, which moves less memory
	// than growing one slice. With it, the first chunk holds them all.
	var (
		chunks [][]float64 // full chunks
		stored int         // values in chunks
		data   []float64   // the chunk being filled
		labels []int       // provisional labels, numbered in order of first appearance
	)
	if rows > 0 {
		// A hint from a malformed file (many short lines under a wide
		// header) could ask for far more than the file holds; beyond
		// maxReserve the chunks take over.
		rows = min(rows, maxReserve/d)
		data = make([]float64, 0, rows*d)
		if s.labelCol >= 0 {
			labels = make([]int, 0, rows)
		}
	}
	for {
		if len(data)+d > cap(data) {
			// Chunks start small so that small files stay cheap,
			// and double up to chunkSize. The chunk after the one
			// sized by rows starts small too: it is most often begun
			// only to find the end of the input.
			size := max(minChunk, stored+len(data))
			if stored == 0 && rows > 0 {
				size = minChunk
			}
			stored += len(data)
			if data != nil {
				chunks = append(chunks, data)
			}
			data = make([]float64, 0, max(d, min(chunkSize, size)))
		}
		if !s.next(data[len(data) : len(data)+d]) {
			break
		}
		data = data[:len(data)+d]
		if s.labelCol >= 0 {
			labels = append(labels, s.label)
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	rows = s.rows

	switch {
	case len(chunks) == 1 && len(data) == 0:
		// The first chunk held every row, as it does when Rows is right:
		// a new chunk was begun before the end of the input was seen.
		data = chunks[0]
	case len(chunks) > 0:
		all := make([]float64, 0, stored+len(data))
		for _, c := range chunks {
			all = append(all, c...)
		}
		data = append(all, data...)
	}
	ds := &Dataset{
		X:        mat.NewDense(rows, d, data),
		Names:    s.names,
		Dropped:  s.dropped,
		noHeader: s.noHeader,
	}
	if s.labelCol >= 0 {
		texts := s.classes
		if len(s.dropped) > 0 {
			labels, texts = usedClasses(labels, texts)
		}
		ds.Labels, ds.Classes = numberClasses(labels, texts)
	}
	return ds, nil
}

// usedClasses renumbers the provisional labels so that only the texts of
// rows kept remain: a dropped row's label text is not a class.
func usedClasses(labels []int, texts []string) ([]int, []string) {
	code := make([]int, len(texts))
	for i := range code {
		code[i] = -1
	}
	var used []string
	for i, l := range labels {
		if l < 0 {
			continue // unlabelled
		}
		if code[l] < 0 {
			code[l] = len(used)
			used = append(used, texts[l])
		}
		labels[i] = code[l]
	}
	return labels, used
}

// allNumbers reports whether every field of a header is a finite number,
// with a decimal comma if comma is set, which makes it a data row rather
// than column names.
func allNumbers(fields []string, comma bool) bool {
	var buf []byte
	for _, f := range fields {
		var err error
		if comma {
			_, buf, err = parseComma([]byte(f), buf)
		} else {
			_, err = parseFloat([]byte(f))
		}
		if err != nil {
			return false
		}
	}
	return true
}

// parseComma parses a feature field written with a decimal comma, using buf
// (returned, perhaps grown) for the field with a point in its place. A
// point in the field is an error: with a decimal comma it may separate
// thousands.
func parseComma(f, buf []byte) (float64, []byte, error) {
	if bytes.IndexByte(f, '.') >= 0 {
		return 0, buf, fmt.Errorf("%w: %s (the decimal separator is a comma)", ErrNotNumber, quote(f))
	}
	g := f
	if i := bytes.IndexByte(f, ','); i >= 0 {
		buf = append(buf[:0], f...)
		buf[i] = '.'
		g = buf
	}
	v, err := parseNumber(g, f)
	return v, buf, err
}

// parseFloat parses a feature field, which must be a finite number in the
// decimal syntax of isDecimal.
func parseFloat(f []byte) (float64, error) {
	return parseNumber(f, f)
}

// parseNumber parses f as parseFloat does, naming text in its errors.
func parseNumber(f, text []byte) (float64, error) {
	if v, ok := parseSimple(f); ok {
		return v, nil
	}
	if !isDecimal(f) {
		if isNonFinite(f) {
			return 0, fmt.Errorf("%w: %s", ErrNotFinite, quote(text))
		}
		if isMissing(f) {
			return 0, fmt.Errorf("%w: %s (missing values are not supported)", ErrNotNumber, quote(text))
		}
		return 0, fmt.Errorf("%w: %s", ErrNotNumber, quote(text))
	}
	// The conversion does not allocate for short fields because strconv
	// does not retain its argument. strconv accepts every decimal number,
	// so its only error is ErrRange.
	v, err := strconv.ParseFloat(string(f), 64)
	if err != nil && math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: %s is out of range", ErrNotFinite, quote(text))
	}
	// On underflow v is the nearest float, 0 or subnormal, which is a fine
	// value.
	return v, nil
}

// isDecimal reports whether f is a decimal number as spreadsheets, R and
// pandas write them: an optional sign, digits with an optional decimal
// point (at least one digit in all), and an optional exponent, e or E with
// an optional sign and at least one digit. It leaves out what
// strconv.ParseFloat accepts beyond that: underscores, hexadecimal, and
// the spellings of infinity and NaN.
func isDecimal(f []byte) bool {
	i := 0
	if i < len(f) && (f[i] == '+' || f[i] == '-') {
		i++
	}
	digits, dot := false, false
	for ; i < len(f); i++ {
		c := f[i]
		if c == '.' && !dot {
			dot = true
		} else if c >= '0' && c <= '9' {
			digits = true
		} else {
			break
		}
	}
	if !digits {
		return false
	}
	if i < len(f) && (f[i] == 'e' || f[i] == 'E') {
		i++
		if i < len(f) && (f[i] == '+' || f[i] == '-') {
			i++
		}
		start := i
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(f)
}

// isNonFinite reports whether f spells infinity or NaN, with an optional
// sign and in any case: inf, infinity or nan.
func isNonFinite(f []byte) bool {
	if len(f) > 0 && (f[0] == '+' || f[0] == '-') {
		f = f[1:]
	}
	s := string(f)
	return strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") || strings.EqualFold(s, "nan")
}

// isMissing reports whether f is a missing value as R (NA) or pandas (an
// empty field) writes it.
func isMissing(f []byte) bool {
	return len(f) == 0 || string(f) == "NA"
}

// isNaN reports whether f spells NaN, as NumPy writes a missing value,
// with an optional sign and in any case.
func isNaN(f []byte) bool {
	if len(f) > 0 && (f[0] == '+' || f[0] == '-') {
		f = f[1:]
	}
	return strings.EqualFold(string(f), "nan")
}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
}

// parseSimple parses the common case of a decimal number, [+-]ddd.ddd[e[+-]dd],
// that has at most 19 significant digits, a mantissa of at most 2^53 and a
// power of ten within ±22. Then the mantissa and the power are exact
// float64s, and one multiplication or division rounds correctly, so the
// result equals strconv.ParseFloat's (this is Clinger's fast path, which
// strconv itself takes). For other input ok is false and the caller falls
// back to strconv.
func parseSimple(s []byte) (v float64, ok bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var mant uint64
	nd := 0  // significant digits in mant
	exp := 0 // power of ten to apply to mant
	digits := false
	dot := false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' && !dot {
			dot = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		digits = true
		if mant != 0 || c != '0' {
			if nd == 19 {
				return 0, false
			}
			nd++
			mant = mant*10 + uint64(c-'0')
		}
		if dot {
			exp--
		}
	}
	if !digits {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		start := i
		e := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 1000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		if i == start {
			return 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(s) || mant > 1<<53 {
		return 0, false
	}
	v = float64(mant)
	switch {
	case mant == 0 || exp == 0:
	case exp > 0 && exp < len(pow10):
		v *= pow10[exp]
	case exp < 0 && -exp < len(pow10):
		v /= pow10[-exp]
	default:
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// maxQuote is the number of bytes of a bad field quoted in an error message.
const maxQuote = 40

// quote returns f as a quoted Go string, shortened to about maxQuote bytes.
func quote(f []byte) string {
	if len(f) <= maxQuote {
		return strconv.Quote(string(f))
	}
	n := maxQuote
	for n > 0 && !utf8.RuneStart(f[n]) {
		n--
	}
	return strconv.Quote(string(f[:n])) + "..."
}

// trimSpace returns f without leading and trailing spaces and tabs.
func trimSpace(f []byte) []byte {
	for len(f) > 0 && (f[0] == ' ' || f[0] == '\t') {
		f = f[1:]
	}
	for len(f) > 0 && (f[len(f)-1] == ' ' || f[len(f)-1] == '\t') {
		f = f[:len(f)-1]
	}
	return f
}

// numberClasses renumbers the provisional labels, which count label texts in
// order of first appearance, into the order documented at Read. It returns
// the new labels (in place of labels) and the text of each class.
func numberClasses(labels []int, texts []string) ([]int, []string) {
	order := make([]int, len(texts)) // order[k] is the provisional label of class k
	for i := range order {
		order[i] = i
	}
	values := make([]int64, len(texts))
	numeric := true
	for i, t := range texts {
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			numeric = false
			break
		}
		values[i] = v
	}
	slices.SortFunc(order, func(a, b int) int {
		if numeric {
			if c := cmp.Compare(values[a], values[b]); c != 0 {
				return c
			}
		}
		return cmp.Compare(texts[a], texts[b])
	})

	class := make([]int, len(texts)) // class[id] is the final label of provisional label id
	classes := make([]string, len(texts))
	for k, id := range order {
		class[id] = k
		classes[k] = texts[id]
	}
	for i, id := range labels {
		if id >= 0 { // −1: unlabelled
			labels[i] = class[id]
		}
	}
	return labels, classes
}

// DataRow returns the data row (from 0; its line is DataRow + 2 below the
// header, see [Dataset.Line]) of the i-th row kept when the data rows of dropped (increasing,
// as Dataset.Dropped) were skipped.
func DataRow(i int, dropped []int) int {
	for _, r := range dropped {
		if r > i {
			break
		}
		i++
	}
	return i
}

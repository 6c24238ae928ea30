package dataset

import (
	"errors"
	"fmt"
	"strings"
)

// Errors returned by [Read], wrapped in a [*ParseError] that gives the
// position.
var (
	// ErrEmpty means that the input has no header line: it is empty, or its
	// first line is blank.
	ErrEmpty = errors.New("dataset: no header line")
	// ErrNoHeader means that the first line holds only numbers: it is a
	// data row, and the header line naming the columns is missing.
	ErrNoHeader = errors.New("dataset: no header")
	// ErrNoRows means that the input has a header but no data rows.
	ErrNoRows = errors.New("dataset: no data rows")
	// ErrRagged means that a row has a different number of fields from the
	// header. A blank line is a row with no fields, and its message says
	// "blank line".
	ErrRagged = errors.New("dataset: wrong number of fields")
	// ErrNotNumber means that a feature field is not a number.
	ErrNotNumber = errors.New("dataset: not a number")
	// ErrMissing means that a feature field is a missing value (an empty
	// field, NA or NaN) while [ReadOptions.NA] is NAError, or that every row
	// has one while it is NADrop.
	ErrMissing = errors.New("dataset: missing value")
	// ErrNotFinite means that a feature field is infinite, or is a
	// number too large for a float64 (such as 1e400).
	ErrNotFinite = errors.New("dataset: not a finite number")
	// ErrDuplicateColumn means that the label column's name occurs more than
	// once in the header.
	ErrDuplicateColumn = errors.New("dataset: duplicate label column")
	// ErrNoFeatures means that the header has no column besides the label.
	ErrNoFeatures = errors.New("dataset: no feature columns")
	// ErrNoLabel means that the label column is absent although
	// [ReadOptions.RequireLabel] is set.
	ErrNoLabel = errors.New("dataset: no label column")
	// ErrColumnName means that a column that is read has no name, or the
	// name of another column that is read.
	ErrColumnName = errors.New("dataset: bad column name")

	// ErrNoColumn means that a name of [ReadOptions.Drop] or
	// [ReadOptions.Features] is not in the header, or is the label column.
	ErrNoColumn = errors.New("dataset: no such column")
	// ErrQuote means that a field is badly quoted: a quote inside an
	// unquoted field, text after a closing quote, or a quoted field not
	// closed on its line (newlines inside quoted fields are not supported).
	ErrQuote = errors.New("dataset: bad quoting")
	// ErrSeparator means that the field separator is not one of ',', ';'
	// and '\t', or cannot be told from a header that holds both ',' and
	// ';' outside quotes.
	ErrSeparator = errors.New("dataset: unknown separator")
	// ErrLineTooLong means that a line is longer than
	// [ReadOptions.MaxLine].
	ErrLineTooLong = errors.New("dataset: line too long")
	// ErrTooManyColumns means that the header has more than [MaxColumns]
	// columns.
	ErrTooManyColumns = errors.New("dataset: too many columns")
	// ErrGzip means that the input starts as gzip data does but is not
	// valid gzip, or holds gzip data again once decompressed.
	ErrGzip = errors.New("dataset: bad gzip data")
	// ErrEncoding means that the input is text in UTF-16, recognised by
	// its byte order mark, rather than in UTF-8 or ASCII, that its
	// lines end in CR alone, or that a column name of the header is not
	// UTF-8 (refused, naming the column and the byte, rather than stored
	// with U+FFFD in its place).
	ErrEncoding = errors.New("dataset: unsupported text encoding")
)

// ParseError reports where [Read] found an error in its input. Like
// [encoding/csv.ParseError] it wraps the cause, which is one of the package's
// sentinel errors or the error of the underlying reader.
type ParseError struct {
	File   string // file name, "<stdin>" or "<input>"; see [ReadOptions.Name]
	Line   int    // 1-based line of the error
	Column int    // 1-based field (CSV column) of the error, or 0 if the whole line is at fault
	Field  string // the header's name of that column, for an error in a value of a data row, else ""
	Err    error  // the cause
}

// Error returns the error in the form "file:line:column: message", leaving out
// the column when it is 0. The "dataset: " prefix of the cause is dropped,
// since the position already names the source.
func (e *ParseError) Error() string {
	msg := strings.TrimPrefix(e.Err.Error(), "dataset: ")
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
}

// Unwrap returns the cause, so that errors.Is(err, ErrRagged) and similar
// tests work through a *ParseError.
func (e *ParseError) Unwrap() error { return e.Err }

// Package dataset implements loading of labelled data sets from CSV, per-column
// feature scaling, and the small synthetic 2-D data sets used in the visual
// experiments of the paper.
//
// # CSV format
//
// [Read] expects a header line naming the columns, followed by one sample per
// line:
//
//	x1,x2,...,xd,label
//	5.1,3.5,1.4,0.2,Iris-setosa
//
// A first line that holds only numbers is taken for a data row whose header
// is missing, and is an error ([ErrNoHeader]) rather than a header of numeric
// names. Fields are separated by commas and the spaces or tabs around a field
// are ignored. Quoting is not supported. Every feature is a finite number in the
// decimal notation that spreadsheets, R and pandas write: an optional sign,
// digits with an optional decimal point, and an optional exponent (e or E,
// an optional sign, digits), such as 5, -0.25, .5 or 1.5e-3. Other syntax
// that Go's strconv accepts (1_000, 0x1p4) is an error ([ErrNotNumber]), and
// so are missing values (NA, an empty field); NaN, infinities (in any
// spelling) and values that overflow float64 are errors ([ErrNotFinite]). The ground-truth
// column (named "label" unless [ReadOptions] says otherwise) may hold any
// text; its distinct values are numbered 0..k-1 as described at [Read]. Lines
// end in LF or CRLF, a UTF-8 byte order mark before the header is skipped, and
// lines have no length limit.
//
// Errors in the input are reported as a [*ParseError] that gives the file,
// line and column, and wraps one of the sentinel errors such as [ErrRagged]
// or [ErrNotNumber], so that callers can test them with [errors.Is].
//
// # Conventions
//
// A [Dataset] stores its n samples as the rows of an n×d [mat.Dense], so a
// sample is taken with RawRowView without copying. Functions that write into
// a slice take it as dst, the first argument; a nil dst means allocate.
//
// Randomness is always supplied by the caller as a seed, and the same seed
// gives the same data on every run.
package dataset // import "github.com/svclust/svclust/dataset"

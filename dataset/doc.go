// Package dataset implements loading of labelled data sets from CSV, per-column
// feature scaling, and synthetic data sets: the 2-D sets of the paper's
// visual experiments ([Kinds]) and the further shapes on which the automatic
// defaults of package svclust were calibrated ([AllKinds]).
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
// names. The spaces or tabs around a field are ignored. Every feature is a
// finite number in the decimal notation that spreadsheets, R and pandas
// write: an optional sign, digits with an optional decimal point, and an
// optional exponent (e or E, an optional sign, digits), such as 5, -0.25, .5
// or 1.5e-3. Other syntax that Go's strconv accepts (1_000, 0x1p4) is an
// error ([ErrNotNumber]). Missing values (an empty field, NA, NaN) are an
// error ([ErrMissing], which counts the rows and columns that have them)
// unless [ReadOptions.NA] drops their rows ([Dataset.Dropped]); infinities
// (in any spelling) and values that overflow float64 are errors
// ([ErrNotFinite]). A decimal comma (1,5) is read only when
// [ReadOptions.Decimal] asks for it; then the separator is never a comma
// and a point in a feature is an error, since it may separate thousands. The ground-truth column (named "label" unless [ReadOptions] says
// otherwise) may hold any text; its distinct values are numbered 0..k-1 as
// described at [Read]. Lines end in LF or CRLF, and a UTF-8 byte order mark
// before the header is skipped; UTF-16 text (with its byte order mark) and
// lines that end in CR alone, and header names that are not UTF-8, are
// errors ([ErrEncoding]).
//
// Fields may be quoted as RFC 4180 says and as R's write.csv and Excel write
// them: a field that starts with a double quote ends at the next lone one,
// "" within it stands for one double quote, and separators within it are
// text. This holds for names, labels and numbers ("1.5" is 1.5). The spaces
// within the quotes are kept. A quoted field must end on its line: newlines
// inside quotes are not supported ([ErrQuote]), and neither is a quote
// inside an unquoted field. Lines without a quote take a faster path.
//
// # Separators
//
// Fields are separated by commas, semicolons or tabs. [ReadOptions.Sep]
// chooses one; otherwise it is found in the header line, outside quotes: a
// comma if the header holds commas, a semicolon if it holds semicolons, a
// tab if it holds neither but tabs between names, and a comma (one column)
// if it holds none of them. A header that holds both commas and semicolons
// is ambiguous and an error ([ErrSeparator]) unless Sep is set. With a
// decimal comma, commas in the header do not count: the separator is a tab
// if the header holds tabs between names and no semicolon, else a
// semicolon.
//
// # Columns
//
// Every column but the label column is a feature, except those named in
// [ReadOptions.Drop], or all but those named in [ReadOptions.Features]. A
// column that is read must have a name, and a name of its own
// ([ErrColumnName]): an unnamed first column, as pandas' to_csv writes for
// its index, is an error rather than a silent feature; drop it with the
// empty name in Drop.
//
// # Compression
//
// Input that starts with the gzip magic bytes 1f 8b is decompressed as it is
// read, whatever its name; a stream of several gzip members is read as
// their concatenation. Damaged gzip data are an error ([ErrGzip]).
//
// # Limits
//
// A line may hold at most [ReadOptions.MaxLine] bytes ([DefaultMaxLine], 16
// MiB, by default) and a header at most [MaxColumns] columns; beyond that
// the input is an error ([ErrLineTooLong], [ErrTooManyColumns]) found
// before the line is held in memory, so that input such as /dev/zero fails
// at once. Memory is otherwise bounded by what the data hold (see [Read]).
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

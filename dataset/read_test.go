package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// readTests are the cases of TestRead. A case expects an error when err is
// not nil, and then the position line:col of the *ParseError.
var readTests = []struct {
	name string
	in   string
	opt  ReadOptions

	x       [][]float64
	labels  []int
	names   []string
	classes []string
	dropped []int // Dataset.Dropped

	err       error
	line, col int
	msg       string // substring of the error message, if not ""
}{
	{
		name:    "good",
		in:      "x1,x2,label\n1,2,0\n3.5,-4e2,1\n",
		x:       [][]float64{{1, 2}, {3.5, -400}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"0", "1"},
	},
	{
		// A missing label (empty, NA, NaN, spaces, quoted empty) is no
		// class: the row is unlabelled, −1, and kept.
		name:    "missing labels",
		in:      "x,label\n1,a\n2,\n3,NA\n4, nan \n5,b\n6,\"\"\n7, \n8,a\n",
		x:       [][]float64{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}},
		labels:  []int{0, -1, -1, -1, 1, -1, -1, 0},
		names:   []string{"x"},
		classes: []string{"a", "b"},
	},
	{
		name:    "missing label beside a dropped row",
		in:      "x,label\n1,b\nNA,c\n3,\n4,a\n",
		opt:     ReadOptions{NA: NADrop},
		x:       [][]float64{{1}, {3}, {4}},
		labels:  []int{1, -1, 0},
		names:   []string{"x"},
		classes: []string{"a", "b"},
		dropped: []int{1},
	},
	{
		name:  "no header",
		in:    "\ufeff1,2\r\n3,4\r\n",
		opt:   ReadOptions{NoHeader: true},
		x:     [][]float64{{1, 2}, {3, 4}},
		names: []string{"x1", "x2"},
	},
	{
		name:    "no header, label by name",
		in:      "1,a\n2,b\n3,\n",
		opt:     ReadOptions{NoHeader: true, Label: "x2"},
		x:       [][]float64{{1}, {2}, {3}},
		labels:  []int{0, 1, -1},
		names:   []string{"x1"},
		classes: []string{"a", "b"},
	},
	{
		name:    "no header, dropped row",
		in:      "1,2\nNA,2\n5,6\n",
		opt:     ReadOptions{NoHeader: true, NA: NADrop, Features: []string{"x2", "x1"}},
		x:       [][]float64{{2, 1}, {6, 5}},
		names:   []string{"x2", "x1"},
		dropped: []int{1},
	},
	{
		name: "no header, error on line 2",
		in:   "1,2\n3,x\n",
		opt:  ReadOptions{NoHeader: true},
		err:  ErrNotNumber, line: 2, col: 2,
	},
	{
		name:    "CRLF",
		in:      "x1,x2,label\r\n1,2,0\r\n3,4,1\r\n",
		x:       [][]float64{{1, 2}, {3, 4}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"0", "1"},
	},
	{
		name:    "CRLF without final newline",
		in:      "x1,x2,label\r\n1,2,0\r\n3,4,1",
		x:       [][]float64{{1, 2}, {3, 4}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"0", "1"},
	},
	{
		name:    "BOM",
		in:      "\ufeffx1,x2,label\n1,2,0\n",
		x:       [][]float64{{1, 2}},
		labels:  []int{0},
		names:   []string{"x1", "x2"},
		classes: []string{"0"},
	},
	{
		name:    "no trailing newline",
		in:      "x1,x2,label\n1,2,0\n3,4,1",
		x:       [][]float64{{1, 2}, {3, 4}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"0", "1"},
	},
	{
		name: "two trailing newlines",
		in:   "x1,x2,label\n1,2,0\n\n",
		err:  ErrRagged, line: 3,
		msg: "blank line (a row has 3 fields); delete it",
	},
	{
		name: "blank line between rows",
		in:   "x1,x2,label\n1,2,0\n\n3,4,1\n",
		err:  ErrRagged, line: 3,
		msg: "blank line",
	},
	{
		name: "blank line of spaces",
		in:   "x1,x2,label\n1,2,0\n  \t\n",
		err:  ErrRagged, line: 3,
		msg: "blank line",
	},
	{
		name: "empty file",
		in:   "",
		err:  ErrEmpty, line: 1,
	},
	{
		name: "only BOM",
		in:   "\ufeff",
		err:  ErrEmpty, line: 1,
	},
	{
		name: "blank header",
		in:   "\n1,2\n",
		err:  ErrEmpty, line: 1,
	},
	{
		name: "no header",
		in:   "1,2,0\n3,4,1\n",
		err:  ErrNoHeader, line: 1,
		msg: "only numbers",
	},
	{
		name: "no header, one column",
		in:   " -1.5e3 \n2\n",
		err:  ErrNoHeader, line: 1,
	},
	{
		name:   "numeric feature names with a text label name",
		in:     "1,2,label\n3,4,a\n",
		x:      [][]float64{{3, 4}},
		labels: []int{0}, classes: []string{"a"},
		names: []string{"1", "2"},
	},
	{
		name: "header only",
		in:   "x1,x2,label\n",
		err:  ErrNoRows, line: 2,
	},
	{
		name: "header only without newline",
		in:   "x1,x2,label",
		err:  ErrNoRows, line: 2,
	},
	{
		name: "too many fields",
		in:   "x1,x2,label\n1,2,0\n1,2,3,4\n",
		err:  ErrRagged, line: 3, col: 4,
		msg: "expected 3, got 4",
	},
	{
		name: "too few fields",
		in:   "x1,x2,label\n1,2,0\n3,4,1\n1,2\n",
		err:  ErrRagged, line: 4, col: 3,
		msg: "expected 3, got 2",
	},
	{
		name: "not a number",
		in:   "x1,x2,label\n1,2,0\n1,abc,0\n",
		err:  ErrNotNumber, line: 3, col: 2,
		msg: `"abc"`,
	},
	{
		name: "not a number after CRLF header",
		in:   "x1,x2,label\r\n1,2,0\r\n1,2x,0\r\n",
		err:  ErrNotNumber, line: 3, col: 2,
		msg: `"2x"`,
	},
	{
		name: "empty field",
		in:   "x1,x2,label\n1,,0\n",
		err:  ErrMissing, line: 2, col: 2,
		msg: `missing value ""; 1 row has missing values, in 1 column ("x2")`,
	},
	{
		name: "missing values counted",
		in:   "x1,x2,x3,label\n1,2,3,a\n1,NA,,b\n4,5,6,a\n,5,6,c\n",
		err:  ErrMissing, line: 3, col: 2,
		msg: `missing value "NA"; 2 rows have missing values, in 3 columns ("x1", "x2", "x3")`,
	},
	{
		name:    "missing values dropped",
		in:      "x1,x2,label\n1,2,a\n1,NA,b\n4,5,a\n,5,c\nnan,1,a\n7,8,d\n",
		opt:     ReadOptions{NA: NADrop},
		x:       [][]float64{{1, 2}, {4, 5}, {7, 8}},
		labels:  []int{0, 0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"a", "d"},
		dropped: []int{1, 3, 4},
	},
	{
		name:    "one column: a blank line is a missing value",
		in:      "x1\n1\n\n3\n",
		opt:     ReadOptions{NA: NADrop},
		x:       [][]float64{{1}, {3}},
		names:   []string{"x1"},
		dropped: []int{1},
	},
	{
		name: "every row dropped",
		in:   "x1,x2,label\n1,NA,a\n,5,b\n",
		opt:  ReadOptions{NA: NADrop},
		err:  ErrMissing, line: 2, col: 2,
		msg: "every row has one; 2 rows have missing values",
	},
	// RFC 4180 quoting, as R's write.csv and Excel write it.
	{
		name:    "R write.csv",
		in:      "\"x1\",\"x2\",\"label\"\n1.5,-2,\"setosa\"\n3,4e-1,\"virginica\"\n",
		x:       [][]float64{{1.5, -2}, {3, 0.4}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"setosa", "virginica"},
	},
	{
		name:    "quoted numbers",
		in:      "x1,x2,label\n\"1\",\"1.5\",0\n",
		x:       [][]float64{{1, 1.5}},
		labels:  []int{0},
		names:   []string{"x1", "x2"},
		classes: []string{"0"},
	},
	{
		name:    "separator and quotes in quotes",
		in:      "\"a,b\",\"say \"\"hi\"\"\",label\n1,2,\"x, \"\"y\"\"\"\n3 , \"4\" ,\"\"\n",
		x:       [][]float64{{1, 2}, {3, 4}},
		labels:  []int{0, -1}, // a quoted empty label is missing
		names:   []string{"a,b", `say "hi"`},
		classes: []string{`x, "y"`},
	},
	{
		name:    "quoted empty last field",
		in:      "x1,label\n1,\"a\"\n2,\"\"\n",
		x:       [][]float64{{1}, {2}},
		labels:  []int{0, -1}, // a quoted empty label is missing
		names:   []string{"x1"},
		classes: []string{"a"},
	},
	{
		name: "comma in quotes is not a separator",
		in:   "x1,x2,label\n\"1,5\",0\n",
		err:  ErrRagged, line: 2, col: 3,
		msg: "expected 3, got 2",
	},
	{
		name: "quoted number with a space",
		in:   "x1,label\n\" 1\",a\n",
		err:  ErrNotNumber, line: 2, col: 1,
		msg: `" 1"`,
	},
	{
		name: "newline in quotes",
		in:   "x1,label\n1,\"a\nb\"\n",
		err:  ErrQuote, line: 2, col: 2,
		msg: "newlines inside quotes are not supported",
	},
	{
		name: "unclosed quote in the header",
		in:   "\"x1,label\n1,a\n",
		err:  ErrQuote, line: 1, col: 1,
	},
	{
		name: "bare quote",
		in:   "x1,label\n1,a\"b\n",
		err:  ErrQuote, line: 2, col: 2,
		msg: "inside an unquoted field",
	},
	{
		name: "text after the closing quote",
		in:   "x1,label\n\"1\"2,a\n",
		err:  ErrQuote, line: 2, col: 1,
		msg: "after the closing quote",
	},
	{
		name: "quoted line of too many fields",
		in:   "x1,label\n1,\"a\",\n",
		err:  ErrRagged, line: 2, col: 3,
		msg: "expected 2, got 3",
	},
	// Separators.
	{
		name:    "semicolon",
		in:      "x1;x2;label\n1;2.5;a\n",
		x:       [][]float64{{1, 2.5}},
		labels:  []int{0},
		names:   []string{"x1", "x2"},
		classes: []string{"a"},
	},
	{
		name: "semicolon with decimal comma",
		in:   "x1;x2;label\n1;2,5;a\n",
		err:  ErrNotNumber, line: 2, col: 2,
		msg: `"2,5"`,
	},
	{
		name:    "decimal comma",
		in:      "x1;x2;label\n1;2,5;a\n-0,25e1;,5;b\n",
		opt:     ReadOptions{Decimal: ','},
		x:       [][]float64{{1, 2.5}, {-2.5, 0.5}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"a", "b"},
	},
	{
		name:    "decimal comma, tab, quoted",
		in:      "x1\tlabel\n\"1,5\"\ta\n",
		opt:     ReadOptions{Decimal: ','},
		x:       [][]float64{{1.5}},
		labels:  []int{0},
		names:   []string{"x1"},
		classes: []string{"a"},
	},
	{
		name: "decimal comma with a point",
		in:   "x1;label\n1.000,5;a\n",
		opt:  ReadOptions{Decimal: ','},
		err:  ErrNotNumber, line: 2, col: 1,
		msg: `"1.000,5" (the decimal separator is a comma)`,
	},
	{
		name: "decimal comma, bad number",
		in:   "x1;label\n1,5x;a\n",
		opt:  ReadOptions{Decimal: ','},
		err:  ErrNotNumber, line: 2, col: 1,
		msg: `"1,5x"`,
	},
	{
		name: "decimal comma, no header",
		in:   "1,5;2\n1;2\n",
		opt:  ReadOptions{Decimal: ','},
		err:  ErrNoHeader, line: 1,
	},
	{
		name: "decimal comma with comma separators",
		in:   "x1,label\n1,a\n",
		opt:  ReadOptions{Decimal: ',', Sep: ','},
		err:  ErrSeparator, line: 1,
		msg: "cannot have a decimal comma",
	},
	{
		name: "decimal comma, commas in the header",
		in:   "x,1,label\n1,a\n",
		opt:  ReadOptions{Decimal: ','},
		err:  ErrNotNumber, line: 2, col: 1,
		msg: `"1,a"`,
	},
	{
		name: "unknown decimal separator",
		in:   "x1;label\n1;a\n",
		opt:  ReadOptions{Decimal: '_'},
		err:  ErrSeparator, line: 1,
	},
	{
		name:    "tab",
		in:      "x1\tx 2\tlabel\n1\t2\ta b\n",
		x:       [][]float64{{1, 2}},
		labels:  []int{0},
		names:   []string{"x1", "x 2"},
		classes: []string{"a b"},
	},
	{
		name:    "tab with empty names dropped",
		in:      "\tx1\tlabel\n7\t1\ta\n",
		opt:     ReadOptions{Drop: []string{""}},
		x:       [][]float64{{1}},
		labels:  []int{0},
		names:   []string{"x1"},
		classes: []string{"a"},
	},
	{
		name:    "quoted semicolons",
		in:      "\"x;1\";label\n1;a\n",
		x:       [][]float64{{1}},
		labels:  []int{0},
		names:   []string{"x;1"},
		classes: []string{"a"},
	},
	{
		name:    "quoted commas in a semicolon header",
		in:      "\"x,1\";\"x,2\";label\n1;2;a\n",
		x:       [][]float64{{1, 2}},
		labels:  []int{0},
		names:   []string{"x,1", "x,2"},
		classes: []string{"a"},
	},
	{
		name: "ambiguous separator",
		in:   "x1,x2;label\n1,2;a\n",
		err:  ErrSeparator, line: 1,
		msg: "both ',' and ';'",
	},
	{
		name: "explicit separator",
		in:   "x1,x2;label\n1,2;a\n",
		opt:  ReadOptions{Sep: ';'},
		err:  ErrNotNumber, line: 2, col: 1,
		msg: `"1,2"`,
	},
	{
		name:    "explicit comma with semicolons in names",
		in:      "x;1,label\n1,a\n",
		opt:     ReadOptions{Sep: ','},
		x:       [][]float64{{1}},
		labels:  []int{0},
		names:   []string{"x;1"},
		classes: []string{"a"},
	},
	{
		name: "unknown separator",
		in:   "x1|label\n1|a\n",
		opt:  ReadOptions{Sep: '|'},
		err:  ErrSeparator, line: 1,
	},
	// Columns that are not features.
	{
		name: "pandas index column",
		in:   ",x1,x2,label\n0,1,2,a\n1,3,4,b\n",
		err:  ErrColumnName, line: 1, col: 1,
		msg: "column 1 has no name",
	},
	{
		name:    "pandas index column dropped",
		in:      ",x1,x2,label\n0,1,2,a\n1,3,4,b\n",
		opt:     ReadOptions{Drop: []string{""}},
		x:       [][]float64{{1, 2}, {3, 4}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"a", "b"},
	},
	{
		name: "quoted empty name",
		in:   "x1,\"\",label\n1,2,a\n",
		err:  ErrColumnName, line: 1, col: 2,
	},
	{
		name: "duplicate feature name",
		in:   "x1,x2,x1\n1,2,3\n",
		err:  ErrColumnName, line: 1, col: 3,
		msg: `"x1" names columns 1 and 3`,
	},
	{
		name:  "duplicate names dropped",
		in:    "id,x1,id\nA7,1,B\n",
		opt:   ReadOptions{Drop: []string{"id"}},
		x:     [][]float64{{1}},
		names: []string{"x1"},
	},
	{
		name:    "drop a text id",
		in:      "id,x1,x2,label\nA-17,1,2,a\n\"B,18\",3,4,b\n",
		opt:     ReadOptions{Drop: []string{"id"}},
		x:       [][]float64{{1, 2}, {3, 4}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"a", "b"},
	},
	{
		name: "drop a missing column",
		in:   "x1,x2\n1,2\n",
		opt:  ReadOptions{Drop: []string{"id"}},
		err:  ErrNoColumn, line: 1,
		msg: `"id"`,
	},
	{
		name: "drop unnamed columns when none is",
		in:   "x1,x2\n1,2\n",
		opt:  ReadOptions{Drop: []string{""}},
		err:  ErrNoColumn, line: 1,
	},
	{
		name: "drop the label",
		in:   "x1,x2,label\n1,2,a\n",
		opt:  ReadOptions{Drop: []string{"label"}},
		err:  ErrNoColumn, line: 1, col: 3,
		msg: "label column",
	},
	{
		name: "drop every feature",
		in:   "x1,x2,label\n1,2,a\n",
		opt:  ReadOptions{Drop: []string{"x1", "x2"}},
		err:  ErrNoFeatures, line: 1,
	},
	{
		name:    "features in their order",
		in:      ",x1,x2,x3,label\n0,1,2,3,a\n",
		opt:     ReadOptions{Features: []string{"x3", "x1"}},
		x:       [][]float64{{3, 1}},
		labels:  []int{0},
		names:   []string{"x3", "x1"},
		classes: []string{"a"},
	},
	{
		name: "feature not in the header",
		in:   "x1,x2,label\n1,2,a\n",
		opt:  ReadOptions{Features: []string{"x1", "x9"}},
		err:  ErrNoColumn, line: 1,
		msg: `"x9"`,
	},
	{
		name: "feature named twice",
		in:   "x1,x2,label\n1,2,a\n",
		opt:  ReadOptions{Features: []string{"x1", "x1"}},
		err:  ErrColumnName, line: 1, col: 1,
	},
	{
		name: "feature of a repeated name",
		in:   "x1,x2,x1\n1,2,3\n",
		opt:  ReadOptions{Features: []string{"x1"}},
		err:  ErrColumnName, line: 1, col: 3,
	},
	{
		name: "label as a feature",
		in:   "x1,x2,label\n1,2,a\n",
		opt:  ReadOptions{Features: []string{"label"}},
		err:  ErrNoColumn, line: 1, col: 3,
	},
	{
		name: "feature also dropped",
		in:   "x1,x2,label\n1,2,a\n",
		opt:  ReadOptions{Features: []string{"x1"}, Drop: []string{"x1"}},
		err:  ErrNoColumn, line: 1, col: 1,
	},
	{
		name: "empty list of features",
		in:   "x1,x2,label\n1,2,a\n",
		opt:  ReadOptions{Features: []string{}},
		err:  ErrNoFeatures, line: 1,
	},
	{
		name: "UTF-16 little-endian",
		in:   "\xff\xfex\x00\t\x00l\x00\n\x00",
		err:  ErrEncoding, line: 1,
		msg: "UTF-16",
	},
	{
		name: "UTF-16 big-endian",
		in:   "\xfe\xff\x00x\x00\n",
		err:  ErrEncoding, line: 1,
	},
	{
		name: "classic Mac line ends",
		in:   "x1,label\r1,a\r2,b\r",
		err:  ErrEncoding, line: 1,
		msg: "lines end in CR alone",
	},
	// Limits.
	{
		name: "line too long",
		in:   "x1,label\n1,a\n123456789,a\n",
		opt:  ReadOptions{MaxLine: 8},
		err:  ErrLineTooLong, line: 3,
		msg: "more than 8 bytes",
	},
	{
		name:    "line at the limit",
		in:      "x1,label\r\n1,a\r\n",
		opt:     ReadOptions{MaxLine: 8},
		x:       [][]float64{{1}},
		labels:  []int{0},
		names:   []string{"x1"},
		classes: []string{"a"},
	},
	{
		name: "NaN",
		in:   "x1,x2,label\n1,NaN,0\n",
		err:  ErrMissing, line: 2, col: 2,
	},
	{
		name: "lower-case nan",
		in:   "x1,x2,label\nnan,1,0\n",
		err:  ErrMissing, line: 2, col: 1,
	},
	{
		name: "Inf",
		in:   "x1,x2,label\n1,2,0\n1,Inf,0\n",
		err:  ErrNotFinite, line: 3, col: 2,
	},
	{
		name: "minus infinity",
		in:   "x1,x2,label\n-infinity,2,0\n",
		err:  ErrNotFinite, line: 2, col: 1,
	},
	{
		name: "overflow",
		in:   "x1,x2,label\n1,1e400,0\n",
		err:  ErrNotFinite, line: 2, col: 2,
		msg: "out of range",
	},
	{
		name: "negative overflow",
		in:   "x1,x2,label\n-1e400,1,0\n",
		err:  ErrNotFinite, line: 2, col: 1,
	},
	// Only the decimal syntax of spreadsheets, R and pandas is a number;
	// Go's extensions to it (strconv.ParseFloat) are not.
	{
		name: "digit separator",
		in:   "x1,x2,label\n1,1_000,0\n",
		err:  ErrNotNumber, line: 2, col: 2,
		msg: `"1_000"`,
	},
	{
		name: "hexadecimal float",
		in:   "x1,x2,label\n0x1p4,1,0\n",
		err:  ErrNotNumber, line: 2, col: 1,
	},
	{
		name: "hexadecimal integer",
		in:   "x1,x2,label\n1,0x10,0\n",
		err:  ErrNotNumber, line: 2, col: 2,
	},
	{
		name: "long hexadecimal float",
		in:   "x1,x2,label\n1,0x1.00000000000000000000001p-2,0\n",
		err:  ErrNotNumber, line: 2, col: 2,
	},
	{
		name: "digit separator in a long number",
		in:   "x1,x2,label\n1,1_000000000000000000000000,0\n",
		err:  ErrNotNumber, line: 2, col: 2,
	},
	{
		name: "exponent without digits",
		in:   "x1,x2,label\n1,1e+,0\n",
		err:  ErrNotNumber, line: 2, col: 2,
	},
	{
		name: "R's NA",
		in:   "x1,x2,label\n1,NA,0\n",
		err:  ErrMissing, line: 2, col: 2,
		msg: `missing value "NA"`,
	},
	{
		name: "signed NaN",
		in:   "x1,x2,label\n1,-nan,0\n",
		err:  ErrMissing, line: 2, col: 2,
	},
	{
		name: "INF with a plus sign",
		in:   "x1,x2,label\n1,+INF,0\n",
		err:  ErrNotFinite, line: 2, col: 2,
	},
	{
		name:    "decimal forms",
		in:      "x1,x2,x3,x4,label\n+1.,.5,-0.25E+2,1e-0000000000000000000000000005,0\n12345678901234567890123,1.5e2,00.5,-.5e1,0\n",
		x:       [][]float64{{1, 0.5, -25, 1e-5}, {12345678901234567890123, 150, 0.5, -5}},
		labels:  []int{0, 0},
		names:   []string{"x1", "x2", "x3", "x4"},
		classes: []string{"0"},
	},
	{
		name:    "underflow is zero",
		in:      "x1,x2,label\n1e-400,-1e-400,0\n",
		x:       [][]float64{{0, math.Copysign(0, -1)}},
		labels:  []int{0},
		names:   []string{"x1", "x2"},
		classes: []string{"0"},
	},
	{
		name: "duplicate label column",
		in:   "label,x1,label\n0,1,0\n",
		err:  ErrDuplicateColumn, line: 1, col: 3,
	},
	{
		name: "duplicate custom label column",
		in:   "y,x1,y\n0,1,0\n",
		opt:  ReadOptions{Label: "y"},
		err:  ErrDuplicateColumn, line: 1, col: 3,
	},
	{
		name:  "missing label column",
		in:    "x1,x2\n1,2\n3,4\n",
		x:     [][]float64{{1, 2}, {3, 4}},
		names: []string{"x1", "x2"},
	},
	{
		name: "missing required label column",
		in:   "x1,x2\n1,2\n",
		opt:  ReadOptions{RequireLabel: true},
		err:  ErrNoLabel, line: 1,
	},
	{
		name:  "NoLabel",
		in:    "x1,label\n1,2\n3,4\n",
		opt:   ReadOptions{NoLabel: true, RequireLabel: true},
		x:     [][]float64{{1, 2}, {3, 4}},
		names: []string{"x1", "label"},
	},
	{
		name: "NoLabel ignores duplicate label columns but not duplicate names",
		in:   "label,label\n1,2\n",
		opt:  ReadOptions{NoLabel: true},
		err:  ErrColumnName, line: 1, col: 2,
	},
	{
		name: "only a label column",
		in:   "label\n0\n",
		err:  ErrNoFeatures, line: 1,
	},
	{
		name:    "custom label column in the middle",
		in:      "a,class,label\n1,x,2\n3,y,4\n",
		opt:     ReadOptions{Label: "class"},
		x:       [][]float64{{1, 2}, {3, 4}},
		labels:  []int{0, 1},
		names:   []string{"a", "label"},
		classes: []string{"x", "y"},
	},
	{
		name:    "text labels in string order",
		in:      "x1,label\n1,Iris-virginica\n2,Iris-setosa\n3,Iris-versicolor\n4,Iris-setosa\n",
		x:       [][]float64{{1}, {2}, {3}, {4}},
		labels:  []int{2, 0, 1, 0},
		names:   []string{"x1"},
		classes: []string{"Iris-setosa", "Iris-versicolor", "Iris-virginica"},
	},
	{
		name:    "integer labels by value",
		in:      "x1,label\n1,10\n2,9\n3,2\n4,10\n5,-1\n",
		x:       [][]float64{{1}, {2}, {3}, {4}, {5}},
		labels:  []int{3, 2, 1, 3, 0},
		names:   []string{"x1"},
		classes: []string{"-1", "2", "9", "10"},
	},
	{
		name:    "mixed labels by string",
		in:      "x1,label\n1,10\n2,9\n3,b\n",
		x:       [][]float64{{1}, {2}, {3}},
		labels:  []int{0, 1, 2},
		names:   []string{"x1"},
		classes: []string{"10", "9", "b"},
	},
	{
		name:    "equal integers with different text",
		in:      "x1,label\n1,01\n2,1\n3,0\n",
		x:       [][]float64{{1}, {2}, {3}},
		labels:  []int{1, 2, 0},
		names:   []string{"x1"},
		classes: []string{"0", "01", "1"},
	},
	{
		name:    "spaces around fields",
		in:      " x1 ,\tx2, label \n 1 , 2\t, a \n\t3,  4 ,b\n",
		x:       [][]float64{{1, 2}, {3, 4}},
		labels:  []int{0, 1},
		names:   []string{"x1", "x2"},
		classes: []string{"a", "b"},
	},
}

func TestRead(t *testing.T) {
	for _, tc := range readTests {
		t.Run(tc.name, func(t *testing.T) {
			opt := tc.opt
			opt.Name = "t.csv"
			ds, err := Read(strings.NewReader(tc.in), opt)
			if tc.err != nil {
				checkParseError(t, err, tc.err, "t.csv", tc.line, tc.col, tc.msg)
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			checkDataset(t, ds, tc.x, tc.labels, tc.names, tc.classes)
			if !slices.Equal(ds.Dropped, tc.dropped) {
				t.Errorf("Dropped %v, want %v", ds.Dropped, tc.dropped)
			}
		})
	}
}

// checkParseError fails t unless err is a *ParseError at file:line:col that
// wraps want and whose message contains msg.
func checkParseError(t *testing.T, err, want error, file string, line, col int, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", want)
	}
	if !errors.Is(err, want) {
		t.Errorf("errors.Is(%v, %v) = false", err, want)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParseError", err, err)
	}
	if pe.File != file || pe.Line != line || pe.Column != col {
		t.Errorf("error at %s:%d:%d, want %s:%d:%d: %v", pe.File, pe.Line, pe.Column, file, line, col, err)
	}
	prefix := fmt.Sprintf("%s:%d:%d: ", file, line, col)
	if col == 0 {
		prefix = fmt.Sprintf("%s:%d: ", file, line)
	}
	if s := err.Error(); !strings.HasPrefix(s, prefix) || !strings.Contains(s, msg) {
		t.Errorf("message %q, want prefix %q and %q in it", s, prefix, msg)
	}
}

// checkDataset fails t unless ds has the given contents. A nil labels means
// that ds must have no labels.
func checkDataset(t *testing.T, ds *Dataset, x [][]float64, labels []int, names, classes []string) {
	t.Helper()
	r, c := ds.X.Dims()
	if r != len(x) || c != len(x[0]) {
		t.Fatalf("X is %d×%d, want %d×%d", r, c, len(x), len(x[0]))
	}
	for i, want := range x {
		got := ds.X.RawRowView(i)
		for j := range want {
			// Exact: the text is parsed once, the same way.
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Errorf("row %d = %v, want %v", i, got, want)
				break
			}
		}
	}
	if (ds.Labels == nil) != (labels == nil) || !slices.Equal(ds.Labels, labels) {
		t.Errorf("Labels = %v, want %v", ds.Labels, labels)
	}
	if !slices.Equal(ds.Names, names) {
		t.Errorf("Names = %q, want %q", ds.Names, names)
	}
	if (ds.Classes == nil) != (classes == nil) || !slices.Equal(ds.Classes, classes) {
		t.Errorf("Classes = %q, want %q", ds.Classes, classes)
	}
}

func TestParseErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want string
	}{
		{"default", "", "<input>:1: no header line: empty input"},
		{"-", "x,label\n1,a\n2\n", "<stdin>:3:2: wrong number of fields: expected 2, got 1"},
		{"data.csv", "x,label\n1,2\nabc,3\n", `data.csv:3:1: not a number: "abc"`},
		{"long.csv", "x\n" + strings.Repeat("é", 30) + "\n", `long.csv:2:1: not a number: "` + strings.Repeat("é", 20) + `"...`},
	} {
		if tc.name == "default" {
			tc.name = ""
		}
		_, err := Read(strings.NewReader(tc.in), ReadOptions{Name: tc.name})
		if err == nil || err.Error() != tc.want {
			t.Errorf("Name %q: got error %v, want %s", tc.name, err, tc.want)
		}
	}
}

// errReader returns data and then err.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadIOError(t *testing.T) {
	errBroken := errors.New("broken pipe")
	_, err := Read(&errReader{data: []byte("x1,label\n1,0\n2,"), err: errBroken}, ReadOptions{Name: "pipe"})
	checkParseError(t, err, errBroken, "pipe", 3, 0, "broken pipe")
}

func TestReadLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping 10 MB line in short mode")
	}
	// 1<<20 columns of 10 bytes each make a data line of 10 MiB, far
	// beyond any buffer size in the reader.
	const cols = 1 << 20
	var buf bytes.Buffer
	writeNames(&buf, cols)
	buf.WriteString(",label\n")
	start := buf.Len()
	for j := range cols {
		fmt.Fprintf(&buf, "%09d,", j)
	}
	buf.WriteString("7\n")
	if n := buf.Len() - start; n < 10<<20 {
		t.Fatalf("data line has %d bytes, want ≥ 10 MiB", n)
	}

	ds, err := Read(&buf, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := ds.X.Dims(); r != 1 || c != cols {
		t.Fatalf("X is %d×%d, want 1×%d", r, c, cols)
	}
	for j, v := range ds.X.RawRowView(0) {
		if v != float64(j) {
			t.Fatalf("x[%d] = %v, want %d", j, v, j)
		}
	}
	if len(ds.Names) != cols || ds.Names[cols-1] != "x"+strconv.Itoa(cols) {
		t.Errorf("got %d names ending %q", len(ds.Names), ds.Names[len(ds.Names)-1])
	}
	if !slices.Equal(ds.Labels, []int{0}) || !slices.Equal(ds.Classes, []string{"7"}) {
		t.Errorf("Labels %v Classes %q, want [0] [7]", ds.Labels, ds.Classes)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.csv")
	if err := os.WriteFile(path, []byte("x1,label\n1,a\nz,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, ReadOptions{})
	checkParseError(t, err, ErrNotNumber, path, 3, 1, `"z"`)

	_, err = ReadFile(path, ReadOptions{Name: "other"})
	checkParseError(t, err, ErrNotNumber, "other", 3, 1, `"z"`)

	_, err = ReadFile(filepath.Join(dir, "missing.csv"), ReadOptions{})
	if !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "dataset: ") {
		t.Errorf("missing file: got %v, want a dataset: error wrapping os.ErrNotExist", err)
	}
}

// TestReadRows checks that the ReadOptions.Rows hint changes nothing but
// the allocation: right, too small, too large or absurd, the data set read
// is the same, and that LineCount counts a last line without a newline and
// gives 0 for what is not a regular file.
func TestReadRows(t *testing.T) {
	want := mustGenerate(t, Gauss3, 30000, 2) // 60000 values span several chunks
	var buf bytes.Buffer
	if err := want.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "g.csv")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := LineCount(f); got != 30001 {
		t.Errorf("LineCount = %d, want 30001 (header and rows)", got)
	}
	if b, err := io.ReadAll(f); err != nil || !bytes.Equal(b, buf.Bytes()) {
		t.Errorf("LineCount did not rewind the file: %d bytes, %v", len(b), err)
	}
	x := make([][]float64, 30000)
	for i := range x {
		x[i] = want.X.RawRowView(i)
	}
	for _, rows := range []int{0, 1, 29999, 30000, 30001, 1 << 20} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		// One worker: the batches of several, a fixed amount, are
		// measured by TestScanBatchMemory.
		got, err := Read(bytes.NewReader(buf.Bytes()), ReadOptions{Rows: rows, Workers: 1})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("Rows = %d: %v", rows, err)
		}
		checkDataset(t, got, x, want.Labels, want.Names, want.Classes)
		// With a right hint (or one too large by the header line, as
		// LineCount gives) the values are stored once, never copied:
		// about 0.8 MB for the 480 kB of values, the 240 kB of labels,
		// the reader's 64 kB buffer and a 2 kB spare chunk. A copy of
		// the values, or a spare chunk as large as they are, adds
		// 480 kB (1.28 MB was measured with the latter).
		if rows == 30000 || rows == 30001 {
			if a := after.TotalAlloc - before.TotalAlloc; a > 1200_000 {
				t.Errorf("Rows = %d: %d bytes allocated, as if the values were copied", rows, a)
			}
		}
	}

	noNewline := filepath.Join(dir, "n.csv")
	if err := os.WriteFile(noNewline, []byte("x\n1\n2"), 0o644); err != nil {
		t.Fatal(err)
	}
	f2, err := os.Open(noNewline)
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	if got := LineCount(f2); got != 3 {
		t.Errorf("LineCount without a final newline = %d, want 3", got)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if got := LineCount(r); got != 0 {
		t.Errorf("LineCount of a pipe = %d, want 0", got)
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	// Values whose shortest text is unusual: extremes, subnormals,
	// negative zero, exponents and many digits.
	special := []float64{
		0, math.Copysign(0, -1), 1, -1, math.Pi, 1e21, 1e-7, 123456789012345678,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
		0.1, 1.0 / 3, -2.5e-300,
	}
	rnd := rand.New(rand.NewPCG(1, 1))
	const rows, cols = 50, 3
	data := make([]float64, rows*cols)
	for i := range data {
		if i < len(special) {
			data[i] = special[i]
		} else {
			data[i] = math.Float64frombits(rnd.Uint64())
			for math.IsNaN(data[i]) || math.IsInf(data[i], 0) {
				data[i] = math.Float64frombits(rnd.Uint64())
			}
		}
	}
	labels := make([]int, rows)
	for i := range labels {
		labels[i] = rnd.IntN(3)
	}
	labels[0], labels[1], labels[2] = 0, 1, 2 // Every class occurs.

	for _, tc := range []struct {
		name string
		ds   *Dataset
	}{
		{"labelled", &Dataset{
			X:       mat.NewDense(rows, cols, data),
			Labels:  labels,
			Names:   []string{"a", "b", "c"},
			Classes: []string{"Iris-setosa", "Iris-versicolor", "Iris-virginica"},
		}},
		{"unlabelled", &Dataset{
			X:     mat.NewDense(rows, cols, data),
			Names: []string{"a", "b", "c"},
		}},
		{"generated", mustGenerate(t, Nested, 40000, 3)}, // 80000 values span several chunks
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.ds.WriteCSV(&buf); err != nil {
				t.Fatal(err)
			}
			got, err := Read(&buf, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, c := tc.ds.X.Dims()
			x := make([][]float64, r)
			for i := range x {
				x[i] = tc.ds.X.RawRowView(i)[:c]
			}
			checkDataset(t, got, x, tc.ds.Labels, tc.ds.Names, tc.ds.Classes)
		})
	}
}

func TestWriteCSV(t *testing.T) {
	ds := &Dataset{
		X:      mat.NewDense(2, 2, []float64{1.5, -0.25, 1e21, 3}),
		Labels: []int{1, 0},
	}
	var buf bytes.Buffer
	if err := ds.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	const want = "x1,x2,label\n1.5,-0.25,1\n1e+21,3,0\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	for _, bad := range []*Dataset{
		{X: ds.X, Names: []string{"a,b", "c"}},
		{X: ds.X, Labels: ds.Labels, Classes: []string{"x", "y\n"}},
		{X: ds.X, Names: []string{" a", "c"}},
	} {
		if err := bad.WriteCSV(io.Discard); err == nil {
			t.Errorf("WriteCSV with names %q classes %q: no error", bad.Names, bad.Classes)
		}
	}
}

// benchCSV returns a CSV of rows random rows with cols features, each with
// four decimals as is typical of measured data, and a label column.
func benchCSV(rows, cols int) []byte {
	rnd := rand.New(rand.NewPCG(1, 1))
	var buf []byte
	for j := range cols {
		buf = fmt.Appendf(buf, "x%d,", j+1)
	}
	buf = append(buf, "label\n"...)
	for range rows {
		for range cols {
			buf = strconv.AppendFloat(buf, 100*rnd.NormFloat64(), 'f', 4, 64)
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(rnd.IntN(7)), 10)
		buf = append(buf, '\n')
	}
	return buf
}

func benchmarkRead(b *testing.B, rows, cols int) {
	in := benchCSV(rows, cols)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(in), ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	b.Run("rows=100000/cols=9", func(b *testing.B) { benchmarkRead(b, 100000, 9) })
	// As R's write.csv writes the same data: every name and label quoted,
	// which takes the slow path of the reader.
	b.Run("rows=100000/cols=9/quoted", func(b *testing.B) {
		var in []byte
		for line := range bytes.Lines(benchCSV(100000, 9)) {
			fields := bytes.Split(bytes.TrimSuffix(line, []byte("\n")), []byte(","))
			fields[len(fields)-1] = fmt.Appendf(nil, "%q", fields[len(fields)-1])
			in = append(append(in, bytes.Join(fields, []byte(","))...), '\n')
		}
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Read(bytes.NewReader(in), ReadOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// parseSimpleTests are inputs at the edges of parseSimple's fast path.
var parseSimpleTests = []string{
	"0", "-0", "+0", "0.", ".5", "-.5e-3", "1.", ".", "+", "-", "", "e5", "1e", "1e+", "1e-x", "1.2.3",
	"9007199254740992", "9007199254740993", "9007199254740992e22", "1e22", "1e23", "1e-22", "1e-23",
	"1234567890123456789", "12345678901234567890", "0.1234567890123456789", "0.000000000000000000000000001",
	"123456789012345678901234567890e-20", "0e400", "-0e-400", "1e400", "1E5", "1_0", "0x10", "Inf", "nan",
	"3.14159265358979323846", "00000000000000000000000000001.5", "4.9406564584124654e-324", "1.7976931348623157e308",
	"-123.4567", "5.1", "1e0000000000000000000000005", "1e-0000000000000000000000005",
}

func checkParseSimple(t *testing.T, s string) {
	t.Helper()
	got, ok := parseSimple([]byte(s))
	if !ok {
		return
	}
	want, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("parseSimple(%q) = %v (%#x); strconv gives %v (%#x), %v",
			s, got, math.Float64bits(got), want, math.Float64bits(want), err)
	}
}

func TestParseSimple(t *testing.T) {
	for _, s := range parseSimpleTests {
		checkParseSimple(t, s)
	}
	// Random decimals of the kind found in data files, many of them on
	// the fast path.
	rnd := rand.New(rand.NewPCG(1, 1))
	accepted := 0
	for range 100000 {
		var b []byte
		if rnd.IntN(2) == 0 {
			b = append(b, '-')
		}
		for range 1 + rnd.IntN(10) {
			b = append(b, byte('0'+rnd.IntN(10)))
		}
		if rnd.IntN(2) == 0 {
			b = append(b, '.')
			for range rnd.IntN(12) {
				b = append(b, byte('0'+rnd.IntN(10)))
			}
		}
		if rnd.IntN(4) == 0 {
			b = fmt.Appendf(b, "e%d", rnd.IntN(61)-30)
		}
		if _, ok := parseSimple(b); ok {
			accepted++
		}
		checkParseSimple(t, string(b))
	}
	// Most of these inputs have ≤ 19 digits and a small exponent.
	if accepted < 50000 {
		t.Errorf("fast path took only %d of 100000 inputs", accepted)
	}
}

// zeros is an endless input of NUL bytes, as /dev/zero is, that counts
// what it gives.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += len(p)
	return len(p), nil
}

// TestReadEndlessLine checks that a line without end, such as /dev/zero
// gives, is an error after DefaultMaxLine bytes rather than a buffer that
// grows until memory runs out, in the header and in a row.
func TestReadEndlessLine(t *testing.T) {
	for _, head := range []string{"", "x1,label\n1,a\n"} {
		z := &zeros{}
		_, err := Read(io.MultiReader(strings.NewReader(head), z), ReadOptions{Name: "zero"})
		line := strings.Count(head, "\n") + 1
		checkParseError(t, err, ErrLineTooLong, "zero", line, 0, "more than 16777216 bytes")
		if z.n > DefaultMaxLine+2*bufSize {
			t.Errorf("header %q: read %d bytes for a limit of %d", head, z.n, DefaultMaxLine)
		}
	}
}

// gzipped returns in compressed with gzip.
func gzipped(t testing.TB, in []byte) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	if _, err := z.Write(in); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadGzip checks that gzip data are recognised by their first bytes,
// whatever the file name, and read as the text they hold, including a
// stream of several members (as `cat a.gz b.gz` makes), and that corrupt
// gzip data are an error that says so.
func TestReadGzip(t *testing.T) {
	const text = "\"x1\";\"x2\";\"label\"\n1;2;a\n3;4;b\n"
	z := gzipped(t, []byte(text))
	dir := t.TempDir()
	path := filepath.Join(dir, "data.csv") // no .gz suffix
	if err := os.WriteFile(path, z, 0o644); err != nil {
		t.Fatal(err)
	}
	x := [][]float64{{1, 2}, {3, 4}}
	ds, err := ReadFile(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, ds, x, []int{0, 1}, []string{"x1", "x2"}, []string{"a", "b"})

	// Two members: the header and first row, then the second row.
	two := append(gzipped(t, []byte(text[:len(text)-6])), gzipped(t, []byte(text[len(text)-6:]))...)
	ds, err = Read(bytes.NewReader(two), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, ds, x, []int{0, 1}, []string{"x1", "x2"}, []string{"a", "b"})

	// Cut in the trailer, after the last line.
	_, err = Read(bytes.NewReader(z[:len(z)-5]), ReadOptions{Name: "cut.gz"})
	checkParseError(t, err, ErrGzip, "cut.gz", 4, 0, "unexpected EOF")
	_, err = Read(bytes.NewReader(z[:5]), ReadOptions{Name: "head.gz"})
	checkParseError(t, err, ErrGzip, "head.gz", 1, 0, "bad gzip data")
	_, err = Read(bytes.NewReader(gzipped(t, z)), ReadOptions{Name: "twice.gz"})
	checkParseError(t, err, ErrGzip, "twice.gz", 1, 0, "compressed twice")
	bad := slices.Clone(z)
	bad[len(bad)-8] ^= 1 // the CRC-32 (RFC 1952, section 2.3.1)
	_, err = Read(bytes.NewReader(bad), ReadOptions{Name: "crc.gz"})
	checkParseError(t, err, ErrGzip, "crc.gz", 4, 0, "checksum")

	// A gzip file gives no row count: its newlines are compressed.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n := LineCount(f); n != 0 {
		t.Errorf("LineCount of a gzip file = %d, want 0", n)
	}
}

// TestReadTooManyColumns checks that a header of more than MaxColumns
// columns, 2 MB of commas here, is an error before its names are stored.
func TestReadTooManyColumns(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	head := strings.Repeat(",", MaxColumns) + "\n1\n"
	_, err := Read(strings.NewReader(head), ReadOptions{Name: "wide"})
	checkParseError(t, err, ErrTooManyColumns, "wide", 1, 0, fmt.Sprintf("%d, at most %d", MaxColumns+1, MaxColumns))
	// One fewer is read, and fails only for its unnamed columns.
	_, err = Read(strings.NewReader(head[1:]), ReadOptions{Name: "wide"})
	checkParseError(t, err, ErrColumnName, "wide", 1, 1, "column 1 has no name")
}

// TestParseErrorField checks that an error in a value names its column's
// header name, which the command line quotes in its hints (-drop NAME).
func TestParseErrorField(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"id,x2,label\n1,2,a\nA-17,3,b\n", "id,x2,label\n1,2,a\n\"A-17\",3,b\n"} {
		_, err := Read(strings.NewReader(in), ReadOptions{})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Field != "id" || pe.Column != 1 || !errors.Is(err, ErrNotNumber) {
			t.Errorf("%q: %#v, want a ParseError of field \"id\", column 1", in, err)
		}
	}
}

// TestDataRow: rows kept after dropping data rows 1, 2 and 5 of 0..6 are
// 0, 3, 4, 6 (worked out by hand).
func TestDataRow(t *testing.T) {
	t.Parallel()
	dropped := []int{1, 2, 5}
	for i, want := range []int{0, 3, 4, 6} {
		if got := DataRow(i, dropped); got != want {
			t.Errorf("DataRow(%d, %v) = %d, want %d", i, dropped, got, want)
		}
	}
	if got := DataRow(4, nil); got != 4 {
		t.Errorf("DataRow(4, nil) = %d, want 4", got)
	}
}

// TestReadUnlabelledWorkers checks that rows with a missing label are
// unlabelled alike whichever goroutines parse them (the parallel path
// takes clean lines' labels from the workers).
func TestReadUnlabelledWorkers(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("x,label\n")
	want := 0
	for i := range 20000 {
		switch {
		case i%7 == 0:
			fmt.Fprintf(&b, "%d,\n", i)
			want++
		case i%11 == 0:
			fmt.Fprintf(&b, "%d,\"NA\"\n", i)
			want++
		default:
			fmt.Fprintf(&b, "%d,c%d\n", i, i%3)
		}
	}
	var first *Dataset
	for _, w := range []int{1, 4} {
		ds, err := Read(strings.NewReader(b.String()), ReadOptions{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for i, l := range ds.Labels {
			if l < 0 {
				got++
				if i%7 != 0 && i%11 != 0 {
					t.Fatalf("workers %d: row %d unlabelled", w, i)
				}
			}
		}
		if got != want || len(ds.Classes) != 3 {
			t.Fatalf("workers %d: %d unlabelled rows and classes %q, want %d and 3", w, got, ds.Classes, want)
		}
		if first == nil {
			first = ds
		} else if !slices.Equal(ds.Labels, first.Labels) {
			t.Fatalf("labels differ between 1 and %d workers", w)
		}
	}
}

// TestDatasetLine checks the line of each row kept, with and without a
// header line and with rows dropped.
func TestDatasetLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		opt  ReadOptions
		want []int
	}{
		{"x\n1\nNA\n3\n", ReadOptions{NA: NADrop}, []int{2, 4}},
		{"1\nNA\n3\nNA\n5\n", ReadOptions{NA: NADrop, NoHeader: true}, []int{1, 3, 5}},
	} {
		ds, err := Read(strings.NewReader(tc.in), tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewScanner(strings.NewReader(tc.in), tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range tc.want {
			if !s.Scan() {
				t.Fatalf("%q: Scan stopped at row %d: %v", tc.in, i, s.Err())
			}
			if got := ds.Line(i); got != want {
				t.Errorf("%q: Line(%d) = %d, want %d", tc.in, i, got, want)
			}
			if got := s.RowLine(i); got != want || s.Line() != want {
				t.Errorf("%q: RowLine(%d) = %d and Line() = %d, want %d", tc.in, i, got, s.Line(), want)
			}
		}
	}
}

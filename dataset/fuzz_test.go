package dataset

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func FuzzRead(f *testing.F) {
	for _, tc := range readTests {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte("x1,x2,label\n1,2,a\n3,4,b\n"))
	f.Add([]byte("\ufeffx,label\r\n1e308,1\r\n-0x1p-3,2"))
	f.Add([]byte("label,x\n\"a\",1\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		ds, err := Read(bytes.NewReader(in), ReadOptions{})
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
			return
		}
		checkFuzzDataset(t, ds)
	})
}

// FuzzReadFormats reads its input with each separator choice and decimal
// separator, as it is and compressed with gzip: the two must give the same data
// set or the same error, always a *ParseError, and never a panic. The
// seeds are files as R, Excel, pandas and gzip write them, with the edge
// cases of quoting.
func FuzzReadFormats(f *testing.F) {
	for _, s := range []string{
		"\"x1\",\"x2\",\"label\"\n1.5,2,\"a\"\n3,4,\"b\"\n",
		"\"x;1\";\"x2\";\"label\"\r\n\"1.5\";2;\"a \"\"q\"\"\"\r\n",
		",x1,x2,label\n0,1,2,a\n1,3,4,b\n",
		"x1\tx2\tlabel\n1\t2\ta\n",
		"x1,label\n\"1,5\",a\n",
		"x1,label\n1,\"a\nb\"\n",
		"x1,label\n1,a\"b\n",
		"x1,label\n\"1\"2,a\n",
		"x1,x2;label\n1,2;a\n",
		"id,x1,x1\n1,2,3\n",
		"x1,label\n0x1p4,a\n1_000,b\n-nan,c\nNA,d\n",
		"x1;x2;label\n1,5;-0,25e1;a\n1.000,5;2;b\n",
	} {
		for sep := range byte(8) {
			f.Add([]byte(s), sep)
		}
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte("x1,label\n1,a\n2,b\n"))
	w.Close()
	f.Add(z.Bytes(), byte(0))
	f.Add(z.Bytes()[:z.Len()/2], byte(0))
	f.Fuzz(func(t *testing.T, in []byte, sep byte) {
		opt := ReadOptions{Sep: [...]byte{0, ',', ';', '\t'}[sep%4], Drop: []string{"id"}, MaxLine: 1 << 16}
		if sep&4 != 0 {
			opt.Decimal = ','
		}
		if !bytes.Contains(in, []byte("id")) {
			opt.Drop = nil
		}
		ds, err := Read(bytes.NewReader(in), opt)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
		} else {
			checkFuzzDataset(t, ds)
		}
		if bytes.HasPrefix(in, gzipMagic) {
			return // compressed twice, it would be read once decompressed
		}
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(in)
		w.Close()
		dz, errz := Read(&z, opt)
		switch {
		case (err == nil) != (errz == nil):
			t.Fatalf("plain: %v; gzip: %v", err, errz)
		case err != nil:
			if err.Error() != errz.Error() {
				t.Fatalf("plain: %v; gzip: %v", err, errz)
			}
		case !mat.Equal(ds.X, dz.X) || !slices.Equal(ds.Labels, dz.Labels) ||
			!slices.Equal(ds.Names, dz.Names) || !slices.Equal(ds.Classes, dz.Classes):
			t.Fatal("gzip input read differently")
		}
	})
}

// checkFuzzDataset fails t unless ds is consistent: names for every
// column, a label (or −1) for every row, every class used, finite values.
func checkFuzzDataset(t *testing.T, ds *Dataset) {
	t.Helper()
	{
		r, c := ds.X.Dims()
		if r < 1 || c < 1 || len(ds.Names) != c {
			t.Fatalf("X is %d×%d with %d names", r, c, len(ds.Names))
		}
		if ds.Labels != nil {
			if len(ds.Labels) != r {
				t.Fatalf("%d labels for %d rows", len(ds.Labels), r)
			}
			seen := make([]bool, len(ds.Classes))
			for _, k := range ds.Labels {
				if k == -1 {
					continue // unlabelled
				}
				if k < 0 || k >= len(ds.Classes) {
					t.Fatalf("label %d out of range [0,%d)", k, len(ds.Classes))
				}
				seen[k] = true
			}
			for k, ok := range seen {
				if !ok {
					t.Fatalf("class %d (%q) has no rows", k, ds.Classes[k])
				}
			}
		}
		for i := range r {
			for _, v := range ds.X.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d has %v", i, v)
				}
			}
		}
	}
}

// FuzzParseSimple checks that the fast path of the float parser agrees with
// strconv.ParseFloat bit for bit whenever it accepts its input.
func FuzzParseSimple(f *testing.F) {
	for _, s := range parseSimpleTests {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkParseSimple(t, s)
	})
}

// FuzzQuotedSameAsPlain checks the two paths of the reader against each
// other: a file without quotes that reads without error must read the
// same once every field is quoted, as R's write.csv or Excel might write
// it, which takes the path for quoted lines.
func FuzzQuotedSameAsPlain(f *testing.F) {
	for _, tc := range readTests {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		// A byte order mark or a CR would end up inside the quotes.
		if bytes.ContainsAny(in, "\"\r") || bytes.HasPrefix(in, []byte("\xef\xbb\xbf")) {
			return
		}
		opt := ReadOptions{Sep: ',', MaxLine: -1}
		ds, err := Read(bytes.NewReader(in), opt)
		if err != nil {
			return
		}
		var q []byte
		for line := range bytes.Lines(in) {
			line = bytes.TrimSuffix(line, []byte("\n"))
			for j, field := range bytes.Split(line, []byte(",")) {
				if j > 0 {
					q = append(q, ',')
				}
				q = append(append(append(q, '"'), trimSpace(field)...), '"')
			}
			q = append(q, '\n')
		}
		dq, err := Read(bytes.NewReader(q), opt)
		if err != nil {
			t.Fatalf("quoted %q: %v", q, err)
		}
		if !mat.Equal(ds.X, dq.X) || !slices.Equal(ds.Labels, dq.Labels) ||
			!slices.Equal(ds.Names, dq.Names) || !slices.Equal(ds.Classes, dq.Classes) {
			t.Fatalf("quoted %q reads differently", q)
		}
	})
}

// FuzzScanWorkers scans its input with one worker, line by line, and with
// several workers in small batches, and checks that a caller sees the same
// thing after every Scan: the result, the row (bit for bit, also after an
// error, which may leave it half written), the label and classes, the
// dropped rows, the count of rows, the line and its text, and at the end the
// same error. The flags choose the options: the missing-value policy, a
// decimal comma, a short MaxLine, the separator, no label column, and gzip.
func FuzzScanWorkers(f *testing.F) {
	long := "x,label\n1,a\n" + strings.Repeat("12345678", 5) + ",b\n2,c\n"
	rows := "x,label\n"
	for i := range 20 {
		rows += fmt.Sprintf("%d.25,c%d\n", i, i%3)
	}
	for _, tc := range []struct {
		in    string
		flags byte
	}{
		{"x1,x2,label\n1,2,a\n\"3\",4,\"b\"\n5, \"6\" ,\"a\"\"q\"\n", 0},
		{"x1,x2,label\n1,2,a\n\"3\",4,\"b\n5,6,c\n", 0},
		{"x1,x2,label\n1,NA,a\n2,3,b\nnan,,c\n4,5,d\n", 0},
		{"x1,x2,label\n1,NA,a\n2,3,b\nnan,,c\n4,5,d\n", 1},
		{"x1,x2,label\n1,NA,a\nNaN,3,b\n", 1},
		{"x,y\n1,2\n3\n4,5\n", 0},
		{"x,y\n1,2\n\n3,4\n", 0},
		{"x\n1\n\n2\n \n", 1},
		{long, 4},
		{long, 0},
		{"x;y;label\n1,5;2;a\n3;4,25;b\n5.5;6;c\n", 2},
		{"x,y,label\r\n1,2,a\r\n3,4,b\r\n", 0},
		{"x,y,label\r\n1,2,a\r\n3,4,b\r\n", 64},
		{"x\ty\tlabel\n1\t2\ta\n", 3 << 3},
		{"label,x\na,1\nb,bad\nc,2\n", 0},
		{"label,x\na,1\nb,bad\nc,2\n", 32},
		{rows + "bad,a\n" + rows[8:], 0},
		{rows + "1,NA\n" + rows[8:], 1},
		{rows + "1\n" + rows[8:], 64 | 1},
		{rows + long[12:] + rows[8:], 4},
	} {
		f.Add([]byte(tc.in), tc.flags)
	}
	for _, tc := range readTests {
		f.Add([]byte(tc.in), byte(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, flags byte) {
		opt := ReadOptions{Name: "f.csv", Sep: [...]byte{0, ',', ';', '\t'}[flags>>3&3]}
		if flags&1 != 0 {
			opt.NA = NADrop
		}
		if flags&2 != 0 {
			opt.Decimal = ','
		}
		if flags&4 != 0 {
			opt.MaxLine = 32
		}
		if flags&32 != 0 {
			opt.NoLabel = true
		}
		if flags&64 != 0 {
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(in)
			w.Close()
			in = z.Bytes()
		}
		for _, size := range []batchSize{
			{lines: 1, bytes: 1 << 20, parallel: 1},
			{lines: 3, bytes: 16, parallel: 1},
			{lines: 7, bytes: 1 << 20, parallel: 4},
		} {
			checkScanWorkers(t, in, opt, 3, size)
		}
	})
}

// checkScanWorkers fails t unless scanning in with the given workers and
// batches looks the same to a caller as scanning it with one worker.
func checkScanWorkers(t *testing.T, in []byte, opt ReadOptions, workers int, size batchSize) {
	t.Helper()
	opt.Workers = 1
	want, werr := newScanner(bytes.NewReader(in), opt, defaultBatch)
	opt.Workers = workers
	got, gerr := newScanner(bytes.NewReader(in), opt, size)
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Fatalf("NewScanner: %v with %d workers, %v with one", gerr, workers, werr)
	}
	if werr != nil {
		return
	}
	if got.workers != workers {
		t.Fatalf("%d workers, want %d", got.workers, workers)
	}
	for i := 1; ; i++ {
		before := want.Line()
		wok, gok := want.Scan(), got.Scan()
		// Text is the line's when Scan read one: after an error of
		// reading the next line (too long, gzip), or at the end, it is
		// with one worker a slice of the reader's buffer that the
		// reading may have overwritten.
		read := wok || want.Line() != before
		switch {
		case wok != gok:
			t.Fatalf("Scan %d (%+v): %v, with one worker %v", i, size, gok, wok)
		case !slices.EqualFunc(want.Row(), got.Row(), func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }):
			t.Fatalf("Scan %d (%+v): row %v, with one worker %v", i, size, got.Row(), want.Row())
		case want.Label() != got.Label() || !slices.Equal(want.Classes(), got.Classes()):
			t.Fatalf("Scan %d (%+v): label %d of %q, with one worker %d of %q", i, size, got.Label(), got.Classes(), want.Label(), want.Classes())
		case !slices.Equal(want.Dropped(), got.Dropped()):
			t.Fatalf("Scan %d (%+v): dropped %v, with one worker %v", i, size, got.Dropped(), want.Dropped())
		case want.Rows() != got.Rows() || want.Line() != got.Line():
			t.Fatalf("Scan %d (%+v): rows %d line %d, with one worker %d and %d", i, size, got.Rows(), got.Line(), want.Rows(), want.Line())
		case read && !bytes.Equal(want.Text(), got.Text()):
			t.Fatalf("Scan %d (%+v): text %q, with one worker %q", i, size, got.Text(), want.Text())
		}
		if !wok {
			break
		}
	}
	if fmt.Sprint(want.Err()) != fmt.Sprint(got.Err()) {
		t.Fatalf("error %v (%+v), with one worker %v", got.Err(), size, want.Err())
	}
	if got.Scan() {
		t.Fatal("Scan after the end returned true")
	}
}

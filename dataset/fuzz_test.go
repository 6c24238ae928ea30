package dataset

import (
	"bytes"
	"compress/gzip"
	"math"
	"slices"
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
// column, a label for every row, every class used, finite values.
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

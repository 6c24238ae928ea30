package dataset

import (
	"bytes"
	"math"
	"testing"
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
	})
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

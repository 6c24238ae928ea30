package dataset

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

// TestScaleFitterBinary checks that UnmarshalBinary restores what
// MarshalBinary encodes, bit for bit (an infinity, the NaN mean it makes,
// and a negative zero included); that every truncation, a trailing byte,
// another version, an unknown scale and a negative number of rows are
// errors wrapping errScaleFitter; and that a fitter past its first pass
// does not encode.
func TestScaleFitterBinary(t *testing.T) {
	m := NewScaleFitter(ScaleZScore, 3)
	for _, row := range [][]float64{{1, -2, math.Inf(1)}, {4, 0.5, 7}, {math.Copysign(0, -1), 3, 2}} {
		m.Add(row)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// version, scale, rows, columns, then 5 float64s a column
	if len(b) != 1+1+1+1+40*3 {
		t.Errorf("%d bytes for 3 columns, want %d", len(b), 1+1+1+1+40*3)
	}
	var got ScaleFitter
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if got.scale != m.scale || got.n != m.n || got.pass != 0 {
		t.Errorf("decoded scale %v, %d rows, pass %d; want %v, %d, 0", got.scale, got.n, got.pass, m.scale, m.n)
	}
	for c, col := range got.firstPass() {
		if want := m.firstPass()[c]; !sameBits(col, want) {
			t.Errorf("column set %d: decoded %v, want %v", c, col, want)
		}
	}
	// The decoded fitter finishes as the original does.
	s1, err1 := got.OnePassScaler()
	s2, err2 := m.OnePassScaler()
	if err1 != nil || err2 != nil || !sameBits(s1.Shift, s2.Shift) || !sameBits(s1.Mul, s2.Mul) {
		t.Errorf("decoded OnePassScaler %v, %v; want %v, %v", s1, err1, s2, err2)
	}
	empty := NewScaleFitter(ScaleNone, 0)
	if e, _ := empty.MarshalBinary(); got.UnmarshalBinary(e) != nil || got.n != 0 || len(got.lo) != 0 {
		t.Errorf("no columns: %+v", got)
	}
	for n := range len(b) {
		if err := got.UnmarshalBinary(b[:n]); !errors.Is(err, errScaleFitter) {
			t.Fatalf("%d of %d bytes: %v, want errScaleFitter", n, len(b), err)
		}
	}
	bad := map[string][]byte{
		"trailing byte": append(append([]byte{}, b...), 0),
		"version 2":     append([]byte{2}, b[1:]...),
		"scale 9":       append([]byte{scaleFitterVersion, 9}, b[2:]...),
		"negative rows": append([]byte{scaleFitterVersion, b[1], 1}, b[3:]...), // zig-zag 1 is −1
	}
	for name, data := range bad {
		if err := got.UnmarshalBinary(data); !errors.Is(err, errScaleFitter) {
			t.Errorf("%s: %v, want errScaleFitter", name, err)
		}
	}
	m.NextPass()
	if _, err := m.MarshalBinary(); err == nil {
		t.Error("a fitter in its second pass encoded")
	}
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	return reflect.DeepEqual(bitsOf(a), bitsOf(b))
}

func bitsOf(v []float64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		out[i] = math.Float64bits(x)
	}
	return out
}

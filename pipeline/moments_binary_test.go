package pipeline

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

// TestMomentsBinary checks that UnmarshalBinary restores what
// MarshalBinary encodes, bit for bit (an infinity, the NaN mean it makes,
// and a negative zero included); that every truncation, a trailing byte,
// another version and a negative N are errors wrapping errMoments; and
// that columns of different lengths do not encode.
func TestMomentsBinary(t *testing.T) {
	m := NewMoments(3)
	for _, row := range [][]float64{{1, -2, math.Inf(1)}, {4, 0.5, 7}, {math.Copysign(0, -1), 3, 2}} {
		m.Add(row)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 1+1+1+32*3 {
		t.Errorf("%d bytes for 3 columns, want %d", len(b), 1+1+1+32*3)
	}
	var got Moments
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if got.N != m.N || !sameBits(got.Mean, m.Mean) || !sameBits(got.M2, m.M2) || !sameBits(got.Min, m.Min) || !sameBits(got.Max, m.Max) {
		t.Errorf("decoded %+v, want %+v", got, *m)
	}
	empty := NewMoments(0)
	if e, _ := empty.MarshalBinary(); got.UnmarshalBinary(e) != nil || got.N != 0 || len(got.Mean) != 0 {
		t.Errorf("no columns: %+v", got)
	}
	for n := range len(b) {
		if err := got.UnmarshalBinary(b[:n]); !errors.Is(err, errMoments) {
			t.Fatalf("%d of %d bytes: %v, want errMoments", n, len(b), err)
		}
	}
	bad := map[string][]byte{
		"trailing byte": append(append([]byte{}, b...), 0),
		"version 2":     append([]byte{2}, b[1:]...),
		"negative N":    append([]byte{momentsVersion, 1}, b[2:]...), // zig-zag 1 is −1
	}
	for name, data := range bad {
		if err := got.UnmarshalBinary(data); !errors.Is(err, errMoments) {
			t.Errorf("%s: %v, want errMoments", name, err)
		}
	}
	if _, err := (&Moments{Mean: []float64{1}}).MarshalBinary(); err == nil {
		t.Error("columns of different lengths encoded")
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

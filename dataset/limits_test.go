package dataset

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestGenerateHugeN: a huge n is an error naming n and its bound, returned
// before anything is allocated by it (it was a fatal out-of-memory error
// at 1<<40 and a makeslice panic at 1<<62), for Generate, GenerateHigh and
// GenerateCSV; and a huge dimension of a high-dimensional kind as well.
func TestGenerateHugeN(t *testing.T) {
	for _, n := range []int{1 << 40, 1 << 62, math.MaxInt, 1<<30 + 1} {
		_, err := Generate(Moons, n, 1)
		if err == nil || !strings.Contains(err.Error(), "n = ") || !strings.Contains(err.Error(), "at most 1073741824") {
			t.Errorf("Generate(moons, %d): error %v, want one naming n and its bound 1073741824", n, err)
		}
	}
	if _, err := Generate(HD8, 1<<28+1, 1); err == nil || !strings.Contains(err.Error(), "at most 268435456") {
		t.Errorf("Generate(hd8, 2²⁸+1): error %v, want one naming the bound 268435456", err)
	}
	for _, n := range []int{1 << 40, 1 << 62, math.MaxInt} {
		_, err := GenerateHigh("g8", n, 1)
		if err == nil || !strings.Contains(err.Error(), "n = ") || !strings.Contains(err.Error(), "at most 268435456") {
			t.Errorf("GenerateHigh(g8, %d): error %v, want one naming n and its bound", n, err)
		}
		var b bytes.Buffer
		err = GenerateCSV(&b, Moons, n, 1)
		if err == nil || !strings.Contains(err.Error(), "n = ") || !strings.Contains(err.Error(), "at most 2147483647") {
			t.Errorf("GenerateCSV(moons, %d): error %v, want one naming n and its bound", n, err)
		}
	}
	for _, kind := range []HighKind{"g1099511627776", "t4611686018427387904", "m99999999999999999999"} {
		_, err := GenerateHigh(kind, 1, 1)
		if err == nil || !strings.Contains(err.Error(), "dimension") {
			t.Errorf("GenerateHigh(%s, 1): error %v, want one naming the dimension and its bound", kind, err)
		}
	}
}

// TestScaleFitterHugeDimension: NewScaleFitter, which has no error to
// return, panics with a message naming d and its bound rather than with a
// makeslice panic or a fatal, unrecoverable out-of-memory error.
func TestScaleFitterHugeDimension(t *testing.T) {
	for _, d := range []int{MaxColumns + 1, 1 << 40, 1 << 62} {
		msg := func() (msg any) {
			defer func() { msg = recover() }()
			NewScaleFitter(ScaleZScore, d)
			return nil
		}()
		if s, ok := msg.(string); !ok || !strings.Contains(s, "dimension") || !strings.Contains(s, "2097152") {
			t.Errorf("NewScaleFitter(zscore, %d): panic %v, want one naming the dimension and its bound 2097152", d, msg)
		}
	}
	NewScaleFitter(ScaleZScore, MaxColumns) // the widest set Read accepts
}

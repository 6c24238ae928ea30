package dataset

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func mustGenerate(t testing.TB, kind Kind, n int, seed uint64) *Dataset {
	t.Helper()
	ds, err := Generate(kind, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestGenerate(t *testing.T) {
	for _, tc := range []struct {
		kind   Kind
		n      int
		counts []int
	}{
		{Moons, 200, []int{100, 100}},
		{Moons, 7, []int{4, 3}},
		{Moons, 1, []int{1, 0}},
		{Nested, 700, []int{100, 200, 400}},
		{Nested, 10, []int{1, 3, 6}}, // 10/7 × (1, 2, 4) = 1.43, 2.86, 5.71
		{Nested, 1, []int{0, 0, 1}},
		{Gauss3, 300, []int{100, 100, 100}},
		{Gauss3, 5, []int{2, 2, 1}},
		{Gauss4, 402, []int{101, 101, 100, 100}},
		{Gauss4, 1, []int{1, 0, 0, 0}},
	} {
		ds := mustGenerate(t, tc.kind, tc.n, 1)
		if r, c := ds.X.Dims(); r != tc.n || c != 2 || len(ds.Labels) != tc.n {
			t.Errorf("%s n=%d: X is %d×%d with %d labels", tc.kind, tc.n, r, c, len(ds.Labels))
			continue
		}
		counts := make([]int, len(ds.Classes))
		for _, k := range ds.Labels {
			counts[k]++
		}
		if !slices.Equal(counts, tc.counts) {
			t.Errorf("%s n=%d: class counts %v, want %v", tc.kind, tc.n, counts, tc.counts)
		}
		if !slices.Equal(ds.Names, []string{"x1", "x2"}) {
			t.Errorf("%s: Names = %q", tc.kind, ds.Names)
		}
		for k, s := range ds.Classes {
			if s != string(rune('0'+k)) {
				t.Errorf("%s: Classes = %q", tc.kind, ds.Classes)
				break
			}
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	for _, kind := range Kinds() {
		a := mustGenerate(t, kind, 500, 1)
		b := mustGenerate(t, kind, 500, 1)
		c := mustGenerate(t, kind, 500, 2)
		// Same seed, same computation: bitwise equal.
		if !mat.Equal(a.X, b.X) || !slices.Equal(a.Labels, b.Labels) {
			t.Errorf("%s: seed 1 gives different data on two calls", kind)
		}
		if mat.Equal(a.X, c.X) {
			t.Errorf("%s: seeds 1 and 2 give the same points", kind)
		}
		// Shuffled: the first and second halves both hold several classes.
		for _, half := range [][]int{a.Labels[:250], a.Labels[250:]} {
			if k := len(slices.Compact(slices.Sorted(slices.Values(half)))); k != len(a.Classes) {
				t.Errorf("%s: a half of the rows has %d of %d classes", kind, k, len(a.Classes))
			}
		}
	}
}

// TestGenerateShapes checks that the classes lie where the doc comments say,
// which keeps them separated.
func TestGenerateShapes(t *testing.T) {
	const n = 7000
	for _, tc := range []struct {
		kind Kind
		// ok reports whether the point x of class k is where it should be.
		ok func(k int, x []float64) bool
	}{
		// Noise sd 0.08; 5 sd is 0.4, and no more than a few of 7000
		// points lie beyond 4 sd.
		{Moons, func(k int, x []float64) bool {
			if k == 0 { // upper half of the unit circle about (0, 0)
				return math.Abs(math.Hypot(x[0], x[1])-1) < 0.4 && x[1] > -0.4
			}
			// lower half of the unit circle about (1, 0.5)
			return math.Abs(math.Hypot(x[0]-1, x[1]-0.5)-1) < 0.4 && x[1] < 0.9
		}},
		// Blob sd 0.3: radius < 1.5 (5 sd). Rings sd 0.15: within 0.75.
		{Nested, func(k int, x []float64) bool {
			r := math.Hypot(x[0], x[1])
			if k == 0 {
				return r < 1.5
			}
			return math.Abs(r-2*float64(k)) < 0.75
		}},
		// sd 0.5: within 2.5 (5 sd) of the centre per coordinate.
		{Gauss3, func(k int, x []float64) bool {
			c := [][2]float64{{0, 0}, {4, 0}, {2, 2 * math.Sqrt(3)}}[k]
			return math.Abs(x[0]-c[0]) < 2.5 && math.Abs(x[1]-c[1]) < 2.5
		}},
		{Gauss4, func(k int, x []float64) bool {
			c := [][2]float64{{0, 0}, {4, 0}, {4, 4}, {0, 4}}[k]
			return math.Abs(x[0]-c[0]) < 2.5 && math.Abs(x[1]-c[1]) < 2.5
		}},
	} {
		ds := mustGenerate(t, tc.kind, n, 1)
		for i, k := range ds.Labels {
			if x := ds.X.RawRowView(i); !tc.ok(k, x) {
				t.Errorf("%s: point %v of class %d is out of place", tc.kind, x, k)
			}
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	if _, err := Generate(Moons, 0, 1); err == nil {
		t.Error("n=0: no error")
	}
	if _, err := Generate("spiral", 10, 1); err == nil {
		t.Error("unknown kind: no error")
	}
	for _, k := range Kinds() {
		if got, err := ParseKind(string(k)); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
	_, err := ParseKind("circles")
	if want := `dataset: unknown kind "circles" (valid: moons, nested, gauss3, gauss4)`; err == nil || err.Error() != want {
		t.Errorf("ParseKind(circles) error = %v, want %s", err, want)
	}
}

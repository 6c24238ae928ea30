package sample

import (
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"testing"
)

// The draws below were printed by the samplers this package replaced, at
// commit 56f66a2 (before the move): sampleRows in auto.go (the automatic
// settings and train.go's objective sample), sampleRows in tune/tune.go,
// the reservoir of pipeline.SampleScale (a CSV of rows "i,-i" for
// i = 0..99, Size 5, ScaleNone, whose random source was
// rand.NewPCG(seed, 0x7265_7365_7276_6f69)) and pipeline.BottomK. Models,
// labels and tune results depend on these draws: a change here changes
// them.

// TestIndicesPinned pins Indices (and so Rows) to auto.go's sampleRows.
func TestIndicesPinned(t *testing.T) {
	for _, c := range []struct {
		n, m   int
		s1, s2 uint64
		want   []int
	}{
		{10, 4, 1, 2, []int{7, 6, 2, 8}},
		// The seed words of the automatic choice, for Seed 7.
		{1000, 6, 7, 7 ^ 0x9e3779b97f4a7c15, []int{510, 262, 368, 693, 810, 805}},
		{5, 5, 0, 0, []int{1, 2, 3, 4, 0}},
	} {
		data := make([]float64, 2*c.n)
		for i := range c.n {
			data[2*i], data[2*i+1] = float64(i), -float64(i)
		}
		got := Rows(data, c.n, 2, c.m, rand.New(rand.NewPCG(c.s1, c.s2)))
		var want []float64
		for _, i := range c.want {
			want = append(want, float64(i), -float64(i))
		}
		if !slices.Equal(got, want) {
			t.Errorf("Rows(n=%d, m=%d, PCG(%d, %#x)) = %v, want %v", c.n, c.m, c.s1, c.s2, got, want)
		}
		if got := Indices(c.n, c.m, rand.New(rand.NewPCG(c.s1, c.s2))); !slices.Equal(got, c.want) {
			t.Errorf("Indices(%d, %d, PCG(%d, %#x)) = %v, want %v", c.n, c.m, c.s1, c.s2, got, c.want)
		}
	}
}

// TestSortedIndicesPinned pins SortedIndices to tune/tune.go's
// sampleRows, whose source was rand.NewPCG(seed, 0x7475_6e65_5f64_6263).
func TestSortedIndicesPinned(t *testing.T) {
	const stream = 0x7475_6e65_5f64_6263
	for _, c := range []struct {
		n, m int
		seed uint64
		want []int
	}{
		{20, 5, 3, []int{1, 6, 7, 9, 14}},
		{1000, 8, 1, []int{157, 256, 326, 378, 406, 767, 852, 900}},
		{4, 8, 1, []int{0, 1, 2, 3}},
	} {
		if got := SortedIndices(c.n, c.m, rand.New(rand.NewPCG(c.seed, stream))); !slices.Equal(got, c.want) {
			t.Errorf("SortedIndices(%d, %d, seed %d) = %v, want %v", c.n, c.m, c.seed, got, c.want)
		}
	}
}

// TestReservoirPinned pins Reservoir to the reservoir of
// pipeline.SampleScale.
func TestReservoirPinned(t *testing.T) {
	const stream = 0x7265_7365_7276_6f69
	for _, c := range []struct {
		seed uint64
		want []int
	}{
		{0, []int{33, 11, 48, 31, 86}},
		{1, []int{49, 93, 80, 38, 82}},
		{42, []int{91, 99, 26, 6, 5}},
	} {
		r := NewReservoir(5, 2, rand.New(rand.NewPCG(c.seed, stream)))
		for i := range 100 {
			r.Add([]float64{float64(i), -float64(i)})
		}
		var want []float64
		for _, i := range c.want {
			want = append(want, float64(i), -float64(i))
		}
		if got := r.Rows(); !slices.Equal(got, want) || r.Seen() != 100 || r.All() {
			t.Errorf("seed %d: Rows() = %v, Seen %d, All %v; want %v, 100, false", c.seed, got, r.Seen(), r.All(), want)
		}
	}
}

// TestReservoirAll checks that a reservoir of at most K rows is every row,
// in order, and draws nothing from its source.
func TestReservoirAll(t *testing.T) {
	src := rand.NewPCG(1, 1)
	r := NewReservoir(3, 1, rand.New(src))
	for i := range 3 {
		r.Add([]float64{float64(i)})
	}
	if got := r.Rows(); !slices.Equal(got, []float64{0, 1, 2}) || !r.All() {
		t.Errorf("Rows() = %v, All %v; want [0 1 2], true", got, r.All())
	}
	if got, want := src.Uint64(), rand.NewPCG(1, 1).Uint64(); got != want {
		t.Error("the reservoir drew from its source before it was full")
	}
}

// TestBottomKPinned pins the keys, the sample and the binary form of
// BottomK to those of pipeline.BottomK.
func TestBottomKPinned(t *testing.T) {
	k := NewKeyer(1, "a.csv")
	if got := []uint64{k.Key(2), k.Key(3), NewKeyer(0, "").Key(0)}; !slices.Equal(got, []uint64{0x6a459b5b28a359bb, 0xe2af2db359dcfa1, 0x8932c885a3fe960e}) {
		t.Errorf("keys %#x", got)
	}
	s := NewBottomK(4)
	for l := 2; l < 102; l++ {
		s.Add(k.Key(l), RowID{"a.csv", l}, []float64{float64(l)})
	}
	var lines []int
	for _, it := range s.Sorted() {
		lines = append(lines, it.ID.Line)
	}
	if want := []int{28, 29, 53, 72}; !slices.Equal(lines, want) {
		t.Errorf("lines %v, want %v", lines, want)
	}
	enc, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	const want = "01080105612e637376042ed4c10a26b7c209009001010000000000005240c770f5da32be5901006a010000000000804a4024beff0d56cc8d07003a010000000000003d40d6c784c80beac0000038010000000000003c40"
	if got := hex.EncodeToString(enc); got != want {
		t.Errorf("encoding\n%s, want\n%s", got, want)
	}
}

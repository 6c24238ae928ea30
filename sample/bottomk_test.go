package sample

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// addRows offers the rows lines 2..n+1 of file to s, each row holding its
// line as its value.
func addRows(s *BottomK, seed uint64, file string, lines []int) {
	k := NewKeyer(seed, file)
	for _, l := range lines {
		s.Add(k.Key(l), RowID{file, l}, []float64{float64(l)})
	}
}

func ids(items []Item) []RowID {
	out := make([]RowID, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

func lineRange(from, to int) []int {
	var out []int
	for l := from; l < to; l++ {
		out = append(out, l)
	}
	return out
}

// TestBottomKSplitInvariant checks the property the Beam pipeline relies
// on: the sample of a set of rows is the same however the rows are split
// into parts, shuffled and merged, and it is the k rows of smallest key.
func TestBottomKSplitInvariant(t *testing.T) {
	const k = 50
	files := map[string][]int{"a.csv": lineRange(2, 400), "b.csv.gz": lineRange(2, 300), "c.csv": lineRange(2, 10)}
	whole := NewBottomK(k)
	var all []Item
	for _, f := range []string{"a.csv", "b.csv.gz", "c.csv"} {
		addRows(whole, 7, f, files[f])
		kr := NewKeyer(7, f)
		for _, l := range files[f] {
			all = append(all, Item{Key: kr.Key(l), ID: RowID{f, l}})
		}
	}
	// The reference: sort every row by key and take the first k.
	slices.SortFunc(all, func(a, b Item) int {
		if a.less(&b) {
			return -1
		}
		return 1
	})
	want := ids(all[:k])
	slices.SortFunc(want, RowID.Compare)
	if got := ids(whole.Sorted()); !slices.Equal(got, want) {
		t.Fatalf("sample of the whole is not the k smallest keys:\n got %v\nwant %v", got, want)
	}
	for trial := range 20 {
		rnd := rand.New(rand.NewPCG(uint64(trial), 1))
		// Split every file's lines, shuffled, among 1 to 7 parts.
		parts := make([]*BottomK, 1+rnd.IntN(7))
		for i := range parts {
			parts[i] = NewBottomK(k)
		}
		for f, lines := range files {
			lines = slices.Clone(lines)
			rnd.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
			for _, l := range lines {
				addRows(parts[rnd.IntN(len(parts))], 7, f, []int{l})
			}
		}
		rnd.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		merged := NewBottomK(k)
		for _, p := range parts {
			merged.Union(p)
		}
		if got := ids(merged.Sorted()); !slices.Equal(got, want) {
			t.Fatalf("trial %d, %d parts: merged sample differs:\n got %v\nwant %v", trial, len(parts), got, want)
		}
		for _, it := range merged.Items {
			if it.Row[0] != float64(it.ID.Line) {
				t.Fatalf("row %v holds %v", it.ID, it.Row)
			}
		}
	}
}

// TestBottomKSmall checks that a sample of at most k rows is every row,
// and that k ≤ 0 keeps none.
func TestBottomKSmall(t *testing.T) {
	s := NewBottomK(10)
	addRows(s, 1, "f", lineRange(2, 9))
	if got := ids(s.Sorted()); len(got) != 7 || got[0] != (RowID{"f", 2}) || got[6] != (RowID{"f", 8}) {
		t.Errorf("sample of 7 rows with k = 10: %v", got)
	}
	if s.Full() || s.Bound() != math.MaxUint64 {
		t.Errorf("Full %v, Bound %d for a sample that is not full", s.Full(), s.Bound())
	}
	z := NewBottomK(0)
	addRows(z, 1, "f", lineRange(2, 9))
	z.Union(s)
	if z.Len() != 0 {
		t.Errorf("k = 0 kept %d rows", z.Len())
	}
}

// TestBottomKSeeds checks that the seed chooses the sample: the same seed
// gives the same sample, another seed another one.
func TestBottomKSeeds(t *testing.T) {
	sample := func(seed uint64) []RowID {
		s := NewBottomK(20)
		addRows(s, seed, "data.csv", lineRange(2, 1002))
		return ids(s.Sorted())
	}
	if !slices.Equal(sample(3), sample(3)) {
		t.Error("seed 3 gave two samples")
	}
	if slices.Equal(sample(3), sample(4)) {
		t.Error("seeds 3 and 4 gave the same sample")
	}
}

// TestBottomKUniform checks that the sample is uniform: over many seeds,
// every row is in the sample of k out of N with frequency k/N, tested by
// Pearson's χ² statistic of the N inclusion counts, and the sample mean of
// the line numbers is unbiased.
func TestBottomKUniform(t *testing.T) {
	const (
		n, k  = 200, 20
		seeds = 2000
	)
	counts := make([]float64, n)
	var meanSum float64
	for seed := range uint64(seeds) {
		s := NewBottomK(k)
		addRows(s, seed, fmt.Sprintf("part-%d.csv", seed%3), lineRange(0, n))
		var sum float64
		for _, it := range s.Items {
			counts[it.ID.Line]++
			sum += float64(it.ID.Line)
		}
		meanSum += sum / k
	}
	// Each row is included with probability p = k/N in each of the
	// seeds runs: expected count e = seeds·k/N = 200. Σ(c−e)²/e is about
	// χ² with N−1 = 199 degrees of freedom, times (1−p) = 0.9 for
	// sampling without replacement (the counts of one run sum to k);
	// its 0.999 quantile is 267 (χ² tables, e.g. NIST/SEMATECH
	// e-Handbook 1.3.6.7.4, by the Wilson–Hilferty approximation).
	e := float64(seeds * k / n)
	var chi2 float64
	for _, c := range counts {
		chi2 += (c - e) * (c - e) / e
	}
	if chi2 > 267 {
		t.Errorf("χ² of the inclusion counts = %.1f > 267 (0.999 quantile): not uniform", chi2)
	}
	// The mean of a sample of k without replacement from 0..N−1 has
	// expectation (N−1)/2 and variance σ²/k·(N−k)/(N−1) with σ² =
	// (N²−1)/12 (Cochran, Sampling Techniques, 3rd ed., Theorem 2.2);
	// the average of seeds independent means is within 4 of its standard
	// errors.
	sigma2 := float64(n*n-1) / 12
	se := math.Sqrt(sigma2 / k * float64(n-k) / float64(n-1) / seeds)
	if got, want := meanSum/seeds, float64(n-1)/2; math.Abs(got-want) > 4*se {
		t.Errorf("average sample mean %.3f, want %.3f ± %.3f (4 standard errors)", got, want, 4*se)
	}
}

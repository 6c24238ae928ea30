package figure

import (
	"fmt"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/vg"
)

// benchmarkDomain times drawing and saving a Domain plot of n moons points
// with the default grid.
func benchmarkDomain(b *testing.B, n int, ext string) {
	x, m, labels := moons(b, n)
	path := filepath.Join(b.TempDir(), "f."+ext)
	b.ReportAllocs()
	for b.Loop() {
		p, err := Domain(m, x, labels, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := Save(path, 5*vg.Inch, 5*vg.Inch, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDomain(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, ext := range []string{"png", "svg"} {
			b.Run(fmt.Sprintf("n=%d/format=%s", n, ext), func(b *testing.B) { benchmarkDomain(b, n, ext) })
		}
	}
}

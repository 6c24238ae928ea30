package parallel

import (
	"sync/atomic"
	"testing"
)

func TestForCoversOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 1001} {
		for _, w := range []int{0, 1, 2, 8} {
			hits := make([]atomic.Int32, n)
			For(n, 64, w, func(c, lo, hi int) {
				if lo != c*64 || hi > n || hi <= lo {
					t.Errorf("n=%d: chunk %d = [%d,%d)", n, c, lo, hi)
				}
				for i := lo; i < hi; i++ {
					hits[i].Add(1)
				}
			})
			for i := range hits {
				if h := hits[i].Load(); h != 1 {
					t.Fatalf("n=%d workers=%d: item %d visited %d times", n, w, i, h)
				}
			}
		}
	}
}

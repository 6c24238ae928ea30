package auto

import "github.com/svclust/svclust/internal/kernel"

// cover returns the number of balls of radius r a greedy covering of the s
// rows of smp needs: each row, in order, not within r of a centre becomes
// one.
func cover(smp []float64, s, d int, r float64) int {
	r2 := r * r
	var centres []float64
	for i := range s {
		x := smp[i*d : i*d+d]
		covered := false
		for c := 0; c < len(centres); c += d {
			if kernel.SqDist(x, centres[c:c+d]) <= r2 {
				covered = true
				break
			}
		}
		if !covered {
			centres = append(centres, x...)
		}
	}
	return len(centres) / d
}

package tune

import "math"

// Best is the selection rule of every grid search in this module (Search.Run
// and package reproduce): it returns the index of the largest of scores among
// the indices i for which ok(i) is true (every index when ok is nil),
// skipping NaN scores, or −1 if there is none. On a tie the later index
// replaces the earlier one only if preferred(i) is true (tune's automatic
// point), so ties go to a preferred index, else to the earliest. A nil
// preferred prefers none.
func Best(scores []float64, ok, preferred func(i int) bool) int {
	best := -1
	var bestV float64
	for i, v := range scores {
		if math.IsNaN(v) || (ok != nil && !ok(i)) {
			continue
		}
		switch {
		case best < 0 || v > bestV:
			best, bestV = i, v
		case v == bestV && preferred != nil && preferred(i):
			best = i
		}
	}
	return best
}

package tune

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
)

// TestEachWorkers: every index is evaluated exactly once, into its own slot,
// whatever the number of workers.
func TestEachWorkers(t *testing.T) {
	const n = 37
	var want []int
	for _, w := range []int{1, 2, 3, 8, 100, 0} {
		got := make([]int, n)
		Each(context.Background(), n, w, nil, func(i int) { got[i] += i*i + 1 })
		if want == nil {
			want = got
			for i, v := range got {
				if v != i*i+1 {
					t.Fatalf("workers %d: slot %d = %d, want %d", w, i, v, i*i+1)
				}
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("workers %d: %v, want %v", w, got, want)
		}
	}
}

// TestEachCancel: once ctx is cancelled no new index starts.
func TestEachCancel(t *testing.T) {
	for _, w := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		var started atomic.Int64
		Each(ctx, 100, w, nil, func(i int) {
			if started.Add(1) == 3 {
				cancel()
			}
		})
		// At most the workers already past the check when cancel ran: the
		// third start plus the w−1 others in flight.
		if got := started.Load(); got < 3 || got > int64(3+w-1) {
			t.Errorf("workers %d: %d started after cancel at the third, want 3..%d", w, got, 3+w-1)
		}
		cancel()
	}
}

// TestEachMore: once more() returns false (reproduce's deadline) no new
// index starts.
func TestEachMore(t *testing.T) {
	for _, w := range []int{1, 4} {
		var started atomic.Int64
		Each(context.Background(), 100, w, func() bool { return started.Load() < 5 }, func(int) {
			started.Add(1)
		})
		if got := started.Load(); got < 5 || got > int64(5+w-1) {
			t.Errorf("workers %d: %d started, want 5..%d", w, got, 5+w-1)
		}
	}
	// n = 0 runs nothing.
	Each(context.Background(), 0, 4, nil, func(int) { t.Error("eval called with n = 0") })
}

package tune

import (
	"context"
	"runtime"
	"sync"
)

// Each is the engine of every grid search in this module (Search.Run and
// package reproduce): it runs eval(i) for i in [0, n) on min(workers, n)
// goroutines (GOMAXPROCS when workers ≤ 0), handing out the indices in
// order. eval must write its result to a slot of its own, so that the
// results do not depend on workers. Each stops starting new indices once
// ctx is done or more (when not nil) returns false; the evaluations already
// started run to their end. It returns when all started evaluations have.
func Each(ctx context.Context, n, workers int, more func() bool, eval func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		mu   sync.Mutex
		next int
		wg   sync.WaitGroup
	)
	for range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next >= n || ctx.Err() != nil || (more != nil && !more()) {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				eval(i)
			}
		}()
	}
	wg.Wait()
}

// Package parallel implements the one pattern of concurrency used in this
// module: a loop over [0, n) cut into fixed chunks that goroutines take in
// turn. Each chunk is identified by its index, so callers that reduce
// per-chunk results in chunk order get results that do not depend on the
// number of workers.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(chunk, lo, hi) for consecutive chunks [lo, hi) of [0, n) of
// size chunk (the last may be shorter), on at most workers goroutines, and
// returns when all calls have returned. workers ≤ 1 runs in the caller's
// goroutine. It panics if chunk < 1.
func For(n, chunk, workers int, fn func(c, lo, hi int)) {
	if chunk < 1 {
		panic("parallel: chunk < 1")
	}
	chunks := Chunks(n, chunk)
	workers = min(workers, chunks)
	if workers <= 1 {
		for c := 0; c < chunks; c++ {
			fn(c, c*chunk, min(n, (c+1)*chunk))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				fn(c, c*chunk, min(n, (c+1)*chunk))
			}
		}()
	}
	wg.Wait()
}

// Chunks returns the number of chunks For uses for n items.
func Chunks(n, chunk int) int { return (n + chunk - 1) / chunk }

// Workers resolves a Workers setting: w itself, or GOMAXPROCS for w ≤ 0.
func Workers(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

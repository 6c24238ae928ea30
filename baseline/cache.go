package baseline

import (
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// rowChunk is the number of kernel values a worker computes at a time when
// a kernel row is filled in parallel; below it a row is filled by the
// caller alone.
const rowChunk = 2048

// rowCache holds kernel rows K[i, ·] = k(xᵢ, ·) over the n training points,
// evicting the least recently used row when full, as LIBSVM's Cache does.
// A row returned by get stays valid until the capacity-th following call
// to get, so with capacity ≥ 2 the two rows of an SMO step coexist. It is
// not safe for concurrent use.
type rowCache struct {
	x       []float64 // n×d training points, row-major
	d, n    int
	gamma   float64
	workers int

	slot       map[int]*cacheEntry // row index → entry
	head, tail *cacheEntry         // most and least recently used
	capacity   int
	computed   int // rows computed (misses)
}

type cacheEntry struct {
	row        int
	k          []float64
	prev, next *cacheEntry
}

// newRowCache returns a cache of at most bytes/(8n) rows, and at least 2.
func newRowCache(x []float64, d int, gamma float64, bytes int64, workers int) *rowCache {
	n := len(x) / d
	capacity := max(2, int(min(bytes/int64(8*n), int64(n))))
	return &rowCache{x: x, d: d, n: n, gamma: gamma, workers: workers,
		slot: make(map[int]*cacheEntry, capacity), capacity: capacity}
}

// get returns row i of the kernel matrix.
func (c *rowCache) get(i int) []float64 {
	if e, ok := c.slot[i]; ok {
		c.unlink(e)
		c.pushFront(e)
		return e.k
	}
	var e *cacheEntry
	if len(c.slot) < c.capacity {
		e = &cacheEntry{k: make([]float64, c.n)}
	} else {
		// Reuse the buffer of the least recently used row.
		e = c.tail
		c.unlink(e)
		delete(c.slot, e.row)
	}
	e.row = i
	c.fill(e.k, i)
	c.computed++
	c.slot[i] = e
	c.pushFront(e)
	return e.k
}

// fill sets dst[t] = k(xᵢ, xₜ) for every training point t. Each value
// depends on i and t only, so the row is the same for any worker count.
func (c *rowCache) fill(dst []float64, i int) {
	d := c.d
	xi := c.x[i*d : i*d+d]
	parallel.For(c.n, rowChunk, c.workers, func(_, lo, hi int) {
		kernel.RowTo(dst[lo:hi], xi, c.x[lo*d:hi*d], c.gamma)
	})
}

func (c *rowCache) unlink(e *cacheEntry) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		c.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = nil, nil
}

func (c *rowCache) pushFront(e *cacheEntry) {
	e.next = c.head
	if c.head != nil {
		c.head.prev = e
	}
	c.head = e
	if c.tail == nil {
		c.tail = e
	}
}

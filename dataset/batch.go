package dataset

import (
	"bytes"
	"sync"
	"sync/atomic"
)

// A Scanner with more than one worker (ReadOptions.Workers) reads its
// lines in batches: when the rows of a batch are used up, Scan reads the
// next lines into the batch (copying their bytes, which costs little next
// to parsing them), parses them on short-lived goroutines that take the
// lines in claims, joined before it goes on, and then hands out the rows
// one at a time. Parsing a line on a worker is a pure function of the line
// (parseClean): it succeeds only for a row with no missing value and no
// error. Everything that depends on the lines before (the numbering of the
// labels, the count of rows, the missing values, the dropped rows, the
// first error) is done by Scan in the order of the lines, and a line that
// a worker did not parse is parsed again there by parseLine, the code of a
// Scanner with one worker. So a Scanner gives the same rows, labels,
// positions and errors for any number of workers, and no goroutine
// outlives the call of Scan that started it.

// batchLines, batchBytes and parallelMin are the default sizes of a
// batch (see batchSize).
const (
	batchLines  = 4096
	batchBytes  = 1 << 20
	parallelMin = 64 << 10
)

// firstBatch is the most lines of the first batch of a Scanner.
const firstBatch = 64

// batchSize bounds the batches of a Scanner.
type batchSize struct {
	// lines is the most lines of a batch.
	lines int
	// bytes bounds the bytes of a batch: lines are added while it holds
	// fewer, so a batch holds at least one line and at most bytes plus
	// one line (at most ReadOptions.MaxLine).
	bytes int
	// parallel is the fewest bytes of a batch that are parsed on several
	// goroutines; the lines of a smaller batch, such as a small file
	// gives, are parsed one at a time by Scan.
	parallel int
}

// defaultBatch is the size of the batches of NewScanner. A batch's memory
// is its bytes, 8 bytes per feature of each line for the values (only for
// a batch parsed on the workers, which holds at most one value per byte
// and line: at most 8 times the bytes plus 8 bytes a line) and the label
// texts of its quoted lines.
var defaultBatch = batchSize{lines: batchLines, bytes: batchBytes, parallel: parallelMin}

// batch holds lines read ahead and what the workers made of them.
type batch struct {
	buf   []byte // the lines, without their line ends, one after the other
	ends  []int  // line i is buf[ends[i-1]:ends[i]] (ends[-1] = 0)
	first int    // the number of line 0 in the input
	next  int    // the next line to hand out
	limit int    // the most lines of this batch
	err   error  // what ended the batch before it was full: io.EOF or the error of reading the next line

	// Line i was parsed by a worker if clean[i], with its features in
	// vals[i*d:(i+1)*d] and its label text in labels[i].
	clean  []bool
	vals   []float64
	labels [][]byte
}

// line returns line i of the batch.
func (b *batch) line(i int) []byte {
	start := 0
	if i > 0 {
		start = b.ends[i-1]
	}
	return b.buf[start:b.ends[i]:b.ends[i]]
}

// nextBatched does what next1 does, taking the next line from the batch.
func (s *Scanner) nextBatched(dst []float64) bool {
	b := &s.batch
	if b.next == len(b.ends) {
		if b.err != nil {
			s.end(b.err)
			return false
		}
		s.fill()
		if len(b.ends) == 0 {
			s.end(b.err)
			return false
		}
	}
	i := b.next
	b.next++
	s.line = b.first + i
	line := b.line(i)
	s.text = line
	if !b.clean[i] {
		return s.parseLine(line, dst)
	}
	d := len(dst)
	copy(dst, b.vals[i*d:(i+1)*d])
	if s.labelCol >= 0 {
		s.intern(b.labels[i])
	}
	s.rows++
	return true
}

// grow makes room in b.buf for a line of n bytes more: for all the lines
// of the batch if they are as long as those so far, rather than in
// append's steps, which add up to several times the batch.
func (b *batch) grow(n int, size batchSize) {
	have := len(b.buf) + n
	guess := have / (len(b.ends) + 1) * b.limit
	want := max(have, min(max(2*cap(b.buf), guess+guess/8), size.bytes))
	b.buf = append(make([]byte, 0, want), b.buf...)
}

// fill reads the next batch of lines, up to the first error of reading
// one (io.EOF at the end of the input), which is kept in b.err, and
// parses them on the workers if there are enough.
func (s *Scanner) fill() {
	b := &s.batch
	// The batches start small, so that a small file costs little, and
	// double up to the size.
	b.limit = min(max(2*b.limit, firstBatch), s.size.lines)
	if cap(b.ends) < b.limit {
		b.ends = make([]int, 0, b.limit)
	}
	b.buf, b.ends, b.next, b.first = b.buf[:0], b.ends[:0], 0, s.p.line+1
	for len(b.ends) < b.limit && len(b.buf) < s.size.bytes {
		line, err := s.p.next()
		if err != nil {
			b.err = err
			break
		}
		if len(b.buf)+len(line) > cap(b.buf) {
			b.grow(len(line), s.size)
		}
		b.buf = append(b.buf, line...)
		b.ends = append(b.ends, len(b.buf))
	}
	n := len(b.ends)
	if cap(b.clean) < n {
		b.clean = make([]bool, n)
	}
	b.clean = b.clean[:n]
	// A line of the right number of fields has at least one byte per
	// feature but one (its separators), so a batch of such lines holds
	// n·d ≤ len(b.buf) + n values; a batch with fewer bytes holds short,
	// ragged lines under a wide header, whose values the workers would
	// allocate for nothing: Scan parses it, and meets their error.
	d := len(s.names)
	if len(b.buf) < s.size.parallel || n*d > len(b.buf)+n {
		clear(b.clean)
		return
	}
	if cap(b.vals) < n*d {
		b.vals = make([]float64, n*d)
	}
	if s.labelCol >= 0 && cap(b.labels) < n {
		b.labels = make([][]byte, n)
	}
	// The lines are handed out in claims of a share of those left that
	// shrinks to one line, so that a worker that starts late (waking a
	// core takes tens of microseconds) or runs on a busy core leaves its
	// work to the others, and all finish at about the same time.
	w := min(s.workers, n)
	if len(s.work) < w {
		s.work = make([]scratch, w)
	}
	var next atomic.Int64
	parse := func(c *scratch) {
		c.labels = c.labels[:0]
		for {
			lo := int(next.Load())
			if lo >= n {
				return
			}
			hi := min(n, lo+max(1, (n-lo)/(2*w)))
			if next.CompareAndSwap(int64(lo), int64(hi)) {
				s.parseRange(lo, hi, c)
			}
		}
	}
	// A panic (a bug: parseClean does not panic on any input) is raised
	// again in the caller's goroutine once every worker has stopped.
	panics := make([]any, w)
	var wg sync.WaitGroup
	wg.Add(w - 1)
	for k := 1; k < w; k++ {
		go func() {
			defer wg.Done()
			defer func() { panics[k] = recover() }()
			parse(&s.work[k])
		}()
	}
	func() {
		defer func() { panics[0] = recover() }()
		parse(&s.work[0])
	}()
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}

// parseRange parses lines lo to hi-1 of the batch with parseClean, using
// c, and records what it made of them.
func (s *Scanner) parseRange(lo, hi int, c *scratch) {
	b := &s.batch
	d := len(s.names)
	for i := lo; i < hi; i++ {
		label, ok := s.parseClean(b.line(i), b.vals[i*d:(i+1)*d], c)
		b.clean[i] = ok
		if s.labelCol >= 0 {
			b.labels[i] = label
		}
	}
}

// parseClean parses line into dst as parseLine would when the line is a
// row with no missing value and no error, and returns its label text (nil
// without a label column) and true; otherwise it returns false, and
// parseLine, called by Scan in order, records the missing values or the
// error. It reads only what NewScanner set and writes only dst and c, so
// that workers call it at once. The label text is in line or in c.labels.
func (s *Scanner) parseClean(line []byte, dst []float64, c *scratch) (label []byte, ok bool) {
	ncol, sep := s.ncol, s.sep
	if bytes.IndexByte(line, '"') >= 0 {
		if c.splitQuoted(line, sep, &s.p, 0) != nil || len(c.fields) != ncol {
			return nil, false
		}
		for j, f := range c.fields {
			switch k := s.dest[j]; k {
			case dropDest:
			case labelDest:
				// The fields are overwritten by the next line's.
				start := len(c.labels)
				c.labels = append(c.labels, f...)
				label = c.labels[start:len(c.labels):len(c.labels)]
			default:
				v, ok := c.value(f, s.comma)
				if !ok {
					return nil, false
				}
				dst[k] = v
			}
		}
		return label, true
	}
	if len(trimSpace(line)) == 0 || bytes.Count(line, []byte{sep})+1 != ncol {
		return nil, false
	}
	for j := 0; j < ncol; j++ {
		var f []byte
		if i := bytes.IndexByte(line, sep); i >= 0 {
			f, line = line[:i], line[i+1:]
		} else {
			f, line = line, nil
		}
		f = trimSpace(f)
		switch k := s.dest[j]; k {
		case dropDest:
		case labelDest:
			label = f
		default:
			v, ok := c.value(f, s.comma)
			if !ok {
				return nil, false
			}
			dst[k] = v
		}
	}
	return label, true
}

// value parses the feature field f as field does, with a decimal comma if
// comma is set, and reports whether it is a number.
func (c *scratch) value(f []byte, comma bool) (float64, bool) {
	if !comma {
		if v, ok := parseSimple(f); ok {
			return v, true
		}
		v, err := parseFloat(f)
		return v, err == nil
	}
	var v float64
	var err error
	v, c.num, err = parseComma(f, c.num)
	return v, err == nil
}

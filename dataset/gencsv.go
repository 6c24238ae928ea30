package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// genBlock is the number of points GenerateCSV holds at a time.
const genBlock = 1 << 22

// GenerateCSV writes the synthetic data set of [Generate] to w in CSV form:
// the bytes are exactly those of Generate(kind, n, seed) followed by
// [Dataset.WriteCSV], but the points are never all in memory.
//
// Generate draws the points class by class and then shuffles them, so the
// first row written may be the last point drawn. GenerateCSV therefore
// draws the points once to reach the state of the random source at the
// shuffle, shuffles a permutation of 4-byte indices instead of the points,
// and then draws the points again for each block of 4,194,304 output rows,
// keeping those that fall in the block. Its memory use is 4 bytes per point
// plus 8d + 1 bytes per point of a block in d dimensions, against
// Generate's 8(d + 1) bytes per point; its time grows by one cheap pass of
// drawing per block.
//
// It returns the errors of Generate, an error for n ≥ 2³¹ and the first error
// of w.
func GenerateCSV(w io.Writer, kind Kind, n int, seed uint64) error {
	if w == nil {
		return errors.New("dataset: GenerateCSV: nil io.Writer")
	}
	return generateCSV(w, kind, n, seed, genBlock)
}

// generateCSV is GenerateCSV with blocks of block points.
func generateCSV(w io.Writer, kind Kind, n int, seed uint64, block int) error {
	sh, counts, err := plan(kind, n)
	if err != nil {
		return err
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("dataset: n = %d is too large: GenerateCSV writes at most %d points (2³¹ − 1, its permutation holds 4-byte indices)", n, math.MaxInt32)
	}
	rnd := draw(sh, counts, seed, func(int, []float64, int) {})

	// pos[p] is first the point at output row p, by the very swaps of
	// Generate's shuffle, and then, inverted, the output row of point p.
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	rnd.Shuffle(n, func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	invert(pos)

	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString(strings.Join(names(sh.dim), ",") + ",label\n"); err != nil {
		return err
	}
	d := sh.dim
	block = min(block, n)
	xs := make([]float64, d*block)
	class := make([]uint8, block) // every kind has at most 255 classes
	var buf []byte
	for a := 0; a < n; a += block {
		b := min(a+block, n)
		draw(sh, counts, seed, func(g int, x []float64, k int) {
			if r := int(pos[g]) - a; r >= 0 && r < b-a {
				copy(xs[d*r:d*r+d], x)
				class[r] = uint8(k)
			}
		})
		for r := range b - a {
			// As WriteCSV writes a row.
			buf = buf[:0]
			for _, v := range xs[d*r : d*r+d] {
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(class[r]), 10)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// invert replaces the permutation p of 0..len(p)-1 by its inverse, in
// place, following each cycle once and marking the entries done by
// complementing them (a negative int32).
func invert(p []int32) {
	for i := range p {
		if p[i] < 0 {
			continue
		}
		// The cycle i → p[i] → p[p[i]] → … becomes its reverse.
		prev, j := int32(i), p[i]
		for j != int32(i) {
			next := p[j]
			p[j] = ^prev
			prev, j = j, next
		}
		p[i] = ^prev
	}
	for i := range p {
		p[i] = ^p[i]
	}
}

package dataset

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
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
// plus 17 bytes per point of a block, against Generate's 24 bytes per point;
// its time grows by one cheap pass of drawing per block.
//
// It returns the errors of Generate, an error for n ≥ 2³¹ and the first error
// of w.
func GenerateCSV(w io.Writer, kind Kind, n int, seed uint64) error {
	return generateCSV(w, kind, n, seed, genBlock)
}

// generateCSV is GenerateCSV with blocks of block points.
func generateCSV(w io.Writer, kind Kind, n int, seed uint64, block int) error {
	sh, counts, err := plan(kind, n)
	if err != nil {
		return err
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("dataset: cannot generate %d points; GenerateCSV takes at most %d", n, math.MaxInt32)
	}
	rnd := draw(sh, counts, seed, func(int, float64, float64, int) {})

	// pos[p] is first the point at output row p, by the very swaps of
	// Generate's shuffle, and then, inverted, the output row of point p.
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	rnd.Shuffle(n, func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	invert(pos)

	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString("x1,x2,label\n"); err != nil {
		return err
	}
	block = min(block, n)
	xy := make([]float64, 2*block)
	class := make([]uint8, block)
	var buf []byte
	for a := 0; a < n; a += block {
		b := min(a+block, n)
		draw(sh, counts, seed, func(g int, x, y float64, k int) {
			if p := int(pos[g]); p >= a && p < b {
				xy[2*(p-a)], xy[2*(p-a)+1] = x, y
				class[p-a] = uint8(k)
			}
		})
		for r := range b - a {
			// As WriteCSV writes a row.
			buf = strconv.AppendFloat(buf[:0], xy[2*r], 'g', -1, 64)
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, xy[2*r+1], 'g', -1, 64)
			buf = append(buf, ',')
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

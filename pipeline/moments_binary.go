package pipeline

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/svclust/svclust/internal/binio"
)

// momentsVersion is the first byte of Moments' binary form.
const momentsVersion = 1

// MarshalBinary encodes m compactly, for the Beam pipeline's accumulators:
// a version byte, N, the number of columns d, then Mean, M2, Min and Max
// (d little-endian float64 each).
func (m *Moments) MarshalBinary() ([]byte, error) {
	d := len(m.Mean)
	if len(m.M2) != d || len(m.Min) != d || len(m.Max) != d {
		return nil, fmt.Errorf("pipeline: Moments.MarshalBinary: columns of %d, %d, %d and %d values", d, len(m.M2), len(m.Min), len(m.Max))
	}
	b := make([]byte, 1, 1+2*binary.MaxVarintLen64+32*d)
	b[0] = momentsVersion
	b = binary.AppendVarint(b, m.N)
	b = binary.AppendUvarint(b, uint64(d))
	for _, col := range [][]float64{m.Mean, m.M2, m.Min, m.Max} {
		for _, v := range col {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b, nil
}

// errMoments is the error of UnmarshalBinary for data that are not the
// binary form of Moments.
var errMoments = errors.New("pipeline: Moments.UnmarshalBinary: not Moments")

// UnmarshalBinary decodes what MarshalBinary encodes; bytes that are not
// that form (a short or long buffer, another version, a negative N) are an
// error, and a corrupt column count allocates nothing.
func (m *Moments) UnmarshalBinary(data []byte) error {
	r := binReader{binio.NewReader(data, errMomentsTruncated), errMoments}
	if err := r.version(momentsVersion); err != nil {
		return err
	}
	n := r.Varint()
	d := r.Count(32)
	cols := [4][]float64{}
	for c := range cols {
		cols[c] = make([]float64, d)
		for j := range cols[c] {
			cols[c][j] = math.Float64frombits(r.Uint64())
		}
	}
	switch {
	case r.Err() != nil:
		return r.Err()
	case r.Len() != 0:
		return fmt.Errorf("%w: %d bytes after the columns", errMoments, r.Len())
	case n < 0:
		return fmt.Errorf("%w: %d rows", errMoments, n)
	}
	*m = Moments{N: n, Mean: cols[0], M2: cols[1], Min: cols[2], Max: cols[3]}
	return nil
}

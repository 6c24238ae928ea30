package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/svclust/svclust/internal/binio"
)

// scaleFitterVersion is the first byte of a ScaleFitter's binary form.
const scaleFitterVersion = 1

// MarshalBinary encodes a fitter in its first pass compactly, for the
// Beam pipeline's accumulators: a version byte, the Scale, the number of
// rows and of columns d (varints), then per column the sum, Welford's mean
// and M2, the minimum and the maximum (5·d little-endian float64s). It
// returns an error for a fitter past its first pass, whose state it does
// not encode.
func (f *ScaleFitter) MarshalBinary() ([]byte, error) {
	if f.pass != 0 {
		return nil, errors.New("dataset: ScaleFitter.MarshalBinary after the first pass")
	}
	d := len(f.lo)
	b := make([]byte, 1, 1+3*binary.MaxVarintLen64+40*d)
	b[0] = scaleFitterVersion
	b = binary.AppendUvarint(b, uint64(f.scale))
	b = binary.AppendVarint(b, int64(f.n))
	b = binary.AppendUvarint(b, uint64(d))
	for _, col := range f.firstPass() {
		for _, v := range col {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b, nil
}

// firstPass returns the columns of the first pass, in their encoded order.
func (f *ScaleFitter) firstPass() [5][]float64 {
	return [5][]float64{f.mean, f.wmean, f.m2, f.lo, f.hi}
}

// errScaleFitter is the error of UnmarshalBinary for data that are not the
// binary form of a ScaleFitter, and errScaleFitterTruncated for data cut
// short.
var (
	errScaleFitter          = errors.New("dataset: ScaleFitter.UnmarshalBinary: not a ScaleFitter")
	errScaleFitterTruncated = fmt.Errorf("%w: truncated", errScaleFitter)
)

// UnmarshalBinary sets f to the fitter encoded by [ScaleFitter.MarshalBinary].
// Bytes that are not that form (a short or long buffer, another version, an
// unknown Scale, a negative number of rows) are an error, and a corrupt
// column count allocates nothing; f is unchanged then.
func (f *ScaleFitter) UnmarshalBinary(data []byte) error {
	r := binio.NewReader(data, errScaleFitterTruncated)
	r.Version(scaleFitterVersion, errScaleFitter)
	s := Scale(r.Uvarint())
	n := r.Varint()
	d := r.Count(40)
	if r.Err() == nil && !s.valid() {
		return fmt.Errorf("%w: scale %d", errScaleFitter, s)
	}
	g := NewScaleFitter(ScaleNone, d)
	g.scale = s
	for _, col := range g.firstPass() {
		for j := range col {
			col[j] = math.Float64frombits(r.Uint64())
		}
	}
	switch {
	case r.Err() != nil:
		return r.Err()
	case r.Len() != 0:
		return fmt.Errorf("%w: %d bytes after the columns", errScaleFitter, r.Len())
	case n < 0 || int64(int(n)) != n:
		return fmt.Errorf("%w: %d rows", errScaleFitter, n)
	}
	g.n = int(n)
	*f = *g
	return nil
}

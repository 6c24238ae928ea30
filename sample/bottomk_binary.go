package sample

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/svclust/svclust/internal/binio"
)

// bottomKVersion is the first byte of the binary form of a BottomK.
const bottomKVersion = 1

// MarshalBinary encodes s in a compact binary form, for a sample sent
// between workers (the Beam pipeline's accumulators): a version byte, K,
// each file name once (their count, then each one's length and bytes),
// the number of rows, then per row its key (8 bytes), file (an index),
// line, number of values and values (8 bytes each), in s's heap order;
// the counts and lines are varints. A 2-column row takes about 29 bytes,
// against about 97 in the Beam SDK's generic schema coding, which repeats
// the file name in every row. [BottomK.UnmarshalBinary] decodes it.
func (s *BottomK) MarshalBinary() ([]byte, error) {
	files := map[string]uint64{}
	var names []string
	for i := range s.Items {
		f := s.Items[i].ID.File
		if _, ok := files[f]; !ok {
			files[f] = uint64(len(names))
			names = append(names, f)
		}
	}
	size := 1 + 3*binary.MaxVarintLen64 // version, K and the two counts
	for _, f := range names {
		size += binary.MaxVarintLen64 + len(f)
	}
	if len(s.Items) > 0 {
		// key, file, line and row length, at most 8 + 2 + 5 + 1 bytes for
		// up to 2¹⁴ files of 2³⁴ lines, and the values
		size += len(s.Items) * (16 + 8*len(s.Items[0].Row))
	}
	b := make([]byte, 1, size)
	b[0] = bottomKVersion
	b = binary.AppendVarint(b, int64(s.K))
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, f := range names {
		b = binary.AppendUvarint(b, uint64(len(f)))
		b = append(b, f...)
	}
	b = binary.AppendUvarint(b, uint64(len(s.Items)))
	for i := range s.Items {
		it := &s.Items[i]
		b = binary.LittleEndian.AppendUint64(b, it.Key)
		b = binary.AppendUvarint(b, files[it.ID.File])
		b = binary.AppendVarint(b, int64(it.ID.Line))
		b = binary.AppendUvarint(b, uint64(len(it.Row)))
		for _, v := range it.Row {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b, nil
}

// errBottomK is the error of UnmarshalBinary for data that are not the
// binary form of a BottomK.
var errBottomK = errors.New("sample: BottomK.UnmarshalBinary: not a BottomK")

// UnmarshalBinary sets s to the sample encoded by [BottomK.MarshalBinary].
// It returns an error for data that are not such an encoding (truncated,
// trailing bytes, an unknown version, a file index out of range, or rows
// that are not a heap of at most K), and leaves s unchanged then.
func (s *BottomK) UnmarshalBinary(data []byte) error {
	r := binio.NewReader(data, errBottomKTruncated)
	if r.Version(bottomKVersion, errBottomK); r.Err() != nil {
		return r.Err()
	}
	k := r.Varint()
	nf := r.Count(1)
	names := make([]string, 0, nf)
	for range nf {
		names = append(names, string(r.Bytes(r.Count(1))))
	}
	n := r.Count(8 + 3)
	var items []Item // nil when empty, as NewBottomK's
	if n > 0 {
		items = make([]Item, 0, n)
	}
	for range n {
		var it Item
		it.Key = r.Uint64()
		f := r.Uvarint()
		it.ID.Line = int(r.Varint())
		if r.Err() == nil {
			if f >= uint64(len(names)) {
				return fmt.Errorf("%w: file %d of %d", errBottomK, f, len(names))
			}
			it.ID.File = names[f]
		}
		if d := r.Count(8); d > 0 {
			it.Row = make([]float64, d)
			for j := range it.Row {
				it.Row[j] = math.Float64frombits(r.Uint64())
			}
		}
		items = append(items, it)
	}
	switch {
	case r.Err() != nil:
		return r.Err()
	case r.Len() != 0:
		return fmt.Errorf("%w: %d bytes after the sample", errBottomK, r.Len())
	case k > math.MaxInt32 || int64(len(items)) > max(k, 0):
		return fmt.Errorf("%w: %d rows for a sample of %d", errBottomK, len(items), k)
	}
	for i := 1; i < len(items); i++ {
		if items[(i-1)/2].less(&items[i]) {
			return fmt.Errorf("%w: rows out of heap order", errBottomK)
		}
	}
	s.K, s.Items = int(k), items
	return nil
}

// errBottomKTruncated is the error of UnmarshalBinary for data cut short.
var errBottomKTruncated = fmt.Errorf("%w: truncated", errBottomK)

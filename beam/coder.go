package beam

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/svclust/svclust/pipeline"
)

// The summaries of the files (filePart, and the combiner's accumulator
// summary) are the pipeline's only large elements: up to Options.Sample
// rows each. The runner holds them encoded, in several copies (Prism keeps
// each bundle's output and the grouped accumulators in memory), so they
// are encoded compactly: the sample by pipeline.BottomK.MarshalBinary
// (about 29 bytes a 2-D row, against about 97 with the SDK's schema coder,
// which repeats the file name in every row).
func init() {
	sdk.RegisterCoder(reflect.TypeFor[filePart](), encodeFilePart, decodeFilePart)
	sdk.RegisterCoder(reflect.TypeFor[summary](), encodeSummary, decodeSummary)
}

var errCoding = errors.New("beam: bad encoding of a file summary")

func encodeFilePart(p filePart) ([]byte, error) { return appendFilePart(nil, &p) }

func decodeFilePart(b []byte) (filePart, error) {
	r := &reader{b: b}
	p := r.filePart()
	return p, r.done()
}

func encodeSummary(s summary) ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(len(s.Files)))
	var err error
	for i := range s.Files {
		if b, err = appendFilePart(b, &s.Files[i]); err != nil {
			return nil, err
		}
	}
	return appendSample(b, s.Sample)
}

func decodeSummary(b []byte) (summary, error) {
	r := &reader{b: b}
	var s summary
	n := r.count()
	for i := 0; i < n && r.err == nil; i++ {
		s.Files = append(s.Files, r.filePart())
	}
	s.Sample = r.sample()
	return s, r.done()
}

func appendFilePart(b []byte, p *filePart) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(p.File)))
	b = append(b, p.File...)
	if m := p.Moments; m == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = binary.AppendVarint(b, m.N)
		b = binary.AppendUvarint(b, uint64(len(m.Mean)))
		for _, col := range [][]float64{m.Mean, m.M2, m.Min, m.Max} {
			for _, v := range col {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			}
		}
	}
	return appendSample(b, p.Sample)
}

func appendSample(b []byte, s *pipeline.BottomK) ([]byte, error) {
	if s == nil {
		return append(b, 0), nil
	}
	enc, err := s.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(len(enc)))
	return append(b, enc...), nil
}

// reader decodes; its first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

func (r *reader) done() error {
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%w: %d trailing bytes", errCoding, len(r.b))
	}
	return r.err
}

// count reads a length of at most the bytes left.
func (r *reader) count() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(len(r.b)-n) {
		r.fail(errCoding)
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *reader) next(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.fail(errCoding)
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) float() float64 {
	if b := r.next(8); b != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	return 0
}

func (r *reader) filePart() filePart {
	var p filePart
	p.File = string(r.next(r.count()))
	if f := r.next(1); f != nil && f[0] == 1 {
		n, k := binary.Varint(r.b)
		if k <= 0 {
			r.fail(errCoding)
			return p
		}
		r.b = r.b[k:]
		d := r.count()
		if r.err != nil || d > len(r.b)/32 {
			r.fail(errCoding)
			return p
		}
		m := &pipeline.Moments{N: n}
		for _, col := range []*[]float64{&m.Mean, &m.M2, &m.Min, &m.Max} {
			*col = make([]float64, d)
			for j := range *col {
				(*col)[j] = r.float()
			}
		}
		p.Moments = m
	}
	p.Sample = r.sample()
	return p
}

func (r *reader) sample() *pipeline.BottomK {
	f := r.next(1)
	if f == nil || f[0] == 0 {
		return nil
	}
	s := &pipeline.BottomK{}
	if err := s.UnmarshalBinary(r.next(r.count())); err != nil {
		r.fail(err)
		return nil
	}
	return s
}

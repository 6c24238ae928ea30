package beam

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/binio"
	"github.com/svclust/svclust/sample"
)

// The summaries of the files (filePart, and the combiner's accumulator
// summary) are the pipeline's only large elements: up to Settings.Sample
// rows each. The runner holds them encoded, in several copies (Prism keeps
// each bundle's output and the grouped accumulators in memory), so they
// are encoded compactly: the sample by sample.BottomK.MarshalBinary
// (about 29 bytes a 2-D row, against about 97 with the SDK's schema coder,
// which repeats the file name in every row) and the column statistics by
// dataset.ScaleFitter.MarshalBinary, each framed by appendBlob.
func init() {
	sdk.RegisterCoder(reflect.TypeFor[filePart](), encodeFilePart, decodeFilePart)
	sdk.RegisterCoder(reflect.TypeFor[summary](), encodeSummary, decodeSummary)
}

var errCoding = errors.New("beam: bad encoding of a file summary")

func encodeFilePart(p filePart) ([]byte, error) { return appendFilePart(nil, &p) }

func decodeFilePart(b []byte) (filePart, error) {
	r := newReader(b)
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
	r := newReader(b)
	var s summary
	n := r.count()
	for i := 0; i < n && r.Err() == nil; i++ {
		s.Files = append(s.Files, r.filePart())
	}
	s.Sample = r.sample()
	return s, r.done()
}

func appendFilePart(b []byte, p *filePart) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(p.File)))
	b = append(b, p.File...)
	var err error
	if b, err = appendBlob(b, p.Moments != nil, p.Moments.MarshalBinary); err != nil {
		return nil, err
	}
	return appendSample(b, p.Sample)
}

func appendSample(b []byte, s *sample.BottomK) ([]byte, error) {
	return appendBlob(b, s != nil, s.MarshalBinary)
}

// appendBlob appends 0 when the value is absent, else 1, the length of
// its encoding by marshal, and the encoding.
func appendBlob(b []byte, present bool, marshal func() ([]byte, error)) ([]byte, error) {
	if !present {
		return append(b, 0), nil
	}
	enc, err := marshal()
	if err != nil {
		return nil, err
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(len(enc)))
	return append(b, enc...), nil
}

// reader reads what the coders write; its errors are errCoding, or the
// error of decoding a blob.
type reader struct{ binio.Reader }

func newReader(b []byte) *reader { return &reader{binio.NewReader(b, errCoding)} }

func (r *reader) done() error {
	if r.Err() == nil && r.Len() != 0 {
		r.Fail(fmt.Errorf("%w: %d trailing bytes", errCoding, r.Len()))
	}
	return r.Err()
}

// count reads a length of at most the bytes left.
func (r *reader) count() int { return r.Count(1) }

// blob reads what appendBlob appended and decodes it with unmarshal; it
// returns false when the value is absent or on error.
func (r *reader) blob(unmarshal func([]byte) error) bool {
	f := r.Bytes(1)
	if f == nil || f[0] == 0 {
		return false
	}
	if err := unmarshal(r.Bytes(r.count())); err != nil {
		r.Fail(err)
		return false
	}
	return true
}

func (r *reader) filePart() filePart {
	var p filePart
	p.File = string(r.Bytes(r.count()))
	if m := new(dataset.ScaleFitter); r.blob(m.UnmarshalBinary) {
		p.Moments = m
	}
	p.Sample = r.sample()
	return p
}

func (r *reader) sample() *sample.BottomK {
	if s := new(sample.BottomK); r.blob(s.UnmarshalBinary) {
		return s
	}
	return nil
}

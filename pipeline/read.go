package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/jsonkeys"
)

// DefaultMaxBytes is the largest model file [Read] and [ReadFile] read by
// default: 1 GiB. A model file holds the support vectors and the model's
// partition, at about 20 bytes a value.
const DefaultMaxBytes = 1 << 30

// ErrTooLarge is wrapped by the error of [Read] and [ReadFile] for input
// longer than their limit.
var ErrTooLarge = errors.New("pipeline: model file larger than the limit")

// maxLeadingSpace is the most white space read before the '{' that starts
// a model file; Write writes none.
const maxLeadingSpace = 4096

// Read reads a model file of at most limit bytes (0 or less means
// [DefaultMaxBytes]) from r, as written by [Model.Write], and validates
// it. It fails at the first byte that cannot belong to a model file — a
// first non-space byte other than '{', a JSON syntax error, a key that
// occurs twice in one object (which encoding/json would accept, the last
// value winning) — without reading further, and wraps [ErrTooLarge] as
// soon as more than limit bytes have been read. The keys are checked as a
// stream, then the bytes read are decoded, so memory holds the file once.
func Read(r io.Reader, limit int64) (*Model, error) {
	return read(r, nil, limit)
}

// ReadFile reads the model file path as [Read] does; errors name the file.
// A regular file larger than limit is refused before it is read, and is
// read twice (once to check its keys, once to decode it) rather than held
// in memory.
func ReadFile(path string, limit int64) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var again io.Seeker
	if fi.Mode().IsRegular() {
		if limit <= 0 {
			limit = DefaultMaxBytes
		}
		if fi.Size() > limit {
			return nil, fmt.Errorf("%s: %w", path, ErrTooLarge)
		}
		again = f
	}
	m, err := read(f, again, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// read reads a model file from r; again, if not nil, rewinds r to read it
// a second time instead of keeping the bytes of the first.
func read(r io.Reader, again io.Seeker, limit int64) (*Model, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	lr := &io.LimitedReader{R: r, N: limit + 1}
	br := bufio.NewReader(lr)
	if err := startsObject(br); err != nil {
		if lr.N == 0 {
			return nil, ErrTooLarge
		}
		return nil, fmt.Errorf("not a model file: %w", err)
	}
	var kept bytes.Buffer
	var src io.Reader = br
	if again == nil {
		src = io.TeeReader(br, &kept)
	}
	err := jsonkeys.Check(src)
	if lr.N == 0 {
		return nil, ErrTooLarge
	}
	if err != nil {
		return nil, fmt.Errorf("not a model file: %w", err)
	}
	if again != nil {
		if _, err := again.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		lr.N = limit + 1
		src = bufio.NewReader(lr)
	} else {
		src = io.MultiReader(&kept, br)
	}
	m, err := decode(src)
	if lr.N == 0 {
		return nil, ErrTooLarge
	}
	return m, err
}

// startsObject skips the white space at the start of br, at most
// maxLeadingSpace bytes, and checks that the next byte is '{', which it
// leaves unread.
func startsObject(br *bufio.Reader) error {
	for i := 0; ; i++ {
		c, err := br.ReadByte()
		if err == io.EOF {
			return errors.New("empty")
		}
		if err != nil {
			return err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			if i >= maxLeadingSpace {
				return fmt.Errorf("no '{' within its first %d bytes", maxLeadingSpace)
			}
			continue
		case '{':
			return br.UnreadByte()
		}
		return fmt.Errorf("invalid byte 0x%02x at offset %d: a model file is a JSON object", c, i)
	}
}

// decode decodes and validates a model file whose keys have been checked.
func decode(r io.Reader) (*Model, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var mf fileJSON
	if err := dec.Decode(&mf); err != nil {
		return nil, fmt.Errorf("not a model file: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("not a model file: data after the model")
	}
	if mf.Format != Format {
		return nil, fmt.Errorf("format is %q, want %q", mf.Format, Format)
	}
	switch {
	case mf.Version > Version:
		return nil, fmt.Errorf("model file version %d is newer than this svclust reads (1 to %d): use a newer svclust", mf.Version, Version)
	case mf.Version < 1:
		return nil, fmt.Errorf("version %d, want 1 to %d", mf.Version, Version)
	}
	scale, err := dataset.ParseScale(mf.Scale)
	if err != nil {
		return nil, fmt.Errorf("unknown scale %q", mf.Scale)
	}
	if mf.Model == nil {
		return nil, fmt.Errorf("no model")
	}
	d := mf.Model.model.Dim()
	if mf.Scaler == nil {
		return nil, fmt.Errorf("no scaler")
	}
	if len(mf.Scaler.Shift) != d || len(mf.Scaler.Mul) != d {
		return nil, fmt.Errorf("scaler has %d shifts and %d multipliers for a model of dimension %d",
			len(mf.Scaler.Shift), len(mf.Scaler.Mul), d)
	}
	for j := range d {
		if !finite(mf.Scaler.Shift[j]) || !finite(mf.Scaler.Mul[j]) {
			return nil, fmt.Errorf("scaler column %d is not finite", j+1)
		}
		// fit writes 1/spread, or 1 for a constant column: never ≤ 0,
		// which would fold or collapse the column.
		if mf.Scaler.Mul[j] <= 0 {
			return nil, fmt.Errorf("scaler multiplier of column %d is %v, not > 0", j+1, mf.Scaler.Mul[j])
		}
	}
	if mf.Features != nil && len(mf.Features) != d {
		return nil, fmt.Errorf("%d feature names for a model of dimension %d", len(mf.Features), d)
	}
	return &Model{
		Version:   mf.Version,
		Scale:     scale,
		Scaler:    mf.Scaler,
		Features:  mf.Features,
		Label:     mf.Label,
		Run:       mf.Run,
		Model:     mf.Model.model,
		Partition: mf.Model.partition,
	}, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Package binio reads the compact binary forms of the mergeable summaries
// (sample.BottomK, dataset.ScaleFitter) and of the Beam pipeline's coders
// built on them: little-endian uint64s, varints as encoding/binary writes
// them, and byte strings.
package binio

import (
	"encoding/binary"
	"fmt"
)

// Reader reads values from the front of a byte slice. Its first error
// sticks: it drops the rest of the data, and every later read returns
// zero (nil for Bytes) and keeps that error.
type Reader struct {
	b         []byte
	err       error
	truncated error
}

// NewReader returns a Reader of b whose reads past the end of the data
// (and counts the data cannot hold) fail with the error truncated.
func NewReader(b []byte, truncated error) Reader {
	return Reader{b: b, truncated: truncated}
}

// Err returns the first error of r, or nil.
func (r *Reader) Err() error { return r.err }

// Len returns the number of bytes left to read.
func (r *Reader) Len() int { return len(r.b) }

// Fail makes err the error of r unless it has one already, and drops the
// rest of the data.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

func (r *Reader) short() { r.Fail(r.truncated) }

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.err != nil || len(r.b) < 1 {
		r.short()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// Version reads a version byte and fails, with an error that wraps what,
// unless it is want.
func (r *Reader) Version(want byte, what error) {
	v := r.Byte()
	if r.err == nil && v != want {
		r.Fail(fmt.Errorf("%w: version %d", what, v))
	}
}

// Uint64 reads a little-endian uint64 (8 bytes).
func (r *Reader) Uint64() uint64 {
	if r.err != nil || len(r.b) < 8 {
		r.short()
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// Uvarint reads an unsigned varint, as binary.AppendUvarint writes it.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if r.err != nil || n <= 0 {
		r.short()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Varint reads a signed varint, as binary.AppendVarint writes it: the
// zig-zag form of an unsigned one, decoded as binary.Varint does.
func (r *Reader) Varint() int64 {
	ux := r.Uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

// Count reads a length (an unsigned varint) whose elements take at least
// size bytes each, and fails if the rest of the data cannot hold them, so
// that a corrupt length allocates nothing.
func (r *Reader) Count(size int) int {
	v := r.Uvarint()
	if r.err == nil && v > uint64(len(r.b)/size) {
		r.short()
		return 0
	}
	return int(v)
}

// Bytes reads the next n bytes; the result shares the data's memory.
func (r *Reader) Bytes(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.short()
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

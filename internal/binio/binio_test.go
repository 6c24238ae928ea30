package binio

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

var errShort = errors.New("short")

// TestReader reads back what encoding/binary appends.
func TestReader(t *testing.T) {
	b := []byte{7}
	b = binary.LittleEndian.AppendUint64(b, math.MaxUint64-1)
	b = binary.AppendUvarint(b, 300)
	for _, v := range []int64{0, -1, 1, math.MinInt64, math.MaxInt64} {
		b = binary.AppendVarint(b, v)
	}
	b = binary.AppendUvarint(b, 3)
	b = append(b, "abc"...)
	b = binary.AppendUvarint(b, 2) // two 8-byte elements
	b = binary.LittleEndian.AppendUint64(b, 1)
	b = binary.LittleEndian.AppendUint64(b, 2)

	r := NewReader(b, errShort)
	if got := r.Byte(); got != 7 {
		t.Errorf("Byte = %d", got)
	}
	if got := r.Uint64(); got != math.MaxUint64-1 {
		t.Errorf("Uint64 = %d", got)
	}
	if got := r.Uvarint(); got != 300 {
		t.Errorf("Uvarint = %d", got)
	}
	for _, want := range []int64{0, -1, 1, math.MinInt64, math.MaxInt64} {
		if got := r.Varint(); got != want {
			t.Errorf("Varint = %d, want %d", got, want)
		}
	}
	if got := string(r.Bytes(r.Count(1))); got != "abc" {
		t.Errorf("Bytes = %q", got)
	}
	if n := r.Count(8); n != 2 || r.Uint64() != 1 || r.Uint64() != 2 {
		t.Errorf("Count(8) = %d", n)
	}
	if r.Err() != nil || r.Len() != 0 {
		t.Errorf("at the end: error %v, %d bytes left", r.Err(), r.Len())
	}
}

// TestReaderErrors checks that every read past the end fails with the
// Reader's error, that the first error sticks and later reads return zero,
// and that a count the data cannot hold fails.
func TestReaderErrors(t *testing.T) {
	for name, read := range map[string]func(*Reader){
		"Byte":    func(r *Reader) { r.Byte() },
		"Uint64":  func(r *Reader) { r.Uint64() },
		"Uvarint": func(r *Reader) { r.Uvarint() },
		"Varint":  func(r *Reader) { r.Varint() },
		"Count":   func(r *Reader) { r.Count(1) },
		"Bytes":   func(r *Reader) { r.Bytes(1) },
	} {
		r := NewReader(nil, errShort)
		read(&r)
		if r.Err() != errShort {
			t.Errorf("%s of no data: error %v, want %v", name, r.Err(), errShort)
		}
	}

	r := NewReader([]byte{0x80}, errShort) // an unfinished varint
	if v := r.Uvarint(); v != 0 || r.Err() != errShort {
		t.Errorf("unfinished Uvarint = %d, %v", v, r.Err())
	}
	r = NewReader([]byte{1, 2, 3, 4, 5, 6, 7}, errShort)
	if v := r.Uint64(); v != 0 || r.Err() != errShort || r.Len() != 0 {
		t.Errorf("Uint64 of 7 bytes = %d, %v, %d left", v, r.Err(), r.Len())
	}

	// A count of 2 eight-byte elements in 15 bytes allocates nothing.
	r = NewReader(append([]byte{2}, make([]byte, 15)...), errShort)
	if n := r.Count(8); n != 0 || r.Err() != errShort {
		t.Errorf("Count(8) of 2 in 15 bytes = %d, %v", n, r.Err())
	}
	r = NewReader(append([]byte{2}, make([]byte, 16)...), errShort)
	if n := r.Count(8); n != 2 || r.Err() != nil {
		t.Errorf("Count(8) of 2 in 16 bytes = %d, %v", n, r.Err())
	}

	// The first error sticks: later reads return zero even with data.
	other := errors.New("other")
	r = NewReader([]byte{1, 2, 3}, errShort)
	r.Fail(other)
	r.Fail(errShort)
	if r.Err() != other || r.Len() != 0 {
		t.Errorf("after Fail: %v, %d left", r.Err(), r.Len())
	}
	if r.Byte() != 0 || r.Bytes(0) != nil || r.Err() != other {
		t.Errorf("reads after an error: error %v", r.Err())
	}
}

// TestVarint checks that Varint reads what binary.Varint reads, and fails
// where it fails: on data cut short and on a varint of more than 64 bits.
func TestVarint(t *testing.T) {
	var cases [][]byte
	for _, v := range []int64{0, 1, -1, 63, -64, 64, -65, 1 << 40, math.MinInt64, math.MaxInt64} {
		b := binary.AppendVarint(nil, v)
		cases = append(cases, b, b[:len(b)-1])
	}
	cases = append(cases,
		[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},       // 65 bits
		[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, // 11 bytes
	)
	for _, b := range cases {
		want, n := binary.Varint(b)
		r := NewReader(b, errShort)
		got := r.Varint()
		if n <= 0 {
			want = 0
		}
		if got != want || (r.Err() == nil) != (n > 0) || (n > 0 && r.Len() != len(b)-n) {
			t.Errorf("Varint(% x) = %d, %v, %d left; binary.Varint: %d, %d", b, got, r.Err(), r.Len(), want, n)
		}
	}
}

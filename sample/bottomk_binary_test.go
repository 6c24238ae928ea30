package sample

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"slices"
	"testing"
)

// sampleOf returns a sample of size k of rows lines 2..n+1 of two files,
// with 2 values a row, built in two parts and merged.
func sampleOf(k, n int) *BottomK {
	a, b := NewBottomK(k), NewBottomK(k)
	for _, p := range []struct {
		s    *BottomK
		file string
	}{{a, "data/part-0.csv"}, {b, "data/part-1.csv.gz"}} {
		keys := NewKeyer(3, p.file)
		for l := 2; l < n+2; l++ {
			p.s.Add(keys.Key(l), RowID{p.file, l}, []float64{float64(l), -float64(l) / 3})
		}
	}
	a.Union(b)
	return a
}

// TestBottomKBinary checks that UnmarshalBinary restores what
// MarshalBinary encodes, rows in the same heap order, so that merging the
// decoded sample gives the same sample as merging the original; and that
// the encoding takes at most the size its format gives, 28 bytes per
// 2-value row here.
func TestBottomKBinary(t *testing.T) {
	for _, tc := range []struct{ k, n int }{{0, 10}, {5, 0}, {50, 20}, {50, 1000}} {
		s := sampleOf(tc.k, tc.n)
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got BottomK
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatalf("k %d, n %d: %v", tc.k, tc.n, err)
		}
		if got.K != s.K || len(got.Items) != len(s.Items) || (len(s.Items) > 0 && !reflect.DeepEqual(got.Items, s.Items)) {
			t.Errorf("k %d, n %d: decoded %+v, want %+v", tc.k, tc.n, got, *s)
		}
		if n := len(s.Items); n > 0 {
			// The format's size for these rows, at most: a version byte,
			// K, the number of files, the two names each after its length
			// (1 byte), and the number of rows; then per row 8 bytes of
			// key, 1 of file index (0 or 1), 2 of line (a varint of at
			// most 2·1001 in zig-zag form, < 2¹⁴), 1 for the number of
			// values (2) and 2·8 of values.
			const perRow = 8 + 1 + 2 + 1 + 2*8
			head := 1 + len(binary.AppendVarint(nil, int64(tc.k))) + 1 +
				1 + len("data/part-0.csv") + 1 + len("data/part-1.csv.gz") +
				len(binary.AppendUvarint(nil, uint64(n)))
			if limit := head + n*perRow; len(b) > limit {
				t.Errorf("k %d, n %d: %d bytes for %d rows, want ≤ %d (%d a row)", tc.k, tc.n, len(b), n, limit, perRow)
			}
		}
		// The decoded sample is a heap: merging into it gives the sample
		// of the union, as merging into the original does.
		more := sampleOf(tc.k, tc.n+40)
		s.Union(more)
		got.Union(more)
		if !reflect.DeepEqual(got.Sorted(), s.Sorted()) {
			t.Errorf("k %d, n %d: merging into the decoded sample differs", tc.k, tc.n)
		}
	}
}

// TestBottomKBinaryErrors checks that every truncation of an encoding,
// trailing bytes, another version, rows out of heap order and more rows
// than K are errors, not panics, and leave the target unchanged.
func TestBottomKBinaryErrors(t *testing.T) {
	s := sampleOf(20, 30)
	b, _ := s.MarshalBinary()
	keep := NewBottomK(7)
	for n := range len(b) {
		if err := keep.UnmarshalBinary(b[:n]); !errors.Is(err, errBottomK) {
			t.Fatalf("%d of %d bytes: error %v", n, len(b), err)
		}
	}
	if err := keep.UnmarshalBinary(append(b[:len(b):len(b)], 0)); !errors.Is(err, errBottomK) {
		t.Errorf("a trailing byte: error %v, want errBottomK", err)
	}
	bad := append([]byte{2}, b[1:]...)
	if err := keep.UnmarshalBinary(bad); !errors.Is(err, errBottomK) {
		t.Errorf("version 2: error %v, want errBottomK", err)
	}
	swapped := &BottomK{K: s.K, Items: append([]Item{s.Items[1], s.Items[0]}, s.Items[2:]...)}
	b2, _ := swapped.MarshalBinary()
	if err := keep.UnmarshalBinary(b2); err == nil {
		t.Error("rows out of heap order: no error")
	}
	over := &BottomK{K: 1, Items: slices.Clip(s.Items[:1])}
	over.Items = append(over.Items, Item{Key: 0, ID: RowID{"x", 2}})
	b3, _ := over.MarshalBinary()
	if err := keep.UnmarshalBinary(b3); err == nil {
		t.Error("2 rows for K = 1: no error")
	}
	if keep.K != 7 || keep.Items != nil {
		t.Errorf("a failed decode changed the target: %+v", keep)
	}
}

// FuzzBottomKBinary: decoding any bytes never panics, and a sample that
// decodes encodes to bytes that decode to the same sample (compared by
// its encoding, since a row may hold NaN).
func FuzzBottomKBinary(f *testing.F) {
	for _, k := range []int{0, 3, 20} {
		b, _ := sampleOf(k, 15).MarshalBinary()
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s BottomK
		if s.UnmarshalBinary(data) != nil {
			return
		}
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var again BottomK
		if err := again.UnmarshalBinary(b); err != nil {
			t.Fatalf("re-encoded sample does not decode: %v", err)
		}
		if b2, _ := again.MarshalBinary(); !bytes.Equal(b2, b) || again.K != s.K || len(again.Items) != len(s.Items) {
			t.Fatalf("decoded %+v, re-decoded %+v", s, again)
		}
	})
}

package sample

import (
	"cmp"
	"hash/fnv"
	"slices"
)

// RowID identifies a row of data read from one or more files: the name of
// its file, as the caller reads it, and its line, counted from 1 (the
// header), so that the first row of a file is line 2.
type RowID struct {
	File string
	Line int
}

// Compare orders row identities by file name, then line: -1 if id comes
// before o, +1 if after, 0 if they are equal.
func (id RowID) Compare(o RowID) int {
	if c := cmp.Compare(id.File, o.File); c != 0 {
		return c
	}
	return cmp.Compare(id.Line, o.Line)
}

// Keyer gives the sampling keys of the rows of one file under a seed; see
// [BottomK]. Make one with [NewKeyer]: the zero value gives keys, but not
// those of any file and seed (not even file "" under seed 0).
type Keyer struct {
	h uint64 // mix64(seed ^ FNV-1a(file))
}

// NewKeyer returns the keyer of the rows of file under seed.
func NewKeyer(seed uint64, file string) Keyer {
	f := fnv.New64a()
	f.Write([]byte(file))
	return Keyer{h: mix64(seed ^ f.Sum64())}
}

// Key returns the sampling key of the row at line: a 64-bit hash of the
// seed, the file name and the line, which depends on nothing else (not on
// which worker reads the row, nor when).
func (k Keyer) Key(line int) uint64 {
	return mix64(k.h + mix64(uint64(line)))
}

// mix64 is the finalizer of SplitMix64 (Steele, Lea & Flood 2014, with
// Stafford's "Mix13" constants): a bijection of uint64 whose output bits
// each depend on every input bit.
//
//	G. L. Steele Jr., D. Lea, C. H. Flood. Fast splittable pseudorandom
//	number generators. OOPSLA 2014.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Item is a row of a [BottomK] sample: its key, its identity and its
// values.
type Item struct {
	Key uint64
	ID  RowID
	Row []float64
}

// less orders sampled rows by key, ties (different rows with the same
// 64-bit key) by identity, so that the order is total.
func (a *Item) less(b *Item) bool {
	if a.Key != b.Key {
		return a.Key < b.Key
	}
	return a.ID.Compare(b.ID) < 0
}

// BottomK is a fixed-size uniform random sample of rows, without
// replacement, that can be built in pieces and merged: the bottom-k sketch
// of Cohen and Kaplan. Every row gets a pseudo-random key that is a hash
// of the seed and the row's identity ([Keyer]); the sample is the K
// rows with the smallest keys. Since the keys behave as independent
// uniform draws, every set of K rows is equally likely to be the sample,
// as for a [Reservoir]; unlike a reservoir, the sample depends only on
// the seed and the set of rows, not on the order they come in nor on how
// they are split among workers: the samples of parts combine
// ([BottomK.Union]) into the sample of their union, and a part can be
// sampled again with another seed.
//
//	E. Cohen, H. Kaplan. Summarizing data using bottom-k sketches.
//	PODC 2007.
//
// Memory holds at most K rows. The fields are exported so that a sample
// can be encoded (as a Beam accumulator, for one); Items is a max-heap by
// key while the sample is built, so it must not be modified but through
// the methods.
type BottomK struct {
	// K is the size of the sample; a BottomK with K ≤ 0 keeps nothing.
	K int
	// Items holds the min(K, rows seen) rows with the smallest keys, in
	// heap order.
	Items []Item
}

// NewBottomK returns an empty sample of size k.
func NewBottomK(k int) *BottomK { return &BottomK{K: k} }

// Len returns the number of rows in the sample.
func (s *BottomK) Len() int { return len(s.Items) }

// Full reports whether the sample holds K rows, so that a row must have a
// key below [BottomK.Bound] to enter.
func (s *BottomK) Full() bool { return len(s.Items) >= s.K }

// Bound returns the largest key of the sample when it is full: a row
// with a larger key cannot enter it. It returns the largest uint64 when
// the sample is not full.
func (s *BottomK) Bound() uint64 {
	if !s.Full() || len(s.Items) == 0 {
		return ^uint64(0)
	}
	return s.Items[0].Key
}

// Add offers the row of identity id and key key to the sample, and keeps
// a copy of its values if it enters. Each row must be added once.
func (s *BottomK) Add(key uint64, id RowID, row []float64) {
	it := Item{Key: key, ID: id}
	if s.enters(&it) {
		it.Row = slices.Clone(row)
		s.push(it)
	}
}

// enters reports whether it belongs in the sample: s has room, or it is
// below the largest item.
func (s *BottomK) enters(it *Item) bool {
	return s.K > 0 && (!s.Full() || it.less(&s.Items[0]))
}

// push adds it to the heap, dropping the largest when the sample is over K.
func (s *BottomK) push(it Item) {
	if !s.Full() {
		s.Items = append(s.Items, it)
		s.up(len(s.Items) - 1)
		return
	}
	s.Items[0] = it
	s.down(0)
}

// Union adds the rows of o to s, which then holds the sample of the union
// of the rows of both: the same, whatever the order of the unions, as long
// as no row is in both. o is not modified, and its rows are shared, not
// copied. The result has s's K.
func (s *BottomK) Union(o *BottomK) {
	for i := range o.Items {
		if s.enters(&o.Items[i]) {
			s.push(o.Items[i])
		}
	}
}

// Sorted returns the rows of the sample ordered by identity (file, then
// line), the order in which a reader of the files meets them. It does not
// modify s.
func (s *BottomK) Sorted() []Item {
	out := slices.Clone(s.Items)
	slices.SortFunc(out, func(a, b Item) int { return a.ID.Compare(b.ID) })
	return out
}

// up and down keep Items a max-heap by less.
func (s *BottomK) up(i int) {
	h := s.Items
	for i > 0 {
		p := (i - 1) / 2
		if !h[p].less(&h[i]) {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (s *BottomK) down(i int) {
	h := s.Items
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h[l].less(&h[r]) {
			c = r
		}
		if !h[i].less(&h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

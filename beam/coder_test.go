package beam

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/typex"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/sample"
)

// part returns the summary of n rows of a 2-column file, with a sample of
// size k.
func part(file string, n, k int) filePart {
	m := dataset.NewScaleFitter(dataset.ScaleZScore, 2)
	s := sample.NewBottomK(k)
	keys := sample.NewKeyer(1, file)
	for l := 2; l < n+2; l++ {
		row := []float64{float64(l) * 1.25, -float64(l) / 3}
		m.Add(row)
		s.Add(keys.Key(l), sample.RowID{File: file, Line: l}, row)
	}
	return filePart{File: file, Moments: m, Sample: s}
}

// TestCoders checks that the pipeline's summaries are encoded by their
// registered coders (the SDK would otherwise use its schema coder, which
// takes about 97 bytes a sampled 2-D row against 28 here), that
// decoding restores them, and that bad bytes are an error.
func TestCoders(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[filePart](), reflect.TypeFor[summary]()} {
		if c := sdk.NewCoder(typex.New(typ)).String(); !strings.Contains(c, typ.Name()+"[") {
			t.Errorf("coder of %v: %s, want the registered one", typ, c)
		}
	}
	p := part("data/part-0.csv", 300, 100)
	b, err := encodeFilePart(p)
	if err != nil {
		t.Fatal(err)
	}
	// The size the formats give, at most: the file name after its length;
	// the scaling blob (flag, length, then version, scale, N = 300, d = 2
	// and 5·2 values); the sample blob (flag, length < 2¹⁴, then version,
	// K = 100, one file name after its length, and the number of rows);
	// then per sampled row 8 bytes of key, 1 of file index, 2 of line (a
	// varint of at most 2·301 in zig-zag form, < 2¹⁴), 1 for the number
	// of values (2) and 2·8 of values.
	const perRow = 8 + 1 + 2 + 1 + 2*8
	head := 1 + len(p.File) +
		1 + 1 + (1 + 1 + 2 + 1 + 5*2*8) +
		1 + 2 + (1 + 2 + 1 + 1 + len(p.File) + 1)
	if limit := head + 100*perRow; len(b) > limit {
		t.Errorf("%d bytes for 100 sampled rows, want ≤ %d (%d a row)", len(b), limit, perRow)
	}
	got, err := decodeFilePart(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("filePart decoded %+v, want %+v", got, p)
	}
	q := part("data/part-1.csv.gz", 50, 100)
	var fm mergeFn
	fm.Sample = 100
	acc := fm.AddInput(fm.AddInput(fm.CreateAccumulator(), p), q)
	b, err = encodeSummary(acc)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := decodeSummary(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gs, acc) {
		t.Errorf("summary decoded %+v, want %+v", gs, acc)
	}
	for _, v := range []any{filePart{File: "x"}, summary{}} {
		var b []byte
		if fp, ok := v.(filePart); ok {
			b, _ = encodeFilePart(fp)
			g, err := decodeFilePart(b)
			if err != nil || !reflect.DeepEqual(g, fp) {
				t.Errorf("empty filePart: %+v, %v", g, err)
			}
		} else {
			b, _ = encodeSummary(v.(summary))
			g, err := decodeSummary(b)
			if err != nil || !reflect.DeepEqual(g, v) {
				t.Errorf("empty summary: %+v, %v", g, err)
			}
		}
	}
	whole, _ := encodeSummary(acc)
	for n := range len(whole) {
		if _, err := decodeSummary(whole[:n]); err == nil {
			t.Fatalf("%d of %d bytes decoded without error", n, len(whole))
		}
	}
	if _, err := decodeSummary(append(whole, 0)); !errors.Is(err, errCoding) {
		t.Errorf("a trailing byte: %v", err)
	}
}

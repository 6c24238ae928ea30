package dataset

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestGenerateCSV checks that GenerateCSV writes the bytes of Generate and
// WriteCSV, with blocks smaller than, equal to and larger than n, so that
// both the one-block and the many-block paths run.
func TestGenerateCSV(t *testing.T) {
	for _, kind := range AllKinds() {
		for _, n := range []int{1, 2, 7, 100, 1001} {
			ds := mustGenerate(t, kind, n, 5)
			var want bytes.Buffer
			if err := ds.WriteCSV(&want); err != nil {
				t.Fatal(err)
			}
			for _, block := range []int{1, 3, 64, n, 2 * n} {
				var got bytes.Buffer
				if err := generateCSV(&got, kind, n, 5, block); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("%s, n = %d, block %d: output differs from Generate + WriteCSV", kind, n, block)
				}
			}
		}
	}
	// The exported function with its real block size.
	var got, want bytes.Buffer
	if err := GenerateCSV(&got, "MOONS", 500, 9); err != nil {
		t.Fatal(err)
	}
	if err := mustGenerate(t, Moons, 500, 9).WriteCSV(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Error("GenerateCSV differs from Generate + WriteCSV")
	}
}

func TestGenerateCSVErrors(t *testing.T) {
	var b bytes.Buffer
	if err := GenerateCSV(&b, "spiral", 10, 1); err == nil {
		t.Error("unknown kind: no error")
	}
	if err := GenerateCSV(&b, Moons, 0, 1); err == nil {
		t.Error("n = 0: no error")
	}
	errFull := errors.New("disk full")
	if err := GenerateCSV(failWriter{errFull}, Moons, 10000, 1); !errors.Is(err, errFull) {
		t.Errorf("failing writer: error %v, want %v", err, errFull)
	}
}

// failWriter fails every write.
type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestInvert checks invert against the definition q[p[i]] = i on random
// permutations, which have cycles of every length, and on the identity.
func TestInvert(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 10, 1000} {
		for trial := range 5 {
			p := make([]int32, n)
			for i := range p {
				p[i] = int32(i)
			}
			if trial > 0 {
				rnd.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
			}
			q := append([]int32(nil), p...)
			invert(q)
			for i := range p {
				if q[p[i]] != int32(i) {
					t.Fatalf("n = %d: q[p[%d]] = %d", n, i, q[p[i]])
				}
			}
		}
	}
}

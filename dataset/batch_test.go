package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// moonsCSV returns the CSV of n rows of Moons, as WriteCSV writes them
// (shortest decimals, most of 17 digits, as in the files fit reads).
func moonsCSV(tb testing.TB, n int) []byte {
	var buf bytes.Buffer
	if err := mustGenerate(tb, Moons, n, 1).WriteCSV(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// scanRows scans in with the batches of size and returns the number of
// rows.
func scanRows(tb testing.TB, in []byte, opt ReadOptions, size batchSize) int {
	s, err := newScanner(bytes.NewReader(in), opt, size)
	if err != nil {
		tb.Fatal(err)
	}
	for s.Scan() {
	}
	if err := s.Err(); err != nil {
		tb.Fatal(err)
	}
	return s.Rows()
}

// BenchmarkScan scans Moons with one worker (line by line, as before
// batches) and with two in batches of several sizes; "serial" batches
// are read ahead but parsed by Scan, "parallel" ones are all parsed on the
// workers, however small. The small inputs chose parallelMin (see
// docs/defaults.md).
func BenchmarkScan(b *testing.B) {
	for _, n := range []int{16, 64, 256, 1000, 100000} {
		in := moonsCSV(b, n)
		cases := []struct {
			name    string
			workers int
			size    batchSize
		}{
			{"workers=1", 1, defaultBatch},
			{"workers=2/serial", 2, batchSize{lines: batchLines, bytes: batchBytes, parallel: 1 << 30}},
			{"workers=2/parallel", 2, batchSize{lines: batchLines, bytes: batchBytes, parallel: 1}},
		}
		if n == 100000 {
			for _, lines := range []int{256, 1024, 4096, 16384} {
				cases = append(cases, struct {
					name    string
					workers int
					size    batchSize
				}{fmt.Sprintf("workers=2/lines=%d", lines), 2, batchSize{lines: lines, bytes: batchBytes, parallel: 1}})
			}
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("rows=%d/%s", n, c.name), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					scanRows(b, in, ReadOptions{Workers: c.workers}, c.size)
				}
			})
		}
	}
}

// TestScannerWorkers reads each case of TestRead with several workers in
// batches of several sizes, as FuzzScanWorkers does, and checks that a
// caller sees what it sees with one worker.
func TestScannerWorkers(t *testing.T) {
	for _, tc := range readTests {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range []batchSize{
				{lines: 1, bytes: 1 << 20, parallel: 1},
				{lines: 2, bytes: 1, parallel: 1},
				{lines: 5, bytes: 1 << 20, parallel: 3},
				defaultBatch,
			} {
				checkScanWorkers(t, []byte(tc.in), tc.opt, 2, size)
				checkScanWorkers(t, []byte(tc.in), tc.opt, 4, size)
			}
		})
	}
}

// TestScanBatchMemory checks the memory of the batches: reading 30,000
// rows of 40 bytes with two workers allocates no more than with one plus
// twice a batch of 4,096 lines (164 kB of text and an eighth to spare, 16
// bytes of values, 24 of label, 8 of its end and 1 of flag per line: 385
// kB), since the batches double up to it; and the data are the same.
func TestScanBatchMemory(t *testing.T) {
	want := mustGenerate(t, Gauss3, 30000, 2)
	var buf bytes.Buffer
	if err := want.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	if n := buf.Len() / 30001; n != 40 {
		t.Fatalf("%d bytes a line, want 40", n)
	}
	var alloc [3]uint64
	var got [3]*Dataset
	for w := 1; w <= 2; w++ {
		ds, n, err := readAlloc(buf.Bytes(), ReadOptions{Rows: 30000, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		alloc[w], got[w] = n, ds
	}
	if extra := int64(alloc[2]) - int64(alloc[1]); extra > 800_000 {
		t.Errorf("two workers allocate %d bytes more than one, want at most 800 kB", extra)
	}
	if !mat.Equal(got[1].X, got[2].X) || !slices.Equal(got[1].Labels, got[2].Labels) {
		t.Error("two workers read other data than one")
	}
}

// TestScanWideJunkMemory: short ragged lines under a wide header (here
// 200 rows of 20,000 features, then 4,096 lines of 16 bytes) are not given
// values by the workers: two workers allocate about what one does before
// the error of the first short line, not a value per column of each of
// them (655 MB).
func TestScanWideJunkMemory(t *testing.T) {
	const d = 20000
	var in bytes.Buffer
	writeNames(&in, d)
	in.WriteByte('\n')
	row := strings.Repeat("0,", d-1) + "0\n"
	for range 200 {
		in.WriteString(row)
	}
	for range 4096 {
		in.WriteString("1,2,3,4,5,6,7,8\n")
	}
	var alloc [3]uint64
	for w := 1; w <= 2; w++ {
		_, n, err := readAlloc(in.Bytes(), ReadOptions{Workers: w})
		if !errors.Is(err, ErrRagged) {
			t.Fatalf("%d workers: %v, want a ragged line", w, err)
		}
		alloc[w] = n
	}
	if extra := int64(alloc[2]) - int64(alloc[1]); extra > 32<<20 {
		t.Errorf("two workers allocate %d bytes more than one (%d), want at most 32 MiB more", extra, alloc[1])
	}
}

// writeNames writes the names x1,…,xcols of a header line, without its
// line end.
func writeNames(b *bytes.Buffer, cols int) {
	for j := range cols {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, "x%d", j+1)
	}
}

// readAlloc reads in with opt and returns the data, the bytes allocated
// meanwhile and the error.
func readAlloc(in []byte, opt ReadOptions) (*Dataset, uint64, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ds, err := Read(bytes.NewReader(in), opt)
	runtime.ReadMemStats(&after)
	return ds, after.TotalAlloc - before.TotalAlloc, err
}

// TestScannerNegativeWorkers checks that a negative number of workers is
// an error that names the option, not a Scanner.
func TestScannerNegativeWorkers(t *testing.T) {
	s, err := NewScanner(bytes.NewReader([]byte("x\n1\n")), ReadOptions{Workers: -1})
	if err == nil || s != nil || !strings.Contains(err.Error(), "Workers") {
		t.Fatalf("Workers -1: %v, %v; want an error naming Workers", s, err)
	}
}

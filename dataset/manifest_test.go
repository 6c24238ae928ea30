package dataset

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// dataDir returns the directory of the paper's benchmark data sets: $SVCLUST_DATA,
// or the shared directory beside the repository.
func dataDir() string {
	if dir := os.Getenv("SVCLUST_DATA"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "shared", "datasets")
}

// TestBenchmarkData reads each data set listed in MANIFEST.tsv and checks its
// numbers of rows, features and classes, and that the labels are 0..k-1
// written as themselves.
func TestBenchmarkData(t *testing.T) {
	dir := dataDir()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("skipping: no benchmark data (set SVCLUST_DATA to the directory holding MANIFEST.tsv): %v", err)
	}
	defer f.Close()

	sc := bufio.NewScanner(f)
	sc.Scan() // header: file rows features classes sha256
	files := 0
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 4 {
			t.Fatalf("bad MANIFEST.tsv line %q", sc.Text())
		}
		var want [3]int
		for i := range want {
			if want[i], err = strconv.Atoi(fields[i+1]); err != nil {
				t.Fatalf("bad MANIFEST.tsv line %q: %v", sc.Text(), err)
			}
		}
		files++
		name := fields[0]
		t.Run(strings.TrimSuffix(name, ".csv"), func(t *testing.T) {
			ds, err := ReadFile(filepath.Join(dir, name), ReadOptions{RequireLabel: true})
			if err != nil {
				t.Fatal(err)
			}
			r, c := ds.X.Dims()
			if got := [3]int{r, c, len(ds.Classes)}; got != want {
				t.Errorf("rows, features, classes = %v, want %v", got, want)
			}
			for k, s := range ds.Classes {
				if s != strconv.Itoa(k) {
					t.Errorf("class %d has text %q", k, s)
				}
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// The paper uses 15 data sets.
	if files != 15 {
		t.Errorf("MANIFEST.tsv lists %d files, want 15", files)
	}
}

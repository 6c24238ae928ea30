package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// gzipText returns s compressed with gzip.
func gzipText(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	if _, err := z.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// mapLines returns s with f applied to each of its lines, counted from 0
// (the header), without their newline.
func mapLines(s string, f func(i int, line string) string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = f(i, l)
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestDataFormats checks that the files people have, written by R, Excel,
// pandas or gzip, give fit, fit -stream, predict, score and tune the
// results of the plain comma-separated file that holds the same data:
// labels, model and scores byte for byte.
func TestDataFormats(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	g3, err := dataset.Generate(dataset.Gauss3, 200, 5)
	if err != nil {
		t.Fatal(err)
	}
	plain := csvOf(t, g3) // x1,x2,label
	quoteAll := func(_ int, l string) string {
		f := strings.Split(l, ",")
		for j := range f {
			f[j] = `"` + f[j] + `"`
		}
		return strings.Join(f, ",")
	}
	// rWrite quotes the names and the labels, as R's write.csv does.
	rWrite := mapLines(plain, func(i int, l string) string {
		if i == 0 {
			return quoteAll(i, l)
		}
		j := strings.LastIndexByte(l, ',')
		return l[:j+1] + `"` + l[j+1:] + `"`
	})
	semicolon := strings.ReplaceAll(plain, ",", ";")

	// What the plain file gives, computed once: each variant must give the
	// same. -sample 50 makes -stream read the file three times: for the
	// sample, for the variance of zscore, and to label it.
	modes := [][]string{{"fit", "-budget", "20"}, {"fit", "-budget", "20", "-stream"}, {"fit", "-budget", "20", "-stream", "-sample", "50"}}
	refDir := t.TempDir()
	ref := writeFile(t, "ref.csv", plain)
	var refLabels, refModels []string
	refModel := ""
	for k, mode := range modes {
		labels, model := filepath.Join(refDir, fmt.Sprint("labels", k)), filepath.Join(refDir, fmt.Sprint("model", k))
		mustCLI(t, append(append([]string{}, mode...), "-o", labels, "-model", model, ref)...)
		refLabels = append(refLabels, readFile(t, labels))
		refModels = append(refModels, withoutRun(readFile(t, model)))
		if k == 0 {
			refModel = model
		}
	}
	refOut := map[string]string{}
	for _, cmd := range []string{"predict", "score"} {
		refOut[cmd] = mustCLI(t, cmd, "-model", refModel, ref)
	}
	tuneArgs := func(o string) []string {
		return []string{"tune", "-budget", "20", "-gamma-grid", "1,4", "-C-grid", "2", "-o", o}
	}
	mustCLI(t, append(tuneArgs(filepath.Join(refDir, "tune")), ref)...)
	refTune := readFile(t, filepath.Join(refDir, "tune"))

	for _, tc := range []struct {
		name  string
		data  string
		flags []string
	}{
		{"R write.csv", rWrite, nil},
		{"every field quoted, CRLF", strings.ReplaceAll(mapLines(plain, quoteAll), "\n", "\r\n"), nil},
		{"semicolon", semicolon, nil},
		{"semicolon, -sep", semicolon, []string{"-sep", ";"}},
		{"tab", strings.ReplaceAll(plain, ",", "\t"), nil},
		{"Excel in a decimal-comma locale", strings.ReplaceAll(semicolon, ".", ","), []string{"-decimal", ","}},
		{"decimal comma, tab, gzip", gzipText(t, strings.ReplaceAll(strings.ReplaceAll(plain, ",", "\t"), ".", ",")), []string{"-decimal", ",", "-sep", "tab"}},
		{"tab, -sep tab", strings.ReplaceAll(plain, ",", "\t"), []string{"-sep", "tab"}},
		{"gzip", gzipText(t, plain), nil},
		{"gzip of R write.csv with semicolons", gzipText(t, strings.ReplaceAll(rWrite, ",", ";")), nil},
		{"pandas index, -drop ''", mapLines(plain, func(i int, l string) string {
			if i == 0 {
				return "," + l
			}
			return fmt.Sprint(i-1, ",", l)
		}), []string{"-drop", ""}},
		{"R write.csv with row names, -drop ''", mapLines(rWrite, func(i int, l string) string {
			if i == 0 {
				return `"",` + l
			}
			return fmt.Sprintf(`"%d",%s`, i, l)
		}), []string{"-drop", ""}},
		{"id and note, -drop", mapLines(plain, func(i int, l string) string {
			if i == 0 {
				return "id," + l + ",note"
			}
			return fmt.Sprintf(`"r%d",%s,"a, b"`, i, l)
		}), []string{"-drop", "id,note"}},
		{"-features", mapLines(plain, func(i int, l string) string {
			f := strings.Split(l, ",")
			if i == 0 {
				return "z," + f[1] + ",label," + f[0]
			}
			return "oops," + f[1] + "," + f[2] + "," + f[0]
		}), []string{"-features", "x1,x2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := writeFile(t, "in.csv", tc.data)
			out := func(name string) string { return filepath.Join(dir, name) }
			for k, mode := range modes {
				args := append(append(append([]string{}, mode...), "-o", out("labels.in"), "-model", out("model.in")), tc.flags...)
				mustCLI(t, append(args, in)...)
				if readFile(t, out("labels.in")) != refLabels[k] {
					t.Errorf("%s: labels differ from those of the plain file", strings.Join(mode, " "))
				}
				// The run sections differ by the data file and its hash.
				if withoutRun(readFile(t, out("model.in"))) != refModels[k] {
					t.Errorf("%s: model differs from that of the plain file", strings.Join(mode, " "))
				}
			}
			// The model of the plain file on the variant.
			for _, cmd := range []string{"predict", "score"} {
				got := mustCLI(t, append(append([]string{cmd, "-model", refModel}, tc.flags...), in)...)
				if got != refOut[cmd] {
					t.Errorf("%s: output differs from that of the plain file", cmd)
				}
			}
			mustCLI(t, append(append(tuneArgs(out("tune.in")), tc.flags...), in)...)
			if readFile(t, out("tune.in")) != refTune {
				t.Error("tune: labels differ from those of the plain file")
			}
		})
	}
}

// TestDataErrors checks the messages and exit statuses of files and data
// flags that cannot be read as they are.
func TestDataErrors(t *testing.T) {
	pandas := writeFile(t, "p.csv", ",x1,x2\n0,1,2\n1,3,4\n")
	plain := writeFile(t, "a.csv", "x1,x2\n1,2\n3,4\n")
	both := writeFile(t, "b.csv", "x1,x2;x3\n1,2;3\n")
	semi := writeFile(t, "s.csv", "x1;x2\n1;2.5\n")
	// Finite values that overflow when scaled: max − min = 3.4e308 is
	// infinite, and 1e200 squares to infinity.
	wide := writeFile(t, "w.csv", "x1,x2\n1,0\n2,1.7e308\n3,-1.7e308\n")
	big := writeFile(t, "big.csv", "x1,x2\n1,0\n2,0\n-1e200,1\n")
	sum := writeFile(t, "sum.csv", "x1,x2\n1,1.7e308\n2,1.7e308\n3,1\n") // the sum for the mean overflows
	model := filepath.Join(t.TempDir(), "m.json")
	mustCLI(t, "fit", "-scale", "none", "-model", model, plain)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"fit", pandas}, 1, "p.csv:1:1: bad column name: column 1 has no name (as the index pandas' to_csv and the row names R's write.csv write there); drop unnamed columns or name it (-drop \"\" drops the unnamed columns)"},
		{[]string{"fit", "-features", "x1,x1", plain}, 1, `a.csv:1:1: bad column name: "x1" is named twice among the features`},
		{[]string{"fit", "-drop", "id", plain}, 1, `a.csv:1: no such column "id" to drop`},
		{[]string{"fit", both}, 1, "b.csv:1: unknown separator: the header holds both ',' and ';'; say which separates the fields (choose it with -sep)"},
		{[]string{"fit", "-max-line", "4", plain}, 1, "a.csv:1: line too long: more than 4 bytes (raise the limit with -max-line)"},
		{[]string{"predict", "-model", "m.json", "-max-line", "0", plain}, 2, "-max-line must be ≥ 1"},
		{[]string{"fit", "-sep", "|", plain}, 2, `-sep must be , ; or tab, not "|"`},
		{[]string{"fit", "-decimal", ",", "-sep", ",", plain}, 2, "-decimal , needs -sep ; or tab"},
		{[]string{"fit", "-decimal", ";", plain}, 2, `-decimal must be . or , not ";"`},
		{[]string{"fit", "-decimal", ",", semi}, 1, `s.csv:2:2: not a number: "2.5" (the decimal separator is a comma)`},
		{[]string{"score", "-model", "m.json", "-sep", "||", plain}, 2, `-sep must be , ; or tab`},
		{[]string{"tune", "-features", "", plain}, 2, "-features names no column"},
		{[]string{"fit", "-stream", "-sep", "x", plain}, 2, "-sep must be"},
		{[]string{"fit", "-scale", "minmax", wide}, 1, `w.csv: feature "x2": its mean, range or standard deviation overflows float64, so its values cannot be scaled (-scale minmax)`},
		{[]string{"fit", "-stream", "-scale", "minmax", wide}, 1, `w.csv: feature "x2": its mean, range or standard deviation overflows float64`},
		{[]string{"fit", sum}, 1, `sum.csv: feature "x2": its mean, range or standard deviation overflows float64, so its values cannot be scaled (-scale zscore)`},
		{[]string{"fit", "-scale", "none", wide}, 1, `w.csv:3: feature "x2": the value 1.7e+308 overflows when scaled (-scale none): it scales to 1.7e+308, beyond ±1e+150`},
		{[]string{"fit", "-scale", "none", big}, 1, `big.csv:4: feature "x1": the value -1e+200 overflows when scaled (-scale none): it scales to -1e+200, beyond ±1e+150, where the squared distances of the kernel overflow`},
		{[]string{"tune", "-scale", "none", big}, 1, `big.csv:4: feature "x1": the value -1e+200 overflows`},
		{[]string{"score", "-model", model, big}, 1, `big.csv:4: feature "x1": the value -1e+200 overflows when scaled (-scale none)`},
	} {
		code, _, errs := cli(t, tc.args...)
		if first, _, _ := strings.Cut(errs, "\n"); code != tc.code || !strings.Contains(first, tc.msg) {
			t.Errorf("svclust %s: exit %d, %q; want %d and %q", strings.Join(tc.args, " "), code, first, tc.code, tc.msg)
		}
	}
}

// TestHostileInput runs svclust on inputs that used to hang or to grow
// without bound, in a child process that is killed if it has not
// finished after a minute: /dev/zero, a line of 20 MB, and a FIFO
// given to fit -stream, whose second open would block.
func TestHostileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero or FIFOs")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	long := writeFile(t, "long.csv", "x1,x2\n1,2\n"+strings.Repeat("9", 20<<20)+",1\n")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"fit", "/dev/zero"}, 1, "/dev/zero:1: line too long: more than 16777216 bytes"},
		{[]string{"fit", long}, 1, "long.csv:3: line too long: more than 16777216 bytes (raise the limit with -max-line)"},
		{[]string{"fit", "-stream", fifo}, 2, "-stream reads DATA twice, so it must be a regular file; " + fifo + " is a pipe"},
		{[]string{"fit", "-stream", "/dev/zero"}, 2, "/dev/zero is a device"},
	} {
		cmd := svclustCmd(t, tc.args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
		cmd.Wait()
		timer.Stop()
		code := cmd.ProcessState.ExitCode()
		if first, _, _ := strings.Cut(stderr.String(), "\n"); code != tc.code || !strings.Contains(first, tc.msg) {
			t.Errorf("svclust %s: exit %d, %q; want %d and %q", strings.Join(tc.args, " "), code, first, tc.code, tc.msg)
		}
	}
	// The long line is accepted when the limit allows it.
	if code, _, errs := cli(t, "fit", "-max-line", "30000000", long); code != 1 || !strings.Contains(errs, "long.csv:3:1: not a finite number") {
		t.Errorf("-max-line 30000000: exit %d, %s", code, errs)
	}
	_ = os.Remove(fifo)
}

// TestExtremeSpreads checks that z-scores work on columns whose variance
// underflows or overflows float64 when computed directly (spreads of
// 1e-200 and 1e300), and that fit -stream, whose sample is smaller than
// the file here so that it reads the file for each pass of the scaling,
// fits the same scaler as fit, bit for bit, as the Streaming section of
// the manual says.
func TestExtremeSpreads(t *testing.T) {
	var b strings.Builder
	b.WriteString("x1,x2,x3\n")
	for i := range 60 {
		c := float64(i%2*10) + float64(i%7)/7
		fmt.Fprintf(&b, "%g,%g,%g\n", c*1e300, c*1e-200, c)
	}
	in := writeFile(t, "x.csv", b.String())
	dir := t.TempDir()
	a, s := filepath.Join(dir, "a.json"), filepath.Join(dir, "s.json")
	mustCLI(t, "fit", "-rule", "components", "-all", "-model", a, in)
	mustCLI(t, "fit", "-stream", "-sample", "20", "-model", s, in)
	scaler := func(path string) string {
		m := readFile(t, path)
		i := strings.Index(m, `"scaler"`)
		j := strings.Index(m[i:], "}")
		return m[i : i+j+1]
	}
	sa, ss := scaler(a), scaler(s)
	if sa != ss {
		t.Errorf("fit scaler %s, fit -stream %s", sa, ss)
	}
	// The three columns are one pattern at three magnitudes: their
	// multipliers are the reciprocals of 1e300, 1e-200 and 1 times one
	// standard deviation, within rounding.
	var mf modelfile.File
	if err := json.Unmarshal([]byte(readFile(t, a)), &mf); err != nil {
		t.Fatal(err)
	}
	m := mf.Scaler.Mul
	if r1, r2 := m[0]*1e300/m[2], m[1]*1e-200/m[2]; math.Abs(r1-1) > 1e-9 || math.Abs(r2-1) > 1e-9 {
		t.Errorf("multipliers %v: ratios %v and %v to the unit column, want 1", m, r1, r2)
	}
}

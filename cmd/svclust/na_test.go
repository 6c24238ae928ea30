package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// naData returns gauss3-like data of 40 rows in three blobs with missing
// values in rows 2 (empty field), 7 (NA) and 30 (NaN), and the same rows
// without them.
func naData() (withNA, without string, dropped []int) {
	var a, b strings.Builder
	a.WriteString("x1,x2\n")
	b.WriteString("x1,x2\n")
	for i := range 40 {
		c := float64(i%3) * 10
		row := strings.Join([]string{ftoa(c + float64(i%5)*0.3), ftoa(c - float64(i%7)*0.2)}, ",")
		switch i {
		case 2:
			row = "," + strings.SplitN(row, ",", 2)[1]
		case 7:
			row = strings.SplitN(row, ",", 2)[0] + ",NA"
		case 30:
			row = "NaN," + strings.SplitN(row, ",", 2)[1]
		default:
			b.WriteString(row + "\n")
		}
		a.WriteString(row + "\n")
	}
	return a.String(), b.String(), []int{2, 7, 30}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TestNADropInPlace checks that with -na drop the rows with a missing value
// are left out of training and written as empty fields (",": a cluster and
// an outlier score) at their own row in every output (fit -o, predict,
// score), the other lines being those of the data without those rows.
func TestNADropInPlace(t *testing.T) {
	t.Parallel()
	withNA, without, dropped := naData()
	dir := t.TempDir()
	na, clean := filepath.Join(dir, "na.csv"), filepath.Join(dir, "clean.csv")
	os.WriteFile(na, []byte(withNA), 0o644)
	os.WriteFile(clean, []byte(without), 0o644)
	p := func(name string) string { return filepath.Join(dir, name) }

	// Plain -na error (the default) names the counts and the flag.
	code, _, stderr := cli(t, "fit", na)
	if code != 1 || !strings.Contains(stderr, `na.csv:4:1: missing value ""; 3 rows have missing values, in 2 columns ("x1", "x2") (-na drop skips those rows)`) {
		t.Errorf("fit without -na drop: exit %d, %q", code, stderr)
	}

	mustCLI(t, "fit", "-na", "drop", "-quiet", "-o", p("na.labels"), "-model", p("na.model"), na)
	mustCLI(t, "fit", "-o", p("clean.labels"), "-model", p("clean.model"), clean)
	mustCLI(t, "score", "-model", p("clean.model"), "-o", p("clean.score"), clean)
	mustCLI(t, "predict", "-na", "drop", "-quiet", "-model", p("na.model"), "-o", p("na.pred"), na)
	mustCLI(t, "score", "-na", "drop", "-quiet", "-model", p("na.model"), "-o", p("na.score"), na)
	for _, out := range []struct{ got, want, header string }{
		{"na.labels", "clean.labels", "cluster,outlier"},
		{"na.pred", "clean.labels", "cluster,outlier"},
		{"na.score", "clean.score", "score,outlier"},
	} {
		got := strings.Split(strings.TrimSuffix(readFile(t, p(out.got)), "\n"), "\n")
		want := strings.Split(strings.TrimSuffix(readFile(t, p(out.want)), "\n"), "\n")
		if len(got) != 41 || got[0] != out.header {
			t.Fatalf("%s: %d lines, header %q; want 41, %q", out.got, len(got), got[0], out.header)
		}
		k := 1
		for i := range 40 {
			line := got[i+1]
			if isDropped := i == dropped[0] || i == dropped[1] || i == dropped[2]; isDropped {
				if line != "," {
					t.Errorf("%s: data row %d (line %d) has a missing value but reads %q, want empty fields", out.got, i, i+2, line)
				}
				continue
			}
			if line != want[k] {
				t.Errorf("%s: data row %d is %q; the data without the missing rows give %q", out.got, i, line, want[k])
			}
			k++
		}
	}

	// fit -stream, whose sample holds every row kept, writes the same
	// labels, empty lines included, and counts the rows dropped.
	mustCLI(t, "fit", "-stream", "-na", "drop", "-quiet", "-o", p("stream.labels"), na)
	if got, want := readFile(t, p("stream.labels")), readFile(t, p("na.labels")); got != want {
		t.Errorf("fit -stream -na drop -o:\n%s\nfit -na drop -o:\n%s", got, want)
	}
	var srep struct {
		Dropped int `json:"dropped"`
	}
	if err := json.Unmarshal([]byte(mustCLI(t, "fit", "-stream", "-na", "drop", "-quiet", "-json", na)), &srep); err != nil || srep.Dropped != 3 {
		t.Errorf("fit -stream -json: dropped %d (%v), want 3", srep.Dropped, err)
	}

	// fit -json says how many rows were dropped; the sizes count the rest.
	var rep struct {
		N       int   `json:"n"`
		Sizes   []int `json:"sizes"`
		Dropped int   `json:"dropped"`
	}
	if err := json.Unmarshal([]byte(mustCLI(t, "fit", "-na", "drop", "-quiet", "-json", na)), &rep); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, s := range rep.Sizes {
		sum += s
	}
	if rep.N != 37 || rep.Dropped != 3 || sum > 37 || len(rep.Sizes) == 0 {
		t.Errorf("fit -json: n %d, dropped %d, sizes %v; want 37, 3 and sizes summing to at most 37", rep.N, rep.Dropped, rep.Sizes)
	}
}

// TestDataHints checks the messages that name the flag that fixes the data.
func TestDataHints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, data string
		args       []string
		code       int
		msg        string // substring of standard error
	}{
		{"id column", "customer_id,x,y\nA-17,1,2\nB-18,2,3\n", nil, 1,
			`in.csv:2:1: not a number: "A-17"; column "customer_id" is not numeric; -drop customer_id to ignore it`},
		{"class column", "kind,x,y\nsetosa,1,2\nversicolor,2,3\n", nil, 1,
			`column "kind" is not numeric; -drop kind to ignore it, or -label kind if it holds the classes`},
		{"name with a space", "customer id,x\nA-17,1\n", nil, 1, `-drop 'customer id' to ignore it`},
		{"decimal comma", "a;b\n1,5;2\n2,5;3\n", nil, 1, `in.csv:2:1: not a number: "1,5"; -decimal , reads a decimal comma`},
		{"blank line", "x,y\n1,2\n\n3,4\n", nil, 1, "in.csv:3: blank line (a row has 2 fields); delete it"},
		{"missing values", "x,y\n1,2\n3,NA\n", nil, 1, `in.csv:3:2: missing value "NA"; 1 row has missing values, in 1 column ("y") (-na drop skips those rows)`},
		{"every row missing", "x,y\n1,\n3,NA\n", []string{"-na", "drop"}, 1, "missing value: every row has one"},
		{"bad -na", "x,y\n1,2\n", []string{"-na", "skip"}, 2, `-na must be error or drop, not "skip"`},
	} {
		in := writeFile(t, "in.csv", tc.data)
		code, _, stderr := cli(t, append(append([]string{"fit"}, tc.args...), in)...)
		stderr = strings.ReplaceAll(stderr, in, "in.csv")
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%s: exit %d, stderr %q; want %d with %q", tc.name, code, stderr, tc.code, tc.msg)
		}
	}
}

// TestLabelLikeWarning checks that a feature named like a label column gets
// a warning naming -label, and that -quiet silences it.
func TestLabelLikeWarning(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "in.csv", "Species,x\n1,2\n2,3\n1,4\n2,5\n1,2.5\n2,3.5\n")
	_, _, stderr := cli(t, "fit", in)
	if !strings.Contains(stderr, `warning: feature "Species" is named like a label column; if it holds the classes, -label Species reads it as the ground truth`) {
		t.Errorf("no warning naming -label: %q", stderr)
	}
	if _, _, stderr := cli(t, "fit", "-quiet", in); stderr != "" {
		t.Errorf("fit -quiet printed %q", stderr)
	}
}

// TestQuiet checks that -quiet leaves standard error empty whatever -o is,
// for fit, predict and score.
func TestQuiet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := writeFile(t, "in.csv", "x1,x2\n0,0\n0.1,0\n0,0.1\n5,5\n5.1,5\n5,5.1\n")
	other := writeFile(t, "other.csv", "a,b\n0,0\n5,5\n")
	model := filepath.Join(dir, "m.json")
	for _, args := range [][]string{
		{"fit", "-quiet", "-o", "-", "-model", model, in},
		{"fit", "-quiet", "-model", "-", in},
		// Columns listed by -features under other names: a warning
		// without -quiet (without -features they are matched by name, and
		// the missing x1 is an error).
		{"predict", "-quiet", "-features", "a,b", "-model", model, other},
		{"score", "-quiet", "-features", "a,b", "-model", model, other},
	} {
		code, stdout, stderr := cli(t, args...)
		if code != 0 || stderr != "" || stdout == "" {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want 0, output, nothing", args, code, len(stdout), stderr)
		}
	}
	if _, _, stderr := cli(t, "predict", "-features", "a,b", "-model", model, other); !strings.Contains(stderr, "warning") {
		t.Errorf("predict without -quiet: no warning for renamed features: %q", stderr)
	}
}

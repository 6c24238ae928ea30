package dataset

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// scanAll reads in with a Scanner and returns the rows, the label texts of
// the rows (nil without a label column), the names and the error.
func scanAll(in string, opt ReadOptions) (x [][]float64, texts, names []string, err error) {
	s, err := NewScanner(strings.NewReader(in), opt)
	if err != nil {
		return nil, nil, nil, err
	}
	for s.Scan() {
		x = append(x, slices.Clone(s.Row()))
		if s.Labelled() {
			texts = append(texts, labelText(s.Classes(), s.Label()))
		} else if s.Label() != -1 {
			return nil, nil, nil, errors.New("Label() != -1 without a label column")
		}
		if s.Rows() != len(x) {
			return nil, nil, nil, errors.New("Rows() does not count the rows")
		}
	}
	return x, texts, s.Names(), s.Err()
}

// labelText returns the text of class l, or "(unlabelled)" for −1.
func labelText(classes []string, l int) string {
	if l < 0 {
		return "(unlabelled)"
	}
	return classes[l]
}

// TestScannerMatchesRead checks that a Scanner accepts what Read accepts,
// with the same rows, label texts and names, and rejects the rest with the
// identical error: both run the same parsing code, and Read's cases are
// reused.
func TestScannerMatchesRead(t *testing.T) {
	for _, tc := range readTests {
		t.Run(tc.name, func(t *testing.T) {
			opt := tc.opt
			opt.Name = "t.csv"
			ds, rerr := Read(strings.NewReader(tc.in), opt)
			x, texts, names, serr := scanAll(tc.in, opt)
			if rerr != nil || serr != nil {
				if rerr == nil || serr == nil || rerr.Error() != serr.Error() {
					t.Fatalf("Read error %v, Scanner error %v", rerr, serr)
				}
				var pe *ParseError
				if !errors.As(serr, &pe) || (tc.err != nil && !errors.Is(serr, tc.err)) {
					t.Errorf("Scanner error %v is not the *ParseError of Read", serr)
				}
				return
			}
			r, _ := ds.X.Dims()
			if len(x) != r {
				t.Fatalf("scanned %d rows, Read %d", len(x), r)
			}
			for i, row := range x {
				if !slices.EqualFunc(row, ds.X.RawRowView(i), func(a, b float64) bool {
					return math.Float64bits(a) == math.Float64bits(b)
				}) {
					t.Errorf("row %d: scanned %v, Read %v", i, row, ds.X.RawRowView(i))
				}
			}
			if !slices.Equal(names, ds.Names) {
				t.Errorf("names %q, Read %q", names, ds.Names)
			}
			var want []string
			for _, l := range ds.Labels {
				want = append(want, labelText(ds.Classes, l))
			}
			if !slices.Equal(texts, want) {
				t.Errorf("label texts %q, Read %q", texts, want)
			}
		})
	}
}

// TestScannerClasses checks the numbering by first appearance and that
// Row is reused and Scan stops after an error.
func TestScannerClasses(t *testing.T) {
	in := "a,label\n1,b\n2,10\n3,b\n4,9\nx,9\n5,b\n"
	s, err := NewScanner(strings.NewReader(in), ReadOptions{Name: "c.csv"})
	if err != nil {
		t.Fatal(err)
	}
	var labels []int
	var first *float64
	for s.Scan() {
		if first == nil {
			first = &s.Row()[0]
		} else if first != &s.Row()[0] {
			t.Error("Row is not reused")
		}
		labels = append(labels, s.Label())
	}
	// b, 10, b, 9: numbered in order of first appearance.
	if want := []int{0, 1, 0, 2}; !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	if want := []string{"b", "10", "9"}; !slices.Equal(s.Classes(), want) {
		t.Errorf("Classes %q, want %q", s.Classes(), want)
	}
	checkParseError(t, s.Err(), ErrNotNumber, "c.csv", 6, 1, `"x"`)
	if s.Line() != 6 || s.Rows() != 4 {
		t.Errorf("Line %d Rows %d after the error, want 6 and 4", s.Line(), s.Rows())
	}
	if s.Scan() {
		t.Error("Scan after an error returned true")
	}
}

func TestScannerHeaderError(t *testing.T) {
	_, err := NewScanner(strings.NewReader("x,y\n1,2\n"), ReadOptions{Name: "h.csv", RequireLabel: true})
	checkParseError(t, err, ErrNoLabel, "h.csv", 1, 0, `"label"`)
}

// TestScannerText checks that Text gives each line as it is in the input,
// without its line end (and the header without its byte order mark), and
// Sep the separator found in the header.
func TestScannerText(t *testing.T) {
	in := "\xef\xbb\xbfa; \"b\";label\r\n 1;2 ;x\r\n\"3\"; 4;\"y;z\"\n5;6;x"
	s, err := NewScanner(strings.NewReader(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(s.Text()), `a; "b";label`; got != want {
		t.Errorf("header Text = %q, want %q", got, want)
	}
	if s.Sep() != ';' {
		t.Errorf("Sep = %q, want ';'", s.Sep())
	}
	want := []string{" 1;2 ;x", `"3"; 4;"y;z"`, "5;6;x"}
	var got []string
	for s.Scan() {
		got = append(got, string(s.Text()))
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Text of the rows = %q, want %q", got, want)
	}
}

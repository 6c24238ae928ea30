package dataset

import (
	"errors"
	"strings"
	"testing"
)

// TestHeaderNotUTF8: a header name that is not UTF-8 (Windows-1252's
// "x1é" is x1\xe9) is refused with ErrEncoding naming the column and the
// byte, not stored as "x1\ufffd" (issue 26: the model then matched no
// column of the same file); valid UTF-8 names are kept byte for byte.
func TestHeaderNotUTF8(t *testing.T) {
	_, err := Read(strings.NewReader("x1\xe9,x2\x96,label\n1,2,a\n"), ReadOptions{Name: "w.csv"})
	var pe *ParseError
	if !errors.Is(err, ErrEncoding) || !errors.As(err, &pe) || pe.Line != 1 || pe.Column != 1 ||
		!strings.Contains(err.Error(), "0xe9") || !strings.Contains(err.Error(), "column 1") {
		t.Errorf("error %v, want ErrEncoding at w.csv:1:1 naming column 1 and byte 0xe9", err)
	}
	_, err = Read(strings.NewReader("x1,\"x2\x96\"\n1,2\n"), ReadOptions{})
	if !errors.Is(err, ErrEncoding) || !strings.Contains(err.Error(), "column 2") {
		t.Errorf("quoted: error %v, want ErrEncoding naming column 2", err)
	}
	ds, err := Read(strings.NewReader("x1é,x2–\n1,2\n"), ReadOptions{})
	if err != nil || ds.Names[0] != "x1é" || ds.Names[1] != "x2–" {
		t.Errorf("UTF-8 names: %v, %q", err, ds.Names)
	}
}

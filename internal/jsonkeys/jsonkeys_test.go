package jsonkeys

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		in  string
		dup string // the named key, "" for no duplicate
		bad bool   // a syntax error
	}{
		{in: `{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}`},
		{in: `{"a":1,"a":2}`, dup: `"a"`},
		{in: `{"model":{"gamma":1,"x":[1,2],"gamma":-1}}`, dup: `"model.gamma"`},
		{in: `{"c":[{"a":1},{"b":1,"b":2}]}`, dup: `"c[].b"`},
		{in: `{"a":{"k":1},"b":{"k":1},"a":0}`, dup: `"a"`},
		{in: `[1,2,{"x":null,"x":true}]`, dup: `"[].x"`},
		{in: `7`},
		{in: `{"a":`, bad: true},
		{in: "\x9f{", bad: true},
		{in: ``, bad: true},
	} {
		err := Check(strings.NewReader(tc.in))
		switch {
		case tc.dup != "":
			if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), tc.dup) {
				t.Errorf("%s: %v, want a duplicate %s", tc.in, err, tc.dup)
			}
		case tc.bad:
			if err == nil || errors.Is(err, ErrDuplicate) {
				t.Errorf("%s: %v, want a syntax error", tc.in, err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.in, err)
		}
	}
}

// TestCheckStopsEarly: Check reads no further than the value, up to the
// decoder's buffer, and fails at the first invalid byte of an endless
// stream.
func TestCheckStopsEarly(t *testing.T) {
	r := &countReader{b: '\x01'}
	if err := Check(r); err == nil {
		t.Fatal("no error for an endless stream of 0x01")
	}
	if r.n > 1<<16 {
		t.Errorf("read %d bytes before failing", r.n)
	}
}

// countReader returns the byte b forever and counts what it returned.
type countReader struct {
	b byte
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = c.b
	}
	c.n += len(p)
	return len(p), nil
}

// TestDepth: nesting to MaxDepth is accepted, one level more is ErrDepth.
func TestDepth(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if err := Check(strings.NewReader(ok)); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
	deep := strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)
	if err := Check(strings.NewReader(deep)); !errors.Is(err, ErrDepth) {
		t.Errorf("depth %d: %v, want ErrDepth", MaxDepth+1, err)
	}
}

package jsonkeys

import (
	"errors"
	"fmt"
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

// doc is a document of nested objects, as encoding/json decodes it.
type doc struct {
	Name  string            `json:"name"`
	Inner *inner            `json:"inner"`
	List  []inner           `json:"list"`
	Map   map[string]inner  `json:"map"`
	Any   any               `json:"any"`
	Plain int               // no tag: its Go name is its key
	Skip  int               `json:"-"`
	Opt   float64           `json:"opt,omitempty"`
	Raw   map[string]string `json:"raw"`
}

type inner struct {
	Gamma float64 `json:"gamma"`
	Deep  *struct {
		Q int `json:"q"`
	} `json:"deep"`
}

// TestCheckFields: a key that matches a field of the type only when case
// is ignored (which encoding/json accepts, silently setting the field) is
// refused at every level, naming the key and the field; exact keys, keys
// of maps and of free values, and keys of no field (which the decoder's
// DisallowUnknownFields refuses) pass.
func TestCheckFields(t *testing.T) {
	f := FieldsOf(doc{})
	for _, tc := range []struct {
		in    string
		key   string // the refused key's path, "" if none
		field string // the field it resembles
	}{
		{in: `{"name":"a","inner":{"gamma":1,"deep":{"q":2}},"list":[{"gamma":1}],"Plain":3,"opt":1}`},
		{in: `{"map":{"Gamma":{"gamma":1}},"any":{"Name":1},"raw":{"NAME":"x"}}`},
		{in: `{"unknown":{"Name":1},"extra":1}`},
		{in: `{"name":"a","Name":"b"}`, key: "Name", field: "name"},
		{in: `{"NAME":null}`, key: "NAME", field: "name"},
		{in: `{"plain":1}`, key: "plain", field: "Plain"},
		{in: `{"inner":{"gamma":1,"GAMMA":2}}`, key: "inner.GAMMA", field: "gamma"},
		{in: `{"inner":{"deep":{"Q":2}}}`, key: "inner.deep.Q", field: "q"},
		{in: `{"list":[{"gamma":1},{"Gamma":2}]}`, key: "list[].Gamma", field: "gamma"},
		{in: `{"map":{"k":{"Deep":null}}}`, key: "map.k.Deep", field: "deep"},
		{in: `{"Opt":1}`, key: "Opt", field: "opt"},
		{in: `{"ſkip":1,"name":"x","nameſ":1,"ſame":1,"nAme":1}`, key: "nAme", field: "name"},
		{in: `{"inner":{"deep":null,"DEEP":null}}`, key: "inner.DEEP", field: "deep"},
		{in: `{"inner":{"gamma":1},"Inner":{"gamma":2}}`, key: "Inner", field: "inner"},
	} {
		err := CheckFields(strings.NewReader(tc.in), f)
		switch {
		case tc.key == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.key != "" && (!errors.Is(err, ErrCase) || !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.key)) ||
			!strings.Contains(err.Error(), fmt.Sprintf("%q", tc.field))):
			t.Errorf("%s: %v, want ErrCase naming %q and %q", tc.in, err, tc.key, tc.field)
		}
	}
	// The long s and the Kelvin sign fold to s and k, as encoding/json
	// folds them.
	type sk struct {
		S int `json:"scale"`
		K int `json:"kappa"`
	}
	for _, in := range []string{`{"ſcale":1}`, `{"\u212Aappa":1}`} {
		if err := CheckFields(strings.NewReader(in), FieldsOf(sk{})); !errors.Is(err, ErrCase) {
			t.Errorf("%s: %v, want ErrCase", in, err)
		}
	}
	// Check is CheckFields without fields: duplicates only.
	if err := Check(strings.NewReader(`{"name":1,"Name":2}`)); err != nil {
		t.Errorf("Check: %v", err)
	}
	if err := CheckFields(strings.NewReader(`{"name":1,"name":2}`), f); !errors.Is(err, ErrDuplicate) {
		t.Errorf("CheckFields, duplicate: %v", err)
	}
}

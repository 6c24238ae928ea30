// Package jsonkeys finds the duplicate object keys that encoding/json
// accepts silently, the last one winning, so that a file cannot hide a
// second value of a key after the one a reader sees first.
package jsonkeys

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrDuplicate is wrapped by the error of Check for a key that occurs twice
// in one object.
var ErrDuplicate = errors.New("duplicate key")

// ErrDepth is wrapped by the error of Check for objects and arrays nested
// deeper than MaxDepth.
var ErrDepth = errors.New("nested too deeply")

// MaxDepth is the deepest nesting of objects and arrays that Check
// accepts. A model file nests 4 deep (file, model, sv, row); a file of a
// million '[' once made the reader consume 337 MB and 10 s before it
// failed. Check stops at the first value past this depth, having read
// about MaxDepth bytes: so far and no further.
const MaxDepth = 10_000

// frame is one open object or array.
type frame struct {
	obj     bool
	wantKey bool                // the next token of this object is a key
	keys    map[string]struct{} // the keys seen so far in this object
	name    string              // the key of the value being read
}

// Check reads one JSON value from r, token by token, so that it stops at
// the first syntax error and holds only the keys of the objects open at a
// time, and returns an error wrapping ErrDuplicate that names the first key
// occurring twice in one object, with the keys leading to it (such as
// "model.gamma"), or the syntax error, and an error wrapping ErrDepth at
// the first object or array nested deeper than MaxDepth. It does not look
// past the value.
func Check(r io.Reader) error {
	dec := json.NewDecoder(r)
	dec.UseNumber() // numbers are not converted, only scanned
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return nil
			}
			continue
		}
		if top != nil && top.obj && top.wantKey {
			key := tok.(string) // the decoder allows nothing else here
			if _, dup := top.keys[key]; dup {
				return fmt.Errorf("%w %q", ErrDuplicate, path(stack, key))
			}
			top.keys[key] = struct{}{}
			top.name, top.wantKey = key, false
			continue
		}
		if top != nil && top.obj {
			top.wantKey = true // after this value, whatever its size
		}
		if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') && len(stack) >= MaxDepth {
			return fmt.Errorf("%w: more than %d objects and arrays inside each other", ErrDepth, MaxDepth)
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, wantKey: true, keys: map[string]struct{}{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		default:
			if len(stack) == 0 {
				return nil // a lone scalar
			}
		}
	}
}

// path returns the keys of the open objects and key, joined by dots;
// arrays contribute "[]".
func path(stack []*frame, key string) string {
	var parts []string
	for _, f := range stack[:len(stack)-1] {
		if f.obj {
			parts = append(parts, f.name)
		} else {
			parts = append(parts, "[]")
		}
	}
	return strings.ReplaceAll(strings.Join(append(parts, key), "."), ".[]", "[]")
}

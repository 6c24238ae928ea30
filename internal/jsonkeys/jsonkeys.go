// Package jsonkeys finds the object keys that encoding/json accepts
// silently: duplicate keys, the last one winning, so that a file cannot
// hide a second value of a key after the one a reader sees first, and
// keys that match a struct field only when case is ignored, which
// encoding/json decodes into that field as if they were its name.
package jsonkeys

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// ErrDuplicate is wrapped by the error of Check for a key that occurs twice
// in one object.
var ErrDuplicate = errors.New("duplicate key")

// ErrCase is wrapped by the error of CheckFields for a key that is not
// the name of a field of the object but equals one when case is ignored.
var ErrCase = errors.New("key differs from a field only in case")

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
	fields  *Fields             // the fields of this object or of this array's elements; nil: any keys
}

// Check reads one JSON value from r, token by token, so that it stops at
// the first syntax error and holds only the keys of the objects open at a
// time, and returns an error wrapping ErrDuplicate that names the first key
// occurring twice in one object, with the keys leading to it (such as
// "model.gamma"), or the syntax error, and an error wrapping ErrDepth at
// the first object or array nested deeper than MaxDepth. It does not look
// past the value.
func Check(r io.Reader) error { return CheckFields(r, nil) }

// CheckFields is Check that also returns an error wrapping ErrCase, naming
// the key with the keys leading to it and the field it resembles, for the
// first key of an object decoded into a struct (as fields, from FieldsOf,
// describes it) that is not the JSON name of one of its fields but equals
// one under the case folding of encoding/json (strings.EqualFold: "Gamma",
// "GAMMA" and "ſcale" for "gamma" and "scale"). Keys of maps and of values
// of interface type, and keys of no field at all (which a decoder with
// DisallowUnknownFields refuses), pass. A nil fields checks duplicates
// only. Its cost is that of Check: one pass over the tokens, holding the
// keys of the objects open at a time.
func CheckFields(r io.Reader, fields *Fields) error {
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
			if f := top.fields; f != nil && f.kind == structKind {
				if _, ok := f.names[key]; !ok {
					for name := range f.names {
						if strings.EqualFold(key, name) {
							return fmt.Errorf("%w: %q, the field is %q", ErrCase, path(stack, key), name)
						}
					}
				}
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
			stack = append(stack, &frame{obj: true, wantKey: true, keys: map[string]struct{}{}, fields: valueFields(fields, top)})
		case json.Delim('['):
			f := valueFields(fields, top)
			if f != nil && f.kind == arrayKind {
				f = f.elem
			} else {
				f = nil
			}
			stack = append(stack, &frame{fields: f})
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

// Fields describes the keys that encoding/json decodes into the fields of
// a Go type, at every level of the value: see FieldsOf.
type Fields struct {
	kind  int
	names map[string]*Fields // structKind: the JSON name of each field, and its type's Fields
	elem  *Fields            // arrayKind and mapKind: the elements' Fields
}

// The kinds of Fields: a struct, a slice or array, a map, and anything
// else (whose objects, if any, may hold any keys).
const (
	anyKind = iota
	structKind
	arrayKind
	mapKind
)

// FieldsOf returns the Fields of the type of v, as encoding/json decodes a
// value into it: the JSON names of a struct's exported fields (the name of
// the json tag, or the Go name without one; "-" has none), through
// pointers, slices, arrays, maps and the fields of embedded structs
// without a tag. A type that implements json.Unmarshaler or
// encoding.TextUnmarshaler decodes itself: its keys are not checked.
func FieldsOf(v any) *Fields {
	return fieldsOf(reflect.TypeOf(v), map[reflect.Type]*Fields{})
}

var (
	unmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
)

func fieldsOf(t reflect.Type, seen map[reflect.Type]*Fields) *Fields {
	if t == nil {
		return &Fields{}
	}
	if f, ok := seen[t]; ok {
		return f
	}
	f := &Fields{}
	seen[t] = f
	if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return f
	}
	switch t.Kind() {
	case reflect.Pointer:
		*f = *fieldsOf(t.Elem(), seen)
	case reflect.Slice, reflect.Array:
		f.kind, f.elem = arrayKind, fieldsOf(t.Elem(), seen)
	case reflect.Map:
		f.kind, f.elem = mapKind, fieldsOf(t.Elem(), seen)
	case reflect.Struct:
		f.kind, f.names = structKind, map[string]*Fields{}
		addFields(f, t, seen)
	}
	return f
}

// addFields adds the fields of the struct type t to f.
func addFields(f *Fields, t reflect.Type, seen map[reflect.Type]*Fields) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				addFields(f, et, seen)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if _, ok := f.names[name]; !ok {
			f.names[name] = fieldsOf(sf.Type, seen)
		}
	}
}

// valueFields returns the Fields of the value about to be read: fields
// itself at the top, and otherwise that of the key being read in the
// object top, or of the elements of the array top. It is nil where the
// keys are not checked.
func valueFields(fields *Fields, top *frame) *Fields {
	if top == nil {
		return fields
	}
	f := top.fields
	if f == nil {
		return nil
	}
	switch {
	case !top.obj:
		return f // an array frame holds its elements' Fields
	case f.kind == structKind:
		return f.names[top.name] // nil for a key of no field
	case f.kind == mapKind:
		return f.elem
	}
	return nil
}

package modelfile

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzRead: reading any bytes as a model file never panics, and a file
// that loads has no key twice in one object (its objects hold as many keys
// as encoding/json keeps of them), a scaler and feature names of the
// model's dimension, saves to a file that loads to the same bytes again,
// and scores small finite data without NaN.
func FuzzRead(f *testing.F) {
	m, _ := fitted(f, 60)
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		f.Fatal(err)
	}
	good := buf.Bytes()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":"svclust-cli-model","version":1}`))
	// Duplicate keys at each level (issue 13), and keys that differ from a
	// field only in case (issue 34): each must be rejected.
	for _, dup := range [][2]string{
		{`"scale":`, `"scale":"none","scale":`},
		{`"mul":`, `"mul":[1,1],"mul":`},
		{`"gamma":`, `"gamma":-1,"gamma":`},
		{`"gamma":`, `"gamma":1,"gamma":`},
		{`"iterations":`, `"iterations":0,"iterations":`},
		{`"clusters":`, `"clusters":1,"clusters":`},
		{`"scaler":`, `"Scaler":{"shift":[0,0],"mul":[1,1]},"scaler":`},
		{`"gamma":`, `"GAMMA":1,"gamma":`},
	} {
		b := bytes.Replace(good, []byte(dup[0]), []byte(dup[1]), 1)
		if bytes.Equal(b, good) {
			f.Fatalf("the model file has no %s", dup[0])
		}
		if _, err := Read(bytes.NewReader(b), 0); err == nil {
			f.Errorf("a second %s was accepted", dup[0])
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		mf, err := Read(bytes.NewReader(in), 0)
		if err != nil {
			return
		}
		var generic any
		if err := json.Unmarshal(in, &generic); err != nil {
			t.Fatalf("a loaded model file is not JSON: %v", err)
		}
		if a, b := keyTokens(in), keysOf(generic); a != b {
			t.Fatalf("%d keys in the file, %d once decoded: a key occurs twice", a, b)
		}
		d := mf.Model.Dim()
		if len(mf.Scaler.Shift) != d || len(mf.Scaler.Mul) != d || (mf.Features != nil && len(mf.Features) != d) {
			t.Fatalf("dimension %d, scaler %d/%d, %d features", d, len(mf.Scaler.Shift), len(mf.Scaler.Mul), len(mf.Features))
		}
		var saved bytes.Buffer
		if err := mf.Write(&saved); err != nil {
			t.Fatalf("a loaded model file does not save: %v", err)
		}
		again, err := Read(bytes.NewReader(saved.Bytes()), 0)
		if err != nil {
			t.Fatalf("a saved model file does not load: %v", err)
		}
		var twice bytes.Buffer
		if err := again.Write(&twice); err != nil || !bytes.Equal(saved.Bytes(), twice.Bytes()) {
			t.Fatalf("save, load, save is not stable (%v)", err)
		}
		x := mat.NewDense(2, d, nil)
		for j := range d {
			x.Set(1, j, float64(j%5))
		}
		for _, v := range mf.Model.Score(nil, x, 1) {
			if math.IsNaN(v) {
				t.Fatal("score NaN")
			}
		}
	})
}

// keyTokens counts the object keys of the JSON text b, token by token.
func keyTokens(b []byte) int {
	dec := json.NewDecoder(bytes.NewReader(b))
	var inObj []bool // for each open container, whether it is an object
	n, key := 0, false
	for {
		tok, err := dec.Token()
		if err != nil {
			return n
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			inObj = inObj[:len(inObj)-1]
			key = len(inObj) > 0 && inObj[len(inObj)-1]
			continue
		}
		if key {
			n++
			key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			inObj = append(inObj, true)
			key = true
		case json.Delim('['):
			inObj = append(inObj, false)
		default:
			key = len(inObj) > 0 && inObj[len(inObj)-1]
		}
	}
}

// keysOf counts the keys of the objects in v, as encoding/json decodes
// them into maps.
func keysOf(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			n += 1 + keysOf(x)
		}
	case []any:
		for _, x := range v {
			n += keysOf(x)
		}
	}
	return n
}

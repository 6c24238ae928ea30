package modelfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svclust/svclust/internal/jsonkeys"
)

// TestCaseVariantKeys: a key that matches a field only when case is
// ignored, which encoding/json would accept (issue 34: "Scaler" appended
// after "scaler" changed 142 of 300 labels; "PARTITION": null gave a
// misleading error), is refused at every level of a model file with
// ErrFormat, naming the key and the field it resembles.
func TestCaseVariantKeys(t *testing.T) {
	_, good := recorded(t)
	_, projected := projectedFile(t)
	old, err := os.ReadFile(filepath.Join("testdata", "old", "cli1-lib1-components.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, in, old, new, key, field string
	}{
		{"top, appended", string(good), "}}\n", `},"Scaler":{"shift":[0,0],"mul":[1,1]}}`, "Scaler", "scaler"},
		{"partition null", string(good), "}}\n", `},"PARTITION":null}`, "PARTITION", "partition"},
		{"long s", string(good), `"scale":`, `"ſcale":"none","scale":`, "ſcale", "scale"},
		{"scaler", string(good), `"mul":`, `"Mul":[1,1],"mul":`, "scaler.Mul", "mul"},
		{"run", string(good), `"rows":60`, `"rows":60,"Rows":61`, "run.Rows", "rows"},
		{"model", string(good), `"model":{`, `"model":{"Gamma":1,`, "model.Gamma", "gamma"},
		{"stats", string(good), `"iterations":`, `"Iterations":0,"iterations":`, "model.stats.Iterations", "iterations"},
		{"choice", string(good), `"gamma_auto":`, `"GAMMA_AUTO":false,"gamma_auto":`, "model.choice.GAMMA_AUTO", "gamma_auto"},
		{"partition", string(good), `"birth":`, `"Birth":[1],"birth":`, "partition.Birth", "birth"},
		{"subspace", projected, `"basis":`, `"Basis":[],"basis":`, "model.subspace.Basis", "basis"},
		{"cli model", string(old), `"model":{`, `"model":{"Partition":null,`, "model.Partition", "partition"},
	} {
		in := strings.Replace(c.in, c.old, c.new, 1)
		if in == c.in {
			t.Errorf("%s: the file has no %q", c.name, c.old)
			continue
		}
		_, err := Read(strings.NewReader(in), 0)
		if !errors.Is(err, ErrFormat) || !errors.Is(err, jsonkeys.ErrCase) ||
			!strings.Contains(err.Error(), `"`+c.key+`"`) || !strings.Contains(err.Error(), `"`+c.field+`"`) {
			t.Errorf("%s: %v, want ErrFormat naming %q and %q", c.name, err, c.key, c.field)
		}
	}
	if _, err := Read(strings.NewReader(projected), 0); err != nil {
		t.Errorf("the projected file: %v", err)
	}
}

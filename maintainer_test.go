package svclust

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseMaintainer: every name parses to the strategy MaintainerName
// names back, the k of a projection is kept, and the errors name the fault.
func TestParseMaintainer(t *testing.T) {
	want := map[string]Maintainer{
		"removal":        Removal{},
		"project-knn":    Projection{K: 3, Pick: Nearest},
		"project-random": Projection{K: 3, Pick: Random},
		"merge":          Merge{},
	}
	names := MaintainerNames()
	if len(names) != len(want) {
		t.Fatalf("names %v", names)
	}
	for _, name := range names {
		k := 0
		if strings.HasPrefix(name, "project") {
			k = 3
		}
		m, err := ParseMaintainer(name, k)
		if err != nil || m != want[name] {
			t.Errorf("%s: %#v, %v; want %#v", name, m, err, want[name])
		}
		if got := MaintainerName(m); got != name {
			t.Errorf("MaintainerName(%#v) = %q, want %q", m, got, name)
		}
	}
	if p, err := ParseMaintainer("project-knn", 0); err != nil || p != (Projection{}) {
		t.Errorf("project-knn with k 0: %#v, %v; want the zero Projection (DefaultK nearest)", p, err)
	}
	for _, c := range []struct {
		name string
		k    int
		msg  string
	}{
		{"Merge", 0, `unknown budget maintenance "Merge" (want removal, project-knn, project-random or merge)`},
		{"merge", 2, "k = 2 applies only to project-knn and project-random, not merge"},
		{"project-random", -1, "must be ≥ 1"},
	} {
		if _, err := ParseMaintainer(c.name, c.k); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s, k %d: error %v, want %q", c.name, c.k, err, c.msg)
		}
	}
	if MaintainerName(nil) != "" || MaintainerName(&Projection{Pick: Random}) != "project-random" || MaintainerName(&Merge{}) != "merge" {
		t.Error("MaintainerName of nil or of pointers")
	}
}

// A strategy from its name, as the -maintain flag of svclust fit gives it.
func ExampleParseMaintainer() {
	m, err := ParseMaintainer("project-random", 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%#v %s\n", m, MaintainerName(m))
	_, err = ParseMaintainer("projection", 0)
	fmt.Println(err)
	// Output:
	// svclust.Projection{K:3, Pick:1} project-random
	// svclust: unknown budget maintenance "projection" (want removal, project-knn, project-random or merge)
}

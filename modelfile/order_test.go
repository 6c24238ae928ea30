package modelfile

import (
	"errors"
	"slices"
	"testing"

	"github.com/svclust/svclust/dataset"
)

// TestOrder: the columns of data are matched to the model's features by
// name, whatever their order; a missing or extra name is a *ColumnError
// naming it, a repeated one an ErrColumnName; a model without names
// matches by position.
func TestOrder(t *testing.T) {
	m, _ := fitted(t, 60) // features x1, x2
	if !slices.Equal(m.Features, []string{"x1", "x2"}) {
		t.Fatalf("features %q", m.Features)
	}
	for _, c := range []struct {
		names []string
		want  []int
		err   error
	}{
		{[]string{"x1", "x2"}, []int{0, 1}, nil},
		{[]string{"x2", "x1"}, []int{1, 0}, nil},
		{[]string{"x1"}, nil, &ColumnError{Missing: "x2"}},
		{[]string{"x2", "y", "x1"}, nil, &ColumnError{Extra: "y"}},
		{[]string{"a", "b"}, nil, &ColumnError{Missing: "x1"}},
		{[]string{"x1", "x1", "x2"}, nil, dataset.ErrColumnName},
	} {
		got, err := m.Order(c.names)
		var ce, wce *ColumnError
		switch {
		case c.err == nil && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("%q: %v, %v; want %v", c.names, got, err, c.want)
		case errors.As(c.err, &wce) && (!errors.As(err, &ce) || *ce != *wce):
			t.Errorf("%q: error %v, want %v", c.names, err, c.err)
		case c.err != nil && wce == nil && !errors.Is(err, c.err):
			t.Errorf("%q: error %v, want %v", c.names, err, c.err)
		}
	}
	anon := *m
	anon.Features = nil
	if got, err := anon.Order([]string{"b", "a"}); err != nil || !slices.Equal(got, []int{0, 1}) {
		t.Errorf("no names: %v, %v; want by position", got, err)
	}
	var de *DimError
	if _, err := anon.Order([]string{"a"}); !errors.As(err, &de) {
		t.Errorf("no names, one column: %v, want a *DimError", err)
	}
}

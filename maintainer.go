package svclust

import (
	"fmt"
	"strings"
)

// Maintainer is a budget-maintenance strategy (the paper's BM in
// Algorithm 2). Maintain is called when the support set holds one support
// vector more than the budget; it must leave at most the budget, by calling
// [SupportSet.Remove] and, if it redistributes weight, [SupportSet.AddCoef]
// or [SupportSet.Add]. Train records every change, so the stopping rule
// stays exact for any strategy.
type Maintainer interface {
	Maintain(s *SupportSet)
}

// maintainerNames is the one table of the names of the budget-maintenance
// strategies of this package, as [ParseMaintainer] reads them and
// [MaintainerName] writes them.
var maintainerNames = [...]struct {
	name string
	m    Maintainer
}{
	{"removal", Removal{}},
	{"project-knn", Projection{Pick: Nearest}},
	{"project-random", Projection{Pick: Random}},
	{"merge", Merge{}},
}

// MaintainerNames returns the names [ParseMaintainer] accepts, in the order
// removal, project-knn, project-random, merge.
func MaintainerNames() []string {
	names := make([]string, len(maintainerNames))
	for i, e := range maintainerNames {
		names[i] = e.name
	}
	return names
}

// ParseMaintainer returns the budget maintenance named name: "removal"
// ([Removal]), "project-knn" ([Projection] onto the k nearest support
// vectors), "project-random" (Projection onto k random ones) or "merge"
// ([Merge]). k is the K of a projection, 0 for [DefaultK]; it must not be
// negative, and must be 0 for the strategies that are not projections.
func ParseMaintainer(name string, k int) (Maintainer, error) {
	for _, e := range maintainerNames {
		if e.name != name {
			continue
		}
		p, proj := e.m.(Projection)
		switch {
		case k < 0:
			return nil, fmt.Errorf("svclust: k = %d of %s: must be ≥ 1 (0 selects the default)", k, name)
		case proj:
			p.K = k
			return p, nil
		case k != 0:
			return nil, fmt.Errorf("svclust: k = %d applies only to project-knn and project-random, not %s", k, name)
		}
		return e.m, nil
	}
	return nil, fmt.Errorf("svclust: unknown budget maintenance %q (want %s)", name, orList(MaintainerNames()))
}

// MaintainerName returns the name of m that [ParseMaintainer] reads (the
// K of a projection aside), or "" if m is nil or not one of this package's
// strategies.
func MaintainerName(m Maintainer) string {
	switch v := m.(type) {
	case Removal, *Removal:
		return "removal"
	case Merge, *Merge:
		return "merge"
	case *Projection:
		if v == nil {
			return ""
		}
		m = *v
	}
	if p, ok := m.(Projection); ok {
		switch p.Pick {
		case Nearest:
			return "project-knn"
		case Random:
			return "project-random"
		}
	}
	return ""
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

package cluster

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// check validates t as the data of a LevelTree of a model with nsv support
// vectors.
func (t *LevelTreeData) check(nsv int) error {
	if t.M < 2 || t.M > MaxM {
		return fmt.Errorf("cluster: m = %d: must be in [2, %d]", t.M, MaxM)
	}
	k := len(t.Birth)
	if k < 1 || k > nsv {
		return fmt.Errorf("cluster: clusters = %d: must be in [1, %d], the support vectors", k, nsv)
	}
	if len(t.SVCluster) != nsv {
		return fmt.Errorf("cluster: %d support-vector clusters for %d support vectors", len(t.SVCluster), nsv)
	}
	used := make([]bool, k)
	for _, c := range t.SVCluster {
		if c < 0 || c >= k {
			return fmt.Errorf("cluster: cluster %d outside [0, %d)", c, k)
		}
		used[c] = true
	}
	// Every cluster holds a support vector: one that holds none could
	// never be predicted, and its count would be a lie.
	for c, u := range used {
		if !u {
			return fmt.Errorf("cluster: cluster %d of %d holds no support vector", c, k)
		}
	}
	for _, b := range t.Birth {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return fmt.Errorf("cluster: birth level %v is not finite", b)
		}
	}
	return nil
}

// check validates g as the data of a Graph of a model of dimension d.
func (g *GraphData) check(d int) error {
	if math.IsNaN(g.Eps) || math.IsInf(g.Eps, 0) || g.Eps < 0 {
		return fmt.Errorf("cluster: eps = %v: must be ≥ 0 and finite", g.Eps)
	}
	if g.M < 2 || g.M > MaxM {
		return fmt.Errorf("cluster: m = %d: must be in [2, %d]", g.M, MaxM)
	}
	if g.Clusters < 1 {
		return fmt.Errorf("cluster: clusters = %d: must be ≥ 1", g.Clusters)
	}
	if err := checkRows("equilibria", g.Equilibria, d); err != nil {
		return err
	}
	neq := rows(g.Equilibria)
	if neq == 0 {
		return fmt.Errorf("cluster: no equilibria")
	}
	if g.Clusters > neq {
		// Every cluster holds at least one equilibrium.
		return fmt.Errorf("cluster: clusters = %d: more than the %d equilibria", g.Clusters, neq)
	}
	if len(g.EquilibriumCluster) != neq {
		return fmt.Errorf("cluster: %d equilibrium clusters for %d equilibria", len(g.EquilibriumCluster), neq)
	}
	if g.Anchors < 0 || g.Anchors > neq {
		return fmt.Errorf("cluster: anchors = %d: outside [0, %d]", g.Anchors, neq)
	}
	if err := checkRows("strip", g.Strip, d); err != nil {
		return err
	}
	nstrip := rows(g.Strip)
	if len(g.StripCluster) != nstrip {
		return fmt.Errorf("cluster: %d strip clusters for %d strip points", len(g.StripCluster), nstrip)
	}
	switch {
	case g.All && nstrip > 0:
		return fmt.Errorf("cluster: strip must be empty when all is set")
	case !g.All && nstrip == 0:
		return fmt.Errorf("cluster: no strip points")
	}
	for _, ids := range [][]int{g.EquilibriumCluster, g.StripCluster} {
		for _, c := range ids {
			if c < 0 || c >= g.Clusters {
				return fmt.Errorf("cluster: cluster %d outside [0, %d)", c, g.Clusters)
			}
		}
	}
	used := make([]bool, g.Clusters)
	for _, c := range g.EquilibriumCluster {
		used[c] = true
	}
	for c, u := range used {
		if !u {
			return fmt.Errorf("cluster: cluster %d of %d holds no equilibrium", c, g.Clusters)
		}
	}
	return nil
}

// rows returns the number of rows of a, 0 for nil.
func rows(a *mat.Dense) int {
	if a == nil {
		return 0
	}
	r, _ := a.Dims()
	return r
}

// checkRows checks that a, if not nil, is compact, has d columns and
// finite values.
func checkRows(name string, a *mat.Dense, d int) error {
	if a == nil {
		return nil
	}
	raw := a.RawMatrix()
	if raw.Cols != d {
		return fmt.Errorf("cluster: %s rows have %d values, want %d", name, raw.Cols, d)
	}
	if raw.Stride != raw.Cols {
		return fmt.Errorf("cluster: %s must be a compact matrix (stride = columns)", name)
	}
	for k, v := range raw.Data[:raw.Rows*raw.Cols] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("cluster: %s row %d, column %d: %v is not finite", name, k/d, k%d, v)
		}
	}
	return nil
}

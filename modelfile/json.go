package modelfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/cluster"
)

// modelJSON is the "model" of a model file: the phase-1 model. The keys
// "format", "version", "c_auto" and "partition" belong to the library file
// (nested in the command's files of versions 1 and 2, or bare), and
// "choice" to version 5.
type modelJSON struct {
	Format    string         `json:"format"`
	Version   int            `json:"version"`
	Gamma     float64        `json:"gamma"`
	C         float64        `json:"c"`
	CAuto     *bool          `json:"c_auto"`
	Dim       int            `json:"dim"`
	SV        matrixJSON     `json:"sv"`
	Alpha     []float64      `json:"alpha"`
	Gammas    []float64      `json:"gammas"`
	Subspace  *subspaceJSON  `json:"subspace"`
	Status    string         `json:"status"`
	Stats     *statsJSON     `json:"stats"`
	Choice    *choiceJSON    `json:"choice"`
	Training  *trainingJSON  `json:"training"` // version 8 (training.go)
	Partition *partitionJSON `json:"partition"`
}

type statsJSON struct {
	Iterations    int     `json:"iterations"`
	Updates       int     `json:"updates"`
	Maintenance   int     `json:"maintenance"`
	Objective     float64 `json:"objective"`
	ObjectiveRows int     `json:"objective_rows,omitempty"`
}

// choiceJSON is auto.Choice, which the Levels rule reads (whether C was
// automatic) and which reports how the model's settings were chosen.
type choiceJSON struct {
	Gamma       float64 `json:"gamma"`
	C           float64 `json:"c"`
	Budget      int     `json:"budget"`
	GammaAuto   bool    `json:"gamma_auto"`
	CAuto       bool    `json:"c_auto"`
	BudgetAuto  bool    `json:"budget_auto"`
	Sample      int     `json:"sample"`
	Rho         float64 `json:"rho"`
	Cover       int     `json:"cover"`
	KappaMax    float64 `json:"kappa_max"`
	Scale       float64 `json:"scale"`
	RhoWidth    float64 `json:"rho_width"`
	Adaptive    bool    `json:"adaptive"`
	Narrowed    int     `json:"narrowed"`
	WidthMin    float64 `json:"width_min"`
	WidthMedian float64 `json:"width_median"`
	// The subspace rule's statistics, from version 6; absent when it was
	// not measured.
	Concentration    float64 `json:"concentration,omitempty"`
	ConcentrationMax float64 `json:"concentration_max,omitempty"`
	IntrinsicDim     float64 `json:"intrinsic_dim,omitempty"`
	Projected        bool    `json:"projected,omitempty"`
	Q                int     `json:"q,omitempty"`
	Edge             float64 `json:"edge,omitempty"`
	EigenKept        float64 `json:"eigen_kept,omitempty"`
	EigenNext        float64 `json:"eigen_next,omitempty"`
	Silverman        float64 `json:"silverman,omitempty"`
	MinIter          int     `json:"min_iter,omitempty"`
	// ConcentrationScaled (version 6) is absent when the sample had
	// 2,000 rows, and from files written before it was measured.
	ConcentrationScaled float64 `json:"concentration_scaled,omitempty"`
}

// subspaceJSON is auto.Subspace (version 6): the mean and one row per
// direction.
type subspaceJSON struct {
	Mean  []float64  `json:"mean"`
	Basis matrixJSON `json:"basis"`
}

// partitionJSON is the "partition" of a model file, of either rule: the
// levels rule writes "rule", "sv_cluster", "birth", "outliers", "m" and
// "clusters"; the components rule the others. Files before version 5
// wrote every key for both rules, empty where the rule has none, and
// version 1 no rule (the components rule).
type partitionJSON struct {
	Rule               string     `json:"rule"`
	SVCluster          []int      `json:"sv_cluster"`
	Birth              []float64  `json:"birth"`
	Eps                float64    `json:"eps"`
	All                bool       `json:"all"`
	Outliers           bool       `json:"outliers"`
	M                  int        `json:"m"`
	Clusters           int        `json:"clusters"`
	Equilibria         matrixJSON `json:"equilibria"`
	EquilibriumCluster []int      `json:"equilibrium_cluster"`
	Anchors            int        `json:"anchors"`
	Strip              matrixJSON `json:"strip"`
	StripCluster       []int      `json:"strip_cluster"`
	// The outlier data (cluster.OutlierData), of either rule, absent in
	// a partition without it; the components rule then also writes
	// "sv_cluster". Version 6 holds the depth score's peaks; version 7
	// the whole-space score's mass, radii, centre and spread, or the peaks of a
	// version-6 partition written again.
	OutlierPeak      []float64 `json:"outlier_peak,omitempty"`
	OutlierMass      float64   `json:"outlier_mass,omitempty"`
	OutlierRadius    []float64 `json:"outlier_radius,omitempty"`
	OutlierCenter    []float64 `json:"outlier_center,omitempty"`
	OutlierSpread    []float64 `json:"outlier_spread,omitempty"`
	OutlierFence     float64   `json:"outlier_fence"`
	OutlierThreshold float64   `json:"outlier_threshold"`
}

// outlierForm sets the outlier keys of pj from o (nil: none).
func (pj *partitionJSON) outlierForm(o *cluster.OutlierData) {
	if o != nil {
		pj.OutlierPeak, pj.OutlierFence, pj.OutlierThreshold = o.Peak, o.Fence, o.Threshold
		pj.OutlierMass, pj.OutlierRadius, pj.OutlierCenter, pj.OutlierSpread = o.Mass, o.Radius, o.Center, o.Spread
	}
}

// outlier returns the outlier data of pj, read from a file of the given
// version: nil when pj has none.
func (pj *partitionJSON) outlier(version int) (*cluster.OutlierData, error) {
	whole := pj.OutlierMass != 0 || pj.OutlierRadius != nil || pj.OutlierCenter != nil || pj.OutlierSpread != nil
	if pj.OutlierPeak == nil && !whole && pj.OutlierFence == 0 && pj.OutlierThreshold == 0 {
		return nil, nil
	}
	switch {
	case version < outlierVersion:
		return nil, fmt.Errorf("%w: partition: version %d has no outlier data", ErrFormat, version)
	case version < wholeScoreVersion && whole:
		return nil, fmt.Errorf("%w: partition: version %d has no outlier_mass, outlier_radius, outlier_center or outlier_spread", ErrFormat, version)
	case pj.OutlierPeak == nil && pj.OutlierMass == 0:
		return nil, fmt.Errorf("%w: partition: outlier data without outlier_mass (or version 6's outlier_peak)", ErrFormat)
	}
	return &cluster.OutlierData{Peak: pj.OutlierPeak, Mass: pj.OutlierMass, Radius: pj.OutlierRadius, Center: pj.OutlierCenter, Spread: pj.OutlierSpread,
		Fence: pj.OutlierFence, Threshold: pj.OutlierThreshold}, nil
}

// modelForm returns the file form of m, validated as Read validates what
// it reads, so that a file that saves always loads. Its matrices are views
// of m's.
func modelForm(m *svclust.Model) (*modelJSON, error) {
	if m.SV == nil || len(m.Alpha) == 0 {
		return nil, fmt.Errorf("%w: no support vectors", ErrFormat)
	}
	r, d := m.SV.Dims()
	if r != len(m.Alpha) {
		return nil, fmt.Errorf("%w: %d support vectors but %d coefficients", ErrFormat, r, len(m.Alpha))
	}
	ch := m.Choice
	j := &modelJSON{
		Gamma:  m.Gamma,
		C:      m.C,
		Dim:    d,
		SV:     matrixJSON{m: m.SV},
		Alpha:  m.Alpha,
		Gammas: m.Gammas,
		Status: m.Status.String(),
		Stats: &statsJSON{
			Iterations:    m.Stats.Iterations,
			Updates:       m.Stats.Updates,
			Maintenance:   m.Stats.Maintenance,
			Objective:     m.Stats.Objective,
			ObjectiveRows: m.Stats.ObjectiveRows,
		},
		Choice: &choiceJSON{
			Gamma: ch.Gamma, C: ch.C, Budget: ch.Budget,
			GammaAuto: ch.GammaAuto, CAuto: ch.CAuto, BudgetAuto: ch.BudgetAuto,
			Sample: ch.Sample, Rho: ch.Rho, Cover: ch.Cover, KappaMax: ch.KappaMax, Scale: ch.Scale,
			RhoWidth: ch.RhoWidth, Adaptive: ch.Adaptive, Narrowed: ch.Narrowed,
			WidthMin: ch.WidthMin, WidthMedian: ch.WidthMedian,
			Concentration: ch.Concentration, ConcentrationMax: ch.ConcentrationMax, IntrinsicDim: ch.IntrinsicDim,
			Projected: ch.Projected, Q: ch.Q, Edge: ch.Edge, EigenKept: ch.EigenKept, EigenNext: ch.EigenNext,
			Silverman: ch.Silverman, MinIter: ch.MinIter, ConcentrationScaled: ch.ConcentrationScaled,
		},
	}
	if p := m.Subspace; p != nil {
		j.Subspace = &subspaceJSON{Mean: p.Mean, Basis: matrixJSON{m: p.Basis}}
	}
	j.Training = trainingForm(m.Training)
	if _, err := j.Training.training(Version, len(m.Alpha)); err != nil {
		return nil, err
	}
	if err := j.check(Version); err != nil {
		return nil, err
	}
	return j, nil
}

// partitionForm returns the file form of p. Its matrices and slices are
// p's.
func partitionForm(p cluster.Partition) (*partitionJSON, error) {
	switch p := p.(type) {
	case *cluster.LevelTree:
		t := p.Data()
		pj := &partitionJSON{
			Rule: cluster.RuleLevels.String(), SVCluster: t.SVCluster, Birth: t.Birth,
			Outliers: t.Outliers, M: t.M, Clusters: len(t.Birth),
		}
		pj.outlierForm(t.Outlier)
		return pj, nil
	case *cluster.Graph:
		g := p.Data()
		pj := &partitionJSON{
			Rule: cluster.RuleComponents.String(), Eps: g.Eps, All: g.All, Outliers: g.Outliers,
			M: g.M, Clusters: g.Clusters,
			Equilibria: matrixJSON{m: g.Equilibria}, EquilibriumCluster: g.EquilibriumCluster,
			Anchors: g.Anchors, Strip: matrixJSON{m: g.Strip}, StripCluster: g.StripCluster,
			SVCluster: g.SVCluster,
		}
		pj.outlierForm(g.Outlier)
		return pj, nil
	}
	return nil, fmt.Errorf("modelfile: unknown partition type %T", p)
}

// check validates j as the model of a file of the given version (1 to 4
// for a library file, nested or bare; 5 for the current form).
func (j *modelJSON) check(version int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
	}
	if !(j.Gamma > 0) || math.IsInf(j.Gamma, 0) {
		return bad("gamma = %v: must be > 0 and finite", j.Gamma)
	}
	if !(j.C > 0) || math.IsInf(j.C, 0) {
		return bad("c = %v: must be > 0 and finite", j.C)
	}
	if j.Dim < 1 {
		return bad("dim = %d: must be ≥ 1", j.Dim)
	}
	if err := checkRows("sv", &j.SV, j.Dim); err != nil {
		return err
	}
	if j.SV.len() == 0 {
		return bad("no support vectors")
	}
	if len(j.Alpha) != j.SV.len() {
		return bad("%d coefficients for %d support vectors", len(j.Alpha), j.SV.len())
	}
	// |f(x) + 1| ≤ Σ|αᵢ| since 0 < k ≤ 1: a finite sum keeps every score
	// finite.
	sum := 0.0
	for i, a := range j.Alpha {
		if !finite(a) {
			return bad("alpha[%d] = %v: not finite", i, a)
		}
		sum += math.Abs(a)
	}
	if math.IsInf(sum, 0) {
		return bad("the coefficients' absolute values sum beyond the largest float64")
	}
	if j.Gammas != nil {
		if version < 3 {
			return bad("version %d has no gammas", version)
		}
		if len(j.Gammas) != len(j.Alpha) {
			return bad("%d gammas for %d support vectors", len(j.Gammas), len(j.Alpha))
		}
		for i, g := range j.Gammas {
			if !(g > 0) || math.IsInf(g, 0) {
				return bad("gammas[%d] = %v: must be > 0 and finite", i, g)
			}
		}
	}
	if _, err := svclust.ParseStatus(j.Status); err != nil {
		return bad("unknown status %q", j.Status)
	}
	if j.Stats == nil {
		return bad("no stats")
	}
	st := j.Stats
	if st.Iterations < 0 || st.Updates < 0 || st.Maintenance < 0 || st.ObjectiveRows < 0 {
		return bad("negative count in stats")
	}
	if st.Updates > st.Iterations || st.Maintenance > st.Iterations {
		return bad("stats: %d updates and %d maintenance calls in %d iterations", st.Updates, st.Maintenance, st.Iterations)
	}
	if !finite(st.Objective) {
		return bad("objective = %v: not finite", st.Objective)
	}
	if (j.CAuto != nil) != (version == libVersion) {
		return bad("version %d: c_auto belongs to version %d only", version, libVersion)
	}
	switch {
	case version < wholeVersion && j.Choice != nil:
		return bad("version %d has no choice", version)
	case version >= wholeVersion && j.Choice == nil:
		return bad("no choice")
	}
	if ch := j.Choice; ch != nil {
		for _, v := range []float64{ch.Gamma, ch.C, ch.Rho, ch.KappaMax, ch.Scale, ch.RhoWidth, ch.WidthMin, ch.WidthMedian,
			ch.Concentration, ch.ConcentrationMax, ch.IntrinsicDim, ch.Edge, ch.EigenKept, ch.EigenNext, ch.Silverman, ch.ConcentrationScaled} {
			if !finite(v) {
				return bad("choice: %v is not finite", v)
			}
		}
		if ch.Budget < -1 || ch.Sample < 0 || ch.Cover < 0 || ch.Narrowed < 0 || ch.Q < 0 || ch.MinIter < 0 {
			return bad("negative count in choice")
		}
		switch {
		case ch.Gamma != 0 && ch.Gamma != j.Gamma:
			return bad("choice: gamma = %v, but the model's gamma is %v", ch.Gamma, j.Gamma)
		case ch.C != 0 && ch.C != j.C:
			return bad("choice: c = %v, but the model's c is %v", ch.C, j.C)
		case ch.Adaptive && j.Gammas == nil:
			return bad("choice: adaptive, but the model has no widths of its own")
		case ch.Narrowed > len(j.Alpha):
			return bad("choice: narrowed = %d, more than the %d support vectors", ch.Narrowed, len(j.Alpha))
		case ch.Budget > 0 && len(j.Alpha) > ch.Budget:
			return bad("choice: budget = %d, but the model has %d support vectors", ch.Budget, len(j.Alpha))
		}
		if version < subspaceVersion && (ch.ConcentrationMax != 0 || ch.ConcentrationScaled != 0 || ch.Projected || ch.Q != 0 || ch.Silverman != 0 || ch.MinIter != 0) {
			return bad("version %d has no subspace rule or min_iter in its choice", version)
		}
	}
	return j.checkSubspace(version, bad)
}

// checkSubspace checks the "subspace" of j (version 6): a mean and, for
// each of the model's dim dimensions, a direction of the same length; and
// that the choice agrees: it says "projected" exactly when there is a
// subspace, and its "q", when recorded (not 0), is the subspace's number
// of directions.
func (j *modelJSON) checkSubspace(version int, bad func(string, ...any) error) error {
	p := j.Subspace
	if p != nil && version < subspaceVersion {
		return bad("version %d has no subspace", version)
	}
	if ch := j.Choice; ch != nil {
		switch {
		case ch.Projected && p == nil:
			return bad("choice: projected, but the model has no subspace")
		case !ch.Projected && p != nil:
			return bad("choice: not projected, but the model has a subspace")
		case ch.Q != 0 && p == nil:
			return bad("choice: q = %d, but the model has no subspace", ch.Q)
		case ch.Q != 0 && ch.Q != p.Basis.len():
			return bad("choice: q = %d, but the subspace has %d directions", ch.Q, p.Basis.len())
		}
	}
	if p == nil {
		return nil
	}
	if len(p.Mean) < j.Dim {
		return bad("subspace: mean of %d features for a model of dimension %d", len(p.Mean), j.Dim)
	}
	if p.Basis.len() != j.Dim {
		return bad("subspace: %d directions for a model of dimension %d", p.Basis.len(), j.Dim)
	}
	if err := checkRows("subspace: basis", &p.Basis, len(p.Mean)); err != nil {
		return err
	}
	for i, v := range p.Mean {
		if !finite(v) {
			return bad("subspace: mean[%d] = %v: not finite", i, v)
		}
	}
	return nil
}

// model builds the Model that j, checked, describes, taking over its
// slices.
func (j *modelJSON) model() *svclust.Model {
	st := j.Stats
	status, _ := svclust.ParseStatus(j.Status)
	m := &svclust.Model{
		Gamma:  j.Gamma,
		C:      j.C,
		SV:     dense(&j.SV, j.Dim),
		Alpha:  j.Alpha,
		Gammas: j.Gammas,
		Status: status,
		Stats: svclust.Stats{
			Iterations:    st.Iterations,
			Updates:       st.Updates,
			Maintenance:   st.Maintenance,
			Objective:     st.Objective,
			ObjectiveRows: st.ObjectiveRows,
		},
	}
	if j.CAuto != nil {
		m.Choice.CAuto = *j.CAuto
	}
	if ch := j.Choice; ch != nil {
		m.Choice = auto.Choice{
			Decision: auto.Decision{
				Gamma: ch.Gamma, C: ch.C, Budget: ch.Budget,
				GammaAuto: ch.GammaAuto, CAuto: ch.CAuto, BudgetAuto: ch.BudgetAuto,
				Scale: ch.Scale, Adaptive: ch.Adaptive, Projected: ch.Projected, Q: ch.Q, MinIter: ch.MinIter,
			},
			Report: auto.Report{
				Sample: ch.Sample, Rho: ch.Rho, Cover: ch.Cover, KappaMax: ch.KappaMax,
				RhoWidth: ch.RhoWidth, Narrowed: ch.Narrowed, WidthMin: ch.WidthMin, WidthMedian: ch.WidthMedian,
				Concentration: ch.Concentration, ConcentrationMax: ch.ConcentrationMax, IntrinsicDim: ch.IntrinsicDim,
				Edge: ch.Edge, EigenKept: ch.EigenKept, EigenNext: ch.EigenNext,
				Silverman: ch.Silverman, ConcentrationScaled: ch.ConcentrationScaled,
			},
		}
	}
	if p := j.Subspace; p != nil {
		m.Subspace = &auto.Subspace{Mean: p.Mean, Basis: dense(&p.Basis, len(p.Mean))}
	}
	return m
}

// partition validates pj, the partition of a file of the given version,
// and builds it for the model m.
func (pj *partitionJSON) partition(m *svclust.Model, version int) (cluster.Partition, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: partition: "+format, append([]any{ErrFormat}, args...)...)
	}
	d := m.KernelDim()
	if err := checkRows("partition: equilibria", &pj.Equilibria, d); err != nil {
		return nil, err
	}
	if err := checkRows("partition: strip", &pj.Strip, d); err != nil {
		return nil, err
	}
	var p cluster.Partition
	out, err := pj.outlier(version)
	if err != nil {
		return nil, err
	}
	switch pj.Rule {
	case cluster.RuleLevels.String():
		if version == 1 {
			return nil, bad("version 1 has no partition rule, but the file names %q", pj.Rule)
		}
		if pj.Equilibria.len() > 0 || pj.Strip.len() > 0 || pj.EquilibriumCluster != nil && len(pj.EquilibriumCluster) > 0 ||
			len(pj.StripCluster) > 0 || pj.All || pj.Eps != 0 || pj.Anchors != 0 {
			return nil, bad("equilibria, strip, all, eps and anchors belong to the %q rule", cluster.RuleComponents)
		}
		if nsv := len(m.Alpha); pj.Clusters < 1 || pj.Clusters > nsv {
			return nil, bad("clusters = %d: must be in [1, %d], the support vectors", pj.Clusters, nsv)
		}
		if len(pj.Birth) != pj.Clusters {
			return nil, bad("%d birth levels for %d clusters", len(pj.Birth), pj.Clusters)
		}
		p, err = cluster.NewLevelTree(m, cluster.LevelTreeData{
			SVCluster: pj.SVCluster, Birth: pj.Birth, Outliers: pj.Outliers, M: pj.M, Outlier: out,
		})
	case "", cluster.RuleComponents.String():
		if pj.Rule == "" && version != 1 {
			return nil, bad("no rule")
		}
		if pj.Rule != "" && version == 1 {
			return nil, bad("version 1 has no partition rule, but the file names %q", pj.Rule)
		}
		if pj.Birth != nil || pj.SVCluster != nil && out == nil {
			return nil, bad("birth, and sv_cluster without outlier data, belong to the %q rule", cluster.RuleLevels)
		}
		g := cluster.GraphData{
			Eps: pj.Eps, All: pj.All, Outliers: pj.Outliers, M: pj.M, Clusters: pj.Clusters,
			EquilibriumCluster: pj.EquilibriumCluster, Anchors: pj.Anchors,
			SVCluster: pj.SVCluster, Outlier: out,
		}
		if pj.Equilibria.len() > 0 {
			g.Equilibria = dense(&pj.Equilibria, d)
		}
		if pj.Strip.len() > 0 {
			g.Strip = dense(&pj.Strip, d)
		}
		if len(pj.StripCluster) > 0 {
			g.StripCluster = pj.StripCluster
		}
		p, err = cluster.NewGraph(m, g)
	default:
		return nil, bad("rule %q: want %q or %q", pj.Rule, cluster.RuleLevels, cluster.RuleComponents)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: partition: %v", ErrFormat, err)
	}
	return p, nil
}

// matrixJSON is a matrix of a model file, written as a list of rows. A
// decoded matrix holds the values read, row after row, all rows of the
// width of the first up to the first row of another width (badRow), where
// decoding stopped; one to be written holds the matrix itself, which is
// then neither copied nor sliced into rows.
type matrixJSON struct {
	data   []float64
	rows   int // rows decoded into data, each of width values
	width  int
	badRow int // the first row of another width than row 0, or 0 if none
	badLen int // its width
	m      *mat.Dense
}

// UnmarshalJSON implements json.Unmarshaler. It parses the rows itself,
// into one slice: decoding them as [][]float64 took 20 times the size of
// the file in memory (a slice per row) and minutes for a file of a
// million empty rows, whose first row already made it invalid.
func (a *matrixJSON) UnmarshalJSON(b []byte) error {
	*a = matrixJSON{}
	p := &matrixParser{b: bytes.TrimSpace(b)}
	if string(p.b) == "null" {
		return nil
	}
	if !p.next('[') {
		return errors.New("a matrix is a list of rows")
	}
	if p.next(']') {
		return nil
	}
	for row := 0; ; row++ {
		if !p.next('[') {
			return fmt.Errorf("row %d is not a list of numbers", row)
		}
		n := 0
		if !p.next(']') {
			for {
				v, err := p.number()
				if err != nil {
					return fmt.Errorf("row %d: %w", row, err)
				}
				a.data = append(a.data, v)
				n++
				if p.next(']') {
					break
				}
				if !p.next(',') {
					return fmt.Errorf("row %d is not a list of numbers", row)
				}
			}
		}
		switch {
		case row == 0:
			a.width = n
		case n != a.width:
			// The matrix is invalid whatever its dimension: stop here.
			a.data = a.data[:len(a.data)-n]
			a.badRow, a.badLen = row, n
			return nil
		}
		a.rows++
		if p.next(']') {
			return nil
		}
		if !p.next(',') {
			return errors.New("a matrix is a list of rows")
		}
	}
}

// matrixParser reads the JSON text of a matrix, which the decoder has
// found to be valid JSON.
type matrixParser struct {
	b []byte
	i int
}

// skip skips the spaces at the current position.
func (p *matrixParser) skip() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

// next skips spaces and reports whether the next byte is c, consuming it
// if it is.
func (p *matrixParser) next(c byte) bool {
	p.skip()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// number reads the number at the current position.
func (p *matrixParser) number() (float64, error) {
	p.skip()
	start := p.i
	for p.i < len(p.b) && strings.IndexByte("+-.0123456789eE", p.b[p.i]) >= 0 {
		p.i++
	}
	if start == p.i {
		return 0, errors.New("not a number")
	}
	v, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a float64", p.b[start:p.i])
	}
	return v, nil
}

// len returns the number of rows of a.
func (a *matrixJSON) len() int {
	if a.m != nil {
		r, _ := a.m.Dims()
		return r
	}
	return a.rows
}

// row returns row i of a.
func (a *matrixJSON) row(i int) []float64 {
	if a.m != nil {
		return a.m.RawRowView(i)
	}
	return a.data[i*a.width : (i+1)*a.width : (i+1)*a.width]
}

// checkRows checks that every row of a has length d and finite values.
func checkRows(name string, a *matrixJSON, d int) error {
	if a.m == nil {
		switch {
		case a.len() > 0 && a.width != d:
			return fmt.Errorf("%w: %s row 0 has %d values, want %d", ErrFormat, name, a.width, d)
		case a.badRow > 0:
			return fmt.Errorf("%w: %s row %d has %d values, want %d", ErrFormat, name, a.badRow, a.badLen, d)
		}
	}
	for i := range a.len() {
		r := a.row(i)
		if len(r) != d {
			return fmt.Errorf("%w: %s row %d has %d values, want %d", ErrFormat, name, i, len(r), d)
		}
		for k, v := range r {
			if !finite(v) {
				return fmt.Errorf("%w: %s row %d, column %d: %v is not finite", ErrFormat, name, i, k, v)
			}
		}
	}
	return nil
}

// dense returns the checked rows of a, each of length d, as a matrix (of
// the decoded values themselves). Its size comes from the rows present,
// never from a declared size.
func dense(a *matrixJSON, d int) *mat.Dense {
	n := a.len()
	if a.m == nil && n > 0 {
		return mat.NewDense(n, d, a.data[:n*d:n*d])
	}
	data := make([]float64, 0, n*d)
	for i := range n {
		data = append(data, a.row(i)...)
	}
	return mat.NewDense(n, d, data)
}

// jsonWriter writes JSON values to a bufio.Writer. Its first error is kept
// and returned by flush; later writes do nothing.
type jsonWriter struct {
	w   *bufio.Writer
	buf []byte
	err error
}

func (jw *jsonWriter) raw(s string) {
	if jw.err == nil {
		_, jw.err = jw.w.WriteString(s)
	}
}

func (jw *jsonWriter) bytes(b []byte) {
	if jw.err == nil {
		_, jw.err = jw.w.Write(b)
	}
}

// value writes v as encoding/json does.
func (jw *jsonWriter) value(v any) {
	b, err := json.Marshal(v)
	if err != nil && jw.err == nil {
		jw.err = err
	}
	jw.bytes(b)
}

func (jw *jsonWriter) int(v int) {
	jw.buf = strconv.AppendInt(jw.buf[:0], int64(v), 10)
	jw.bytes(jw.buf)
}

// float writes the shortest decimal form of v that parses back to v.
func (jw *jsonWriter) float(v float64) {
	jw.buf = strconv.AppendFloat(jw.buf[:0], v, 'g', -1, 64)
	jw.bytes(jw.buf)
}

func (jw *jsonWriter) floats(v []float64) {
	jw.raw("[")
	for i, x := range v {
		if i > 0 {
			jw.raw(",")
		}
		jw.float(x)
	}
	jw.raw("]")
}

func (jw *jsonWriter) ints(v []int) {
	jw.raw("[")
	for i, x := range v {
		if i > 0 {
			jw.raw(",")
		}
		jw.int(x)
	}
	jw.raw("]")
}

// matrix writes the rows of a, or an empty list for a nil a.
func (jw *jsonWriter) matrix(a *mat.Dense) {
	jw.raw("[")
	if a != nil {
		r, _ := a.Dims()
		for i := range r {
			if i > 0 {
				jw.raw(",")
			}
			jw.floats(a.RawRowView(i))
		}
	}
	jw.raw("]")
}

// model writes the "model" object of the current version.
func (jw *jsonWriter) model(j *modelJSON) {
	jw.raw(`{"gamma":`)
	jw.float(j.Gamma)
	jw.raw(`,"c":`)
	jw.float(j.C)
	jw.raw(`,"dim":`)
	jw.int(j.Dim)
	jw.raw(`,"sv":`)
	jw.matrix(j.SV.m)
	jw.raw(`,"alpha":`)
	jw.floats(j.Alpha)
	if j.Gammas != nil {
		jw.raw(`,"gammas":`)
		jw.floats(j.Gammas)
	}
	if j.Subspace != nil {
		jw.raw(`,"subspace":{"mean":`)
		jw.floats(j.Subspace.Mean)
		jw.raw(`,"basis":`)
		jw.matrix(j.Subspace.Basis.m)
		jw.raw("}")
	}
	jw.raw(`,"status":`)
	jw.value(j.Status)
	jw.raw(`,"stats":`)
	jw.value(j.Stats)
	jw.raw(`,"choice":`)
	jw.value(j.Choice)
	if j.Training != nil {
		jw.training(j.Training)
	}
	jw.raw("}")
}

// partition writes the "partition" object of the current version, null
// for nil: the keys of its rule only.
func (jw *jsonWriter) partition(pj *partitionJSON) {
	if pj == nil {
		jw.raw("null")
		return
	}
	jw.raw(`{"rule":`)
	jw.value(pj.Rule)
	if pj.Rule == cluster.RuleLevels.String() {
		jw.raw(`,"sv_cluster":`)
		jw.ints(pj.SVCluster)
		jw.raw(`,"birth":`)
		jw.floats(pj.Birth)
	} else {
		jw.raw(`,"eps":`)
		jw.float(pj.Eps)
		jw.raw(`,"all":`)
		jw.value(pj.All)
		if pj.SVCluster != nil {
			jw.raw(`,"sv_cluster":`)
			jw.ints(pj.SVCluster)
		}
	}
	jw.raw(`,"outliers":`)
	jw.value(pj.Outliers)
	jw.raw(`,"m":`)
	jw.int(pj.M)
	jw.raw(`,"clusters":`)
	jw.int(pj.Clusters)
	if pj.Rule != cluster.RuleLevels.String() {
		jw.raw(`,"equilibria":`)
		jw.matrix(pj.Equilibria.m)
		jw.raw(`,"equilibrium_cluster":`)
		jw.ints(pj.EquilibriumCluster)
		jw.raw(`,"anchors":`)
		jw.int(pj.Anchors)
		jw.raw(`,"strip":`)
		jw.matrix(pj.Strip.m)
		jw.raw(`,"strip_cluster":`)
		jw.ints(pj.StripCluster)
	}
	if pj.OutlierPeak != nil || pj.OutlierMass != 0 {
		if pj.OutlierPeak != nil {
			jw.raw(`,"outlier_peak":`)
			jw.floats(pj.OutlierPeak)
		} else {
			jw.raw(`,"outlier_mass":`)
			jw.float(pj.OutlierMass)
			jw.raw(`,"outlier_radius":`)
			jw.floats(pj.OutlierRadius)
			jw.raw(`,"outlier_center":`)
			jw.floats(pj.OutlierCenter)
			jw.raw(`,"outlier_spread":`)
			jw.floats(pj.OutlierSpread)
		}
		jw.raw(`,"outlier_fence":`)
		jw.float(pj.OutlierFence)
		jw.raw(`,"outlier_threshold":`)
		jw.float(pj.OutlierThreshold)
	}
	jw.raw("}")
}

func (jw *jsonWriter) flush() error {
	if jw.err != nil {
		return jw.err
	}
	return jw.w.Flush()
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

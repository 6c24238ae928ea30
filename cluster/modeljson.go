package cluster

import (
	"bytes"
	"fmt"
	"io"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/modelfile"
)

// MarshalJSON implements json.Marshaler. It returns what
// [Partition.WriteJSON] writes.
func (p *Partition) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJSON writes p and its model to w as a versioned JSON object, the
// model file of svclust.Model.WriteJSON with the partition in place of
// null:
//
//	{"format":"svclust-model","version":4,"gamma":γ,"c":C,"c_auto":…,"dim":d,
//	 "sv":[[…],…],"alpha":[…],"status":"converged",
//	 "stats":{"iterations":…,"updates":…,"maintenance":…,"objective":…},
//	 "partition":{"rule":"components","eps":…,"all":…,"outliers":…,"m":…,
//	   "clusters":…,"equilibria":[[…],…],"equilibrium_cluster":[…],
//	   "anchors":…,"strip":[[…],…],"strip_cluster":[…]}}
//
// with "anchors" omitted when 0; a model with adaptive widths writes
// "gammas":[…] after "alpha"; the LevelTree rule writes "rule":"levels",
// "sv_cluster":[…] and "birth":[…] after "rule", and empty equilibria and
// strip. Floats are written in the shortest form that reads back to the
// same float64, so a partition read back by UnmarshalJSON gives
// bit-identical scores and labels. Stats.Runtime and the model's Choice are
// not stored, but for Choice.CAuto, which Fit reads. The matrices are written row by row through a small buffer,
// so the memory WriteJSON needs does not grow with the model (whose strip
// holds a quarter of the training points by default). WriteJSON returns an
// error wrapping svclust.ErrModelFormat, before writing anything, for a model
// without support vectors or with NaN or Inf values, which UnmarshalJSON
// would reject.
func (p *Partition) WriteJSON(w io.Writer) error {
	j, err := fileForm(p.mustModel(), p)
	if err != nil {
		return err
	}
	return modelfile.Write(w, j)
}

// fileForm returns the file form of m with the partition p, as
// svclust.Model.WriteJSON writes m. Its matrices are views of m's and p's.
func fileForm(m *svclust.Model, p *Partition) (*modelfile.File, error) {
	if m.SV == nil || len(m.Alpha) == 0 {
		return nil, fmt.Errorf("%w: no support vectors", svclust.ErrModelFormat)
	}
	r, d := m.SV.Dims()
	if r != len(m.Alpha) {
		return nil, fmt.Errorf("%w: %d support vectors but %d coefficients", svclust.ErrModelFormat, r, len(m.Alpha))
	}
	cAuto := m.Choice.CAuto
	return &modelfile.File{
		Format:  svclust.ModelFormat,
		Version: svclust.ModelVersion,
		Gamma:   m.Gamma,
		C:       m.C,
		CAuto:   &cAuto,
		Dim:     d,
		SV:      modelfile.Of(m.SV),
		Alpha:   m.Alpha,
		Gammas:  m.Gammas,
		Status:  m.Status.String(),
		Stats: &modelfile.Stats{
			Iterations:  m.Stats.Iterations,
			Updates:     m.Stats.Updates,
			Maintenance: m.Stats.Maintenance,
			Objective:   m.Stats.Objective,
		},
		Partition: &modelfile.Partition{
			Rule:               p.rule.String(),
			SVCluster:          p.svCluster,
			Birth:              p.birth,
			Eps:                p.eps,
			All:                p.all,
			Outliers:           p.outliers,
			M:                  p.segM,
			Clusters:           p.clusters,
			Equilibria:         modelfile.Of(p.equilibria),
			EquilibriumCluster: p.equilibriumCluster,
			Anchors:            p.anchors,
			Strip:              modelfile.Of(p.strip),
			StripCluster:       p.stripCluster,
		},
	}, nil
}

// UnmarshalJSON implements json.Unmarshaler. It reads a model file written
// by [Partition.MarshalJSON], validated as svclust.Model.UnmarshalJSON
// validates it, and builds everything Predict needs, so that p is then safe for
// concurrent use. A file whose "partition" is null (a phase-1 model, or
// version 1 before clustering) is an error wrapping ErrNotClustered. On an
// error p is left unchanged.
func (p *Partition) UnmarshalJSON(data []byte) error {
	m := new(svclust.Model)
	if err := m.UnmarshalJSON(data); err != nil {
		return err
	}
	// The model is read by its package, the partition here: the file was
	// checked whole, so it decodes again without error.
	j, err := modelfile.Decode(data, nil)
	if err != nil {
		return err
	}
	pj := j.Partition
	if pj == nil {
		return fmt.Errorf("%w: the file holds a phase-1 model, which can score points but not label them", ErrNotClustered)
	}
	np := &Partition{
		model:              m,
		rule:               ruleOf(pj),
		svCluster:          pj.SVCluster,
		birth:              pj.Birth,
		eps:                pj.Eps,
		all:                pj.All,
		outliers:           pj.Outliers,
		segM:               pj.M,
		clusters:           pj.Clusters,
		equilibriumCluster: pj.EquilibriumCluster,
		anchors:            pj.Anchors,
	}
	if pj.Equilibria.Len() > 0 {
		np.equilibria = modelfile.Dense(&pj.Equilibria, j.Dim)
	}
	if pj.Strip.Len() > 0 {
		np.strip = modelfile.Dense(&pj.Strip, j.Dim)
		np.stripCluster = pj.StripCluster
	}
	np.buildTrees()
	*p = *np
	return nil
}

// ruleOf returns the Rule of pj: Components when the file names none.
func ruleOf(pj *modelfile.Partition) Rule {
	if pj.Rule == LevelTree.String() {
		return LevelTree
	}
	return Components
}

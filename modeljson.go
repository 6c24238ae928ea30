package svclust

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/jsonkeys"
)

// The model file format written by [Partition.MarshalJSON] and
// [Model.MarshalJSON].
const (
	// ModelFormat is the value of the "format" key of a model file.
	ModelFormat = "svclust-model"
	// ModelVersion is the newest version of the model file format.
	// UnmarshalJSON reads it and versions 1 and 2, and rejects any other.
	// Version 1's partitions are all of the Components rule; version 2
	// added the partition's "rule", "sv_cluster" and "birth" (LevelTree);
	// version 3 added "gammas", the width of each support vector of a
	// model with adaptive widths (Model.Gammas). WriteJSON writes version
	// 3 only for such a model, and version 2, which earlier readers read,
	// for a model with one width.
	ModelVersion = 3
	// modelVersionOneWidth is the version written for a model with one
	// width (see ModelVersion).
	modelVersionOneWidth = 2
)

// modelJSON is the versioned file form of a Model. Pointer fields
// distinguish a missing key from a zero value.
type modelJSON struct {
	Format    string         `json:"format"`
	Version   int            `json:"version"`
	Gamma     float64        `json:"gamma"`
	C         float64        `json:"c"`
	Dim       int            `json:"dim"`
	SV        matrixJSON     `json:"sv"`
	Alpha     []float64      `json:"alpha"`
	Gammas    []float64      `json:"gammas"`
	Status    string         `json:"status"`
	Stats     *statsJSON     `json:"stats"`
	Partition *partitionJSON `json:"partition"`
}

type statsJSON struct {
	Iterations  int     `json:"iterations"`
	Updates     int     `json:"updates"`
	Maintenance int     `json:"maintenance"`
	Objective   float64 `json:"objective"`
}

type partitionJSON struct {
	Rule               string     `json:"rule"` // "" (version 1) is components
	SVCluster          []int      `json:"sv_cluster"`
	Birth              []float64  `json:"birth"`
	Eps                float64    `json:"eps"`
	All                bool       `json:"all"`
	Outliers           bool       `json:"outliers"`
	M                  int        `json:"m"`
	Clusters           int        `json:"clusters"`
	Equilibria         matrixJSON `json:"equilibria"`
	EquilibriumCluster []int      `json:"equilibrium_cluster"`
	Anchors            int        `json:"anchors,omitempty"`
	Strip              matrixJSON `json:"strip"`
	StripCluster       []int      `json:"strip_cluster"`
}

// MarshalJSON implements json.Marshaler. It returns what [Model.WriteJSON]
// writes.
func (m *Model) MarshalJSON() ([]byte, error) {
	return marshal(m.WriteJSON)
}

// MarshalJSON implements json.Marshaler. It returns what
// [Partition.WriteJSON] writes.
func (p *Partition) MarshalJSON() ([]byte, error) {
	return marshal(p.WriteJSON)
}

// marshal returns what write writes.
func marshal(write func(io.Writer) error) ([]byte, error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJSON writes m to w as the model file of [Partition.WriteJSON] with
// "partition" null: a file that [Model.UnmarshalJSON] reads, and
// [Partition.UnmarshalJSON] rejects with ErrNotClustered.
func (m *Model) WriteJSON(w io.Writer) error {
	return writeJSON(w, m, nil)
}

// WriteJSON writes p and its model to w as a versioned JSON object,
//
//	{"format":"svclust-model","version":2,"gamma":γ,"c":C,"dim":d,
//	 "sv":[[…],…],"alpha":[…],"status":"converged",
//	 "stats":{"iterations":…,"updates":…,"maintenance":…,"objective":…},
//	 "partition":{"rule":"components","eps":…,"all":…,"outliers":…,"m":…,
//	   "clusters":…,"equilibria":[[…],…],"equilibrium_cluster":[…],
//	   "anchors":…,"strip":[[…],…],"strip_cluster":[…]}}
//
// with "anchors" omitted when 0; a model with adaptive widths writes
// "version":3 and "gammas":[…] after "alpha"; the LevelTree rule writes "rule":"levels",
// "sv_cluster":[…] and "birth":[…] after "rule", and empty equilibria and
// strip. Floats are written in the shortest form that reads back to the
// same float64, so a partition read back by UnmarshalJSON gives
// bit-identical scores and labels. Stats.Runtime and the model's Choice are
// not stored. The matrices are written row by row through a small buffer,
// so the memory WriteJSON needs does not grow with the model (whose strip
// holds a quarter of the training points by default). WriteJSON returns an
// error wrapping ErrModelFormat, before writing anything, for a model
// without support vectors or with NaN or Inf values, which UnmarshalJSON
// would reject.
func (p *Partition) WriteJSON(w io.Writer) error {
	return writeJSON(w, p.mustModel(), p)
}

// writeJSON writes the model file of m with the partition p, null if p is
// nil.
func writeJSON(w io.Writer, m *Model, p *Partition) error {
	j, err := fileForm(m, p)
	if err != nil {
		return err
	}
	jw := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10)}
	jw.raw(`{"format":`)
	jw.value(j.Format)
	jw.raw(`,"version":`)
	jw.int(j.Version)
	jw.raw(`,"gamma":`)
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
	jw.raw(`,"status":`)
	jw.value(j.Status)
	jw.raw(`,"stats":`)
	jw.value(j.Stats)
	jw.raw(`,"partition":`)
	if pj := j.Partition; pj == nil {
		jw.raw("null")
	} else {
		jw.raw(`{"rule":`)
		jw.value(pj.Rule)
		if pj.Rule == LevelTree.String() {
			jw.raw(`,"sv_cluster":`)
			jw.ints(pj.SVCluster)
			jw.raw(`,"birth":`)
			jw.floats(pj.Birth)
		}
		jw.raw(`,"eps":`)
		jw.float(pj.Eps)
		jw.raw(`,"all":`)
		jw.value(pj.All)
		jw.raw(`,"outliers":`)
		jw.value(pj.Outliers)
		jw.raw(`,"m":`)
		jw.int(pj.M)
		jw.raw(`,"clusters":`)
		jw.int(pj.Clusters)
		jw.raw(`,"equilibria":`)
		jw.matrix(pj.Equilibria.m)
		jw.raw(`,"equilibrium_cluster":`)
		jw.ints(pj.EquilibriumCluster)
		if pj.Anchors != 0 {
			jw.raw(`,"anchors":`)
			jw.int(pj.Anchors)
		}
		jw.raw(`,"strip":`)
		jw.matrix(pj.Strip.m)
		jw.raw(`,"strip_cluster":`)
		jw.ints(pj.StripCluster)
		jw.raw("}")
	}
	jw.raw("}")
	return jw.flush()
}

// fileForm returns the file form of m with the partition p (none if p is
// nil), validated as UnmarshalJSON validates what it reads, so that a file
// that saves always loads. Its matrices are views of m's and p's.
func fileForm(m *Model, p *Partition) (*modelJSON, error) {
	if m.SV == nil || len(m.Alpha) == 0 {
		return nil, fmt.Errorf("%w: no support vectors", ErrModelFormat)
	}
	r, d := m.SV.Dims()
	if r != len(m.Alpha) {
		return nil, fmt.Errorf("%w: %d support vectors but %d coefficients", ErrModelFormat, r, len(m.Alpha))
	}
	j := &modelJSON{
		Format:  ModelFormat,
		Version: modelVersionOneWidth,
		Gamma:   m.Gamma,
		C:       m.C,
		Dim:     d,
		SV:      matrixJSON{m: m.SV},
		Alpha:   m.Alpha,
		Gammas:  m.Gammas,
		Status:  m.Status.String(),
		Stats: &statsJSON{
			Iterations:  m.Stats.Iterations,
			Updates:     m.Stats.Updates,
			Maintenance: m.Stats.Maintenance,
			Objective:   m.Stats.Objective,
		},
	}
	if m.Gammas != nil {
		j.Version = ModelVersion
	}
	if p != nil {
		j.Partition = &partitionJSON{
			Rule:               p.rule.String(),
			SVCluster:          p.svCluster,
			Birth:              p.birth,
			Eps:                p.eps,
			All:                p.all,
			Outliers:           p.outliers,
			M:                  p.segM,
			Clusters:           p.clusters,
			Equilibria:         matrixJSON{m: p.equilibria},
			EquilibriumCluster: p.equilibriumCluster,
			Anchors:            p.anchors,
			Strip:              matrixJSON{m: p.strip},
			StripCluster:       p.stripCluster,
		}
	}
	if err := j.check(); err != nil {
		return nil, err
	}
	return j, nil
}

// matrixJSON is a matrix of a model file, written as a list of rows. A
// decoded matrix holds the rows read; one to be written holds the matrix
// itself, which is then neither copied nor sliced into rows.
type matrixJSON struct {
	rows [][]float64
	m    *mat.Dense
}

// UnmarshalJSON implements json.Unmarshaler.
func (a *matrixJSON) UnmarshalJSON(b []byte) error {
	a.m = nil
	return json.Unmarshal(b, &a.rows)
}

// len returns the number of rows of a.
func (a *matrixJSON) len() int {
	if a.m != nil {
		r, _ := a.m.Dims()
		return r
	}
	return len(a.rows)
}

// row returns row i of a.
func (a *matrixJSON) row(i int) []float64 {
	if a.m != nil {
		return a.m.RawRowView(i)
	}
	return a.rows[i]
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

func (jw *jsonWriter) flush() error {
	if jw.err != nil {
		return jw.err
	}
	return jw.w.Flush()
}

// UnmarshalJSON implements json.Unmarshaler. It reads a model file written
// by [Model.MarshalJSON] or [Partition.MarshalJSON], keeping the model
// only (a partition present is validated and dropped: read the file into a
// Partition to keep it). It validates the file strictly: unknown keys, a wrong format
// or version, γ or C not > 0, a dimension below 1, no support vectors, rows
// whose length is not the dimension, coefficients that do not match the
// support vectors, NaN or Inf anywhere, negative counts, and a partition
// with more clusters than equilibria, whose cluster numbers lie outside
// [0, clusters) or whose arrays disagree are all errors wrapping
// ErrModelFormat, and so is a key that occurs twice in one object, which
// encoding/json would accept with the last value winning. Memory is
// allocated from the lengths of the arrays actually present, never from a
// declared size. On an error m is left unchanged.
func (m *Model) UnmarshalJSON(data []byte) error {
	nm, _, err := decodeJSON(data)
	if err != nil {
		return err
	}
	*m = *nm
	return nil
}

// UnmarshalJSON implements json.Unmarshaler. It reads a model file written
// by [Partition.MarshalJSON], validated as [Model.UnmarshalJSON] validates
// it, and builds everything Predict needs, so that p is then safe for
// concurrent use. A file whose "partition" is null (a phase-1 model, or
// version 1 before clustering) is an error wrapping ErrNotClustered. On an
// error p is left unchanged.
func (p *Partition) UnmarshalJSON(data []byte) error {
	_, np, err := decodeJSON(data)
	if err != nil {
		return err
	}
	if np == nil {
		return fmt.Errorf("%w: the file holds a phase-1 model, which can score points but not label them", ErrNotClustered)
	}
	*p = *np
	return nil
}

// decodeJSON decodes and validates the model file data: its model, and its
// partition (nil if "partition" is null).
func decodeJSON(data []byte) (*Model, *Partition, error) {
	if err := jsonkeys.Check(bytes.NewReader(data)); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrModelFormat, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j modelJSON
	if err := dec.Decode(&j); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrModelFormat, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("%w: data after the model object", ErrModelFormat)
	}
	return j.model()
}

// check validates j as a model file.
func (j *modelJSON) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrModelFormat}, args...)...)
	}
	if j.Format != ModelFormat {
		return bad("format is %q, want %q", j.Format, ModelFormat)
	}
	if j.Version < 1 || j.Version > ModelVersion {
		return bad("version is %d, want 1 to %d", j.Version, ModelVersion)
	}
	if j.Version == 1 && j.Partition != nil && j.Partition.Rule != "" {
		return bad("version 1 has no partition rule, but the file names %q", j.Partition.Rule)
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
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return bad("alpha[%d] = %v: not finite", i, a)
		}
		sum += math.Abs(a)
	}
	if math.IsInf(sum, 0) {
		return bad("the coefficients' absolute values sum beyond the largest float64")
	}
	if j.Gammas != nil {
		if j.Version < 3 {
			return bad("version %d has no gammas", j.Version)
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
	if statusOf(j.Status) < 0 {
		return bad("unknown status %q", j.Status)
	}
	if j.Stats == nil {
		return bad("no stats")
	}
	st := j.Stats
	if st.Iterations < 0 || st.Updates < 0 || st.Maintenance < 0 {
		return bad("negative count in stats")
	}
	if math.IsNaN(st.Objective) || math.IsInf(st.Objective, 0) {
		return bad("objective = %v: not finite", st.Objective)
	}
	if j.Partition != nil {
		return j.Partition.check(j.Dim, len(j.Alpha))
	}
	return nil
}

// statusOf returns the Status named name, or −1.
func statusOf(name string) Status {
	for s, n := range statusNames {
		if n == name {
			return Status(s)
		}
	}
	return -1
}

// model validates j, a decoded file, and builds the Model and the
// Partition (nil if none) it describes, taking over j's slices.
func (j *modelJSON) model() (*Model, *Partition, error) {
	if err := j.check(); err != nil {
		return nil, nil, err
	}
	st := j.Stats
	m := &Model{
		Gamma:  j.Gamma,
		C:      j.C,
		SV:     dense(&j.SV, j.Dim),
		Alpha:  j.Alpha,
		Gammas: j.Gammas,
		Status: statusOf(j.Status),
		Stats: Stats{
			Iterations:  st.Iterations,
			Updates:     st.Updates,
			Maintenance: st.Maintenance,
			Objective:   st.Objective,
		},
	}
	pj := j.Partition
	if pj == nil {
		return m, nil, nil
	}
	p := &Partition{
		model:              m,
		rule:               pj.rule(),
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
	if pj.Equilibria.len() > 0 {
		p.equilibria = dense(&pj.Equilibria, j.Dim)
	}
	if pj.Strip.len() > 0 {
		p.strip = dense(&pj.Strip, j.Dim)
		p.stripCluster = pj.StripCluster
	}
	p.buildTrees()
	return m, p, nil
}

// rule returns the Rule of pj: Components when the file names none.
func (pj *partitionJSON) rule() Rule {
	if pj.Rule == LevelTree.String() {
		return LevelTree
	}
	return Components
}

// check validates pj as the partition of a model of dimension d with nsv
// support vectors.
func (pj *partitionJSON) check(d, nsv int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: partition: "+format, append([]any{ErrModelFormat}, args...)...)
	}
	switch pj.Rule {
	case "", Components.String():
	case LevelTree.String():
		return pj.checkLevels(nsv, bad)
	default:
		return bad("rule %q: want %q or %q", pj.Rule, LevelTree, Components)
	}
	if pj.SVCluster != nil || pj.Birth != nil {
		return bad("sv_cluster and birth belong to the %q rule", LevelTree)
	}
	if math.IsNaN(pj.Eps) || math.IsInf(pj.Eps, 0) || pj.Eps < 0 {
		return bad("eps = %v: must be ≥ 0 and finite", pj.Eps)
	}
	if pj.M < 2 {
		return bad("m = %d: must be ≥ 2", pj.M)
	}
	if pj.Clusters < 1 {
		return bad("clusters = %d: must be ≥ 1", pj.Clusters)
	}
	if err := checkRows("partition: equilibria", &pj.Equilibria, d); err != nil {
		return err
	}
	neq := pj.Equilibria.len()
	if neq == 0 {
		return bad("no equilibria")
	}
	if pj.Clusters > neq {
		// Every cluster holds at least one equilibrium.
		return bad("clusters = %d: more than the %d equilibria", pj.Clusters, neq)
	}
	if len(pj.EquilibriumCluster) != neq {
		return bad("%d equilibrium clusters for %d equilibria", len(pj.EquilibriumCluster), neq)
	}
	if pj.Anchors < 0 || pj.Anchors > neq {
		return bad("anchors = %d: outside [0, %d]", pj.Anchors, neq)
	}
	if err := checkRows("partition: strip", &pj.Strip, d); err != nil {
		return err
	}
	nstrip := pj.Strip.len()
	if len(pj.StripCluster) != nstrip {
		return bad("%d strip clusters for %d strip points", len(pj.StripCluster), nstrip)
	}
	switch {
	case pj.All && nstrip > 0:
		return bad("strip must be empty when all is set")
	case !pj.All && nstrip == 0:
		return bad("no strip points")
	}
	for _, ids := range [][]int{pj.EquilibriumCluster, pj.StripCluster} {
		for _, c := range ids {
			if c < 0 || c >= pj.Clusters {
				return bad("cluster %d outside [0, %d)", c, pj.Clusters)
			}
		}
	}
	return nil
}

// checkLevels validates a partition of the LevelTree rule.
func (pj *partitionJSON) checkLevels(nsv int, bad func(string, ...any) error) error {
	if pj.M < 2 {
		return bad("m = %d: must be ≥ 2", pj.M)
	}
	if pj.Clusters < 1 || pj.Clusters > nsv {
		return bad("clusters = %d: must be in [1, %d], the support vectors", pj.Clusters, nsv)
	}
	if len(pj.SVCluster) != nsv {
		return bad("%d support-vector clusters for %d support vectors", len(pj.SVCluster), nsv)
	}
	for _, c := range pj.SVCluster {
		if c < 0 || c >= pj.Clusters {
			return bad("cluster %d outside [0, %d)", c, pj.Clusters)
		}
	}
	if len(pj.Birth) != pj.Clusters {
		return bad("%d birth levels for %d clusters", len(pj.Birth), pj.Clusters)
	}
	for _, b := range pj.Birth {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return bad("birth level %v is not finite", b)
		}
	}
	if pj.Equilibria.len() > 0 || pj.Strip.len() > 0 || pj.All || pj.Eps != 0 || pj.Anchors != 0 {
		return bad("equilibria, strip, all, eps and anchors belong to the %q rule", Components)
	}
	return nil
}

// checkRows checks that every row of a has length d and finite values.
func checkRows(name string, a *matrixJSON, d int) error {
	for i := range a.len() {
		r := a.row(i)
		if len(r) != d {
			return fmt.Errorf("%w: %s row %d has %d values, want %d", ErrModelFormat, name, i, len(r), d)
		}
		for k, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s row %d, column %d: %v is not finite", ErrModelFormat, name, i, k, v)
			}
		}
	}
	return nil
}

// dense returns the checked rows of a, each of length d, as a new matrix.
// Its size comes from the rows present, never from a declared size.
func dense(a *matrixJSON, d int) *mat.Dense {
	n := a.len()
	data := make([]float64, 0, n*d)
	for i := range n {
		data = append(data, a.row(i)...)
	}
	return mat.NewDense(n, d, data)
}

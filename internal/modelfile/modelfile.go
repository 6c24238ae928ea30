// Package modelfile is the versioned JSON form of a model file, shared by
// the phase-1 model of package svclust and the partition of package
// cluster: the structs, a writer that streams the matrices row by row, and
// a strict reader that validates everything but the names of training
// statuses, which the caller checks.
package modelfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/jsonkeys"
)

// ErrFormat is wrapped by every error of Decode and Check; package svclust
// exports it as ErrModelFormat.
var ErrFormat = errors.New("svclust: invalid model file")

// The model file format.
const (
	// Format is the value of the "format" key of a model file.
	Format = "svclust-model"
	// Version is the newest version of the model file format. Decode
	// reads it and every earlier version, and rejects any other.
	// Version 1's partitions are all of the Components rule; version 2
	// added the partition's "rule", "sv_cluster" and "birth" (LevelTree);
	// version 3 added "gammas", the width of each support vector of a
	// model with adaptive widths; version 4 added "c_auto", whether C was
	// chosen automatically, which the LevelTree rule reads, so that a
	// model read from a file clusters again as it did when trained.
	Version = 4

	// Rule names of a partition, as cluster.Rule.String writes them.
	RuleLevels     = "levels"
	RuleComponents = "components"
)

// File is the versioned file form of a model, with its partition if any. Pointer fields
// distinguish a missing key from a zero value.
type File struct {
	Format    string     `json:"format"`
	Version   int        `json:"version"`
	Gamma     float64    `json:"gamma"`
	C         float64    `json:"c"`
	CAuto     *bool      `json:"c_auto"`
	Dim       int        `json:"dim"`
	SV        Matrix     `json:"sv"`
	Alpha     []float64  `json:"alpha"`
	Gammas    []float64  `json:"gammas"`
	Status    string     `json:"status"`
	Stats     *Stats     `json:"stats"`
	Partition *Partition `json:"partition"`
}

// Stats is the training run of a model file.
type Stats struct {
	Iterations  int     `json:"iterations"`
	Updates     int     `json:"updates"`
	Maintenance int     `json:"maintenance"`
	Objective   float64 `json:"objective"`
}

// Partition is the partition of a model file.
type Partition struct {
	Rule               string    `json:"rule"` // "" (version 1) is components
	SVCluster          []int     `json:"sv_cluster"`
	Birth              []float64 `json:"birth"`
	Eps                float64   `json:"eps"`
	All                bool      `json:"all"`
	Outliers           bool      `json:"outliers"`
	M                  int       `json:"m"`
	Clusters           int       `json:"clusters"`
	Equilibria         Matrix    `json:"equilibria"`
	EquilibriumCluster []int     `json:"equilibrium_cluster"`
	Anchors            int       `json:"anchors,omitempty"`
	Strip              Matrix    `json:"strip"`
	StripCluster       []int     `json:"strip_cluster"`
}

// Write checks j (see Check) and writes it to w, the matrices row by row
// through a small buffer, floats in the shortest form that reads back to
// the same float64. It writes nothing when j is invalid.
func Write(w io.Writer, j *File) error {
	if err := j.Check(nil); err != nil {
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
	if j.CAuto != nil {
		jw.raw(`,"c_auto":`)
		jw.value(*j.CAuto)
	}
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
		if pj.Rule == RuleLevels {
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

// Matrix is a matrix of a model file, written as a list of rows. Of
// makes one to be written. A
// decoded matrix holds the rows read; one to be written holds the matrix
// itself, which is then neither copied nor sliced into rows.
type Matrix struct {
	rows [][]float64
	m    *mat.Dense
}

// UnmarshalJSON implements json.Unmarshaler.
func (a *Matrix) UnmarshalJSON(b []byte) error {
	a.m = nil
	return json.Unmarshal(b, &a.rows)
}

// len returns the number of rows of a.
func (a *Matrix) Len() int {
	if a.m != nil {
		r, _ := a.m.Dims()
		return r
	}
	return len(a.rows)
}

// row returns row i of a.
func (a *Matrix) row(i int) []float64 {
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

// Of returns the Matrix that writes m (none for a nil m).
func Of(m *mat.Dense) Matrix { return Matrix{m: m} }

// Decode decodes and validates the model file data (see Check). Unknown
// keys and a key that occurs twice in one object are errors.
func Decode(data []byte, statuses []string) (*File, error) {
	if err := jsonkeys.Check(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j File
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the model object", ErrFormat)
	}
	if err := j.Check(statuses); err != nil {
		return nil, err
	}
	return &j, nil
}

// Check validates j as a model file; a status not in statuses is an error
// unless statuses is nil.
func (j *File) Check(statuses []string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
	}
	if j.Format != Format {
		return bad("format is %q, want %q", j.Format, Format)
	}
	if j.Version < 1 || j.Version > Version {
		return bad("version is %d, want 1 to %d", j.Version, Version)
	}
	if (j.CAuto != nil) != (j.Version >= 4) {
		return bad("version %d: c_auto must be present from version 4 on, and only then", j.Version)
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
	if j.SV.Len() == 0 {
		return bad("no support vectors")
	}
	if len(j.Alpha) != j.SV.Len() {
		return bad("%d coefficients for %d support vectors", len(j.Alpha), j.SV.Len())
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
	if statuses != nil && !slices.Contains(statuses, j.Status) {
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

// check validates pj as the partition of a model of dimension d with nsv
// support vectors.
func (pj *Partition) check(d, nsv int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: partition: "+format, append([]any{ErrFormat}, args...)...)
	}
	switch pj.Rule {
	case "", RuleComponents:
	case RuleLevels:
		return pj.checkLevels(nsv, bad)
	default:
		return bad("rule %q: want %q or %q", pj.Rule, RuleLevels, RuleComponents)
	}
	if pj.SVCluster != nil || pj.Birth != nil {
		return bad("sv_cluster and birth belong to the %q rule", RuleLevels)
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
	neq := pj.Equilibria.Len()
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
	nstrip := pj.Strip.Len()
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
func (pj *Partition) checkLevels(nsv int, bad func(string, ...any) error) error {
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
	if pj.Equilibria.Len() > 0 || pj.Strip.Len() > 0 || pj.All || pj.Eps != 0 || pj.Anchors != 0 {
		return bad("equilibria, strip, all, eps and anchors belong to the %q rule", RuleComponents)
	}
	return nil
}

// checkRows checks that every row of a has length d and finite values.
func checkRows(name string, a *Matrix, d int) error {
	for i := range a.Len() {
		r := a.row(i)
		if len(r) != d {
			return fmt.Errorf("%w: %s row %d has %d values, want %d", ErrFormat, name, i, len(r), d)
		}
		for k, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s row %d, column %d: %v is not finite", ErrFormat, name, i, k, v)
			}
		}
	}
	return nil
}

// Dense returns the checked rows of a, each of length d, as a new matrix.
// Its size comes from the rows present, never from a declared size.
func Dense(a *Matrix, d int) *mat.Dense {
	n := a.Len()
	data := make([]float64, 0, n*d)
	for i := range n {
		data = append(data, a.row(i)...)
	}
	return mat.NewDense(n, d, data)
}

package reproduce

import (
	"encoding/json"
	"math"
	"strings"
)

// Stat is the mean and sample standard deviation of a quantity over the
// runs in which it is defined. Either is NaN when undefined: the mean with
// no such run, the deviation with fewer than two.
type Stat struct {
	Mean, SD float64
}

// stat returns the Stat of the values of v that are not NaN.
func stat(v []float64) Stat {
	var sum float64
	n := 0
	for _, x := range v {
		if !math.IsNaN(x) {
			sum += x
			n++
		}
	}
	if n == 0 {
		return Stat{math.NaN(), math.NaN()}
	}
	mean := sum / float64(n)
	if n < 2 {
		return Stat{mean, math.NaN()}
	}
	var ss float64
	for _, x := range v {
		if !math.IsNaN(x) {
			ss += (x - mean) * (x - mean)
		}
	}
	return Stat{mean, math.Sqrt(ss / float64(n-1))}
}

// Record is the result of one method on one data set.
type Record struct {
	// Dataset is the data set's name and Method the method.
	Dataset string
	Method  Method
	// N, Dim and Classes describe the data: rows, features and classes.
	N, Dim, Classes int
	// Gamma and C are the chosen setting, NaN when none was chosen; P and
	// Eps are FSVC's p and ε, NaN for the other methods.
	Gamma, C, P, Eps float64
	// Runs is the number of seeded runs that finished.
	Runs int
	// The indices and timings over the runs. The timings are in seconds.
	Purity, Rand, ARI, NMI, Compactness, DB Stat
	TrainSeconds, ClusterSeconds, Clusters  Stat
	// Status is "ok", "exceeded" (no run finished within the time budget
	// of SVC or FSVC), "skipped: reason" or "error: message".
	Status string
	// GridEvaluated and GridTotal count the grid points evaluated and in
	// the grid (for FSVC, both stages).
	GridEvaluated, GridTotal int
	// Note says what limited the run, if anything.
	Note string
}

// newRecord returns an empty record of method m on the data set name.
func newRecord(name string, m Method) Record {
	nan := math.NaN()
	none := Stat{nan, nan}
	return Record{
		Dataset: name, Method: m,
		Gamma: nan, C: nan, P: nan, Eps: nan,
		Purity: none, Rand: none, ARI: none, NMI: none, Compactness: none, DB: none,
		TrainSeconds: none, ClusterSeconds: none, Clusters: none,
	}
}

// addNote appends a sentence to r.Note.
func (r *Record) addNote(s string) {
	if r.Note != "" {
		r.Note += "; "
	}
	r.Note += s
}

// aggregate sets the statistics of r from the runs.
func (r *Record) aggregate(outs []outcome) {
	r.Runs = len(outs)
	col := func(f func(o *outcome) float64) Stat {
		v := make([]float64, len(outs))
		for i := range outs {
			v[i] = f(&outs[i])
		}
		return stat(v)
	}
	r.Purity = col(func(o *outcome) float64 { return o.scores.Purity })
	r.Rand = col(func(o *outcome) float64 { return o.scores.Rand })
	r.ARI = col(func(o *outcome) float64 { return o.scores.ARI })
	r.NMI = col(func(o *outcome) float64 { return o.scores.NMI })
	r.Compactness = col(func(o *outcome) float64 { return o.scores.Compactness })
	r.DB = col(func(o *outcome) float64 { return o.scores.DB })
	r.Clusters = col(func(o *outcome) float64 { return float64(o.scores.Clusters) })
	r.TrainSeconds = col(func(o *outcome) float64 { return o.train.Seconds() })
	r.ClusterSeconds = col(func(o *outcome) float64 { return o.cluster.Seconds() })
}

// Value returns the statistic of r for the paper's index ix.
func (r *Record) Value(ix Index) Stat {
	switch ix {
	case Purity:
		return r.Purity
	case Rand:
		return r.Rand
	case NMI:
		return r.NMI
	case Compactness:
		return r.Compactness
	case DB:
		return r.DB
	case TrainTime:
		return r.TrainSeconds
	case ClusterTime:
		return r.ClusterSeconds
	}
	return Stat{math.NaN(), math.NaN()}
}

// OK reports whether r holds results.
func (r *Record) OK() bool { return r.Status == "ok" }

// num is a float64 that encodes NaN and ±Inf as JSON null and decodes
// null as NaN.
type num float64

func (x num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(x))
}

func (x *num) UnmarshalJSON(b []byte) error {
	if strings.TrimSpace(string(b)) == "null" {
		*x = num(math.NaN())
		return nil
	}
	return json.Unmarshal(b, (*float64)(x))
}

// recordJSON is the JSON form of a Record: the means under the index
// names, the standard deviations under the same names in "sd".
type recordJSON struct {
	Dataset string `json:"dataset"`
	Method  Method `json:"method"`
	N       int    `json:"n"`
	Dim     int    `json:"d"`
	Classes int    `json:"classes"`
	Gamma   num    `json:"gamma"`
	C       num    `json:"C"`
	P       num    `json:"p"`
	Eps     num    `json:"eps"`
	Runs    int    `json:"runs"`
	// The means, whose keys encoding/json writes here, in the order of
	// statsJSON.
	statsJSON
	SD            statsJSON `json:"sd"`
	Status        string    `json:"status"`
	GridEvaluated int       `json:"grid_evaluated"`
	GridTotal     int       `json:"grid_total"`
	Note          string    `json:"note,omitempty"`
}

// statsJSON holds one number per statistic of a Record: the means or the
// standard deviations.
type statsJSON struct {
	Purity         num `json:"purity"`
	Rand           num `json:"rand"`
	ARI            num `json:"ari"`
	NMI            num `json:"nmi"`
	Compactness    num `json:"compactness"`
	DB             num `json:"db"`
	TrainSeconds   num `json:"train_seconds"`
	ClusterSeconds num `json:"cluster_seconds"`
	Clusters       num `json:"clusters"`
}

// stats returns the means (sd false) or standard deviations (sd true) of
// the statistics of r.
func (r *Record) stats(sd bool) statsJSON {
	v := func(s Stat) num {
		if sd {
			return num(s.SD)
		}
		return num(s.Mean)
	}
	return statsJSON{
		Purity: v(r.Purity), Rand: v(r.Rand), ARI: v(r.ARI), NMI: v(r.NMI),
		Compactness: v(r.Compactness), DB: v(r.DB),
		TrainSeconds: v(r.TrainSeconds), ClusterSeconds: v(r.ClusterSeconds),
		Clusters: v(r.Clusters),
	}
}

// MarshalJSON implements json.Marshaler. It writes r as one object with
// the keys dataset, method, n, d, classes, gamma, C, p, eps, runs, purity,
// rand, ari, nmi, compactness, db, train_seconds, cluster_seconds,
// clusters (the means over the runs), sd (an object of the standard
// deviations under the same keys), status, grid_evaluated, grid_total and
// note; NaN is written as null.
func (r Record) MarshalJSON() ([]byte, error) {
	return json.Marshal(recordJSON{
		Dataset: r.Dataset, Method: r.Method, N: r.N, Dim: r.Dim, Classes: r.Classes,
		Gamma: num(r.Gamma), C: num(r.C), P: num(r.P), Eps: num(r.Eps), Runs: r.Runs,
		statsJSON: r.stats(false), SD: r.stats(true),
		Status: r.Status, GridEvaluated: r.GridEvaluated, GridTotal: r.GridTotal, Note: r.Note,
	})
}

// UnmarshalJSON implements json.Unmarshaler, reading what MarshalJSON
// writes; null reads as NaN.
func (r *Record) UnmarshalJSON(b []byte) error {
	var j recordJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	st := func(mean, sd num) Stat { return Stat{float64(mean), float64(sd)} }
	*r = Record{
		Dataset: j.Dataset, Method: j.Method, N: j.N, Dim: j.Dim, Classes: j.Classes,
		Gamma: float64(j.Gamma), C: float64(j.C), P: float64(j.P), Eps: float64(j.Eps), Runs: j.Runs,
		Purity: st(j.Purity, j.SD.Purity), Rand: st(j.Rand, j.SD.Rand), ARI: st(j.ARI, j.SD.ARI),
		NMI: st(j.NMI, j.SD.NMI), Compactness: st(j.Compactness, j.SD.Compactness), DB: st(j.DB, j.SD.DB),
		TrainSeconds: st(j.TrainSeconds, j.SD.TrainSeconds), ClusterSeconds: st(j.ClusterSeconds, j.SD.ClusterSeconds),
		Clusters: st(j.Clusters, j.SD.Clusters),
		Status:   j.Status, GridEvaluated: j.GridEvaluated, GridTotal: j.GridTotal, Note: j.Note,
	}
	return nil
}

package metrics

import (
	"encoding/json"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Validity holds every validity index of one clustering, as returned by
// [Evaluate]. (Score means f(x) elsewhere in this project.)
// An index that is undefined or was not computed is NaN.
//
// encoding/json cannot encode NaN or ±Inf, so Validity has its own
// [Validity.MarshalJSON] and [Validity.UnmarshalJSON], which write such a
// value as null and read null back as NaN.
type Validity struct {
	Purity      float64 `json:"purity"`      // see Purity; larger is better
	Rand        float64 `json:"rand"`        // see Rand; larger is better
	ARI         float64 `json:"ari"`         // see AdjustedRand; larger is better
	NMI         float64 `json:"nmi"`         // see NMI; larger is better
	DB          float64 `json:"db"`          // see DaviesBouldin; smaller is better
	Compactness float64 `json:"compactness"` // see Compactness; smaller is better
	Clusters    int     `json:"clusters"`    // see NumClusters
	// Unlabelled counts the rows without a true class that [Assess] left
	// out of Purity, Rand, ARI and NMI (omitted from JSON when 0).
	Unlabelled int `json:"unlabelled,omitempty"`
}

// Evaluate returns all the indices of the clustering pred of the rows of x
// against the classes truth. The four external indices share one
// contingency table.
//
// If truth is nil, Purity, Rand, ARI and NMI are NaN. If x is nil, DB
// and Compactness are NaN. Evaluate panics if truth is not nil and its
// length differs from len(pred), and if x is not nil and does not have
// len(pred) rows.
func Evaluate(x mat.Matrix, truth, pred []int) Validity {
	nan := math.NaN()
	s := Validity{
		Purity: nan, Rand: nan, ARI: nan, NMI: nan, DB: nan, Compactness: nan,
		Clusters: NumClusters(pred),
	}
	if truth != nil {
		checkLabels(truth, pred)
		if len(truth) > 0 {
			c := newContingency(truth, pred, auto)
			c.fill(&s)
		}
	}
	if x != nil {
		s.DB = DaviesBouldin(x, pred)
		s.Compactness = Compactness(x, pred)
	}
	return s
}

// validityJSON is the JSON form of Validity, in which nil stands for null.
type validityJSON struct {
	Purity      *float64 `json:"purity"`
	Rand        *float64 `json:"rand"`
	ARI         *float64 `json:"ari"`
	NMI         *float64 `json:"nmi"`
	DB          *float64 `json:"db"`
	Compactness *float64 `json:"compactness"`
	Clusters    int      `json:"clusters"`
	Unlabelled  int      `json:"unlabelled,omitempty"`
}

// finite returns &v, or nil if v is NaN or ±Inf.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// MarshalJSON implements [json.Marshaler]. It writes each NaN or ±Inf
// field as null. Inf therefore reads back as NaN.
func (s Validity) MarshalJSON() ([]byte, error) {
	return json.Marshal(validityJSON{
		Purity:      finite(s.Purity),
		Rand:        finite(s.Rand),
		ARI:         finite(s.ARI),
		NMI:         finite(s.NMI),
		DB:          finite(s.DB),
		Compactness: finite(s.Compactness),
		Clusters:    s.Clusters,
		Unlabelled:  s.Unlabelled,
	})
}

// UnmarshalJSON implements [json.Unmarshaler]. It reads null as NaN. As
// with encoding/json in general, a field missing from data keeps its value.
func (s *Validity) UnmarshalJSON(data []byte) error {
	// The pointers start at the fields of s, so numbers are decoded into s
	// directly, a missing field leaves its pointer (and s) alone, and null
	// sets its pointer to nil.
	aux := validityJSON{
		Purity:      &s.Purity,
		Rand:        &s.Rand,
		ARI:         &s.ARI,
		NMI:         &s.NMI,
		DB:          &s.DB,
		Compactness: &s.Compactness,
		Clusters:    s.Clusters,
		Unlabelled:  s.Unlabelled,
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	for _, f := range []struct {
		p   *float64
		dst *float64
	}{
		{aux.Purity, &s.Purity},
		{aux.Rand, &s.Rand},
		{aux.ARI, &s.ARI},
		{aux.NMI, &s.NMI},
		{aux.DB, &s.DB},
		{aux.Compactness, &s.Compactness},
	} {
		if f.p == nil {
			*f.dst = math.NaN()
		}
	}
	s.Clusters, s.Unlabelled = aux.Clusters, aux.Unlabelled
	return nil
}

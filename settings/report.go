package settings

import (
	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/cluster"
)

// Report is what `svclust fit -json` reports of a run, less what needs the
// data file (a -stream sample, the metrics of a label column): the size
// of the data, the model, the clustering and the settings that made them.
// Its JSON keys are the command's; the Python package writes the same.
type Report struct {
	N              int       `json:"n"`
	D              int       `json:"d"`
	Clusters       int       `json:"clusters"`
	Sizes          []int     `json:"sizes"` // rows of each cluster 0, 1, …, k−1
	SupportVectors int       `json:"support_vectors"`
	Iterations     int       `json:"iterations"`
	Status         string    `json:"status"`
	Objective      float64   `json:"objective"`
	StripSize      int       `json:"strip_size"`
	Equilibria     int       `json:"equilibria"`
	Eps            float64   `json:"eps"`
	TrainSeconds   float64   `json:"train_seconds"`
	AssignSeconds  float64   `json:"assign_seconds"`
	Gamma          float64   `json:"gamma"`
	C              float64   `json:"C"`
	Budget         int       `json:"budget"`
	Rule           string    `json:"rule"`
	MinSize        int       `json:"min_size,omitempty"`
	Stability      []float64 `json:"stability,omitempty"`
	RipplesJoined  int       `json:"ripples_joined"`
	// RankLinks is cluster.Result.RankLinks: the modes were grouped by
	// rank-based links (a projected model of two or more dimensions).
	RankLinks bool `json:"rank_links,omitempty"`
	// Outlier summarises the outlier scores of the rows.
	Outlier  *Outlier `json:"outlier,omitempty"`
	Choice   *Choice  `json:"choice,omitempty"`
	Strategy string   `json:"strategy"`
	Scale    string   `json:"scale"`
	Seed     uint64   `json:"seed"`
}

// Outlier is what a Report says of the outlier scores of the rows: how
// many reach the threshold (those -outliers labels −1; −1 when the
// Result holds no scores, see cluster.Result.OutlierScores), the
// threshold, and the fence D₀ of the depths, at which the score is ½.
type Outlier struct {
	Count     int     `json:"count"`
	Threshold float64 `json:"threshold"`
	Fence     float64 `json:"fence"`
}

// Choice is what a Report says of auto.Choice: the statistics behind
// each automatic setting.
type Choice struct {
	GammaAuto  bool    `json:"gamma_auto"`
	CAuto      bool    `json:"C_auto"`
	BudgetAuto bool    `json:"budget_auto"`
	Sample     int     `json:"sample,omitempty"`
	Rho        float64 `json:"rho,omitempty"`
	Cover      int     `json:"cover,omitempty"`
	KappaMax   float64 `json:"kappa_max,omitempty"`
	Scale      float64 `json:"C_scale,omitempty"`
	// The adaptive widths (auto.Choice.RhoWidth): "adaptive" or
	// "global", and the statistics of the rule.
	Width       string  `json:"width"`
	RhoWidth    float64 `json:"rho_width,omitempty"`
	Narrowed    int     `json:"narrowed,omitempty"`
	WidthMin    float64 `json:"width_min,omitempty"`
	WidthMedian float64 `json:"width_median,omitempty"`
	// Subspace is the subspace rule's decision, nil when it was not
	// measured (fewer than four features, γ or C given).
	Subspace *Subspace `json:"subspace,omitempty"`
	// MinIter is auto.Choice.MinIter: the SGD steps before the
	// stopping rule, when chosen from the number of rows.
	MinIter int `json:"min_iter,omitempty"`
}

// Subspace is what a Report says of the subspace rule of svclust.Choose:
// whether the kernel works on a projection of the features, and why.
type Subspace struct {
	Projected bool   `json:"projected"`
	Reason    string `json:"reason"`
	// Concentration is ρ_med/ρ, projected when below Threshold.
	Concentration float64 `json:"concentration"`
	Threshold     float64 `json:"threshold"`
	IntrinsicDim  float64 `json:"intrinsic_dim"`
	// ConcentrationScaled is Concentration scaled to a sample of 2,000
	// rows when fewer were sampled, and then the value compared with
	// Threshold (auto.Choice.ConcentrationScaled).
	ConcentrationScaled float64 `json:"concentration_scaled,omitempty"`
	// Q directions kept: those above the noise Edge; EigenKept the
	// smallest kept, EigenNext the next. Silverman is the bandwidth that
	// floors the width in the subspace.
	Q         int     `json:"q,omitempty"`
	Edge      float64 `json:"edge,omitempty"`
	EigenKept float64 `json:"eigen_kept,omitempty"`
	EigenNext float64 `json:"eigen_next,omitempty"`
	Silverman float64 `json:"silverman,omitempty"`
}

// subspaceOf returns the Subspace report of c, nil when the rule was not
// measured.
func subspaceOf(c auto.Choice) *Subspace {
	if c.ConcentrationMax == 0 {
		return nil
	}
	s := &Subspace{
		Projected: c.Projected, Concentration: c.Concentration, Threshold: c.ConcentrationMax,
		IntrinsicDim: c.IntrinsicDim, Q: c.Q, Edge: c.Edge, EigenKept: c.EigenKept, EigenNext: c.EigenNext,
		Silverman: c.Silverman, ConcentrationScaled: c.ConcentrationScaled,
		Reason: "concentration at or above threshold: distances do not concentrate, the kernel resolves the features",
	}
	switch {
	case c.ConcentrationScaled > 0 && !c.Projected && c.Concentration < c.ConcentrationMax:
		s.Reason = "concentration below threshold on this sample but not once scaled to 2,000 rows (neighbour distances grow as the sample shrinks): the kernel resolves the features"
	case c.Projected:
		s.Reason = "concentration below threshold: distances concentrate, the kernel works on the q directions above the noise edge"
	}
	return s
}

// NewReport returns the report of the model m and its clustering cl of n
// rows of d features, with Rule, Strategy, Scale and Seed left for the
// caller (see [Settings.Report]).
func NewReport(m *svclust.Model, cl *cluster.Result, n, d int) *Report {
	c := m.Choice
	var out *Outlier
	if cl.OutlierThreshold > 0 {
		out = &Outlier{Count: -1, Threshold: cl.OutlierThreshold, Fence: cl.OutlierFence}
		if cl.OutlierScores != nil {
			out.Count = 0
			for _, s := range cl.OutlierScores {
				if s >= cl.OutlierThreshold {
					out.Count++
				}
			}
		}
	}
	return &Report{
		N: n, D: d,
		Clusters:       cl.Clusters,
		Sizes:          Sizes(cl.Labels, cl.Clusters),
		SupportVectors: len(m.Alpha),
		Iterations:     m.Stats.Iterations,
		Status:         m.Status.String(),
		Objective:      m.Stats.Objective,
		StripSize:      cl.StripSize,
		Equilibria:     cl.Equilibria,
		Eps:            cl.Eps,
		TrainSeconds:   m.Stats.Runtime.Seconds(),
		AssignSeconds:  cl.Runtime.Seconds(),
		Gamma:          m.Gamma,
		C:              m.C,
		Budget:         c.Budget,
		MinSize:        cl.MinSize,
		Stability:      cl.Stability,
		RipplesJoined:  cl.Ripples,
		RankLinks:      cl.RankLinks,
		Outlier:        out,
		Choice: &Choice{
			GammaAuto: c.GammaAuto, CAuto: c.CAuto, BudgetAuto: c.BudgetAuto,
			Sample: c.Sample, Rho: c.Rho, Cover: c.Cover, KappaMax: c.KappaMax, Scale: c.Scale,
			Width: c.WidthRule().String(), RhoWidth: c.RhoWidth, Narrowed: c.Narrowed,
			WidthMin: c.WidthMin, WidthMedian: c.WidthMedian,
			Subspace: subspaceOf(c), MinIter: c.MinIter,
		},
	}
}

// Sizes returns the number of labels 0, 1, …, k−1 in labels: the sizes
// of the clusters, outliers (−1) left out.
func Sizes(labels []int, k int) []int {
	sizes := make([]int, k)
	for _, l := range labels {
		if l >= 0 {
			sizes[l]++
		}
	}
	return sizes
}

// Report returns the report of a run with the settings s.
func (s *Settings) Report(m *svclust.Model, cl *cluster.Result, n, d int) *Report {
	r := NewReport(m, cl, n, d)
	r.Rule, r.Strategy, r.Scale, r.Seed = s.Rule, s.Maintain, s.Scale, s.Seed
	return r
}

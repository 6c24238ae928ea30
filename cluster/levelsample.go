package cluster

import (
	"math"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/parallel"
)

// Of more than levelRows rows, the level tree of [Levels] (modes, links,
// excess of mass, ripples) is built from every ⌈N/levelSample⌉-th row in
// the order of the data (no random choice; 40,001 to 50,000 rows), with
// the smallest cluster scaled to that sample, and every row then takes
// its label and outlier score in one pass, as [LevelTree.PredictScores]
// gives them: a fit costs a twentieth of a pass plus one pass, not two
// passes. No data set of at most levelRows rows changes; levelRows is
// the sample fit -stream clusters (stream.DefaultSampleSize). The sample
// keeps about 300 rows or more of a cluster of the default smallest size
// (docs/defaults.md, levelRows).
const (
	levelRows   = 200_000
	levelSample = 50_000
)

// fitSampled is fit for data of more than levelRows rows: the level tree
// of every stride-th row, stride = ⌈n/rows⌉, then one pass over all rows for
// their labels and outlier scores (fitOutliers). Labels and scores are
// those PredictScores gives with the partition returned.
func (cfg *Levels) fitSampled(m *svclust.Model, data, r2 []float64, n, d, rows int) *Result {
	w := parallel.Workers(cfg.Workers)
	stride := (n + rows - 1) / rows
	ns := (n + stride - 1) / stride
	sample := make([]float64, 0, ns*d)
	for i := 0; i < n; i += stride {
		sample = append(sample, data[i*d:i*d+d]...)
	}
	// The smallest cluster, in rows of the data, and its share of the
	// sample.
	minSize := cfg.MinSize
	if minSize == 0 {
		minSize = defaultMinSize(n)
	}
	sampleMin := defaultMinSize(ns)
	if cfg.MinSize != 0 {
		sampleMin = max(1, int(math.Ceil(float64(cfg.MinSize)*float64(ns)/float64(n))))
	}
	mm := orDefault(cfg.M, DefaultM)
	// Progress reports the pass over every row, not the sample's.
	quiet := *cfg
	quiet.Progress = nil
	lt := quiet.clusterLevels(m, sample, ns, d, sampleMin, mm, w)
	sample = nil

	// One pass: each row's owner gives its cluster, its components its
	// outlier score.
	labels := make([]int, n)
	o, score := fitOutliers(m, lt.terms, data, r2, n, d, w, progressOf(cfg.Progress, n), func(i int, o int32) {
		labels[i] = lt.svCluster[o]
	})
	t := threshold(cfg.OutlierThreshold)
	if cfg.Outliers {
		for i, sc := range score {
			if sc >= t {
				labels[i] = -1
			}
		}
	}
	o.Threshold = t
	p := &LevelTree{
		model: m, terms: lt.terms,
		data: LevelTreeData{SVCluster: lt.svCluster, Birth: lt.birth, Outliers: cfg.Outliers, M: mm, Outlier: o},
	}
	p.setScorer()
	return &Result{
		Partition: p,
		Labels:    labels, Clusters: lt.clusters, Equilibria: lt.modes,
		MinSize: minSize, Stability: lt.stability, Ripples: lt.ripples, RankLinks: lt.rankLinks,
		OutlierScores: score, OutlierFence: o.Fence, OutlierThreshold: t,
	}
}

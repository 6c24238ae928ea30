package settings

import (
	"errors"
	"flag"
	"slices"
	"strconv"
	"strings"

	"github.com/svclust/svclust"
)

// Register defines the flags of s on fs, with the values of s as their
// defaults, except those named in omit (without the dash): tune leaves out
// "gamma" and "C", which its grids replace, and only fit has "stream".
func (s *Settings) Register(fs *flag.FlagSet, omit ...string) {
	def := func(name string) bool { return !slices.Contains(omit, name) }
	if def("gamma") {
		fs.Var(&s.Gamma, "gamma", "kernel width γ in exp(-γ‖x-y‖²): a `number` > 0, or auto")
	}
	if def("C") {
		fs.Var(&s.C, "C", "trade-off C of the objective: a `number` > 0, or auto (chosen from the data); the domain f ≥ 0 is empty unless C > 1")
	}
	if def("budget") {
		fs.Var(&s.Budget, "budget", "largest number of support vectors: a `number` (0 means no budget), or auto (chosen from the data)")
	}
	if def("width") {
		fs.StringVar(&s.Width, "width", s.Width, "kernel widths when γ and C are both auto: adaptive (narrower kernels where the data are denser than the median) or global (one γ)")
	}
	if def("space") {
		fs.StringVar(&s.Space, "space", s.Space, "where the kernel works when γ and C are both auto: auto (on the principal directions above noise when 4+ features' distances concentrate) or input (the features)")
	}
	if def("rule") {
		fs.StringVar(&s.Rule, "rule", s.Rule, "cluster assignment: levels (the tree of the levels of f) or components (the paper's Algorithm 3: components of f ≥ 0)")
	}
	if def("min-size") {
		fs.Var(&s.MinSize, "min-size", "smallest cluster of -rule levels, in `rows`, or auto (0.75 % of the rows, at least 5)")
	}
	if def("maintain") {
		fs.StringVar(&s.Maintain, "maintain", s.Maintain, "budget maintenance: "+orList(svclust.MaintainerNames()))
	}
	if def("k") {
		fs.Var(given{&s.K, &s.KGiven}, "k", "number of support vectors a projection projects onto; at most the budget, given or chosen from the data")
	}
	if def("eps") {
		fs.Var(&s.Eps, "eps", "half-width ε of the strip |f| ≤ ε whose points follow trajectories (-rule components): a `number` > 0, or auto (a quantile of |f|)")
	}
	if def("tol") {
		fs.Float64Var(&s.Tol, "tol", s.Tol, "stopping threshold θ on ‖w_{t+1} − w_t‖; 0 runs -max-iter steps")
	}
	if def("max-iter") {
		fs.IntVar(&s.MaxIter, "max-iter", s.MaxIter, "largest number of SGD steps; 0 means 1,000,000")
	}
	if def("min-iter") {
		fs.IntVar(&s.MinIter, "min-iter", s.MinIter, "SGD steps before the stopping rule is checked; 0 means 10,000 (with γ and C auto, 4 per row within [10,000, 12,000]), -1 checks it from the first step as the paper does")
	}
	if def("m") {
		fs.IntVar(&s.M, "m", s.M, "number of points of the segment test")
	}
	if def("scale") {
		fs.StringVar(&s.Scale, "scale", s.Scale, "feature scaling fitted on the data: none, zscore or minmax")
	}
	if def("seed") {
		fs.Uint64Var(&s.Seed, "seed", s.Seed, "random seed of training")
	}
	if def("workers") {
		fs.IntVar(&s.Workers, "workers", s.Workers, "number of goroutines; 0 means all cores")
	}
	if def("label") {
		fs.Var(givenString{&s.Label, &s.LabelGiven}, "label", "`name` of the ground-truth column, which is never a feature; without it no metrics are computed; when given, the column must exist")
	}
	if def("all") {
		fs.BoolVar(&s.All, "all", s.All, "run a trajectory from every point instead of the strip only (-rule components)")
	}
	if def("outliers") {
		fs.BoolVar(&s.Outliers, "outliers", s.Outliers, "label as -1 the points whose outlier score is at least -outlier-threshold")
	}
	if def("outlier-threshold") {
		fs.Float64Var(&s.OutlierThreshold, "outlier-threshold", s.OutlierThreshold, "outlier score in (0, 1) at and above which a point is an outlier (0.5: its remoteness reaches the fence Q3 + 3 IQR of the training rows')")
	}
	if def("stream") {
		fs.BoolVar(&s.Stream, "stream", s.Stream, "for data larger than memory: train on a seeded sample of the rows and label the file in a second pass, in memory independent of its length; implies -all")
	}
	if def("sample") {
		fs.Var(given{&s.Sample, &s.SampleGiven}, "sample", "number of rows `n` that -stream keeps for training")
	}
}

// given is an int flag that records whether it was given.
type given struct {
	v   *int
	set *bool
}

func (g given) String() string {
	if g.v == nil {
		return "0"
	}
	return strconv.Itoa(*g.v)
}

func (g given) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return errors.New("not an integer")
	}
	*g.v, *g.set = n, true
	return nil
}

// givenString is a string flag that records whether it was given.
type givenString struct {
	s   *string
	set *bool
}

func (g givenString) String() string {
	if g.s == nil {
		return ""
	}
	return *g.s
}

func (g givenString) Set(v string) error {
	*g.s, *g.set = v, true
	return nil
}

// orList returns "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseSep returns the field separator that -sep names: 0 for "" or auto
// (the separator is found in the header), ',' for , or comma, ';' for ; or
// semicolon, '\t' for a tab, \t or tab. Its error names the flag.
func ParseSep(s string) (byte, error) {
	switch s {
	case "", "auto":
		return 0, nil
	case ",", "comma":
		return ',', nil
	case ";", "semicolon":
		return ';', nil
	case "\t", `\t`, "tab":
		return '\t', nil
	}
	return 0, errorf("-sep", "%s must be , ; or tab, not %q", flagRef("-sep"), s)
}

package settings

import (
	"errors"
	"math"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// Validate checks every setting and returns the first *Error, which names
// its flag, or nil. It checks what Config and ClusterMethod check, then
// -scale and, with Stream, -sample; without Stream, -sample must not have
// been given.
func (s *Settings) Validate() error {
	if _, err := s.Config(); err != nil {
		return err
	}
	if _, err := s.ClusterMethod(); err != nil {
		return err
	}
	if _, err := s.Scaling(); err != nil {
		return err
	}
	switch {
	case s.SampleGiven && !s.Stream:
		return errorf("-sample", "%s needs %s", flagRef("-sample"), flagRef("-stream"))
	case !s.Stream:
	case s.Sample < 1:
		return errorf("-sample", "%s must be ≥ 1", flagRef("-sample"))
	default:
		return AtMost("-sample", s.Sample, MaxSample)
	}
	return nil
}

// Config returns the training configuration of s, or the *Error of the
// first bad training flag. Seed is s.Seed.
func (s *Settings) Config() (svclust.Config, error) {
	var c svclust.Config
	if !s.Gamma.Auto {
		if !positive(s.Gamma.Value) {
			return c, errorf("-gamma", `%s must be > 0 or "auto"`, flagRef("-gamma"))
		}
		c.Gamma = s.Gamma.Value
	}
	if !s.C.Auto {
		if !positive(s.C.Value) {
			return c, errorf("-C", `%s must be > 0 or "auto"`, flagRef("-C"))
		}
		c.C = s.C.Value
	}
	// The one place where -budget meets Config.Budget: auto is the
	// library's 0, no budget (-budget 0) its NoBudget.
	switch b := s.Budget; {
	case b.Auto:
	case b.Value < 0:
		return c, errorf("-budget", `%s must be ≥ 0 (0 means no budget) or "auto"`, flagRef("-budget"))
	case b.Value == 0:
		c.Budget = svclust.NoBudget
	default:
		if err := AtMost("-budget", b.Value, MaxBudget); err != nil {
			return c, err
		}
		c.Budget = b.Value
	}
	width, err := auto.ParseWidth(s.Width)
	if err != nil {
		return c, errorf("-width", "%s must be adaptive or global, not %q", flagRef("-width"), s.Width)
	}
	c.Width = width
	space, err := auto.ParseSpace(s.Space)
	if err != nil {
		return c, errorf("-space", "%s must be auto or input, not %q", flagRef("-space"), s.Space)
	}
	c.Space = space
	if s.K < 1 {
		return c, errorf("-k", "%s must be ≥ 1", flagRef("-k"))
	}
	k := 0 // the library's default, capped by the budget
	if s.KGiven {
		k = s.K
	}
	mt, err := svclust.ParseMaintainer(s.Maintain, k)
	if _, proj := mt.(svclust.Projection); s.KGiven && !proj {
		return c, errorf("-k", "%s applies only to %s project-knn and project-random, not %s", flagRef("-k"), flagRef("-maintain"), s.Maintain)
	}
	if err != nil {
		return c, errorf("-maintain", "%s must be %s, not %q", flagRef("-maintain"), orList(svclust.MaintainerNames()), s.Maintain)
	}
	c.Maintainer = mt
	switch {
	case !(s.Tol >= 0) || math.IsInf(s.Tol, 0):
		return c, errorf("-tol", "%s must be ≥ 0 and finite (0 runs %s steps)", flagRef("-tol"), flagRef("-max-iter"))
	case s.Tol == 0:
		c.Tol = -1 // the library's "no stopping rule"
	default:
		c.Tol = s.Tol
	}
	if s.MaxIter < 0 {
		return c, errorf("-max-iter", "%s must be ≥ 0 (0 means the default)", flagRef("-max-iter"))
	}
	if err := AtMost("-max-iter", s.MaxIter, MaxIter); err != nil {
		return c, err
	}
	c.MaxIter = s.MaxIter
	if s.MinIter < -1 {
		return c, errorf("-min-iter", "%s must be ≥ -1 (0 means the default, -1 the paper's rule)", flagRef("-min-iter"))
	}
	if err := AtMost("-min-iter", s.MinIter, MaxIter); err != nil {
		return c, err
	}
	c.MinIter = s.MinIter
	if err := s.checkWorkers(); err != nil {
		return c, err
	}
	c.Seed = s.Seed
	c.Workers = s.Workers
	// Let the library check what is left (such as -k against -budget).
	if err := c.Validate(); err != nil {
		return c, FlagError(err)
	}
	return c, nil
}

// ClusterMethod returns the clustering rule of s with its settings
// (*cluster.Levels or *cluster.Components), or the *Error of the first
// bad clustering flag. It is the one function of the package that names
// the clustering package's types.
func (s *Settings) ClusterMethod() (cluster.Method, error) {
	rule, err := cluster.ParseRule(s.Rule)
	if err != nil {
		return nil, errorf("-rule", "%s must be levels or components, not %q", flagRef("-rule"), s.Rule)
	}
	var lv cluster.Levels
	var cp cluster.Components
	if !s.MinSize.Auto {
		if s.MinSize.Value < 1 {
			return nil, errorf("-min-size", `%s must be ≥ 1 or "auto"`, flagRef("-min-size"))
		}
		if rule != cluster.RuleLevels {
			return nil, errorf("-min-size", "%s applies only to %s levels", flagRef("-min-size"), flagRef("-rule"))
		}
		lv.MinSize = s.MinSize.Value
	}
	components := rule == cluster.RuleComponents
	if !components && (s.All || !s.Eps.Auto) {
		flag := "-eps"
		if s.All {
			flag = "-all"
		}
		return nil, errorf(flag, "%s and %s apply only to %s components", flagRef("-all"), flagRef("-eps"), flagRef("-rule"))
	}
	if !s.Eps.Auto {
		if !positive(s.Eps.Value) {
			return nil, errorf("-eps", `%s must be > 0 or "auto"`, flagRef("-eps"))
		}
		cp.Eps = s.Eps.Value
	}
	if s.M < 2 {
		return nil, errorf("-m", "%s must be ≥ 2", flagRef("-m"))
	}
	if err := AtMost("-m", s.M, MaxM); err != nil {
		return nil, err
	}
	lv.M, cp.M = s.M, s.M
	if err := s.checkWorkers(); err != nil {
		return nil, err
	}
	// With -rule components, a streamed run labels every row by its
	// trajectory after training, so its sample is clustered as -all
	// clusters the data; -rule levels labels every row by its support
	// vector.
	cp.All = s.All || (s.Stream && components)
	lv.Outliers, cp.Outliers = s.Outliers, s.Outliers
	if t := s.OutlierThreshold; !(t > 0 && t < 1) {
		return nil, errorf("-outlier-threshold", "%s must be in (0, 1), not %v", flagRef("-outlier-threshold"), t)
	}
	lv.OutlierThreshold, cp.OutlierThreshold = s.OutlierThreshold, s.OutlierThreshold
	lv.Workers, cp.Workers = s.Workers, s.Workers
	var m cluster.Method = &lv
	if components {
		m = &cp
	}
	if err := m.Validate(); err != nil {
		return nil, FlagError(err)
	}
	return m, nil
}

// Scaling returns the feature scaling of -scale.
func (s *Settings) Scaling() (dataset.Scale, error) {
	sc, err := dataset.ParseScale(s.Scale)
	if err != nil {
		return sc, errorf("-scale", "%s must be none, zscore or minmax, not %q", flagRef("-scale"), s.Scale)
	}
	return sc, nil
}

func (s *Settings) checkWorkers() error {
	if s.Workers < 0 {
		return errorf("-workers", "%s must be ≥ 0 (0 means all cores)", flagRef("-workers"))
	}
	return AtMost("-workers", s.Workers, MaxWorkers)
}

// positive reports whether v is a number > 0 and finite: γ, C and ε.
func positive(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

// flagOf maps the Field of a *svclust.ConfigError to the flag that sets it.
var flagOf = map[string]string{
	"Gamma":        "-gamma",
	"C":            "-C",
	"Budget":       "-budget",
	"Width":        "-width",
	"Space":        "-space",
	"Maintainer.K": "-k",
	"Tol":          "-tol",
	"MaxIter":      "-max-iter",
	"MinIter":      "-min-iter",
	"Eps":          "-eps",
	"M":            "-m",
	"Workers":      "-workers",
	"Rule":         "-rule",
	"MinSize":      "-min-size",
	// Both rules' threshold of the outlier score.
	"OutlierThreshold": "-outlier-threshold",
}

// FlagOf returns the flag that sets the field of svclust.Config or of the
// clustering configuration named in a *svclust.ConfigError, or "".
func FlagOf(field string) string { return flagOf[field] }

// FlagError turns a *svclust.ConfigError in err into an *Error that names
// the flag of its field ("-k 9: must be ≤ the budget"), and returns other
// errors unchanged. A field no flag sets gives an *Error with no Flag and
// the library's message.
func FlagError(err error) error {
	var ce *svclust.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	name, ok := flagOf[ce.Field]
	if !ok {
		return &Error{format: "%s", args: []any{err.Error()}}
	}
	return errorf(name, "%s %v: %s", flagRef(name), ce.Value, ce.Reason)
}

package settings

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/stream"
)

// Settings are the settings of one run, as the flags give them; each field
// names its flag. The zero value is not valid: start from [Default]. A
// Settings holds no function and no interface, so it encodes as JSON and
// decodes to an equal value.
type Settings struct {
	// Gamma is -gamma, the kernel width γ in exp(-γ‖x−y‖²): > 0, or auto.
	Gamma Float
	// C is -C, the trade-off of the objective: > 0, or auto.
	C Float
	// Budget is -budget, the largest number of support vectors: auto, 0
	// for no budget, or at most MaxBudget (see the package doc for its
	// mapping to svclust.Config.Budget).
	Budget Int
	// Width is -width, the kernel widths when γ and C are both auto:
	// adaptive or global.
	Width string
	// Space is -space, where the kernel works when γ and C are both auto:
	// auto (a projection of data of at least four features whose
	// distances concentrate) or input (the features).
	Space string
	// Rule is -rule, the cluster assignment: levels or components.
	Rule string
	// MinSize is -min-size, the smallest cluster of -rule levels in rows:
	// ≥ 1, or auto.
	MinSize Int
	// Maintain is -maintain, the budget maintenance (see
	// svclust.MaintainerNames).
	Maintain string
	// K is -k, the support vectors a projection projects onto, and
	// KGiven records that -k was given (see the package doc).
	K      int
	KGiven bool
	// Eps is -eps, the half-width of the strip of -rule components: > 0,
	// or auto.
	Eps Float
	// Tol is -tol, the stopping threshold θ: ≥ 0 and finite, 0 running
	// MaxIter steps.
	Tol float64
	// MaxIter is -max-iter, the most SGD steps: 0 for the library's
	// default, at most MaxIter. MinIter is -min-iter, the steps before
	// the stopping rule is checked: 0 for the default, −1 the paper's
	// rule, at most MaxIter.
	MaxIter, MinIter int
	// M is -m, the points of the segment test: 2 to MaxM.
	M int
	// Scale is -scale, the feature scaling: none, zscore or minmax.
	Scale string
	// Seed is -seed, the seed of every random choice of the run.
	Seed uint64
	// Workers is -workers, the goroutines: 0 for all cores, at most
	// MaxWorkers.
	Workers int
	// Label is -label, the name of the ground-truth column, and
	// LabelGiven records that -label was given: the column must exist.
	Label      string
	LabelGiven bool
	// All is -all: with -rule components, every point follows its
	// trajectory, not only those of the strip.
	All bool
	// Outliers is -outliers: label −1 the points whose outlier score is
	// at least OutlierThreshold.
	Outliers bool
	// OutlierThreshold is -outlier-threshold, the outlier score at and
	// above which a point is an outlier: in (0, 1), stored in the model.
	OutlierThreshold float64
	// Stream is set when the model is trained on a sample of Sample rows
	// and every row is labelled afterwards (fit -stream, svclust-beam);
	// SampleGiven records that -sample was given, which needs -stream.
	Stream      bool
	Sample      int
	SampleGiven bool
	// TunedGamma and TunedC are set by tune when γ or C is the best of
	// its grid, for the run record.
	TunedGamma, TunedC bool
}

// Default returns the default settings, those of the flags' defaults.
func Default() *Settings {
	return &Settings{
		Gamma:    Float{Auto: true},
		C:        Float{Auto: true},
		Budget:   Int{Auto: true},
		Width:    "adaptive",
		Space:    "auto",
		Rule:     "levels",
		MinSize:  Int{Auto: true},
		Maintain: "merge",
		K:        svclust.DefaultK,
		Eps:      Float{Auto: true},
		Tol:      svclust.DefaultTol,
		M:        cluster.DefaultM,
		// The score's ½ is the fence D₀ (docs/outliers.md).
		OutlierThreshold: cluster.DefaultOutlierThreshold,
		Scale:            "zscore",
		Seed:             1,
		Label:            "label",
		// Clustering the sample scores 200,000 rows (-rule levels) or
		// runs 200,000 trajectories (-rule components).
		Sample: stream.DefaultSampleSize,
	}
}

// TakesK reports whether the budget maintenance takes -k: a projection
// (project-knn, project-random).
func (s *Settings) TakesK() bool { return strings.HasPrefix(s.Maintain, "project") }

// NoBudget reports whether -budget is 0: no budget.
func (s *Settings) NoBudget() bool { return !s.Budget.Auto && s.Budget.Value == 0 }

// Float is the value of a flag that is a number or the word auto. Its
// zero value is the number 0.
type Float struct {
	Auto  bool
	Value float64 // when not Auto
}

// String returns "auto" or the number.
func (a *Float) String() string {
	if a == nil || a.Auto {
		return "auto"
	}
	return strconv.FormatFloat(a.Value, 'g', -1, 64)
}

// Set sets a from "auto" (in any case) or a number.
func (a *Float) Set(s string) error {
	if strings.EqualFold(s, "auto") {
		*a = Float{Auto: true}
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errors.New(`not a number or "auto"`)
	}
	*a = Float{Value: v}
	return nil
}

// Int is the value of a flag that is a whole number or the word auto.
// Its zero value is the number 0.
type Int struct {
	Auto  bool
	Value int // when not Auto
}

// String returns "auto" or the number.
func (a *Int) String() string {
	if a == nil || a.Auto {
		return "auto"
	}
	return strconv.Itoa(a.Value)
}

// Set sets a from "auto" (in any case) or a whole number.
func (a *Int) Set(s string) error {
	if strings.EqualFold(s, "auto") {
		*a = Int{Auto: true}
		return nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return errors.New(`not a whole number or "auto"`)
	}
	*a = Int{Value: v}
	return nil
}

// An Error is a bad setting. Its message names the flag at fault, as the
// command line spells it; Flag is that flag ("" when none is known). The
// flags the message names are kept apart from its text, so that a front
// end with names of its own (the Python package) renders it with
// [Error.Named].
type Error struct {
	Flag   string
	format string
	args   []any // values, and a flagRef for each flag named
}

// flagRef is a flag named in the message of an Error.
type flagRef string

// Error returns the message, which names the flags as the command line
// spells them.
func (e *Error) Error() string { return e.Named(nil) }

// Named returns the message with each flag it names replaced by
// name(flag), such as "min_cluster_size" for "-min-size"; nil keeps the
// flags.
func (e *Error) Named(name func(flag string) string) string {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		if f, ok := a.(flagRef); ok {
			if name != nil {
				a = name(string(f))
			} else {
				a = string(f)
			}
		}
		args[i] = a
	}
	return fmt.Sprintf(e.format, args...)
}

// errorf returns the *Error of flag with the message format and arguments
// a, in which each flag named is a flagRef.
func errorf(flag, format string, a ...any) error {
	return &Error{Flag: flag, format: format, args: a}
}

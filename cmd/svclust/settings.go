package main

import (
	"fmt"
	"strings"
)

// settings is what the summary, the -json report and the model file's run
// record say of a run's flags: their names and values as given, and how
// each automatic value was chosen. The flags stop at validation (setup
// holds the library's configuration) and at settings: the reports read
// these, never fitFlags.
type settings struct {
	rule     string // -rule
	maintain string // -maintain
	k        int    // -k, given or the default
	scale    string // -scale, as given
	seed     uint64
	label    string // -label
	outliers bool
	// gammaAuto, CAuto and budgetAuto are set when the value was left to
	// the data; tunedGamma and tunedC when it is the best of tune's grid.
	gammaAuto, CAuto, budgetAuto bool
	tunedGamma, tunedC           bool
	noBudget                     bool // -budget 0
}

// settings returns the report settings of the flags o.
func (o *fitFlags) settings() *settings {
	return &settings{
		rule:       o.rule,
		maintain:   o.maintain,
		k:          o.k.v,
		scale:      o.scale,
		seed:       o.seed,
		label:      o.label,
		outliers:   o.outliers,
		gammaAuto:  o.gamma.auto,
		CAuto:      o.C.auto,
		budgetAuto: o.budget.auto,
		tunedGamma: o.tunedGamma,
		tunedC:     o.tunedC,
		noBudget:   !o.budget.auto && o.budget.v == 0,
	}
}

// strategy names the budget maintenance, as the summaries of fit and tune
// print it: the k of a projection, and "none (no budget)" for -budget 0.
func (st *settings) strategy() string {
	if st.noBudget {
		return "none (no budget)"
	}
	if st.projection() {
		return fmt.Sprintf("%s (k = %d)", st.maintain, st.k)
	}
	return st.maintain
}

// projection reports whether the budget maintenance is a projection.
func (st *settings) projection() bool { return strings.HasPrefix(st.maintain, "project") }

// strategy is settings.strategy of the flags o, for tune.
func (o *fitFlags) strategy() string { return o.settings().strategy() }

// from says how γ or C was chosen, for the run record: "tune" (the best of
// tune's grid), "auto" (from the data) or "given".
func (st *settings) from(auto, tuned bool) string {
	switch {
	case tuned:
		return "tune"
	case auto:
		return "auto"
	}
	return "given"
}

// budgetFrom says how the budget was chosen: "auto" or "given".
func (st *settings) budgetFrom() string {
	if st.budgetAuto {
		return "auto"
	}
	return "given"
}

package main

import (
	"fmt"

	"github.com/svclust/svclust/settings"
)

// strategy names the budget maintenance of st, as the summaries of fit and
// tune print it: the k of a projection, and "none (no budget)" for
// -budget 0.
func strategy(st *settings.Settings) string {
	if st.NoBudget() {
		return "none (no budget)"
	}
	if st.TakesK() {
		return fmt.Sprintf("%s (k = %d)", st.Maintain, st.K)
	}
	return st.Maintain
}

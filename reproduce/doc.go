// Package reproduce implements the experiments of
//
//	Tung Pham, Trung Le, Hang Dang. Scalable Support Vector Clustering Using
//	Budget. Section 5 (the LaTeX source is ../shared/paper/scalable-svc-budget.tex)
//
// as data and code: the paper's 15 data sets and seven result tables
// (DataSets, Tables, Paper, transcribed from its LaTeX), the protocol that
// reruns them (Protocol), a report with the paper's value beside ours in
// every cell (Report.WriteMarkdown, Report.WriteJSON), and its three visual
// experiments (Figures). The command `svclust reproduce` drives it.
//
// # Methods
//
// The paper's six methods and one of ours, as Method values: SVC (Ben-Hur
// et al.'s support vector clustering: baseline.TrainSVDD and the complete
// graph), FSVC (baseline.SVDD.LabelFSVC), SGD (the unbudgeted SGD-LMOC,
// svclust.Train with Budget 0), BSGD-R, BSGD-PNN and BSGD-PRN (removal,
// projection onto the k = 5 nearest or random support vectors), and BSGD-M
// (merging, svclust.Merge), which the paper does not have.
//
// # Protocol
//
// For every data set and method, the paper's grid γ, C ∈ {2⁻⁵, 2⁻³, …,
// 2⁵} is searched at seed 1 and the setting of largest NMI is kept (ties to
// the earlier point, γ-major); then Protocol.Runs runs with seeds 1, 2, …
// at that setting give the means and standard deviations of purity, Rand,
// adjusted Rand, NMI, compactness, Davies–Bouldin, the number of clusters
// and the training and clustering times. The budget is 50, 100 for
// Shuttle. FSVC's p and ε ∈ {0.1, …, 1} are searched in a second stage at
// the best γ and C of a first stage run at p = ε = 0.5, since the full
// product is 3,600 labellings per data set.
//
// Where the paper is silent we chose, and say so in the report: the
// features are scaled (the command uses z-scores: the data sets' README
// says they are as in the sources, and the FSVC toolbox standardises);
// BSGD-R checks the paper's stopping rule from the first step, the others
// from the library's default 10,000 steps (see Protocol.RemovalMinIter).
//
// # Beyond the paper's grid
//
// The paper's grid of C stops at 2⁵, which keeps the budgeted methods from
// finding every class of several small data sets (see Reach). So a report may hold a second part (Report.Extended, an
// Extension): the budgeted methods rerun on the data sets of at most
// SmallLimit points with a wider grid of C (ExtendedGrid: up to 2¹¹),
// everything else unchanged (Protocol.RunExtended, ExtendedScope). The
// paper's grid stays the faithful reproduction: its records and tables
// are the same with or without the extended part, which has a section of
// its own, and the report's head says which is which.
//
// # Time limits
//
// Classic SVC is O(N²) and cannot finish on the larger sets, and the
// unbudgeted SGD-LMOC keeps thousands of support vectors on them, so every
// data set and method has time limits (Protocol.GridTimeout, RunsTimeout,
// RunTimeout): a grid search stops starting points once its limit is spent,
// the seeded runs stop after the first once theirs is, and one SVC or FSVC
// run ends in baseline.ErrExceeded when it runs out of its own. Every record
// says how many grid points and runs it covers, and the status "exceeded"
// when no run finished: nothing is subsampled or approximated silently.
// The SGD methods cannot be interrupted, so a point that started in time
// runs to its end.
//
// # Determinism
//
// Every random choice comes from a seed, and grid points are evaluated on
// one goroutine each and collected by their index, so apart from the
// timings the records do not depend on Protocol.Workers, unless a time
// budget runs out, which depends on the speed of the machine.
package reproduce

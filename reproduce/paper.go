package reproduce

import (
	"fmt"
	"strings"
)

// Method is one of the clustering methods the reproduction compares.
type Method string

// The paper's six methods, in the column order of its tables, and ours.
const (
	// SVC is support vector clustering (Ben-Hur et al. 2001): an exact SVDD
	// solved by SMO and labelled by the complete graph
	// (baseline.SVDD.LabelCompleteGraph).
	SVC Method = "svc"
	// SGD is the unbudgeted SGD-LMOC baseline: svclust.Train with Budget 0.
	SGD Method = "sgd"
	// FSVC is fast support-based clustering (Jung, Lee, Lee 2010): an exact
	// SVDD labelled by its equilibria (baseline.SVDD.LabelFSVC).
	FSVC Method = "fsvc"
	// BSGDR is budgeted SGD with removal (svclust.Removal).
	BSGDR Method = "bsgd-r"
	// BSGDPNN is budgeted SGD with projection onto the k = 5 nearest support
	// vectors (svclust.Projection{}).
	BSGDPNN Method = "bsgd-pnn"
	// BSGDPRN is budgeted SGD with projection onto k = 5 random support
	// vectors (svclust.Projection{Pick: svclust.Random}).
	BSGDPRN Method = "bsgd-prn"
	// BSGDM is budgeted SGD with merging (svclust.Merge), beyond the paper.
	BSGDM Method = "bsgd-m"
)

// maintainers names the budget maintenance of each budgeted SGD method,
// as svclust.ParseMaintainer reads it; its k is the default, 5.
var maintainers = map[Method]string{
	BSGDR:   "removal",
	BSGDPNN: "project-knn",
	BSGDPRN: "project-random",
	BSGDM:   "merge",
}

// methods lists every Method in table order: the paper's six columns,
// then BSGD-M.
var methods = []Method{SVC, SGD, FSVC, BSGDR, BSGDPNN, BSGDPRN, BSGDM}

// Methods returns every Method in the column order of the report: the
// paper's six, as its tables order them, then BSGD-M.
func Methods() []Method { return append([]Method(nil), methods...) }

// ParseMethod returns the Method named s, ignoring case.
func ParseMethod(s string) (Method, error) {
	for _, m := range methods {
		if strings.EqualFold(s, string(m)) {
			return m, nil
		}
	}
	names := make([]string, len(methods))
	for i, m := range methods {
		names[i] = string(m)
	}
	return "", fmt.Errorf("reproduce: unknown method %q (want one of %s)", s, strings.Join(names, ", "))
}

// Title returns the column heading of m, as the paper writes it.
func (m Method) Title() string {
	switch m {
	case SVC:
		return "SVC"
	case SGD:
		return "SGD"
	case FSVC:
		return "FSVC"
	case BSGDR:
		return "BSGD-R"
	case BSGDPNN:
		return "BSGD-PNN"
	case BSGDPRN:
		return "BSGD-PRN"
	case BSGDM:
		return "BSGD-M"
	}
	return string(m)
}

// Budgeted reports whether m keeps a budget of support vectors: the
// paper's three variants and BSGD-M.
func (m Method) Budgeted() bool {
	return m == BSGDR || m == BSGDPNN || m == BSGDPRN || m == BSGDM
}

// paperColumn returns the column of m in the paper's tables, or -1 for a
// method the paper does not have.
func paperColumn(m Method) int {
	for i, pm := range methods[:6] {
		if pm == m {
			return i
		}
	}
	return -1
}

// DataSet describes one data set of the reproduction.
type DataSet struct {
	// Name is the file name without ".csv", as in ../shared/datasets.
	Name string
	// Title is the name of the data set in the paper's tables.
	Title string
	// Budget is the budget B of the budgeted methods: 50, and 100 for
	// Shuttle, as in the paper's tables.
	Budget int
}

// DefaultBudget is the budget of a data set the paper does not list.
const DefaultBudget = 50

// dataSets lists the paper's 15 data sets in the row order of its tables
// (Section 5, Table tab:Details and the result tables).
var dataSets = []DataSet{
	{"aggregation", "Aggregation", 50},
	{"breast_cancer", "Breast Cancer", 50},
	{"compound", "Compound", 50},
	{"flame", "Flame", 50},
	{"glass", "Glass", 50},
	{"iris", "Iris", 50},
	{"jain", "Jain", 50},
	{"pathbased", "Pathbased", 50},
	{"r15", "R15", 50},
	{"spiral", "Spiral", 50},
	{"d31", "D31", 50},
	{"abalone", "Abalone", 50},
	{"car", "Car", 50},
	{"musk", "Musk", 50},
	{"shuttle", "Shuttle", 100},
}

// DataSets returns the paper's 15 data sets in the row order of its
// tables.
func DataSets() []DataSet { return append([]DataSet(nil), dataSets...) }

// Lookup returns the DataSet called name: one of the paper's, or, for any
// other name, a data set titled name with DefaultBudget.
func Lookup(name string) DataSet {
	for _, d := range dataSets {
		if d.Name == name {
			return d
		}
	}
	return DataSet{Name: name, Title: name, Budget: DefaultBudget}
}

// Index names one of the quantities of the paper's seven result tables.
type Index int

// The paper's seven tables, in its order.
const (
	Purity Index = iota
	Rand
	NMI
	Compactness
	DB
	TrainTime
	ClusterTime
)

// Table describes one of the paper's seven result tables.
type Table struct {
	Index Index
	// Label is the table's \label in the paper's LaTeX source.
	Label string
	// Title is the quantity, as the table's heading names it.
	Title string
	// Smaller tells whether smaller values are better.
	Smaller bool
	// Note says how our definition or measurement differs from the paper's.
	Note string
}

// tables are the paper's seven result tables, with our notes.
var tables = []Table{
	{Purity, "tab:pu_rand_nmi", "Purity", false,
		"Purity is the standard (1/N) Σ_clusters max_class N_ij (metrics.Purity). The paper writes p_ij = N_ij/N_j, which divides by the size of the class; that is a typo, since its own words call p_ij \"the empirical distribution over class labels for cluster i\". Purity rewards many small clusters. Several of the paper's purities are below the share of the largest class, the least any clustering scores under the standard definition: on 8 of the 15 sets, Flame FSVC 0.03 (largest class 0.64), Aggregation FSVC 0.22 (0.35), Compound FSVC 0.13 (0.40), Jain SVC 0.37, SGD 0.46 and FSVC 0.69 (0.74), Spiral SVC 0.09 and SGD 0.33 (0.34), Abalone FSVC 0.03 (0.16), Musk 0.42–0.68 for four methods (0.85), Shuttle 0.05–0.42 for five methods (0.78). The printed formula can give such values, so the paper seems to have computed it, and its purity column is not comparable with ours."},
	{Rand, "tab:rand", "Rand index", false,
		"Same definition as the paper: (TP + TN) / (number of pairs), from the contingency table (metrics.Rand)."},
	{NMI, "tab:nmi", "NMI", false,
		"Same definition as the paper: I(Ω; C) / ((H(Ω) + H(C))/2), in nats (metrics.NMI). The grid search picks the setting of largest NMI, as the protocol prescribes, so this is the index the protocol optimises."},
	{Compactness, "tab:com", "Compactness", true,
		"Same definition as the paper (metrics.Compactness), on the scaled data, so its units differ from the paper's, which does not say how it scaled. It rewards many small clusters: N singletons score 0."},
	{DB, "tab:com_db", "Davies–Bouldin index", true,
		"Davies–Bouldin index on the scaled data (metrics.DaviesBouldin): **smaller is better**, as in Davies & Bouldin (1979) and the paper's own text; the paper's table caption and introduction say larger is better, which contradicts the definition. Undefined (—) with fewer than two clusters."},
	{TrainTime, "tab:runtime", "Training time (s)", true,
		"Wall time of phase 1 on this machine (see the top of this report), one fit per core: svclust.Train for the SGD methods, baseline.TrainSVDD (our SMO, not LIBSVM) for SVC and FSVC. The paper's times are from a Windows dual-core 2.6 GHz computer."},
	{ClusterTime, "tab:clustime", "Clustering time (s)", true,
		"Wall time of phase 2 on this machine, one fit per core: cluster.Fit (the paper's Algorithm 3), the complete graph for SVC, the equilibrium labelling for FSVC. Ours samples a strip of points near the boundary and links each equilibrium with its 10 nearest (see the svclust docs), hence much of the difference."},
}

// Tables returns the paper's seven result tables in its order.
func Tables() []Table { return append([]Table(nil), tables...) }

// paperValues holds the paper's seven result tables, transcribed from its
// LaTeX source (../shared/paper/scalable-svc-budget.tex, Section 5): for
// each Index, the row of each data set, with the columns SVC, SGD, FSVC,
// BSGD-R, BSGD-PNN and BSGD-PRN. "1,972.61" is written 1972.61. The test
// TestPaperTables parses the LaTeX and compares every cell.
var paperValues = [7]map[string][6]float64{
	Purity: { // \label{tab:pu_rand_nmi}
		"aggregation":   {1.00, 1.00, 0.22, 1.00, 1.00, 1.00},
		"breast_cancer": {0.98, 0.99, 0.99, 0.95, 0.99, 0.97},
		"compound":      {0.66, 0.62, 0.13, 0.99, 0.98, 0.97},
		"flame":         {0.86, 0.87, 0.03, 1.00, 1.00, 1.00},
		"glass":         {0.50, 0.71, 0.65, 0.88, 0.87, 0.93},
		"iris":          {1.00, 1.00, 0.68, 1.00, 1.00, 0.99},
		"jain":          {0.37, 0.46, 0.69, 1.00, 1.00, 1.00},
		"pathbased":     {0.60, 0.50, 1.00, 1.00, 1.00, 1.00},
		"r15":           {0.88, 0.90, 0.37, 1.00, 0.99, 1.00},
		"spiral":        {0.09, 0.33, 0.53, 1.00, 1.00, 1.00},
		"d31":           {0.94, 0.99, 0.42, 0.96, 0.97, 0.91},
		"abalone":       {0.22, 0.44, 0.03, 0.33, 0.57, 0.36},
		"car":           {0.94, 0.95, 0.70, 0.91, 0.83, 0.86},
		"musk":          {0.87, 0.68, 0.88, 0.42, 0.64, 0.60},
		"shuttle":       {0.06, 0.05, 0.06, 0.34, 0.90, 0.42},
	},
	Rand: { // \label{tab:rand}
		"aggregation":   {1.00, 1.00, 0.22, 0.94, 0.93, 0.95},
		"breast_cancer": {0.82, 0.85, 0.81, 0.73, 0.78, 0.72},
		"compound":      {0.92, 0.88, 0.25, 0.90, 0.95, 0.91},
		"flame":         {0.75, 0.76, 0.03, 0.87, 0.74, 0.91},
		"glass":         {0.77, 0.91, 0.54, 0.78, 0.83, 0.81},
		"iris":          {0.97, 0.96, 0.69, 0.83, 0.84, 0.81},
		"jain":          {0.70, 0.71, 0.77, 1.00, 0.98, 0.89},
		"pathbased":     {0.81, 0.94, 1.00, 0.71, 0.77, 0.76},
		"r15":           {0.74, 0.71, 0.37, 0.95, 0.95, 0.96},
		"spiral":        {0.15, 0.94, 0.75, 0.91, 0.75, 0.75},
		"d31":           {0.88, 0.81, 0.54, 0.98, 0.98, 0.96},
		"abalone":       {0.43, 0.86, 0.12, 0.88, 0.89, 0.88},
		"car":           {0.46, 0.46, 0.54, 0.55, 0.56, 0.59},
		"musk":          {0.26, 0.28, 0.26, 0.74, 0.76, 0.75},
		"shuttle":       {0.84, 0.83, 0.75, 0.50, 0.62, 0.63},
	},
	NMI: { // \label{tab:nmi}
		"aggregation":   {0.69, 0.75, 0.60, 0.89, 0.89, 0.89},
		"breast_cancer": {0.22, 0.55, 0.45, 0.42, 0.43, 0.41},
		"compound":      {0.51, 0.81, 0.45, 0.82, 0.82, 0.77},
		"flame":         {0.55, 0.51, 0.05, 0.57, 0.54, 0.66},
		"glass":         {0.60, 0.44, 0.53, 0.55, 0.54, 0.56},
		"iris":          {0.63, 0.75, 0.71, 0.76, 0.76, 0.76},
		"jain":          {0.53, 0.31, 1.00, 0.98, 0.92, 0.68},
		"pathbased":     {0.48, 0.43, 0.12, 0.49, 0.58, 0.52},
		"r15":           {0.67, 0.77, 0.77, 0.80, 0.83, 0.80},
		"spiral":        {0.52, 0.34, 0.16, 0.85, 0.58, 0.59},
		"d31":           {0.45, 0.50, 0.38, 0.80, 0.81, 0.89},
		"abalone":       {0.22, 0.34, 0.07, 0.27, 0.31, 0.28},
		"car":           {0.32, 0.32, 0.24, 0.33, 0.33, 0.29},
		"musk":          {0.21, 0.16, 0.23, 0.08, 0.14, 0.11},
		"shuttle":       {0.26, 0.41, 0.50, 0.38, 0.47, 0.52},
	},
	Compactness: { // \label{tab:com}
		"aggregation":   {0.29, 0.29, 2.84, 0.01, 0.01, 0.02},
		"breast_cancer": {1.26, 0.68, 0.71, 2.17, 1.04, 2.18},
		"compound":      {0.5, 0.21, 2.43, 0.02, 0.01, 0.03},
		"flame":         {0.58, 0.44, 2.28, 0.03, 0.03, 0.03},
		"glass":         {0.72, 0.68, 1.85, 0.75, 0.69, 0.34},
		"iris":          {0.98, 0.25, 0.99, 0.02, 0.01, 0.05},
		"jain":          {0.96, 0.36, 1.16, 0.01, 0.01, 0.01},
		"pathbased":     {0.18, 0.3, 1.04, 0.01, 0.01, 0.01},
		"r15":           {0.61, 0.13, 1.84, 0.01, 0.01, 0.01},
		"spiral":        {2.00, 0.17, 0.18, 0.01, 0.01, 0.02},
		"d31":           {1.41, 0.26, 1.78, 0.01, 0.01, 0.25},
		"abalone":       {3.88, 0.40, 4.97, 0.23, 0.15, 0.21},
		"car":           {0.75, 0.74, 14.68, 1.32, 3.06, 5.25},
		"musk":          {9.89, 30.05, 20.00, 100.16, 31.17, 40.42},
		"shuttle":       {0.50, 0.46, 0.26, 0.28, 0.50, 0.50},
	},
	DB: { // \label{tab:com_db}
		"aggregation":   {0.68, 0.67, 0.63, 4.45, 4.53, 3.99},
		"breast_cancer": {1.58, 1.38, 0.53, 4.80, 4.64, 5.71},
		"compound":      {2.45, 0.86, 0.67, 3.84, 5.15, 3.01},
		"flame":         {1.30, 0.65, 3.56, 3.42, 4.01, 3.29},
		"glass":         {0.53, 0.56, 0.93, 3.98, 4.64, 4.14},
		"iris":          {1.95, 1.17, 0.77, 3.42, 3.96, 3.44},
		"jain":          {1.23, 1.08, 0.71, 4.38, 4.19, 4.22},
		"pathbased":     {0.36, 0.73, 1.07, 4.02, 4.42, 3.71},
		"r15":           {2.96, 1.42, 1.37, 4.00, 4.33, 3.91},
		"spiral":        {1.41, 0.98, 0.36, 5.38, 4.69, 5.66},
		"d31":           {2.33, 1.35, 1.21, 4.40, 5.36, 3.35},
		"abalone":       {3.78, 3.91, 1.29, 6.28, 6.32, 6.27},
		"car":           {1.76, 1.76, 1.57, 3.02, 3.00, 2.97},
		"musk":          {2.27, 2.83, 0.01, 2.69, 3.87, 3.64},
		"shuttle":       {1.86, 1.84, 1.32, 4.04, 3.66, 3.71},
	},
	TrainTime: { // \label{tab:runtime}
		"aggregation":   {0.05, 0.03, 0.05, 0.01, 0.02, 0.03},
		"breast_cancer": {0.18, 0.02, 0.05, 0.02, 0.03, 0.04},
		"compound":      {0.03, 0.02, 0.10, 0.01, 0.01, 0.01},
		"flame":         {0.02, 0.02, 15.16, 0.01, 0.01, 0.01},
		"glass":         {0.03, 0.03, 0.02, 0.01, 0.01, 0.01},
		"iris":          {0.02, 0.02, 0.04, 0.01, 0.01, 0.01},
		"jain":          {0.02, 0.02, 0.03, 0.01, 0.01, 0.01},
		"pathbased":     {0.02, 0.02, 0.05, 0.01, 0.01, 0.01},
		"r15":           {0.02, 0.02, 0.02, 0.01, 0.01, 0.02},
		"spiral":        {0.02, 0.03, 0.02, 0.01, 0.01, 0.01},
		"d31":           {0.17, 0.09, 0.09, 0.13, 0.16, 0.11},
		"abalone":       {2.26, 0.81, 10.94, 0.36, 0.27, 0.22},
		"car":           {5.62, 0.64, 8.15, 0.05, 0.06, 0.07},
		"musk":          {55.93, 5.79, 58.49, 1.36, 1.89, 1.43},
		"shuttle":       {10.03, 0.46, 68.43, 1.51, 2.15, 1.82},
	},
	ClusterTime: { // \label{tab:clustime}
		"aggregation":   {31.42, 2.83, 7.51, 0.37, 0.61, 1.43},
		"breast_cancer": {19.80, 2.14, 22.86, 0.29, 0.62, 1.48},
		"compound":      {6.82, 1.17, 7.24, 0.11, 0.15, 0.51},
		"flame":         {1.81, 0.67, 4.31, 0.05, 0.08, 0.24},
		"glass":         {2.30, 0.53, 10.67, 0.06, 0.09, 0.41},
		"iris":          {1.03, 0.34, 4.33, 0.03, 0.03, 0.15},
		"jain":          {5.80, 0.81, 4.59, 0.10, 0.16, 0.45},
		"pathbased":     {4.02, 0.54, 4.22, 0.06, 0.09, 0.33},
		"r15":           {4.14, 3.68, 10.43, 0.22, 0.35, 0.94},
		"spiral":        {1.60, 0.99, 7.78, 0.07, 0.10, 0.35},
		"d31":           {467.72, 6.56, 33.08, 4.58, 8.39, 13.33},
		"abalone":       {653.65, 26.58, 242.97, 3.79, 1.84, 5.57},
		"car":           {67.66, 7.05, 84.47, 16.24, 8.42, 23.57},
		"musk":          {602.09, 432.58, 510.25, 173.36, 194.69, 183.78},
		"shuttle":       {1972.61, 925, 1125.46, 1766.66, 1739.62, 1759.06},
	},
}

// Paper returns the value the paper reports for index ix, data set name
// and method m, and whether it reports one: it has none for BSGD-M, for
// data sets it does not use, or for an unknown ix.
func Paper(ix Index, name string, m Method) (float64, bool) {
	if ix < 0 || int(ix) >= len(paperValues) {
		return 0, false
	}
	col := paperColumn(m)
	row, ok := paperValues[ix][name]
	if col < 0 || !ok {
		return 0, false
	}
	return row[col], true
}

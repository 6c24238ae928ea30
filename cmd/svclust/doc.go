/*
Svclust clusters data by scalable support vector clustering with a
budget: it fits a budgeted one-class SVM to the data by stochastic
gradient descent, and labels points by the tree of the levels of its
novelty function f (-rule levels, the default) or, as the paper's
Algorithm 3, by the connected parts of its domain of novelty f ≥ 0 (-rule
components); see package github.com/svclust/svclust.

Usage:

	svclust <command> [flags] [arguments]

The commands are:

	fit      train a model and cluster its data
	update   update a fitted model with new rows
	predict  label new data with a fitted model
	score    print f(x) and the outlier score of new data
	tune     choose γ and C by a grid search
	gen      generate a synthetic data set
	demo     cluster the synthetic data sets with the defaults
	plot     draw a 2-D data set with its clusters and domain of novelty
	reproduce rerun the paper's experiments and compare with its tables
	version  print the version of svclust

'svclust help' lists the commands and 'svclust help <command>' describes
one, with its flags. Flags may come before or after the arguments
("svclust fit data.csv -json" is "svclust fit -json data.csv"); "--" ends
the flags, so that what follows is an argument even if it starts with "-".
A mistyped flag is reported in one line with the nearest defined flag
("unknown flag -budgte: did you mean -budget?"), exit status 2. A quick start is

	svclust demo

which clusters the four synthetic data sets and prints a table of the
results, and

	svclust gen -kind gauss3 -n 1000 -o gauss3.csv
	svclust fit -o labels.csv -model model.json gauss3.csv
	svclust predict -model model.json gauss3.csv

which fits a model to a generated data set, saves its labels and the model,
and labels the data again from the saved model.

# Data

Data files are CSV with a header line naming the columns and one point per
line; every column is a numeric feature except the ground-truth column,
named "label" unless -label says otherwise, which may hold any text, and
the columns -drop or -features leave out. DATA may be - for standard input.
Errors in the data are reported with their file, line and column.

Fields may be quoted as R's write.csv and Excel write them ("x1","x2",
"label"; "1.5"; "" for a quote; separators inside quotes are text), but a
quoted field must end on its line: newlines inside quotes are an error. The
separator is a comma, a semicolon or a tab: -sep chooses it, and otherwise
it is found in the header, outside quotes: a comma if the header holds
commas, a semicolon if it holds semicolons, a tab if it holds neither but
tabs between names, else a comma (one column). A header with both commas
and semicolons is an error unless -sep is given. A decimal comma (1,5, as
Excel writes in many locales, with semicolons) is read only with
-decimal , and then the separator is never a comma (it is found among
semicolons and tabs) and a point in a feature is an error, since it may
separate thousands; without -decimal , a decimal comma is not a number.
Input compressed with gzip is decompressed as it is read, recognised by its
first bytes (1f 8b) whatever its name, by every command that reads data,
fit -stream included.

A first line of only numbers is reported as a missing header; -no-header
reads it as the first row and names the columns x1, x2, … (numpy.savetxt
writes no header by default). Features must
be finite numbers written in decimal, as spreadsheets, R and pandas write
them: an optional sign, digits with an optional decimal point, an optional
exponent (5, -0.25, .5, 1.5e-3). Go's other forms (1_000, 0x1p4), Inf (in
any spelling) and numbers beyond the range of float64 (1e400) are errors.
A text column is an error that names it and the flag that fixes it:
"column "customer_id" is not numeric; -drop customer_id to ignore it", with
", or -label NAME if it holds the classes" when its value looks like a
class name, and "-decimal , reads a decimal comma" for a value such as
1,5. A feature named like a label column (class, target, y, cluster,
species, label, labels, classes, in any case) gets a warning naming -label.
Missing values (an empty field, NA, NaN in any case) are an error that
names the first, counts the rows and columns that have one and names
-na drop; with -na drop those rows are skipped for training and every
output (fit -o, fit -stream -o, tune -o, predict, score) has an empty
line at their own row, so that line i+2 is always data row i, and -json
reports "dropped", their number. A UTF-8 byte order mark,
CRLF line endings and a missing final newline are accepted; UTF-16 text and
lines ending in CR alone are errors; a blank line, also a second newline
at the end, is an error that says "blank line" with its file and line
(in one-column data read with -na drop it is a missing value). A value that overflows when scaled
(beyond ±1e150 once scaled, where the kernel's squared distances overflow,
or in a column whose mean or range overflows float64) is an error that
names the file, the line and the feature. Every column
read must have a name of its own: an unnamed column (as the index column
pandas' to_csv writes first) or a repeated name is an error unless the
column is dropped; -drop "" drops the unnamed columns. The label column
must not occur twice, and must exist when -label is given. Constant
columns are scaled to 0; a single row, or identical rows, form one
cluster. With N rows and N ≤ the budget no budget maintenance runs; the
model has at most N support vectors.

A line longer than -max-line bytes (16 MiB by default) is an error found
before the line is held in memory, so that input without line ends (such as
/dev/zero) fails at once; a header may name at most 2,097,152 columns.
fit -stream refuses standard input, pipes, FIFOs and process substitutions
such as <(zcat x.gz), which it could not read twice.

The data flags, taken by fit, tune, predict, score and plot, are:

	-sep ,|;|tab
		Field separator; by default found in the header as above.
	-decimal .|,
		Decimal separator of the features (default .); a comma needs
		fields separated by semicolons or tabs.
	-drop names
		Comma-separated names of columns that are neither features nor
		labels, such as an id; the empty name (-drop "") drops the unnamed
		columns. Each must be in the header.
	-features names
		Comma-separated names of the feature columns, in the order the
		model takes them; the other columns but the label are dropped.
		predict, score and plot need the -drop or -features the model was
		fitted with when the file has other columns.
	-max-line bytes
		Longest line accepted (default 16777216).
	-na error|drop
		What a missing value is (default error): drop skips its row for
		training and writes an empty result at the row's place.

# Exit status

Svclust exits with status 0 on success, 2 on a usage error (an unknown
flag, a bad flag value, a missing argument; the message names the flag),
128 + the signal's number after SIGINT (130), SIGTERM (143) or SIGHUP
(129), and 1 on any other error, such as a missing
or malformed data file or an output file that cannot be written, standard
output included (a full disk fails the run even for the text summary).
Fit, tune, predict, score and reproduce check that their output files can
be written before they start work. Outputs are first written in full to
hidden temporary files beside them, named ".NAME.tmp" and digits, which are
renamed over the named files together once all are complete, so a run that
fails or is interrupted leaves every output either unchanged or complete,
never partial. On SIGINT, SIGTERM or SIGHUP svclust stops at the next
point where it can (at the latest after 2 seconds), renames no output
after the signal, removes its temporary files and says which signal
stopped it; a signal ignored when svclust started (SIGHUP under nohup)
stays ignored. On Linux the temporary files are unnamed (O_TMPFILE) until
the moment they are renamed, so even a process killed outright (SIGKILL)
leaves nothing behind; elsewhere, or on a file system without O_TMPFILE,
such a kill may leave a ".NAME.tmp" file, which can be deleted. An output that is not a regular
file, such as /dev/null, /dev/stdout or a named pipe, is written in place
(/dev/stdout and /dev/fd/N appended to, and the summary then goes to
standard error as with -o -), and an output that is a symbolic link keeps
it: the link's target gets the new content.
An output that names the same file as an input (DATA, -model, -labels,
-from) or as another output, also through "./", a symbolic link or a hard
link, is a usage error naming both flags: nothing is read or written.

# Limits

The size flags have upper bounds far beyond any sensible setting, so that
a mistyped value is a usage error naming the flag rather than a run out of
memory or of hours: -budget ≤ 20,000 (the cache of distances between
support vectors takes 8·s² bytes for s support vectors, at most 3.2 GB),
-m ≤ 1,000, -max-iter and -min-iter ≤ 10⁹, -sample ≤ 10⁷, -workers ≤
1,024, gen -n ≤ 10⁹, demo -n ≤ 10⁶, plot -grid ≤ 5,000, reproduce
-runs ≤ 10,000, and the grids of tune and reproduce at most 10,000
settings (-gamma-grid values × -C-grid values). A budget of n or more for n rows is never reached: it
gives the model of budget n, and the kernel cache grows with the support
set rather than being allocated for the budget.

# Fit

Usage:

	svclust fit [flags] DATA.csv

Fit scales the data, trains the model, clusters the rows and prints a
summary: the size of the data, γ, C and the budget (each marked auto when
chosen from the data), the budget maintenance, the support vectors,
iterations, status and objective of training, the clusters of the
assignment with the modes of the level tree and the smallest cluster
(-rule levels) or the equilibria and the strip (-rule components), the
times, and, when the data have a ground-truth column, the purity, Rand
index, adjusted Rand index (ARI), normalised mutual information (NMI) and
Davies–Bouldin index on the scaled data. With -json it prints one JSON
object with the keys n, d, clusters, support_vectors, iterations, status,
objective, strip_size, equilibria (the modes with -rule levels), eps
(strip_size and eps are 0 with -rule levels), train_seconds,
assign_seconds, gamma, C, budget (the budget used; −1 for none), rule,
min_size and stability (-rule levels: the smallest cluster allowed and
the excess of mass of each cluster found, Σ over its rows of the range of
levels over which the row is in it, measured on (f + 1)^0.9 with -C auto
and on f otherwise), ripples_joined (0 unless -rule levels
with an automatic C: the clusters of the excess-of-mass selection joined
to a neighbour because the valley between them is within the noise of
the density estimate), rank_links (present and true when the modes were
grouped by rank-based links, as for a model projected onto two or more
directions: docs/high-dim.md), outlier (count: the rows whose outlier score
reaches the threshold, those -outliers labels −1; threshold; fence: D₀,
at which the score is 0.5), choice (how γ, C and the budget
were chosen: gamma_auto, C_auto and budget_auto, and for the automatic
ones the statistics behind them: sample, the rows they were measured on;
rho, the median distance to the 5th nearest neighbour; cover, the ℓ-balls
of the greedy covering; kappa_max, the largest kernel density; C_scale,
the factor C was rescaled by; width, adaptive or global, and for adaptive
widths rho_width, the median distance to the 10th nearest neighbour,
narrowed, the support vectors whose kernel was narrowed, and width_min
and width_median, the smallest and median ℓᵢ/ℓ; subspace, for data of at
least 4 features with γ and C both auto: projected, reason, concentration
and threshold, intrinsic_dim and, when projected, q, edge, eigen_kept,
eigen_next and silverman, as below), strategy, scale, seed,
sizes (the rows of each cluster 0, 1, …, outliers left out; with -stream
of the whole file), with a ground-truth column metrics (NaN written as
null), and with -na drop dropped. When -o or -model is -, standard output
carries that file and the summary goes to standard error, unless -quiet.

The automatic settings (svclust.Choose) are measured on one sample of at
most 2,000 rows drawn with -seed:

  - γ = 1/ℓ² with ℓ = 1.5·ρ, ρ the median distance from a sampled row to
    its 5th nearest neighbour (HDBSCAN's core distance with minPts = 5);
  - the budget is 3 × the number of balls of radius ℓ that a greedy
    covering of the sample needs, within [50, 1000] and at most the
    number of rows;
  - C trains at 0.5/κmax, κmax the largest kernel density
    (1/s)Σⱼ k(x, xⱼ) over the s sampled rows, so that every SGD step adds
    its kernel and f + 1 is C times a kernel density estimate; training
    then multiplies C and every coefficient by the factor that puts f = 0
    at the 5 % quantile of f over the sample, so that the domain f ≥ 0
    holds the densest 95 % of the data. That changes no level set of f,
    only which one is f = 0; the C reported is the rescaled one;
  - with γ and C both automatic and -width adaptive (the default), each
    support vector svᵢ gets a width of its own before C is rescaled:
    ℓᵢ = ℓ·min(1, max(¼, rᵢ/ρ₁₀)), rᵢ the distance from svᵢ to its 10th
    nearest sampled row and ρ₁₀ the median of that distance over the
    sample, so kernels narrow where the data are denser than the median
    (f + 1 is then a sample-point adaptive kernel density estimate);
  - with γ and C both automatic, -space auto (the default) and at least 4
    features, when the median distance between two sampled rows is less
    than 6ρ (distances concentrate: a kernel of width 1.5ρ is nearly flat
    across the data), the kernel works on a projection: the directions of
    the spatial-sign covariance of the sample whose eigenvalues (summing
    to d) exceed the noise edge (1 + √(d/s))², at least one; ρ, the
    budget, C and the widths are then measured in that space, with
    ℓ = max(ρ, √2·h), h Silverman's bandwidth of the projected sample.
    The model file stores the projection; predict and score apply it.

The flags are:

	-gamma number|auto
		Kernel width γ in exp(−γ‖x−y‖²). auto (the default) chooses γ
		from the data as above and reports it.
	-C number|auto
		Trade-off C of the objective. auto (the default) chooses C from
		the data and γ as above and reports the rescaled C. The domain
		f ≥ 0 is empty for C ≤ 1, so -rule components finds one
		cluster and fit warns; -rule levels reads every level of f,
		which C only scales, and does not warn.
	-width adaptive|global
		Kernel widths when γ and C are both auto: adaptive (the default)
		narrows the kernels of the support vectors where the data are
		denser than the median, as above; global keeps one γ for all, as
		the paper's model has. A given -gamma or -C always means one γ.
	-space auto|input
		Where the kernel works when γ and C are both auto: auto (the
		default) projects data of at least 4 features whose distances
		concentrate, as above; input keeps the features, as the paper's
		model does. A given -gamma or -C always means the features.
	-budget n|auto
		Largest number of support vectors (at most 20,000): auto (the
		default) chooses it from the data as above; 0 means no budget
		(the paper's unbudgeted SGD-LMOC). For n rows the effective
		budget is min(n, -budget).
	-rule levels|components
		How the rows are assigned to clusters (default levels). levels:
		every support vector follows its trajectory to a mode of f; modes
		are joined at the smallest f of the -m point segment between
		them; HDBSCAN's excess-of-mass selection picks the clusters of
		that tree with at least -min-size rows (with -C auto measuring
		levels on (f + 1)^0.9, cluster.DefaultLevelPower); with -C auto, clusters
		whose valley is within the noise of the density estimate are
		joined (cluster.DefaultRippleZ); and every row takes the
		cluster of its support vector, the one with the largest term
		αᵢk(x, svᵢ) of f(x), at the cost of one scoring pass.
		components: the paper's Algorithm 3 (cluster.Components): the
		rows of the strip |f| ≤ ε (or every row with -all) follow their
		trajectories, equilibria in f ≥ 0 are linked by the segment test,
		the clusters are the connected components, and every other row
		takes the cluster of its nearest strip row.
	-min-size n|auto
		Smallest cluster of -rule levels, in rows, at least 1; auto (the
		default) is max(5, ⌈0.0075·N⌉) for the N rows clustered (the
		sample with -stream). A usage error with -rule components.
	-maintain removal|project-knn|project-random|merge
		Budget maintenance (default merge): drop the smallest
		support vector, or project it onto its k nearest or k random
		others, or merge it with the one that loses the least weight
		(svclust.Merge, BSGD-M, beyond the paper).
	-k n
		Number of support vectors a projection projects onto (default 5);
		at most the budget: a usage error (exit 2) when it exceeds a given
		-budget and, with -budget auto, when it exceeds the budget chosen
		from the data, found once the data are read (with tune, the budget
		follows γ and each grid point is checked).
	-eps number|auto
		Half-width ε of the strip |f| ≤ ε whose points follow
		trajectories (-rule components only; a usage error otherwise).
		auto (the default) is the 0.25 quantile of |f| on the data.
	-tol number
		Stopping threshold θ on ‖w_{t+1} − w_t‖ (default 0.01). 0 disables
		the rule, so training runs -max-iter steps.
	-max-iter n
		Largest number of SGD steps; 0 (the default) means 1,000,000.
	-min-iter n
		Number of SGD steps before the stopping rule is first checked;
		0 (the default) means 10,000, or with γ and C both auto
		4 per row within [10,000, 12,000]. -1 checks it from the first step,
		which is the paper's Algorithm 2 exactly (it then stops after a
		few hundred steps; see the README).
	-m n
		Number of points of the segment test between equilibria, or
		between modes with -rule levels (default 20, at least 2).
	-scale none|zscore|minmax
		Feature scaling fitted on the data (default zscore). It is stored
		in the model file and applied by predict and score.
	-seed n
		Seed of every random choice of training (default 1).
	-workers n
		Number of goroutines; 0 (the default) means all cores. Results do
		not depend on it.
	-label name
		Name of the ground-truth column (default "label"). It is never a
		feature. Given explicitly, the column must exist; with the default,
		data without it are clustered without metrics.
	-all
		Run a trajectory from every point, not only from the strip
		(-rule components only; a usage error otherwise).
	-outliers
		Label as −1, instead of giving them a cluster, the points whose
		outlier score is at least -outlier-threshold, with either rule.
	-outlier-threshold number
		The outlier score in (0, 1) at and above which a point is an
		outlier (default 0.5). Stored in the model file, so that predict
		labels as fit did. The outlier score of a point x is
		D/(D + D₀): D is the larger of two views of how remote x is, in
		the whole space of the features, each less its median and
		divided by its interquartile range over the training rows: the
		distance from x to the nearest ball around a support vector
		that holds 8 % of the model's mass, and −log of the model's
		density at x (shifted so that D ≥ 0); D₀ is the fence
		Q3 + 3·IQR of D over the training rows, stored too. A typical
		row scores about 0.3, the fence 0.5, and the score tends to 1
		far out; a point further from every support vector never
		scores lower (docs/outliers.md).
	-o file
		Write the cluster and the outlier score of each row, in input
		order, as CSV with the header "cluster,outlier" (the score in the
		shortest form that reads back exactly). The cluster is −1 with
		-outliers where the score reaches -outlier-threshold.
	-model file
		Write the model as JSON: {"format":"svclust-model",
		"version":6, "scale", "scaler":{"shift","mul"}, "features",
		"label", "run", "model", "partition"} (package modelfile). The
		"run" section records how the model was made: "tool" (as svclust
		version prints it), "created" (UTC; the time of the environment
		variable SOURCE_DATE_EPOCH when it is set, for byte-identical
		files), "seed", "strategy" ("none" without a budget), "budget"
		(the budget used, −1 for none) with "budget_from" (auto or
		given), "rule" (levels or components), "k" of a projection,
		"gamma" and "C" with "gamma_from" and "C_from" (auto, given, or
		tune for tune's best), "width" (adaptive or global: the
		kernel-width rule), "data" (the DATA argument), "rows",
		"sample" of -stream and "data_sha256" (the SHA-256 of the data
		file's bytes). "model" holds γ, C, the support vectors and
		their coefficients ("gammas", the γᵢ of each support vector, with
		adaptive widths), the training statistics and "choice" (how γ, C
		and the budget were chosen), so that clustering the model again
		gives the partition stored. "partition" records its "rule" and,
		with levels, "sv_cluster" (the cluster of each support vector)
		and "birth" (the level at which each cluster is born), with
		components the equilibria and strip points (and "sv_cluster"),
		and for the outlier score "outlier_peak" (each cluster's part of
		f + 1 at its peak), "outlier_fence" (D₀) and
		"outlier_threshold". Every older model file still loads
		(svclust-cli-model 1 and 2, the library's svclust-model 1 to 4,
		svclust-model 5): files before version 6 have no outlier scores
		(predict and score then write no outlier column and say so) and
		keep the -outliers rule they were written with (f below the
		cluster's birth level, or f < 0 with components); predict, score
		and plot refuse a version newer than they know.
	-json
		Print the result as one JSON object.
	-cpuprofile file
		Write a CPU profile of the run to file.
	-memprofile file
		Write a heap profile to file at the end of the run, after a
		garbage collection (go tool pprof reads both profiles).
	-stream
		Read DATA in two passes instead of into memory, for files larger
		than memory; see Streaming below. With -rule components it
		implies -all. DATA must be a regular file (gzip compressed or
		not), not standard input or a pipe.
	-sample n
		Number of rows -stream keeps for training (default 200000).
	-progress
		Report progress on standard error even when it is not a terminal:
		one line as each phase ends and, during a long phase, one every
		5 seconds.
	-quiet
		Print nothing on standard error except errors, whatever -o is: no
		progress, no warnings (such as the one about C ≤ 1 with -rule
		components) and no summary when standard output carries -o or
		-model.

Above 20,000 points the metrics leave out the compactness index (null in
JSON), whose cost grows with the square of the cluster sizes.

When standard error is a terminal, a run that lasts over 2 seconds shows a
status line there: the phase (read, train, cluster, metrics, write; with
-stream read, scale, train, cluster, assign, write), and while reading,
clustering (with -rule levels the rows scored, "cluster: 12,000 of
50,000 rows"; with -rule components the trajectories followed from the
strip points; either is most of the phase's work, and the segment tests
come after) or assigning the amount done, the percentage, the rate and
the time left. Training shows only its
elapsed time. Progress never goes to standard output, so -json and -o -
output are unaffected.

The text summary gives the data, the model and its settings, training,
clustering ("1 cluster"; with -rule levels "N clusters from the level tree
of M modes (smallest cluster S rows)", or "from rank-based links of M
modes" for a model projected onto two or more directions (see
rank_links), with -rule components the
equilibria and the strip), the size of each cluster in the order of their
numbers (the first 12), with -outliers the number of outliers and the
threshold of the outlier score that made them, and with a ground-truth column the external indices
and Davies–Bouldin, which is "undefined" with fewer than 2 clusters.

# Streaming

fit -stream clusters a file of any length in memory that does not grow with
it: about 8·d bytes for each row of the sample, two chunks of at most
16,384 rows and 8 MB each (one row if a row is larger; one is read while
the other is labelled), a batch of at most 4,096 lines and 1 MB read ahead
with their values, and the model with its
equilibria. Pass 1 reads the file row by row, keeps a uniform random
sample of -sample rows (reservoir sampling, Algorithm R, from -seed) and
accumulates the scaling over every row;
zscore takes one more pass for the variance, and another for a column
whose variance under- or overflows float64 when computed directly (over
the file, or over the sample when it holds every row), so the scaling is exactly the one fit would
fit on the whole file. The sample is trained and clustered as fit
trains and clusters its data, with -all under -rule components. Pass 2
reads the file again in chunks, labels each row by the partition's Predict
(with -rule levels by the cluster of its support vector, one scoring
pass; with -rule components by sending it along its own trajectory to an
equilibrium) and writes the labels as it goes, to a temporary file that
replaces the -o file at the end. With at most -sample rows the sample is
every row in file order, so the labels and the model are those of fit
(fit -all with -rule components) with the same flags. -min-size auto
takes 0.75 % of the sample, not of the file. Purity, Rand, ARI and NMI are computed
exactly from a table of classes × clusters; Davies–Bouldin and
compactness, which need the cluster centroids before the distances to them,
are left out (null in JSON). The -json report adds "sample", the number of
rows trained on, and its assign_seconds include the second pass.

# Update

Usage:

	svclust update -from OLD.json -model NEW.json [-forget RATE|auto|off] [-steps N] [-min-size N|auto] [-eps E|auto] [-o FILE] [-json] [data flags] BATCH.csv

Update continues the training of the model in OLD.json (written by fit
-model or update -model, model file version 8) with the rows of BATCH.csv,
clusters them with the updated model and writes the updated model to
NEW.json (docs/online.md). The model keeps the first fit's scaling (the
z-score or min-max scaler is not refitted: a scaled value keeps its
meaning), γ, C, budget and budget maintenance; its SGD continues from the
state the file stores (steps, rows seen, raw coefficients, seeded
generator), so the same files and batches give the same bytes whatever
-workers is. The batch is clustered, together with the model's support
vectors, each repeated by its weight (no earlier row is needed), with the
rule, outlier setting and threshold of OLD.json's partition and the
-min-size and -eps given here (automatic by default: the model file does
not keep fit's), and the
clusters are matched to the old ones by the support vectors each owns, so
that a cluster that persists keeps its id. The summary (or -json's
"update" object) gives the rows seen, the ids and the clusters born,
died, merged and split. A model file without the training state (version
7 or older) is an error, exit status 1: fit it again. NEW.json must
differ from OLD.json and from BATCH.csv: an update never overwrites its
input, and its outputs are written whole or not at all.

	-from file
		The model file to update (required).
	-model file
		Write the updated model to file (required; - for standard output).
	-o file
		Write the stable cluster id and the outlier score of each row of
		the batch as CSV, as predict does with the updated model.
	-forget rate
		Forgetting rate per SGD step, so that the model follows a drift:
		each step decays the model by 1 − max(1/t, rate) instead of
		(t−1)/t. A rate in (0, 1), auto (1/(5·steps): what an update
		learnt weighs 1/e after 5 more updates) or off (the default:
		every row seen weighs alike).
	-steps n
		SGD steps of the update; 0 (the default) means min(6,000, 2 per
		row of the batch): half a fit's first steps, as each sums over
		a support set of up to twice the budget.
	-min-size n|auto
		Smallest cluster of the re-clustering (-rule levels), in rows of
		the batch and of the support vectors' rows (about the budget);
		auto (the default) is 0.75 % of them, at least 5.
	-eps ε|auto
		Half-width ε of the strip of the re-clustering (-rule
		components), as for fit.
	-json
		Print the result as one JSON object: fit's report of the batch and
		"update".
	-workers n, -quiet, -max-model-mb n
		As for predict. The data flags are those of predict.

# Predict

Usage:

	svclust predict -model FILE [-o FILE] [-workers N] [data flags] DATA.csv

Predict applies the scaling and the clustering of a model file to the rows
of DATA.csv and writes the cluster and the outlier score of each row as CSV
with the header "cluster,outlier" (see fit -outlier-threshold). The model's
label column is ignored if present. On the training data it reproduces fit -o exactly. A
model file written before the outlier scores (version 5 or older) gives the
column "cluster" alone, with a note on standard error.

Columns are matched to the model's features by name whenever the model
knows their names (fit records the header), so their order does not matter;
a feature of the model that names no column, or a column that names no
feature (drop it with -drop), is an error that names it. -features
MODEL=COLUMN,… maps features to columns of other names (the features it does
not name keep their own: -features x1=a,x2=b), and -features COLUMN,… lists
the columns of the model's features in its order (with a warning for a name
that differs). A model without feature names takes the columns in order.

	-model file
		The model file written by fit -model or tune -model (required).
	-o file
		Output file (default -, standard output).
	-workers n
		Number of goroutines; 0 (the default) means all cores.
	-quiet
		Print nothing on standard error except errors: no warning about
		renamed features or skipped rows.
	-max-model-mb n
		Largest model file read, in MiB (default 1024, at most 2²⁰). A
		model file holds the support vectors and, with -rule components,
		the strip, about a quarter of the training rows. Reading stops at the first byte
		that cannot belong to a model file: a first non-space byte other
		than '{' (after at most 4096 bytes of white space), a JSON syntax
		error, or a key that occurs twice in one object, which is an
		error rather than the last value silently winning.

# Score

Usage:

	svclust score -model FILE [-o FILE] [-workers N] [data flags] DATA.csv

Score writes the novelty score f(x) = Σᵢ αᵢ k(svᵢ, x) − 1 of each row of
DATA.csv, after the model's scaling, and its outlier score (see fit
-outlier-threshold), as CSV with the header "score,outlier", in the
shortest form that reads back exactly. f is higher inside the data, on a
scale of its own per model; with the automatic C, f + 1 is a density
estimate whose level 0 marks nothing in particular. The outlier score is
the one to rank and flag outliers by: in [0, 1], 0.5 at the default
threshold. A model without a partition, or written before the outlier
scores, gives the column "score" alone, with a note on standard error
(none with -quiet). Columns are matched to the model's features as for
predict. Its flags -model, -o, -workers, -quiet and
-max-model-mb are those of predict.

# Tune

Usage:

	svclust tune [fit flags] [-metric nmi|ari|purity|rand] [-gamma-grid LIST] [-C-grid LIST] [-json] DATA.csv

Tune fits and clusters the data for every pair (γ, C) of the grids, in
parallel over the grid points: -workers fits at a time, the costliest
first, the passes within each fit on up to -workers goroutines; the result
does not depend on -workers. What does not depend on the grid point (the
data, each point's automatic choice, the DBCV sample) is computed once, and
-o and -model write the best point's fit instead of fitting it again
(docs/tuning.md). It takes every flag
of fit except -gamma and -C, which the grids replace, and -stream, -sample,
-progress and -quiet, with fit's defaults; with -budget auto (the default)
the budget is chosen at each grid point, since it depends on γ. The grids
are lists of values separated by commas: numbers, "auto" for fit's
automatic choice and, for γ, "Fx" for F times the automatic γ. It also
takes:

	-gamma-grid list
		Comma-separated γ values (default 0.25x,0.5x,auto,2x,4x: kernel
		widths from twice to half the automatic one).
	-C-grid list
		Comma-separated C values (default auto; under -rule levels the
		automatic C sets only the boundary f = 0, not the clusters).
	-metric nmi|ari|purity|rand
		External index that picks the best setting with labels (default
		nmi).
	-runs n
		Training seeds per grid point (default 1, at most 100): -seed,
		-seed+1, …; with 2 or more the table and -json ("stability")
		report the mean adjusted Rand index between their partitions.
		The choice and the outputs are those of -seed.

With a ground-truth column the best setting has the largest -metric. Without
one it has the largest DBCV, the density-based clustering validation index
of Moulavi et al. (SDM 2014), on a seeded uniform sample of 1,000 rows (all
rows of smaller data); a setting with fewer than 2 clusters has DBCV −1.
Ties go to the automatic point (auto, auto), which is plain fit, else to the
earlier grid point in γ-major order. Grid points whose fit fails are
reported with their error and skipped; if every one fails, tune fails. Tune
prints a table, the budget maintenance and the svclust fit command line that
reproduces the best setting exactly (the same labels and model: every flag
that shapes the model, the partition or the reading of DATA, with -gamma and
-C given unless automatic), or with -json one object

	{"criterion":"dbcv","strategy":"merge","auto_gamma":…,
	 "best":{"gamma_grid":"2x","C_grid":"auto","gamma":…,"C":…,"clusters":…,"dbcv":…},
	 "grid":[{…,"score":…,"error":"…"},…],
	 "fit_command":"svclust fit -gamma … … -- DATA.csv"}

where "score" is the -metric of labelled data. When the automatic choice
projects the data onto a subspace (4 features or more), the multiples of its
γ train in that subspace, where that γ was measured; fit -gamma trains in the
features, so for such a best point tune prints no command line
("fit_command" is empty) and -model writes its model. For the paper's protocol give
its settings: -maintain project-knn -budget 50 -rule components -gamma-grid
0.03125,0.125,0.5,2,8,32 -C-grid 0.03125,0.125,0.5,2,8,32.

-o and -model refit the best setting and write its labels and model.

# Gen

Usage:

	svclust gen [-kind KIND] [-n N] [-seed S] [-o FILE]

Gen writes a synthetic data set as CSV with the columns x1, x2 (x1..xd
for hd8 and cube) and label.

	-kind moons|nested|gauss3|gauss4
		The data set (default moons): two interleaved half moons, a
		Gaussian blob inside two rings, or three or four Gaussians; the
		sets of the paper's figures.
	-kind circles|varied|aniso|spirals3|grid25|hd8|noisyblobs|unbal|line3|cube|touch20|birch
		The further shapes on which fit's defaults were calibrated: two
		concentric circles, three Gaussians of different spread, three
		stretched Gaussians, three spiral arms, a 5 × 5 grid of
		Gaussians, five Gaussians in 8 dimensions, four Gaussians with
		10 % uniform noise as a fifth class, two Gaussians 10 : 1, three
		tight blobs on a line, uniform in a 3-D cube (one class),
		twenty touching Gaussians, or a 10 × 10 grid of Gaussians of
		1 % of the points each (BIRCH's DS1).
		Package dataset documents each shape's parameters.
	-n n
		Number of points (default 1000).
	-seed n
		Random seed (default 1); the same seed gives the same data.
	-o file
		Output file (default -, standard output).

# Demo

Usage:

	svclust demo [-n N] [-seed S] [-json]

Demo generates each synthetic data set, fits and clusters it with the
defaults of fit, and prints a table of kind, clusters found, true clusters,
ARI, NMI, support vectors and the training and assignment times in
milliseconds.

	-n n
		Number of points of each data set (default 1000).
	-seed n
		Seed of the data and of training (default 1).
	-json
		Print the table as a JSON array.

# Plot

Usage:

	svclust plot -model FILE -o FIG.png|FIG.svg [-labels FILE] [-title TEXT] [-legend] [-sv] [-width IN] [-height IN] [-grid N] [-workers N] [data flags] DATA.csv

Plot draws the rows of DATA.csv coloured by the cluster a model fitted to
them assigns (as predict does), and writes the figure to -o as PNG (150
dpi) or SVG (with its font embedded) by the extension. Clusters take the
colours of a colour-blind-safe palette and, from the seventh on, other
glyphs; outliers (cluster −1, from fit -outliers) are grey. The same inputs
give the same file, byte for byte.

With 2 features the axes are the features, in the data's own units (the
kernel is evaluated at each point after the model's scaling), the support
vectors are ringed in black, the domain of novelty f ≥ 0 is shaded pale
orange and its boundary f = 0 drawn in dark orange. Both axes have the same
scale only when the scaling keeps them comparable (-scale none, or features
of similar spread).

With more than 2 features the figure is the plane of the first two
principal components of the scaled data (the eigenvectors of its
covariance of largest eigenvalues), and the axes say so with the share of
the variance each carries: "PC1 of the zscore-scaled data (46% of the
variance)". The domain is not drawn, since a plane through the domain of a
higher-dimensional model would misrepresent it; -sv adds the support
vectors, projected, as light grey rings. A model of 1 feature is an error.

	-model file
		The model file written by fit -model or tune -model (required).
	-o file
		Output file, ending in .png or .svg (required).
	-labels file
		Colour the points by the clusters in file instead: CSV with a
		header and one integer per row of DATA.csv, or a column
		"cluster" among others, as written by fit -o and predict;
		negative numbers are outliers.
	-title text
		Title drawn above the plot (default none).
	-legend
		Add a legend naming the clusters, the outliers, the support
		vectors and the boundary.
	-sv
		With more than 2 features, draw the support vectors (light grey
		rings); with 2 they are always drawn.
	-width inches
		Width of the figure (default 5, at most 200).
	-height inches
		Height of the figure (default 5, at most 200).
	-grid n
		Number of points along the longer side of the grid on which f is
		evaluated to shade the domain and trace its boundary (default 0,
		meaning 300).
	-workers n
		Number of goroutines; 0 (the default) means all cores. The figure
		does not depend on it.
	-max-model-mb n
		Largest model file read, in MiB, as for predict (default 1024).

# Version

Usage:

	svclust version

Version prints the module version of svclust, the version control
revision it was built from, with its time and whether the tree had local
changes (as the Go toolchain recorded them; a build with -buildvcs=false
has none), and the Go version.

# Reproduce

Usage:

	svclust reproduce [-data DIR] [-datasets LIST] [-methods LIST] [-runs N] [-out DIR] [-json] [-figures] [-extended-C-grid LIST] [timeout flags]

Reproduce reruns the experiments of the paper's Section 5 (package
github.com/svclust/svclust/reproduce) and writes OUT/REPRODUCTION.md: the
paper's seven tables (purity, Rand index, NMI, compactness,
Davies–Bouldin index, training and clustering time) with the paper's value
beside ours in every cell, a note under each table on how our definition
differs, the adjusted Rand index and number of clusters the paper omits,
the settings chosen and what the time limits cut, the exact command line
and a description of the machine. For the data sets of at most 1,000
points it also compares our best budgeted NMI with the paper's, and shows
how much of each data set the domain f ≥ 0 can hold at each γ for the
grid's largest C (reproduce.Reach), which explains where the grid of C is
too small. OUT/reproduction.json holds the same report as data.

In the same run and report, beside the paper's grid, the budgeted methods
selected (bsgd-r, bsgd-pnn, bsgd-prn, bsgd-m) are rerun on the selected
data sets of at most 1,000 points, those of the NMI comparison, with C
over an extended grid (default the paper's grid and 2⁷, 2⁹, 2¹¹), as
issue 12 decided. The paper's grid stays the faithful reproduction: its
sections are the same with or without the extended part, which gets a
section of its own, "Beyond the paper's grid: C up to 2¹¹", with the same
NMI comparison and the setting chosen for each data set and method; the
head of the report says which tables are which. In reproduction.json the
extended part is the object "extended" (command, machine, date, seconds,
protocol, records); reports without it, written before it existed, read
and render as before.

For every data set and method, γ and C are searched on the paper's grid
{2⁻⁵, 2⁻³, …, 2⁵} at seed 1, and FSVC's p and ε on {0.1, …, 1} in a second
stage at the best γ and C; the setting of largest NMI is kept, and -runs
runs with seeds 1, 2, … at that setting give the means and standard
deviations. The budget of the budgeted methods is 50, 100 for Shuttle.
The methods are svc (Ben-Hur et al.'s support vector clustering: an exact
SVDD and the complete graph), sgd (the unbudgeted SGD-LMOC), fsvc (fast
support-based clustering), bsgd-r, bsgd-pnn and bsgd-prn (budgeted SGD with
removal, projection onto the 5 nearest or 5 random support vectors), the
paper's six, and bsgd-m (merging), ours.

Classic SVC is O(N²), so the work is bounded by time limits; what they cut
is reported in the last table of the report and in each JSON record
(grid_evaluated, grid_total, runs, note), and a method none of whose runs
finished has the status "exceeded". The defaults (40 s each) keep the 15
data sets × 7 methods within about 45 minutes on 2 cores; the extended
grid's 10 data sets × 4 budgeted methods add about a minute (51 s on a
quiet 2-core machine, 5 minutes on the same machine heavily loaded).

Progress (data set, method, grid point, elapsed time) goes to standard
error. Without -json, standard output gets a summary: the pairs that ran
and the NMI of the best budgeted variant against the paper's on the data
sets of at most 1,000 points, then the count within 0.05 on the extended
grid.

	-data dir
		Directory of the data sets, NAME.csv with a label column (default
		$SVCLUST_DATA, or ../shared/datasets). A missing file is skipped
		with a message, never an error.
	-datasets list
		Comma-separated data set names (default the paper's 15: aggregation,
		breast_cancer, compound, flame, glass, iris, jain, pathbased, r15,
		spiral, d31, abalone, car, musk, shuttle). Other names get budget 50.
	-methods list
		Comma-separated methods (default all seven: svc, sgd, fsvc, bsgd-r,
		bsgd-pnn, bsgd-prn, bsgd-m).
	-runs n
		Number of seeded runs at the chosen setting (default 5, as the
		paper). The run with seed 1 is the grid search's own evaluation.
	-out dir
		Directory of REPRODUCTION.md, reproduction.json and figures/
		(default docs).
	-json
		Print the records of the paper's grid on standard output as a JSON array, one object
		per data set and method with the keys dataset, method, n, d,
		classes, gamma, C, p, eps, runs, purity, rand, ari, nmi,
		compactness, db, train_seconds, cluster_seconds, clusters (means),
		sd (the standard deviations), status ("ok", "exceeded",
		"skipped: reason" or "error: message"), grid_evaluated, grid_total
		and note. NaN is written as null. The extended grid's records are
		in reproduction.json only.
	-figures
		Also draw the paper's three visual experiments into OUT/figures:
		nested rings, two moons, and three and four Gaussians (1,000
		points, seed 1), ours with the defaults of fit beside C-means and
		fuzzy C-means given the true number of clusters, as PNG.
	-quiet
		Print no progress.
	-grid-timeout duration
		Wall time of the grid search of one data set and method, and of
		each of FSVC's two stages (default 40s; 0 means no limit). Once it
		is spent no further point starts. Points are started in an order
		that spreads over the grid, so a cut grid still covers every
		range of γ and C.
	-runs-timeout duration
		Wall time of the seeded runs of one data set and method (default
		40s; 0 means no limit): a run starts only if the runs so far and
		one more, at the duration of the chosen point's evaluation, fit in
		it.
	-svc-timeout duration
		Wall time of one SVC or FSVC run, training and labelling together
		(default 40s; 0 means no limit); a run that does not finish in it
		is reported as exceeded, never replaced by an approximation.
	-grid-budget, -runs-budget, -svc-budget duration
		The old names of -grid-timeout, -runs-timeout and -svc-timeout,
		deprecated ("budget" is the number of support vectors); they
		still work and are not listed by -h.
	-workers n
		Number of fits run at a time, each on one core (default 0, all
		cores). Results other than timings do not depend on it unless a
		budget runs out.
	-scale none|zscore|minmax
		Feature scaling fitted to each data set (default zscore; the data
		sets are as in their sources and the paper does not say).
	-gamma-grid list
		Comma-separated γ values (default 0.03125,0.125,0.5,2,8,32).
	-C-grid list
		Comma-separated C values (default the same).
	-fsvc-grid list
		Comma-separated values in (0, 1] of FSVC's p and ε (default
		0.1,0.2,…,1).
	-skip list
		Comma-separated NAME/METHOD pairs not to run, reported as
		skipped "by -skip" (default none).
	-from file
		Render REPRODUCTION.md into -out from a reproduction.json written
		by an earlier run, instead of running. The file may hold at most
		64 MiB.
	-extended-C-grid list
		Comma-separated C values > 0 of the extended part (default
		0.03125,0.125,0.5,2,8,32,128,512,2048); "" or none runs no
		extended part. γ and every other setting are those of the paper's
		part.
	-paper-from file
		Take the paper-grid part, records and protocol, from a
		reproduction.json written without an extended part, and run only
		the extended grid (on its data sets and methods, narrowed by
		-datasets and -methods); -workers and -quiet still apply, the
		flags that set the protocol (-runs, -scale, the grids, the budgets,
		-skip) are errors, and so is -from. Writes both files to -out,
		which must not be the file read. The report gives the command,
		machine and date of each part, and says that they come from two
		runs.

Setting SVCLUST_TRACEBACK in the environment adds a stack trace to the
report of an internal error.
*/
package main

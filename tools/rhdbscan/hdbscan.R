# hdbscan.R FILE MINPTS: R's dbscan::hdbscan on FILE (header x1..xd,label), features
# z-scored with the population sd, as ../shared/calibration/anchors.tsv was made.
# Prints: name, seconds of the hdbscan call alone (system.time, elapsed, after a warm-up
# call), clusters
# (noise left out), and NMI (arithmetic normalisation) against the label column with
# noise points given the label of their nearest clustered point, as in anchors.tsv.
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
minPts <- as.integer(args[2])
y <- d$label
x <- as.matrix(d[, setdiff(names(d), "label"), drop = FALSE])
n <- nrow(x)
x <- sweep(x, 2, colMeans(x))
s <- sqrt(colSums(x^2) / n)
s[s == 0] <- 1
x <- sweep(x, 2, s, "/")
# One call on a small matrix first, untimed, so that the timed call does not
# include the package's loading (as in a session that clusters several sets).
invisible(dbscan::hdbscan(x[seq_len(min(n, 50)), , drop = FALSE], minPts = min(minPts, 5)))
t <- system.time(h <- dbscan::hdbscan(x, minPts = minPts))[["elapsed"]]
cl <- h$cluster
if (any(cl == 0) && any(cl > 0)) {
  inl <- which(cl > 0)
  nn <- dbscan::kNN(x[inl, , drop = FALSE], k = 1, query = x[cl == 0, , drop = FALSE])
  cl[cl == 0] <- cl[inl][nn$id[, 1]]
}
ent <- function(v) { p <- table(v) / length(v); -sum(p * log(p)) }
mi <- function(a, b) {
  t <- table(a, b) / length(a)
  pa <- rowSums(t); pb <- colSums(t)
  nz <- t > 0
  sum(t[nz] * log(t[nz] / outer(pa, pb)[nz]))
}
ha <- ent(y); hb <- ent(cl)
nmi <- if (ha + hb == 0) 1 else if (ha == 0 || hb == 0) 0 else 2 * mi(y, cl) / (ha + hb)
cat(sprintf("%s\t%.4f\t%d\t%.3f\n", sub("\\.csv$", "", basename(args[1])), t,
            length(unique(h$cluster[h$cluster > 0])), nmi))

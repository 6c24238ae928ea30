# whole.R FILE OUT [MINPTS]: the whole job of `svclust fit -o OUT FILE` done with R's
# dbscan::hdbscan, for timing as a whole process (Rscript whole.R …): read FILE (header
# x1..xd,label), z-score the features with the population sd (as hdbscan.R), cluster
# with minPts (default 5) and write one cluster number a line to OUT (0 for noise).
# hdbscan.R times the call alone; this times what a user of R waits for.
args <- commandArgs(trailingOnly = TRUE)
minPts <- if (length(args) >= 3) as.integer(args[3]) else 5L
d <- read.csv(args[1])
x <- as.matrix(d[, setdiff(names(d), "label"), drop = FALSE])
n <- nrow(x)
x <- sweep(x, 2, colMeans(x))
s <- sqrt(colSums(x^2) / n)
s[s == 0] <- 1
x <- sweep(x, 2, s, "/")
h <- dbscan::hdbscan(x, minPts = minPts)
writeLines(as.character(h$cluster), args[2])

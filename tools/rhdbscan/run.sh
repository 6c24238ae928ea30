#!/usr/bin/env bash
# run.sh SVCLUST DIR [MINPTS]: for each DIR/*.csv in turn, the wall time of a whole
# `svclust fit` process (plain defaults, labels written) and then the time of R's
# dbscan::hdbscan call alone on the same file (hdbscan.R; needs Debian's r-cran-dbscan),
# alternating set by set so that a drift of the machine's speed touches both.
# Prints a TSV row per set and the two sums (issue 23's target: svclust's sum ≤ R's).
set -eu
bin=$1; dir=$2; minpts=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'set\tn\td\tsvclust_s\tsvclust_clusters\tsvclust_nmi\thdbscan%s_s\thdbscan_clusters\thdbscan_nmi\n' "$minpts"
for f in "$dir"/*.csv; do
  name=$(basename "$f" .csv)
  t0=$(date +%s.%N)
  "$bin" fit -quiet -o "$tmp/labels" -json "$f" > "$tmp/json"
  t1=$(date +%s.%N)
  read -r n d k nmi < <(jq -r '[.n, .d, .clusters, (.metrics.nmi // "NA")] | @tsv' "$tmp/json")
  IFS=$'\t' read -r _ rt rk rnmi < <(Rscript "$here/hdbscan.R" "$f" "$minpts")
  printf '%s\t%s\t%s\t%.3f\t%s\t%.3f\t%s\t%s\t%s\n' "$name" "$n" "$d" "$(echo "$t1 - $t0" | bc)" "$k" "$nmi" "$rt" "$rk" "$rnmi"
done | tee "$tmp/rows"
awk -F'\t' '{s+=$4; r+=$7; a+=$6; b+=$9; m++} END {printf "sum\t\t\t%.2f\t\t%.3f\t%.2f\t\t%.3f\n", s, a/m, r, b/m}' "$tmp/rows"

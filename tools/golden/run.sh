#!/usr/bin/env bash
# run.sh BIN OUT: the byte-identity harness of a refactoring. It fits every
# data set with plain `BIN fit -o -model -json` and labels it again with
# `BIN predict` and the saved model, writing OUT/NAME.{labels,model,json,pred}:
# the paper's 15 and the calibration sets from $SVCLUST_SHARED (default
# ../shared beside the checkout, skipped when absent), the 16 generated kinds
# at n = 1000 with data seeds 1-5, and 1,000,000 2-D moons. About 3 minutes
# on 2 cores. Compare two OUT directories with compare.sh.
set -u
B=$(realpath "$1"); OUT=$2; mkdir -p "$OUT"
shared=${SVCLUST_SHARED:-$(dirname "$0")/../../../shared}
gen=$OUT/.data; mkdir -p "$gen"
run() { # name file
  "$B" fit -quiet -o "$OUT/$1.labels" -model "$OUT/$1.model" -json "$2" >"$OUT/$1.json" 2>"$OUT/$1.err" || echo "FAIL fit $1" >>"$OUT/FAILS"
  "$B" predict -model "$OUT/$1.model" "$2" >"$OUT/$1.pred" 2>>"$OUT/$1.err" || echo "FAIL predict $1" >>"$OUT/FAILS"
}
for dir in datasets calibration; do
  [ -d "$shared/$dir" ] || { echo "skipping $shared/$dir: absent"; continue; }
  for f in "$shared/$dir"/*.csv; do run "${dir}_$(basename "$f" .csv)" "$f"; done
done
for k in moons nested gauss3 gauss4 circles varied aniso spirals3 grid25 hd8 noisyblobs unbal line3 cube touch20 birch; do
  for s in 1 2 3 4 5; do
    "$B" gen -kind $k -n 1000 -seed $s -o "$gen/${k}_$s.csv" && run "gen_${k}_$s" "$gen/${k}_$s.csv"
  done
done
"$B" gen -kind moons -n 1000000 -seed 1 -o "$gen/moons1m.csv" && run moons1m "$gen/moons1m.csv"
rm -r "$gen"

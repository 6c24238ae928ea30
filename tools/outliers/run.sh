#!/usr/bin/env bash
# run.sh BIN OUT DATA.csv...: fits each data set with the defaults of plain
# `svclust fit` (all rows fitted and scored) under both rules and writes
# OUT/<name>.levels.csv and OUT/<name>.components.csv, the "cluster,outlier"
# columns of fit -o (docs/outliers.md, "Measurements").
B=$1; OUT=$2; shift 2; mkdir -p "$OUT"
for f in "$@"; do n=$(basename "$f" .csv)
  for rule in levels components; do
    [ -s "$OUT/$n.$rule.csv" ] && continue
    "$B" fit -quiet -rule $rule -o "$OUT/$n.$rule.csv" "$f" 2>>"$OUT/errors.log" || echo "FAIL $n $rule" >> "$OUT/errors.log"
  done
done

#!/usr/bin/env bash
# compare.sh A B: compares two directories written by run.sh. Labels and
# predictions must be byte-identical, -json identical but for timings, and
# model files identical but for the run's creation time and tool (model
# files of two different formats need a format-aware comparison). Needs jq.
A=$1; Bd=$2; bad=0
strip='walk(if type=="object" then with_entries(select(.key|test("seconds|runtime")|not)) else . end)'
for f in "$A"/*.labels; do n=$(basename "$f" .labels)
  for ext in labels pred; do cmp -s "$A/$n.$ext" "$Bd/$n.$ext" || { echo "DIFF $n.$ext"; bad=1; }; done
  diff <(jq -S "$strip" "$A/$n.json") <(jq -S "$strip" "$Bd/$n.json") >/dev/null || { echo "JSONDIFF $n"; bad=1; }
  diff <(jq -S 'del(.run.created,.run.tool)' "$A/$n.model") <(jq -S 'del(.run.created,.run.tool)' "$Bd/$n.model") >/dev/null || { echo "MODELDIFF $n"; bad=1; }
done
[ $bad = 0 ] && echo "ALL IDENTICAL ($(ls "$A"/*.labels | wc -l) sets)"
exit $bad

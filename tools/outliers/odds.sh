#!/usr/bin/env bash
# odds.sh BIN OUT [DIR]: for each DIR/NAME.csv.gz (the 22 ODDS outlier sets; protocol in
# DIR/README.md: plain fit on all rows, labels unused, then score all rows) runs
#   BIN fit -quiet -model OUT/NAME.json FILE
#   BIN score -model OUT/NAME.json -o OUT/NAME.score.csv FILE   (columns score,outlier)
# and appends the wall seconds of each to OUT/times.tsv (name, fit_s, score_s; FAIL for a
# step that failed, after which the next set goes on). DIR defaults to $SVCLUST_OUTLIERS,
# else ../shared/outliers beside the repository. odds.py OUT [DIR] makes the table.
# Exits 1 after the last set if any set failed.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 BIN OUT [DIR]" >&2
  exit 2
fi
bin=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${3:-${SVCLUST_OUTLIERS:-$root/../shared/outliers}}
if [ ! -d "$dir" ]; then
  echo "odds.sh: no outlier sets at $dir (pass DIR or set SVCLUST_OUTLIERS); nothing to do"
  exit 0
fi
if ! command -v "$bin" >/dev/null; then
  echo "odds.sh: $bin is not an executable" >&2
  exit 2
fi
mkdir -p "$out"

# timed VAR CMD...: runs CMD and sets VAR to its wall seconds, or to FAIL if it failed.
timed() {
  local -n secs=$1
  shift
  local t0
  t0=$(date +%s.%N)
  if "$@"; then
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  else
    secs=FAIL
  fi
}

printf 'name\tfit_s\tscore_s\n' >"$out/times.tsv"
failed=0
for f in "$dir"/*.csv.gz; do
  [ -e "$f" ] || { echo "odds.sh: no *.csv.gz in $dir"; exit 0; }
  name=$(basename "$f" .csv.gz)
  rm -f "$out/$name.json" "$out/$name.score.csv"
  fit_s=FAIL score_s=FAIL
  timed fit_s "$bin" fit -quiet -model "$out/$name.json" "$f" >/dev/null
  if [ "$fit_s" != FAIL ]; then
    timed score_s "$bin" score -model "$out/$name.json" -o "$out/$name.score.csv" "$f"
  fi
  [ "$fit_s" != FAIL ] && [ "$score_s" != FAIL ] || failed=$((failed + 1))
  printf '%s\t%s\t%s\n' "$name" "$fit_s" "$score_s" | tee -a "$out/times.tsv"
done
if [ "$failed" -gt 0 ]; then
  echo "odds.sh: $failed set(s) failed; see FAIL in $out/times.tsv" >&2
  exit 1
fi

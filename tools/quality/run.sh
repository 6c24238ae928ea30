#!/usr/bin/env bash
# run.sh BIN [SHARED] — plain `BIN fit -json` on every calibration set and
# every set of the paper's 15; prints one TSV row per set:
# suite, set, d, NMI, ARI, clusters. SHARED defaults to ../shared beside
# the repository (SVCLUST_SHARED overrides). Summarise with summary.py.
set -euo pipefail
bin=$1
shared=${2:-${SVCLUST_SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}}
[ -d "$shared/calibration" ] || { echo "run.sh: no $shared/calibration (give SHARED)" >&2; exit 2; }
printf 'suite\tset\td\tnmi\tari\tclusters\n'
for suite in calibration datasets; do
  for f in "$shared/$suite"/*.csv; do
    name=$(basename "$f" .csv)
    "$bin" fit -json -o /dev/null "$f" 2>/dev/null |
      /usr/bin/python3 -c 'import json,sys
d=json.load(sys.stdin); m=d.get("metrics") or {}
print("\t".join(map(str,[sys.argv[1],sys.argv[2],d["d"],round(m.get("nmi",0),4),round(m.get("ari",0),4),d["clusters"]])))' "$suite" "$name"
  done
done

#!/usr/bin/python3
"""summary.py OUT.tsv [BEFORE.tsv] [SHARED]: the mean NMI of run.sh's output
by group (calibration d <= 3, d >= 4, all 35; the paper's 15) beside
HDBSCAN-5/10 and KMeans told the true k from calibration/anchors.tsv, and
every one-cluster answer on a set where HDBSCAN-5 or -10 reaches NMI 0.2
(issue 36's bar). With BEFORE, the sets whose NMI moved by more than 0.005."""
import csv, os, sys

def read(path):
    with open(path) as f:
        return {(r["suite"], r["set"]): r for r in csv.DictReader(f, delimiter="\t")}

out = read(sys.argv[1])
before = read(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None
shared = sys.argv[3] if len(sys.argv) > 3 else os.environ.get(
    "SVCLUST_SHARED", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared"))
with open(os.path.join(shared, "calibration", "anchors.tsv")) as f:
    anchors = {r["dataset"]: r for r in csv.DictReader(f, delimiter="\t")}

def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")

cal = [r for k, r in out.items() if k[0] == "calibration"]
groups = [("calibration d <= 3", [r for r in cal if int(r["d"]) <= 3]),
          ("calibration d >= 4", [r for r in cal if int(r["d"]) >= 4]),
          ("calibration, all", cal),
          ("paper's 15", [r for k, r in out.items() if k[0] == "datasets"])]
print("group\tsets\tsvclust\tbefore\tHDBSCAN-5\tHDBSCAN-10\tbest of the two\tKMeans true k")
for name, rows in groups:
    a = [anchors[r["set"]] for r in rows if r["set"] in anchors]
    b = "" if before is None else "%.3f" % mean([float(before[(r["suite"], r["set"])]["nmi"]) for r in rows])
    col = lambda key: "%.3f" % mean([float(x[key]) for x in a]) if a else ""
    best = "%.3f" % mean([max(float(x["hdbscan5_nmi"]), float(x["hdbscan10_nmi"])) for x in a]) if a else ""
    print("%s\t%d\t%.3f\t%s\t%s\t%s\t%s\t%s" % (name, len(rows), mean([float(r["nmi"]) for r in rows]), b,
          col("hdbscan5_nmi"), col("hdbscan10_nmi"), best, col("kmeans_true_k_nmi")))
for r in cal:
    x = anchors.get(r["set"])
    if x and r["clusters"] == "1" and max(float(x["hdbscan5_nmi"]), float(x["hdbscan10_nmi"])) >= 0.2:
        print("one cluster where HDBSCAN >= 0.2: %s (HDBSCAN-5 %s, -10 %s)" % (r["set"], x["hdbscan5_nmi"], x["hdbscan10_nmi"]))
if before:
    for k, r in sorted(out.items()):
        if k in before and abs(float(r["nmi"]) - float(before[k]["nmi"])) > 0.005:
            print("moved: %s/%s %s -> %s (clusters %s -> %s)" % (k[0], k[1], before[k]["nmi"], r["nmi"], before[k]["clusters"], r["clusters"]))

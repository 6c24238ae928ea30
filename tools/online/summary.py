"""Summarises the prequential benchmark (docs/online.md): reads
DIR/svclust.csv and DIR/peers.csv and prints, per stream, the mean ARI,
the seconds per batch and the mean AUC of the planted anomalies of each
method, as a Markdown table, and draws the ARI per batch (DIR/ari.png).

    /usr/bin/python3 tools/online/summary.py DIR
"""
import csv
import math
import os
import sys
from collections import defaultdict

ORDER = ["updated", "forget", "frozen", "window", "minibatchkmeans", "birch", "isolationforest"]
NAMES = {
    "updated": "svclust updated", "forget": "svclust updated, forget auto", "frozen": "svclust frozen",
    "window": "svclust refit, window 10", "minibatchkmeans": "MiniBatchKMeans.partial_fit (true k)",
    "birch": "Birch.partial_fit (true k)", "isolationforest": "IsolationForest refit, window 10",
}


def mean(v):
    v = [x for x in v if not math.isnan(x)]
    return sum(v) / len(v) if v else math.nan


def main(d):
    rows = defaultdict(lambda: defaultdict(list))  # stream -> method -> [(batch, ari, sec, auc)]
    for name in ("svclust.csv", "peers.csv"):
        path = os.path.join(d, name)
        if not os.path.exists(path):
            continue
        for r in csv.DictReader(open(path)):
            rows[r["stream"]][r["method"]].append((int(r["batch"]), float(r["ari"]), float(r["seconds"]), float(r["auc"])))
    streams = sorted(rows)
    print("| stream | method | mean ARI | s/batch | mean AUC |")
    print("|---|---|---:|---:|---:|")
    for s in streams:
        for m in ORDER + sorted(set(rows[s]) - set(ORDER)):
            if m not in rows[s]:
                continue
            v = rows[s][m]
            ari, sec, auc = mean([x[1] for x in v]), mean([x[2] for x in v]), mean([x[3] for x in v])
            f = lambda x, p: "–" if math.isnan(x) else f"{x:.{p}f}"
            print(f"| {s} | {NAMES.get(m, 'svclust updated, ' + m)} | {f(ari, 3)} | {f(sec, 4)} | {f(auc, 3)} |")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(len(streams), 1, figsize=(8, 2.2 * len(streams)), sharex=True)
    for ax, s in zip(axes if len(streams) > 1 else [axes], streams):
        for m in ORDER + sorted(set(rows[s]) - set(ORDER)):
            if m in rows[s] and m != "isolationforest":
                v = sorted(rows[s][m])
                ax.plot([x[0] for x in v], [x[1] for x in v], label=NAMES.get(m, m), lw=1)
        ax.set_title(s, fontsize=9)
        ax.set_ylim(-0.05, 1.05)
        ax.set_ylabel("ARI")
    (axes[-1] if len(streams) > 1 else axes).set_xlabel("batch (predicted before it is learnt)")
    (axes[0] if len(streams) > 1 else axes).legend(fontsize=6, loc="lower left")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "ari.png"), dpi=90)


if __name__ == "__main__":
    main(sys.argv[1])

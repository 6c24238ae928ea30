"""The scikit-learn peers of the prequential benchmark (docs/online.md).

Reads the streams tools/online wrote (DIR/<stream>.csv: batch, label, x, y;
label -1 for a planted anomaly) and writes DIR/peers.csv with the columns
of svclust.csv: MiniBatchKMeans.partial_fit and Birch.partial_fit told the
stream's true number of clusters (the most any batch has), each batch
predicted before it is learnt, ARI on the batch's rows without the
anomalies; IsolationForest refit on the last 10 batches, the AUC of its
score for the planted anomalies of the next batch. Every method sees the
rows z-scored with the first batch's scaler, as svclust does.

    /usr/bin/python3 tools/online/peers.py DIR
"""
import csv
import glob
import os
import sys
import time

import numpy as np
from sklearn.cluster import Birch, MiniBatchKMeans
from sklearn.ensemble import IsolationForest
from sklearn.metrics import adjusted_rand_score, roc_auc_score

WINDOW = 10


def load(path):
    a = np.loadtxt(path, delimiter=",", skiprows=1)
    b = a[:, 0].astype(int)
    return [(a[b == k, 2:4], a[b == k, 1].astype(int)) for k in range(b.max() + 1)]


def main(d):
    out = open(os.path.join(d, "peers.csv"), "w", newline="")
    w = csv.writer(out)
    w.writerow(["stream", "method", "batch", "ari", "seconds", "auc"])
    for path in sorted(glob.glob(os.path.join(d, "*.csv"))):
        name = os.path.basename(path)[:-4]
        if name in ("svclust", "peers"):
            continue
        batches = load(path)
        mu, sd = batches[0][0].mean(0), batches[0][0].std(0)
        batches = [((x - mu) / sd, y) for x, y in batches]
        k = max(len(set(y[y >= 0])) for _, y in batches)
        for meth in ("minibatchkmeans", "birch", "isolationforest"):
            if meth == "minibatchkmeans":
                model = MiniBatchKMeans(n_clusters=k, random_state=1, n_init=3)
            elif meth == "birch":
                model = Birch(n_clusters=k)
            for b, (x, y) in enumerate(batches):
                if meth == "isolationforest":
                    if b > 0:
                        s = -model.decision_function(x)
                        auc = roc_auc_score(y < 0, s)
                    t0 = time.perf_counter()
                    lo = max(0, b - WINDOW + 1)
                    model = IsolationForest(random_state=1).fit(np.vstack([batches[j][0] for j in range(lo, b + 1)]))
                    sec = time.perf_counter() - t0
                    if b > 0:
                        w.writerow([name, meth, b, "nan", f"{sec:.6f}", f"{auc:.6f}"])
                    continue
                if b > 0:
                    keep = y >= 0
                    ari = adjusted_rand_score(y[keep], model.predict(x[keep]))
                t0 = time.perf_counter()
                model.partial_fit(x)
                sec = time.perf_counter() - t0
                if b > 0:
                    w.writerow([name, meth, b, f"{ari:.6f}", f"{sec:.6f}", "nan"])
            out.flush()
            print(name, meth, "done", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])

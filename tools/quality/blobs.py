#!/usr/bin/python3
"""blobs.py BIN: issue 36's 16 make_blobs sets (n 1,000 and 5,000 by turns,
centres 3..10, random_state = index 0..15, the generator's defaults), each
written as CSV and clustered by plain `BIN fit`; prints ARI per set beside
KMeans told the true k (on z-scores, n_init 10, random_state 0) and the means."""
import os, subprocess, sys, tempfile
import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

bin_ = sys.argv[1]
tmp = tempfile.mkdtemp()
ours, km, one = [], [], []
print("set\tn\tk\tsvclust\tclusters\tKMeans true k")
for i in range(16):
    n, k = (1000, 5000)[i % 2], 3 + i // 2
    X, y = make_blobs(n, centers=k, random_state=i)
    path = os.path.join(tmp, "b%d.csv" % i)
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", header="x1,x2,label", comments="", fmt="%.10g")
    lab = os.path.join(tmp, "b%d.labels" % i)
    subprocess.run([bin_, "fit", "-o", lab, path], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    p = np.loadtxt(lab, dtype=int, delimiter=",", skiprows=1, usecols=0, ndmin=1)
    a = adjusted_rand_score(y, p)
    b = adjusted_rand_score(y, KMeans(k, n_init=10, random_state=0).fit_predict(StandardScaler().fit_transform(X)))
    c = len(set(p[p >= 0]))
    ours.append(a); km.append(b)
    if c <= 1 and b >= 0.5:
        one.append(i)
    print("%d\t%d\t%d\t%.3f\t%d\t%.3f" % (i, n, k, a, c, b))
print("mean\t\t\t%.3f\t\t%.3f" % (np.mean(ours), np.mean(km)))
print("one-cluster answers where KMeans true k >= 0.5: %s" % (one or "none"))

#!/usr/bin/python3
"""Peer outlier scores (scikit-learn 1.2.1 from Debian) for the outlier-score prototype.

For each DATA.csv (header x1..xd,label) writes OUT/<name>.peers.csv with the columns
iforest, lof, ocsvm, knn: higher = more outlying, all fit on all rows of the z-scored
features and scored on all rows (IsolationForest(random_state=0), LocalOutlierFactor
(n_neighbors=20), OneClassSVM() at its defaults, KNN = distance to the 5th neighbour
other than the row itself). Usage: peers.py OUT DATA.csv...
"""
import os, sys, time
import numpy as np, pandas as pd
from sklearn.preprocessing import StandardScaler
from sklearn.ensemble import IsolationForest
from sklearn.neighbors import LocalOutlierFactor, NearestNeighbors
from sklearn.svm import OneClassSVM

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    name = os.path.basename(path)[:-4]
    dst = os.path.join(out, name + ".peers.csv")
    if os.path.exists(dst):
        continue
    df = pd.read_csv(path)
    x = StandardScaler().fit_transform(df.drop(columns="label").to_numpy(float))
    t = {}
    r = {}
    t0 = time.time(); r["iforest"] = -IsolationForest(random_state=0).fit(x).score_samples(x); t["iforest"] = time.time() - t0
    t0 = time.time(); lof = LocalOutlierFactor(n_neighbors=20).fit(x); r["lof"] = -lof.negative_outlier_factor_; t["lof"] = time.time() - t0
    t0 = time.time(); r["ocsvm"] = -OneClassSVM().fit(x).decision_function(x); t["ocsvm"] = time.time() - t0
    t0 = time.time(); dist, _ = NearestNeighbors(n_neighbors=6).fit(x).kneighbors(x); r["knn"] = dist[:, 5]; t["knn"] = time.time() - t0
    pd.DataFrame(r).to_csv(dst, index=False)
    print(name, " ".join(f"{k}={v:.2f}s" for k, v in t.items()), flush=True)

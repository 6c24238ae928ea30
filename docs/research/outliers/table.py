#!/usr/bin/python3
"""Markdown AUC table of the outlier-score prototype: per kind (generated: mean over seeds),
per calibration set with noise, and means. Needs auc.py's OUT/auc.csv and the parts files.
`outlier` is the recommended score, D/(D + D0), from OUT/<name>.final.csv (TestOutlierProtoParts,
the functions of outlier.go); it ranks rows as `depth` does up to ties where f underflows. Usage: table.py OUT
"""
import os, re, sys
import numpy as np, pandas as pd
from sklearn.metrics import roc_auc_score
out = sys.argv[1]
CAL = {"chameleon_t4_8k", "hdbscan", "ring_noisy", "zigzag_outliers"}
df = pd.read_csv(os.path.join(out, "auc.csv"))
o, fl = [], []
for name in df.set:
    a = pd.read_csv(os.path.join(out, name + ".final.csv"))
    y = (a.label == 0) if name in CAL else (a.label == 1)
    o.append(roc_auc_score(y, a.score))
    assert ((a.strength == 0) == (a.score >= 0.5)).all()
df["outlier"] = o
cols = ["outlier", "negf", "glosh_c", "glosh_m", "local_sv", "depth_w2", "wide", "comb_mean", "strength_inv",
        "iforest", "lof", "ocsvm", "knn"]
names = {"outlier": "**outlier**", "negf": "−f", "glosh_c": "GLOSH owner", "glosh_m": "owner's mode",
         "local_sv": "owner SV", "depth_w2": "depth γ/2", "wide": "−log f γ/4", "comb_mean": "ECDF mix",
         "strength_inv": "1−strength(birth)", "iforest": "IForest", "lof": "LOF 20", "ocsvm": "OCSVM", "knn": "KNN 5"}
k = df.groupby(["group", "kind"])[["out%"] + cols].mean()
peers = ["iforest", "lof", "ocsvm", "knn"]
k["best peer"] = df.assign(b=df[peers].max(axis=1)).groupby(["group", "kind"]).b.mean()
hdr = "| data | out % | " + " | ".join(names[c] for c in cols) + " | best peer |"
print(hdr); print("|" + "---|" * (len(cols) + 3))
for (g, kind), r in k.iterrows():
    print(f"| {kind} | {r['out%']:.1f} | " + " | ".join(f"{r[c]:.3f}" for c in cols) + f" | {r['best peer']:.3f} |")
for g in ["generated", "calibration"]:
    m = k.loc[g].mean()
    print(f"| **mean, {g} ({len(k.loc[g])})** | | " + " | ".join(f"**{m[c]:.3f}**" for c in cols) + f" | {m['best peer']:.3f} |")
m = k.mean()
print(f"| **mean, all {len(k)}** | | " + " | ".join(f"**{m[c]:.3f}**" for c in cols) + f" | {m['best peer']:.3f} |")

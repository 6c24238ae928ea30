#!/usr/bin/python3
"""ROC AUC and threshold tables of svclust's outlier score (docs/outliers.md).

Reads OUT/<name>.levels.csv and OUT/<name>.components.csv (run.sh: the
"cluster,outlier" columns of `svclust fit -o`) and PEERS/<name>.peers.csv
(peers.py), with the data sets DATA.csv for their labels: label 1 marks a
planted outlier in the generated sets (gen.py), class 0 the noise in the
calibration sets with a noise class; sets named *_n<rows> (gen.py --pure)
have no outlier, and count only for the rows flagged on clean data.
Prints Markdown tables. Usage: table.py OUT PEERS DATA.csv...
"""
import os, re, sys
import numpy as np, pandas as pd
from sklearn.metrics import roc_auc_score

out, peers, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
CAL = {"chameleon_t4_8k", "hdbscan", "ring_noisy", "zigzag_outliers"}
COLS = ["levels", "components", "iforest", "lof", "ocsvm", "knn"]
NAMES = {"levels": "**outlier** (levels)", "components": "outlier (components)", "iforest": "IsolationForest",
         "lof": "LOF (20)", "ocsvm": "OCSVM", "knn": "KNN (5th)"}
THR = 0.5  # cluster.DefaultOutlierThreshold


def f1(flag, y):
    tp = (flag & y).sum()
    return 0.0 if tp == 0 else 2 * tp / (flag.sum() + y.sum())


rows, clean = [], []
for path in paths:
    name = os.path.basename(path)[:-4]
    lab = pd.read_csv(path)["label"].to_numpy()
    s = {r: pd.read_csv(os.path.join(out, f"{name}.{r}.csv"))["outlier"].to_numpy() for r in ("levels", "components")}
    if re.search(r"_n\d+$", name):
        clean.append({"set": name, **{r: 100 * (s[r] >= THR).mean() for r in s}})
        continue
    cal = name in CAL
    y = lab == 0 if cal else lab == 1
    p = pd.read_csv(os.path.join(peers, name + ".peers.csv"))
    r = {"set": name, "kind": name if cal else re.sub(r"_s\d+$", "", name),
         "group": "calibration" if cal else "generated", "out%": 100 * y.mean()}
    for c in COLS:
        r[c] = roc_auc_score(y, s[c] if c in s else p[c])
    for c in s:
        r["f1_" + c] = f1(s[c] >= THR, y)
        r["flag_" + c] = 100 * (s[c] >= THR).mean()
    rows.append(r)

df = pd.DataFrame(rows)
kinds = df.groupby(["group", "kind"]).mean(numeric_only=True).reset_index()
kinds["best"] = kinds[["iforest", "lof", "ocsvm", "knn"]].max(axis=1)
print("| data | out % | " + " | ".join(NAMES[c] for c in COLS) + " | best peer |")
print("|---|---" + "|---" * (len(COLS) + 1) + "|")
for g in ["calibration", "generated"]:
    for _, k in kinds[kinds.group == g].iterrows():
        print(f"| {k.kind} | {k['out%']:.1f} | " + " | ".join(f"{k[c]:.3f}" for c in COLS) + f" | {k.best:.3f} |")
for g, sub in [("generated", kinds[kinds.group == "generated"]), ("calibration", kinds[kinds.group == "calibration"]), ("all", kinds)]:
    print(f"| **mean, {g} ({len(sub)})** | | " + " | ".join(f"**{sub[c].mean():.3f}**" for c in COLS) + f" | {sub.best.mean():.3f} |")
print()
cl = pd.DataFrame(clean)
print("| rule | F1 generated | flagged generated | F1 calibration | flagged calibration | clean: flagged mean | clean: max |")
print("|---|---|---|---|---|---|---|")
for c in ("levels", "components"):
    g, k = kinds[kinds.group == "generated"], kinds[kinds.group == "calibration"]
    print(f"| {c}, score ≥ ½ | {g['f1_' + c].mean():.3f} | {g['flag_' + c].mean():.1f} % | {k['f1_' + c].mean():.3f} | "
          f"{k['flag_' + c].mean():.1f} % | {cl[c].mean():.1f} % | {cl[c].max():.1f} % ({cl.set[cl[c].idxmax()]}) |")

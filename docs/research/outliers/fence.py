#!/usr/bin/python3
"""Thresholds of the outlier score from OUT/<name>.parts.csv (TestOutlierProtoParts).

Each row holds label, cluster and Dc = log(Fc / fc(x)) for every cluster c (Fc: c's part of
f + 1 at its peak; fc(x): its part at the row). Rules compared:
  global k   D = min_c Dc; outlier iff D >= Q3 + k IQR of D over the training rows
  ratio 0.1  the raw GLOSH ratio: outlier iff max_c fc(x)/Fc <= 0.1 (D >= ln 10)
  birth      today's -outliers of the LevelTree rule: f(x) below its cluster's birth level
  iforest auto, lof auto, ocsvm 0: the peers' own predict() cut-offs (needs peers.py's files)
  cluster k  fence_c = Q3 + k IQR of Dc over the rows of cluster c;
             outlier iff min_c Dc / fence_c >= 1 (beyond every cluster's own fence);
             score s = 1 - 2^(-min_c Dc / fence_c): 1/2 at the fence.
Prints mean F1 and share flagged per group (generated kinds once each, calibration sets with
noise, inlier-only sets), and the AUC of the per-cluster score beside the global one.
Usage: fence.py OUT
"""
import glob, os, re, sys
import numpy as np, pandas as pd
from sklearn.metrics import roc_auc_score

CAL = {"chameleon_t4_8k", "hdbscan", "ring_noisy", "zigzag_outliers"}
out = sys.argv[1]

def tukey(v, k):
    q1, q3 = np.quantile(v, [.25, .75])
    return q3 + k * (q3 - q1)

rows, aucs = [], []
for sp in sorted(glob.glob(os.path.join(out, "*.parts.csv"))):
    name = os.path.basename(sp)[:-len(".parts.csv")]
    a = pd.read_csv(sp, header=None).to_numpy()
    lab, cl, D = a[:, 0], a[:, 1].astype(int), a[:, 2:].astype(float)
    pure = re.search(r"_n\d+$", name) is not None
    cal = name in CAL
    y = (lab == 0) if cal else (lab == 1)
    if pure:
        y = np.zeros(len(lab), bool)
    g = "pure" if pure else ("calibration" if cal else "generated")
    kind = name if cal or pure else re.sub(r"_s\d+$", "", name)
    Dmin = D.min(1)
    for k in (1.5, 2, 3, 4):
        for rule in ("global", "cluster"):
            if rule == "global":
                z = Dmin / max(tukey(Dmin, k), 1e-12)
            else:
                fc = np.array([tukey(D[cl == c, c], k) if (cl == c).any() else np.inf for c in range(D.shape[1])])
                z = (D / np.maximum(fc, 1e-12)).min(1)
            flag = z >= 1
            tp = (flag & y).sum(); pr = tp / max(flag.sum(), 1); rc = tp / max(y.sum(), 1)
            rows.append(dict(group=g, kind=kind, rule=f"{rule} {k}", f1=0 if tp == 0 else 2*pr*rc/(pr+rc),
                             flagged=100*flag.mean(), prec=pr, rec=rc))
            if k == 3 and not pure:
                aucs.append(dict(group=g, kind=kind, rule=rule, auc=roc_auc_score(y, z)))
    extra = [("ratio 0.1", Dmin >= np.log(10))]
    sc = os.path.join(out, name + ".scores.csv")
    if os.path.exists(sc):
        extra.append(("birth", pd.read_csv(sc)["rule_out"].to_numpy() > 0))
    pp = os.path.join(out, name + ".peers.csv")
    if os.path.exists(pp):
        p = pd.read_csv(pp)
        extra += [("iforest auto", p["iforest"].to_numpy() > 0.5), ("lof auto", p["lof"].to_numpy() > 1.5),
                  ("ocsvm 0", p["ocsvm"].to_numpy() > 0)]
    for r, flag in extra:
        tp = (flag & y).sum(); pr = tp / max(flag.sum(), 1); rc = tp / max(y.sum(), 1)
        rows.append(dict(group=g, kind=kind, rule=r, f1=0 if tp == 0 else 2*pr*rc/(pr+rc),
                         flagged=100*flag.mean(), prec=pr, rec=rc))
df = pd.DataFrame(rows)
pd.set_option("display.width", 200)
t = df.groupby(["group", "rule", "kind"])[["f1", "flagged", "prec", "rec"]].mean().groupby(["group", "rule"]).agg(["mean", "max"])
print(t[[("f1", "mean"), ("flagged", "mean"), ("flagged", "max"), ("prec", "mean"), ("rec", "mean")]].round(3).to_string())
a = pd.DataFrame(aucs).groupby(["group", "rule", "kind"]).auc.mean().groupby(["group", "rule"]).mean()
print("\nAUC of the score (k = 3; monotone in z):"); print(a.round(3).to_string())
print("\nper kind, k = 3:")
print(df[df.rule.isin(["global 3", "cluster 3"])].pivot_table(index="kind", columns="rule", values=["f1", "flagged"]).round(2).to_string())

#!/usr/bin/python3
"""ROC AUC and threshold tables of the outlier-score prototype.

Reads OUT/<name>.scores.csv (TestOutlierProto) and OUT/<name>.peers.csv (peers.py).
Outliers: label 1 for generated sets (gen.py), class 0 for the calibration sets with a
noise class (chameleon_t4_8k, hdbscan, ring_noisy, zigzag_outliers).
Usage: auc.py OUT
"""
import glob, os, sys, re
import numpy as np, pandas as pd
from sklearn.metrics import roc_auc_score

out = sys.argv[1]
CAL = {"chameleon_t4_8k", "hdbscan", "ring_noisy", "zigzag_outliers"}
SHOW = ["negf", "ecdf", "glosh_c", "glosh_m", "glosh_low", "local_sv", "depth", "depth_sv", "lognear", "wide2", "wide", "depth_w2", "depth_w4",
        "comb_mean", "comb_max", "strength_inv", "iforest", "lof", "ocsvm", "knn"]
PURE = "pure"
rows, thr = [], []
for sp in sorted(glob.glob(os.path.join(out, "*.scores.csv"))):
    name = os.path.basename(sp)[:-len(".scores.csv")]
    pp = os.path.join(out, name + ".peers.csv")
    if not os.path.exists(pp) or re.search(r"_n\d+$", name):
        continue  # no peers yet, or an inlier-only set (fence.py)
    s = pd.read_csv(sp)
    p = pd.read_csv(pp)
    cal = name in CAL
    y = (s["label"] == 0).to_numpy() if cal else (s["label"] == 1).to_numpy()
    kind = name if cal else re.sub(r"_s\d+$", "", name)
    s["strength_inv"] = 1 - s["strength"]
    r = {"set": name, "kind": kind, "group": "calibration" if cal else "generated",
         "n": len(y), "out%": 100 * y.mean()}
    for c in SHOW:
        v = p[c] if c in p else s[c]
        r[c] = roc_auc_score(y, v)
    rows.append(r)
    # Thresholds: F1 of "score >= tau" for the calibrated scores, and of the rule's -outliers.
    for c in ["ecdf", "depth_cal", "comb_mean", "comb_max", "glosh_c", "depth", "depth_w2", "depth_w4"]:
        for tau in np.round(np.arange(0.5, 1.0001, 0.01), 2):
            flag = s[c].to_numpy() >= tau
            tp = (flag & y).sum()
            prec = tp / max(flag.sum(), 1)
            rec = tp / max(y.sum(), 1)
            f1 = 0 if tp == 0 else 2 * prec * rec / (prec + rec)
            thr.append({"set": name, "group": r["group"], "cand": c, "tau": tau, "f1": f1,
                        "flag%": 100 * flag.mean(), "prec": prec, "rec": rec})
    # The rule's -outliers today, and the peers' own default cut-offs (predict()).
    for c, flag in [("rule_out", s["rule_out"].to_numpy() > 0), ("iforest_auto", p["iforest"].to_numpy() > 0.5),
                    ("lof_auto", p["lof"].to_numpy() > 1.5), ("ocsvm_0", p["ocsvm"].to_numpy() > 0)]:
        tp = (flag & y).sum(); prec = tp / max(flag.sum(), 1); rec = tp / max(y.sum(), 1)
        thr.append({"set": name, "group": r["group"], "cand": c, "tau": 0, "f1": 0 if tp == 0 else 2*prec*rec/(prec+rec),
                    "flag%": 100 * flag.mean(), "prec": prec, "rec": rec})
df = pd.DataFrame(rows)
pd.set_option("display.width", 250); pd.set_option("display.max_columns", 30); pd.set_option("display.max_rows", 200)
kinds = df.groupby(["group", "kind"])[["out%"] + SHOW].mean()
print(kinds.round(3).to_string())
print()
for g in ["generated", "calibration"]:
    sub = df[df.group == g]
    print(g, "mean over", len(sub), "sets (kinds weighted by seeds)")
    print(sub[SHOW].mean().round(3).to_string())
    print()
peers = ["iforest", "lof", "ocsvm", "knn"]
df["bestpeer"] = df[peers].max(axis=1)
print("mean over kinds (each kind once):")
print(kinds[SHOW].mean().round(3).to_string())
print("best peer per set, mean over kinds:", df.groupby("kind")["bestpeer"].mean().mean().round(3))
df.to_csv(os.path.join(out, "auc.csv"), index=False)
t = pd.DataFrame(thr)
t.to_csv(os.path.join(out, "thresholds.csv"), index=False)
print()
for g in ["generated", "calibration"]:
    sub = t[t.group == g]
    sub = sub.assign(kind=sub.set.str.replace(r"_s\d+$", "", regex=True))
    # each kind once: mean over its seeds, then over kinds
    m = sub.groupby(["cand", "tau", "kind"])[["f1", "flag%", "prec", "rec"]].mean().groupby(["cand", "tau"]).mean().reset_index()
    print(g, ": best tau per candidate by mean F1")
    for c, mc in m.groupby("cand"):
        b = mc.loc[mc.f1.idxmax()]
        print(f"  {c:12s} tau={b.tau:.2f} F1={b.f1:.3f} flag%={b['flag%']:.1f} prec={b.prec:.3f} rec={b.rec:.3f}")
    d = m[m.cand == "depth"].set_index("tau")
    print("  depth by tau:", " ".join(f"{tau:.2f}:{v:.3f}" for tau, v in d.f1.items() if tau >= 0.8))

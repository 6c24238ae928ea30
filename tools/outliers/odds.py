#!/usr/bin/python3
"""svclust's outlier score on the 22 public outlier sets (ODDS), beside the peers of anchors.tsv.

Protocol: shared/outliers/README.md (unsupervised as in the pyod benchmark and ADBench: fit
on all rows with the labels unused, score all rows, ROC AUC and average precision against
`label`, 1 = outlier). Reads the labels from DIR/NAME.csv.gz, the `outlier` and `score`
columns from OUT/NAME.score.csv (odds.sh) and the peers from DIR/anchors.tsv; ranks rows by
`outlier` and by -score (-f: f is higher inside the data). Prints a Markdown table, or the
per-set numbers as JSON with --json. DIR defaults to $SVCLUST_OUTLIERS, else
../shared/outliers beside the repository. Usage: odds.py [--json] OUT [DIR]
"""
import argparse, glob, json, os, sys
import numpy as np, pandas as pd
from sklearn.metrics import average_precision_score, roc_auc_score

PEERS = {"iforest": "IsolationForest", "lof": "LOF", "ocsvm": "OCSVM", "knn": "KNN"}
NEAR = 0.02  # within this of the best peer's AUC counts as a match


def measure(name, data, out, anchors):
    """The numbers of one set; ours are None when its score file is missing."""
    y = pd.read_csv(data, usecols=["label"])["label"].to_numpy() == 1
    d = len(pd.read_csv(data, nrows=0).columns) - 1
    r = {"set": name, "n": len(y), "d": d, "outliers": int(y.sum())}
    path = os.path.join(out, name + ".score.csv")
    s = pd.read_csv(path) if os.path.exists(path) else pd.DataFrame()
    for key, col, sign in (("outlier", "outlier", 1), ("neg_f", "score", -1)):
        ok = col in s and len(s) == len(y)
        r[key + "_auc"] = roc_auc_score(y, sign * s[col]) if ok else None
        r[key + "_ap"] = average_precision_score(y, sign * s[col]) if ok else None
    a = anchors.loc[name] if name in anchors.index else None
    for p in PEERS:
        for m in ("auc", "ap"):
            r[f"{p}_{m}"] = None if a is None else float(a[f"{p}_{m}"])
    r["best_peer_auc"] = None if a is None else float(a["best_peer_auc"])
    r["best_peer_ap"] = None if a is None else max(r[p + "_ap"] for p in PEERS)
    return r


def f3(v):
    return "–" if v is None or pd.isna(v) else f"{v:.3f}"


def table(rows):
    df = pd.DataFrame(rows).astype({"outlier_auc": float, "best_peer_auc": float})
    print("| set | n | d | **outlier** AUC | outlier AP | −f AUC | " + " | ".join(PEERS.values())
          + " | best peer | ≥ best − 0.02 |")
    print("|---" * 12 + "|")
    for _, r in df.iterrows():
        mark = "✓" if r.outlier_auc >= r.best_peer_auc - NEAR else ""
        print(f"| {r.set} | {r.n} | {r.d} | **{f3(r.outlier_auc)}** | {f3(r.outlier_ap)} | {f3(r.neg_f_auc)} | "
              + " | ".join(f3(r[p + "_auc"]) for p in PEERS) + f" | {f3(r.best_peer_auc)} | {mark} |")
    done = df[df.outlier_auc.notna()]
    print(f"\nMeans over the {len(done)} sets scored" + (f" (of {len(df)}; missing: {', '.join(df.set[df.outlier_auc.isna()])})"
                                                      if len(done) < len(df) else "") + ":\n")
    print("| method | mean AUC | mean AP |\n|---|---|---|")
    for key, label in [("outlier", "**svclust outlier**"), ("neg_f", "svclust −f"),
                       *PEERS.items(), ("best_peer", "best peer, per set")]:
        print(f"| {label} | {f3(done[key + '_auc'].astype(float).mean())} | {f3(done[key + '_ap'].astype(float).mean())} |")
    near = done.outlier_auc >= done.best_peer_auc - NEAR
    bad = done[(done.outlier_auc < 0.5) & (done.best_peer_auc >= 0.8)]
    print(f"\nWithin {NEAR} of the best peer's AUC: {near.sum()} of {len(done)}.")
    print(f"Outlier AUC < 0.5 where the best peer ≥ 0.8: {len(bad)}" + (f" ({', '.join(bad.set)})" if len(bad) else "") + ".")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="write the per-set numbers as JSON to stdout")
    ap.add_argument("out", help="the OUT directory of odds.sh")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("dir", nargs="?", help="the outlier sets (default $SVCLUST_OUTLIERS, else ../shared/outliers)",
                    default=os.environ.get("SVCLUST_OUTLIERS") or os.path.join(root, "..", "shared", "outliers"))
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.dir, "*.csv.gz")))
    if not files:
        print(f"odds.py: no outlier sets (*.csv.gz) in {args.dir}; nothing to do")
        return
    anchors = pd.read_csv(os.path.join(args.dir, "anchors.tsv"), sep="\t").set_index("dataset")
    rows = [measure(os.path.basename(f)[:-len(".csv.gz")], f, args.out, anchors) for f in files]
    if args.json:
        json.dump(rows, sys.stdout, indent=1, default=float)
        print()
    else:
        table(rows)


if __name__ == "__main__":
    main()

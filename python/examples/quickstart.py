"""Quick start: cluster a DataFrame with svclust, plot it, print outliers.

Run with Debian's interpreter after installing the package (README.md):

    /usr/bin/python3 python/examples/quickstart.py [OUT.png]

It makes two interleaved half-moons and a little noise, fits SVClust with
the svclust command's defaults (and its seed, random_state=1), prints what
was chosen from the data and the rows with the highest outlier score, and
plots the clusters with matplotlib if it is installed: to OUT.png, or
without it to quickstart.png in a new temporary directory (never the
current directory). It prints where.
"""

import os
import sys
import tempfile

import numpy as np

import svclust

try:
    import pandas as pd
except ImportError:
    pd = None


def moons(n=600, noise=0.08, seed=1):
    """Two interleaved half-moons, plus 2 % uniform noise."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    upper = np.arange(n) % 2 == 0
    x = np.where(upper, np.cos(t), 1 - np.cos(t))
    y = np.where(upper, np.sin(t), 0.5 - np.sin(t))
    pts = np.column_stack([x, y]) + rng.normal(scale=noise, size=(n, 2))
    junk = rng.uniform([-1.5, -1.0], [2.5, 1.5], size=(n // 50, 2))
    return np.vstack([pts, junk])


def outlier_rows(est, k=10):
    """The k training rows of highest outlier score (outlier_scores_, in
    [0, 1]; those at or above est.outlier_threshold are outliers)."""
    s = est.outlier_scores_
    return np.argsort(-s, kind="stable")[:k], s


def main(out=None):
    xy = moons()
    X = pd.DataFrame(xy, columns=["x", "y"]) if pd is not None else xy

    est = svclust.SVClust(random_state=1)
    labels = est.fit_predict(X)
    print(f"{est.n_clusters_} clusters, sizes {np.bincount(labels[labels >= 0]).tolist()}")
    print(f"γ = {est.gamma_:.4g}, C = {est.C_:.4g}, budget {est.budget_}, "
          f"{est.support_vectors_.shape[0]} support vectors")
    print("chosen from the data:", {k: v for k, v in est.choice_.items() if k in ("rho", "cover", "width")})

    rows, score = outlier_rows(est)
    n_out = int((score >= est.outlier_threshold).sum())
    print(f"{n_out} rows with an outlier score ≥ {est.outlier_threshold}; the highest:")
    for i in rows:
        print(f"  row {i:4d}  x = {xy[i, 0]:7.3f}  y = {xy[i, 1]:7.3f}  outlier score {score[i]:.3f}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.scatter(xy[:, 0], xy[:, 1], c=labels, s=6, cmap="tab10")
    ax.scatter(est.support_vectors_[:, 0], est.support_vectors_[:, 1], marker="+", c="k", s=20, label="support vectors")
    ax.scatter(xy[rows, 0], xy[rows, 1], facecolors="none", edgecolors="r", s=60, label="outliers")
    ax.legend(loc="lower left", fontsize=8)
    ax.set_title(f"svclust: {est.n_clusters_} clusters")
    fig.tight_layout()
    if out is None:
        out = os.path.join(tempfile.mkdtemp(prefix="svclust-quickstart-"), "quickstart.png")
    fig.savefig(out, dpi=120)
    print("plot written to", os.path.abspath(out))


if __name__ == "__main__":
    main(*sys.argv[1:])

#!/usr/bin/python3
"""subspace.py DIR: writes the 20 generated sets of docs/high-dim.md, "The
width in the projected space", to DIR/NAME.csv (x1..xD, label): 2,000 rows
of 10 clusters in D = 16 or 64 features, each cluster a Gaussian on a
q-dimensional subspace of its own (a random orthonormal basis scaled by
factors uniform in [0.5, 1.5]) plus isotropic noise of standard deviation
`noise` per feature, its centre drawn N(0, sep²/(2D)) per feature so that
two centres lie about `sep` apart. The grid: (sep, q, noise) in (2.5, 3,
0.2), (3, 3, 0.2), (2, 2, 0.1), (4, 6, 0.2), (3, 5, 0.3), data seeds 1 and
2 (numpy's default_rng). Clusters of this shape (low-dimensional, each
oriented its own way, in many features) are where plain svclust answered
one cluster and HDBSCAN found the clusters."""
import os, sys
import numpy as np

GRID = [(2.5, 3, 0.2), (3, 3, 0.2), (2, 2, 0.1), (4, 6, 0.2), (3, 5, 0.3)]


def generate(n, D, k, q, sep, noise, seed):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, D)) * sep / np.sqrt(2 * D)
    bases = [np.linalg.qr(rng.normal(size=(D, q)))[0] * rng.uniform(0.5, 1.5, size=q) for _ in range(k)]
    y = np.arange(n) % k
    z = rng.normal(size=(n, q))
    X = np.stack([centres[c] + bases[c] @ zi for c, zi in zip(y, z)]) + rng.normal(scale=noise, size=(n, D))
    return X, y


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for D in (16, 64):
        for sep, q, noise in GRID:
            for seed in (1, 2):
                X, y = generate(2000, D, 10, q, sep, noise, seed)
                name = "d%d_sep%g_q%d_n%g_s%d.csv" % (D, sep, q, noise, seed)
                header = ",".join(["x%d" % i for i in range(1, D + 1)] + ["label"])
                np.savetxt(os.path.join(out, name), np.column_stack([X, y]), delimiter=",", header=header,
                           comments="", fmt="%.6g")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""shapes3d.py BIN [DIR]: 36 generated 3-D sets, 12 families × data seeds
1–3 (numpy's default_rng(seed); make_blobs and make_moons with the
random_state given below), written to DIR (a temporary directory by
default) as NAME.csv (x1,x2,x3,label) and clustered by plain `BIN fit`;
prints the ARI, NMI (scikit-learn's, the arithmetic normalisation of
metrics.NMI) and number of clusters of each set and the mean ARI and NMI
of each family and of all. The families, written for issue 36 to measure the
cut (cluster/bisect.go) in three dimensions, where the paper's and the
calibration sets have one 3-D set between them:
  blobs3d_N_K  make_blobs(N, centers=K, n_features=3), N, K in (1000, 3), (3000, 5), (1000, 8)
  heptaN       7 Gaussians (sd 0.5) at the origin and ±3 on each axis, N/7 rows each, N = 210, 700
  tetra        4 Gaussians (sd 0.45) at the corners of a tetrahedron 0.9·(±1, ±1, ±1), 100 rows each
  chainNZ      two interlocked rings of radius 1 (FCPS's Chainlink), 500 rows each, noise sd NZ = 0.08, 0.15
  tworings     two rings of radius 1 in perpendicular planes, centres 3 apart, noise sd 0.1
  atom         a ball of radius 1 (400 rows) inside a shell of radii 2.8–3.2 (400 rows)
  helix        two interleaved helices (radius 1, two turns, pitch 2π/3), 300 rows each, noise sd 0.08
  moons3d      make_moons(1000, noise=0.08) with a third feature N(0, 0.1²)
HDBSCAN on the same files: go run ./tools/probe hdbscan DIR/*.csv."""
import os, subprocess, sys, tempfile
from collections import defaultdict
import numpy as np
from sklearn.datasets import make_blobs, make_moons
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score


def sphere(rng, n):
    v = rng.normal(size=(n, 3))
    return v / np.linalg.norm(v, axis=1)[:, None]


def ring(rng, n, noise):
    t = rng.uniform(0, 2 * np.pi, n)
    return np.column_stack([np.cos(t), np.sin(t), np.zeros(n)]) + rng.normal(0, noise, (n, 3))


def sets(seed):
    """Yields (family, X, y) for one data seed."""
    rng = np.random.default_rng(seed)
    for i, (n, k) in enumerate([(1000, 3), (3000, 5), (1000, 8)]):
        X, y = make_blobs(n, centers=k, n_features=3, random_state=10 * seed + i)
        yield "blobs3d_%d_%d" % (n, k), X, y
    for n in (210, 700):
        c = np.array([[0, 0, 0], [3, 0, 0], [-3, 0, 0], [0, 3, 0], [0, -3, 0], [0, 0, 3], [0, 0, -3]])
        y = np.repeat(np.arange(7), n // 7)
        yield "hepta%d" % n, c[y] + rng.normal(0, 0.5, (len(y), 3)), y
    c = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]]) * 0.9
    y = np.repeat(np.arange(4), 100)
    yield "tetra", c[y] + rng.normal(0, 0.45, (400, 3)), y
    for nz in (0.08, 0.15):
        a = ring(rng, 500, nz)
        b = ring(rng, 500, nz)[:, [0, 2, 1]] + [1, 0, 0]  # in the x-z plane, through a's hole
        yield "chain%g" % nz, np.vstack([a, b]), np.repeat([0, 1], 500)
    a = ring(rng, 500, 0.1)
    b = ring(rng, 500, 0.1)[:, [0, 2, 1]] + [3, 0, 0]
    yield "tworings", np.vstack([a, b]), np.repeat([0, 1], 500)
    ball = sphere(rng, 400) * rng.uniform(size=(400, 1)) ** (1 / 3)
    shell = sphere(rng, 400) * rng.uniform(2.8, 3.2, (400, 1))
    yield "atom", np.vstack([ball, shell]), np.repeat([0, 1], 400)
    t = rng.uniform(0, 4 * np.pi, 600)
    y = np.repeat([0, 1], 300)
    yield "helix", np.column_stack([np.cos(t + np.pi * y), np.sin(t + np.pi * y), t / 3]) + rng.normal(0, 0.08, (600, 3)), y
    X, y = make_moons(1000, noise=0.08, random_state=seed)
    yield "moons3d", np.column_stack([X, rng.normal(0, 0.1, 1000)]), y


def main():
    bin_ = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(out, exist_ok=True)
    fam = defaultdict(list)
    print("set\tARI\tNMI\tclusters")
    for seed in (1, 2, 3):
        for name, X, y in sets(seed):
            path = os.path.join(out, "%s_s%d.csv" % (name, seed))
            np.savetxt(path, np.column_stack([X, y]), delimiter=",", header="x1,x2,x3,label", comments="", fmt="%.8g")
            lab = path[:-4] + ".labels"
            subprocess.run([bin_, "fit", "-o", lab, path], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            p = np.loadtxt(lab, dtype=int, delimiter=",", skiprows=1, usecols=0, ndmin=1)
            os.remove(lab)
            a, m = adjusted_rand_score(y, p), normalized_mutual_info_score(y, p)
            fam[name].append((a, m))
            print("%s_s%d\t%.3f\t%.3f\t%d" % (name, seed, a, m, len(set(p[p >= 0]))))
    print()
    for name, v in fam.items():
        print("%s\tmean\t%.3f\t%.3f" % (name, *np.mean(v, axis=0)))
    print("all\tmean\t%.3f\t%.3f" % tuple(np.mean([am for v in fam.values() for am in v], axis=0)))


if __name__ == "__main__":
    main()

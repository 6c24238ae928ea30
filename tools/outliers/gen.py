#!/usr/bin/python3
"""Generated data with planted outliers for the outlier-score prototype (issue 24).

Writes OUT/<kind>_s<seed>.csv with header x1..xd,label; label 1 marks a
planted outlier, 0 an inlier. Kinds:
  moons_unif      2-D two moons, 5 % uniform background noise (box 1.2x the data)
  circles_unif    2-D two circles, 5 % uniform background noise
  blobs{d}_unif   k = 3..6 Gaussian clusters (random sd 0.5..2, centres in [-10,10]^d),
                  d in 2, 8, 32, 64; 1-10 % outliers uniform in the data's box
  blobs{d}_wide   same clusters, outliers from one Gaussian of 3x the data's sd
                  around the data's mean (scattered, many inside the range)
  local{d}        a tight Gaussian (sd 0.1, 500 rows) beside a loose uniform box
                  (side 10, 1500 rows), d in 2, 10; 20 local outliers at radius
                  0.1(sqrt(d) + 2.5..3.5) from the tight centre: denser than the box's
                  rows (a global density misses them), odd only for their own cluster
  tails{d}        k = 3..6 Gaussian clusters of sd 0.3..2 (d in 8, 32); 1-5 % outliers drawn
                  from a random cluster at 2..3 times its sd: odd for their own cluster
  micro{d}        blobs plus 3 clumps of 8 rows (sd 0.1) at random places in the data's
                  box, d in 2, 8: micro-cluster anomalies
  clump{d}        blobs plus one clump of 1-6 % of the rows (sd 0.3) at a random place in
                  the data's box, d in 4, 16: a minority class as the outliers, as in
                  the public outlier sets built from a small class
  single{d}       one standard Gaussian (d = 4), 1-10 % outliers uniform in its box
  dominant{d}     one dense correlated Gaussian with 97 % of the rows (d in 6, 20),
                  plus two small inlier clusters (1 % each, 6 sd away); 1-5 % outliers
                  uniform in the box of the data
Usage: gen.py OUT [seeds...]
"""
import sys, os
import zlib
import numpy as np

def write(path, x, y):
    d = x.shape[1]
    with open(path, "w") as fh:
        fh.write(",".join(f"x{j+1}" for j in range(d)) + ",label\n")
        for row, l in zip(x, y):
            fh.write(",".join(f"{v:.6g}" for v in row) + f",{int(l)}\n")

def box(rng, x, m, scale=1.2):
    lo, hi = x.min(0), x.max(0)
    c, h = (lo + hi) / 2, (hi - lo) / 2 * scale
    return c + (rng.random((m, x.shape[1])) * 2 - 1) * h

def moons(rng, n):
    a = rng.random(n // 2) * np.pi
    b = rng.random(n - n // 2) * np.pi
    x = np.r_[np.c_[np.cos(a), np.sin(a)], np.c_[1 - np.cos(b), 0.5 - np.sin(b)]]
    return x + rng.normal(0, 0.07, x.shape)

def circles(rng, n):
    a = rng.random(n) * 2 * np.pi
    r = np.where(np.arange(n) < n // 2, 1.0, 0.5)
    x = np.c_[r * np.cos(a), r * np.sin(a)]
    return x + rng.normal(0, 0.04, x.shape)

def blobs(rng, n, d):
    k = rng.integers(3, 7)
    cs = rng.uniform(-10, 10, (k, d))
    sd = rng.uniform(0.5, 2, k)
    lab = rng.integers(0, k, n)
    return cs[lab] + rng.normal(0, 1, (n, d)) * sd[lab, None]

def planted(x, o):
    y = np.r_[np.zeros(len(x)), np.ones(len(o))]
    return np.r_[x, o], y

def gen(kind, seed):
    rng = np.random.default_rng(seed * 1000 + zlib.crc32(kind.encode()) % 1000)
    if kind == "moons_unif":
        x = moons(rng, 1000); return planted(x, box(rng, x, 50))
    if kind == "circles_unif":
        x = circles(rng, 1000); return planted(x, box(rng, x, 50))
    if kind.startswith("blobs"):
        d = int(kind[5:].split("_")[0])
        x = blobs(rng, 1500, d)
        m = int(len(x) * rng.uniform(0.01, 0.10))
        if kind.endswith("_unif"):
            return planted(x, box(rng, x, m))
        return planted(x, x.mean(0) + rng.normal(0, 1, (m, d)) * 3 * x.std(0))
    if kind.startswith("tails"):
        d = int(kind[5:])
        k = rng.integers(3, 7)
        cs = rng.uniform(-10, 10, (k, d))
        sd = rng.uniform(0.3, 2, k)
        lab = rng.integers(0, k, 1500)
        x = cs[lab] + rng.normal(0, 1, (1500, d)) * sd[lab, None]
        m = int(1500 * rng.uniform(0.01, 0.05))
        ol = rng.integers(0, k, m)
        o = cs[ol] + rng.normal(0, 1, (m, d)) * (sd[ol] * rng.uniform(2, 3, m))[:, None]
        return planted(x, o)
    if kind.startswith("micro"):
        d = int(kind[5:])
        x = blobs(rng, 1500, d)
        lo, hi = x.min(0), x.max(0)
        o = []
        for _ in range(3):
            c = lo + rng.random(d) * (hi - lo)
            o.append(c + rng.normal(0, 0.1, (8, d)))
        return planted(x, np.concatenate(o))
    if kind.startswith("clump"):
        d = int(kind[5:])
        x = blobs(rng, 1500, d)
        m = int(len(x) * rng.uniform(0.01, 0.06))
        lo, hi = x.min(0), x.max(0)
        c = lo + rng.random(d) * (hi - lo)
        return planted(x, c + rng.normal(0, 0.3, (m, d)))
    if kind.startswith("single"):
        d = int(kind[6:])
        x = rng.normal(0, 1, (1500, d))
        m = int(1500 * rng.uniform(0.01, 0.10))
        return planted(x, box(rng, x, m))
    if kind.startswith("local"):
        d = int(kind[5:])
        t = rng.normal(0, 0.1, (500, d))
        u = rng.uniform(-5, 5, (1500, d)); u[:, 0] += 7
        m = 20
        dirs = rng.normal(0, 1, (m, d))
        dirs /= np.linalg.norm(dirs, axis=1)[:, None]
        o = dirs * (0.1 * (np.sqrt(d) + rng.uniform(2.5, 3.5, m)))[:, None]
        return planted(np.r_[t, u], o)
    if kind.startswith("dominant"):
        d = int(kind[8:])
        a = rng.normal(0, 1, (d, d)) / np.sqrt(d)
        cov = a @ a.T + 0.05 * np.eye(d)
        main = rng.multivariate_normal(np.zeros(d), cov, 1940)
        s = np.sqrt(np.diag(cov))
        small = [rng.normal(0, 0.3, (30, d)) * s + v * s for v in (6 * np.eye(d)[0], -6 * np.eye(d)[1])]
        x = np.r_[main, *small]
        m = int(len(x) * rng.uniform(0.01, 0.05))
        return planted(x, box(rng, x, m, 1.0))
    raise ValueError(kind)

KINDS = ["moons_unif", "circles_unif"] + [f"blobs{d}_{o}" for d in (2, 8, 32, 64) for o in ("unif", "wide")] + \
        ["local2", "local10", "dominant6", "dominant20", "tails8", "tails32", "micro2", "micro8", "single4",
         "clump4", "clump16"]

# Inlier-only sets for the false-positive rate of a threshold: gen.py --pure OUT
def pure(out):
    os.makedirs(out, exist_ok=True)
    for n in (300, 1000, 3000, 10000):
        for kind in ("gauss2", "gauss4", "gauss8", "moons", "blobs8"):
            rng = np.random.default_rng(n + zlib.crc32(kind.encode()) % 1000)
            if kind == "moons":
                x = moons(rng, n)
            elif kind == "blobs8":
                x = blobs(rng, n, 8)
            else:
                x = rng.normal(0, 1, (n, int(kind[5:])))
            write(os.path.join(out, f"{kind}_n{n}.csv"), x, np.zeros(n))


if __name__ == "__main__" and sys.argv[1] == "--pure":
    pure(sys.argv[2]); sys.exit()
if __name__ == "__main__":
    out = sys.argv[1]
    seeds = [int(s) for s in sys.argv[2:]] or [1, 2, 3]
    os.makedirs(out, exist_ok=True)
    for kind in KINDS:
        for s in seeds:
            x, y = gen(kind, s)
            perm = np.random.default_rng(s).permutation(len(x))
            write(os.path.join(out, f"{kind}_s{s}.csv"), x[perm], y[perm])


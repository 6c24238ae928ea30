"""Shared fixtures of the svclust Python tests: the svclust command (built
from this clone unless SVCLUST_CLI names one), exact CSV reading, and the
paper's data sets ($SVCLUST_DATA, or ../shared/datasets beside the clone;
the tests that need them skip when absent)."""

import csv
import os
import shutil
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def data_dir():
    return os.environ.get("SVCLUST_DATA") or os.path.join(ROOT, "..", "shared", "datasets")


@pytest.fixture(scope="session")
def cli(tmp_path_factory):
    """Path of the svclust command."""
    path = os.environ.get("SVCLUST_CLI")
    if path:
        return path
    go = shutil.which("go")
    if go is None or not os.path.exists(os.path.join(ROOT, "go.mod")):
        pytest.skip("no svclust command: set SVCLUST_CLI, or run from a clone with Go on PATH")
    path = str(tmp_path_factory.mktemp("cli") / "svclust")
    subprocess.run([go, "build", "-o", path, "./cmd/svclust"], cwd=ROOT, check=True)
    return path


def run(cli, *args, env=None):
    """Runs the svclust command and returns its standard output."""
    e = dict(os.environ, SOURCE_DATE_EPOCH="0")
    e.update(env or {})
    r = subprocess.run([cli, *args], capture_output=True, text=True, env=e)
    if r.returncode != 0:
        raise AssertionError(f"svclust {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return r.stdout


def read_csv(path, label="label"):
    """The features of a CSV file as the svclust command reads them (Python's
    float and Go's strconv.ParseFloat both round correctly) and their
    names; the label column is left out."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    keep = [j for j, name in enumerate(header) if name != label]
    x = np.array([[float(r[j]) for j in keep] for r in rows[1:]], dtype=np.float64)
    return x, [header[j] for j in keep]


def column(text, j=0):
    """The values of column j of a CSV (after its header) as strings."""
    return [line.split(",")[j] for line in text.splitlines()[1:]]


def same_floats(a, b):
    """Whether two sequences of float64 are equal to the bit."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and a.view(np.uint64).tolist() == b.view(np.uint64).tolist()


def pytest_report_header(config):
    """Names the package and the library the tests run against: the
    installed package, not the clone's python/svclust (see test_installed)."""
    try:
        import svclust
        from svclust import _native
    except ImportError as e:
        return [f"svclust: cannot be imported: {e}"]
    return [f"svclust: {os.path.dirname(svclust.__file__)}", f"libsvclust: {_native._lib._name}"]


def blobs(n=400, seed=0):
    """Three well-separated Gaussian blobs in the plane."""
    rng = np.random.default_rng(seed)
    centers = np.array([[0.0, 0.0], [12.0, 0.0], [0.0, 12.0]])
    return centers[np.arange(n) % 3] + rng.normal(size=(n, 2))

"""The parameters under scikit-learn's and hdbscan's names: random_state,
n_jobs, min_cluster_size, trajectories and space; n_iter_ and seed_; the
table of python/README.md."""

import inspect
import os
import re

import numpy as np
import pytest

import svclust
from svclust import _estimator
from conftest import ROOT, blobs, same_floats


@pytest.fixture(scope="module")
def X():
    return blobs(300)


def model(est):
    """The model of a model file's bytes, less the run record (which holds
    the time of writing)."""
    b = est.model_file()
    return b[b.index(b'"model":'):]


def test_random_state_int(X):
    """An int is the seed itself: the same int, the same model; seed_ is
    it; a different seed trains differently (the model's bytes differ)."""
    a = svclust.SVClust(random_state=5).fit(X)
    b = svclust.SVClust(random_state=np.int64(5)).fit(X)
    c = svclust.SVClust(random_state=6).fit(X)
    assert a.seed_ == b.seed_ == 5 and c.seed_ == 6
    assert a.report_["seed"] == 5
    assert model(a) == model(b)
    assert model(a) != model(c)


def test_random_state_none(X):
    """None draws a seed from numpy's global RandomState at each fit, as
    scikit-learn's check_random_state(None) does: numpy.random.seed makes
    it reproducible, seed_ tells the seed, and fitting with that seed as an
    int gives the same model."""
    state = np.random.get_state()
    try:
        np.random.seed(0)
        a = svclust.SVClust().fit(X)
        b = svclust.SVClust().fit(X)
        np.random.seed(0)
        again = svclust.SVClust().fit(X)
    finally:
        np.random.set_state(state)
    assert a.seed_ == again.seed_ and model(a) == model(again)
    assert a.seed_ != b.seed_  # two draws of 2**32 values
    assert 0 <= a.seed_ < 2**32
    assert model(svclust.SVClust(random_state=a.seed_).fit(X)) == model(a)
    assert a.random_state is None  # fit leaves the parameter as it was


def test_random_state_instance(X):
    """A RandomState draws the seed from itself (and advances)."""
    rs = np.random.RandomState(3)
    a = svclust.SVClust(random_state=rs).fit(X)
    b = svclust.SVClust(random_state=rs).fit(X)
    assert a.seed_ != b.seed_
    c = svclust.SVClust(random_state=np.random.RandomState(3)).fit(X)
    assert c.seed_ == a.seed_ and model(c) == model(a)


def test_n_jobs(X):
    """n_jobs as scikit-learn's glossary reads it (-1 all cores, -2 all
    but one), None all cores; the results never depend on it."""
    import joblib

    assert _estimator._workers(None) == 0 and _estimator._workers(-1) == 0
    assert _estimator._workers(3) == 3
    assert _estimator._workers(-2) == max(1, joblib.cpu_count() - 1)
    assert _estimator._workers(-10**6) == 1
    ref = svclust.SVClust(random_state=2).fit(X)
    for n in (1, 2, -1, -2):
        est = svclust.SVClust(random_state=2, n_jobs=n).fit(X)
        assert est.labels_.tolist() == ref.labels_.tolist()
        assert same_floats(est.score_samples(X), ref.score_samples(X))


def test_min_cluster_size(X):
    """min_cluster_size reaches the library as -min-size: the report
    holds it, and a smallest cluster larger than any blob (100 rows each)
    leaves fewer clusters than the default's three."""
    est = svclust.SVClust(random_state=1, min_cluster_size=40).fit(X)
    assert est.report_["min_size"] == 40 and est.n_clusters_ == 3
    big = svclust.SVClust(random_state=1, min_cluster_size=150).fit(X)
    assert big.report_["min_size"] == 150 and big.n_clusters_ < 3


def test_trajectories(X):
    """trajectories="all" is -all: every row follows a trajectory, so the
    report's strip (the rows that do) holds every row, while that of
    "strip" holds only some."""
    strip = svclust.SVClust(random_state=1, rule="components").fit(X)
    every = svclust.SVClust(random_state=1, rule="components", trajectories="all").fit(X)
    assert 0 < strip.report_["strip_size"] < len(X)
    assert every.report_["strip_size"] == len(X)
    assert every.n_clusters_ == strip.n_clusters_ == 3


def test_n_iter(X):
    """n_iter_ is the number of SGD steps run: max_iter exactly with tol=0
    (svclust help fit: "0 runs -max-iter steps"), fewer than max_iter when
    the stopping rule ends training; the report's iterations, also after
    save and load."""
    est = svclust.SVClust(random_state=1, tol=0, max_iter=3000, min_iter=-1).fit(X)
    assert est.n_iter_ == 3000 and est.report_["iterations"] == 3000
    est = svclust.SVClust(random_state=1, max_iter=500_000).fit(X)
    assert est.report_["status"] == "converged"
    assert 1 <= est.n_iter_ < 500_000 and est.n_iter_ == est.report_["iterations"]
    back = svclust.SVClust.from_model_file(est.model_file())
    assert back.n_iter_ == est.n_iter_ and back.seed_ == 1


def test_space(X):
    """space: "auto" is the library's default; any other value reaches the
    library, which checks it with the command's words."""
    assert svclust.SVClust(random_state=1, space="auto").fit(X).n_clusters_ == 3
    assert svclust.SVClust(random_state=1, space="input").fit(X).n_clusters_ >= 1
    with pytest.raises(TypeError, match="space must be a string"):
        svclust.SVClust(space=1).fit(X)
    with pytest.raises(ValueError, match='^space must be auto or input, not "pca"$'):
        svclust.SVClust(space="pca").fit(X)


@pytest.mark.parametrize("params, want", [
    # The library's messages, each flag named as this package names it
    # (python/export renders them with the names fit sends).
    (dict(min_cluster_size=0), '^min_cluster_size must be ≥ 1 or "auto"$'),
    (dict(min_cluster_size=4, rule="components"), "^min_cluster_size applies only to rule levels$"),
    (dict(trajectories="all"), '^trajectories="all" and eps apply only to rule components$'),
    (dict(n_jobs=2000), "^n_jobs 2000: must be ≤ 1,024$"),
    (dict(k=3, maintain="removal"), "^k applies only to maintain project-knn and project-random, not removal$"),
    (dict(tol=-1.0), r"^tol must be ≥ 0 and finite \(0 runs max_iter steps\)$"),
    (dict(m=1), "^m must be ≥ 2$"),
    (dict(random_state=1, gamma=0.5, outlier_threshold=1.5), r"^outlier_threshold must be in \(0, 1\), not 1.5$"),
])
def test_parameter_names_in_errors(X, params, want):
    """The library names each parameter as this package does, never by
    the command's flag or python/export's JSON name."""
    with pytest.raises(ValueError, match=want):
        svclust.SVClust(**params).fit(X)


def test_readme_table():
    """python/README.md's table maps every parameter, and no other name,
    to its flag of `svclust fit`, as PARAMETERS does."""
    path = os.path.join(ROOT, "python", "README.md")
    if not os.path.exists(path):
        pytest.skip("no python/README.md beside the tests")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rows = re.findall(r"^\| `([A-Za-z_]+)` \| `(-[a-z-]+|-C)` \|", text, re.M)
    assert dict(rows) == {name: flag for name, (_, flag) in _estimator.PARAMETERS.items()}
    assert list(dict(rows)) == list(inspect.signature(svclust.SVClust).parameters)

"""Python and the svclust command give the same labels, scores, reports and
model files on the same data and seed, and read each other's model files."""

import json
import os
import subprocess

import numpy as np
import pytest

import svclust
from conftest import column, data_dir, read_csv, run, same_floats

try:
    import pandas as pd
except ImportError:  # pandas is optional
    pd = None

KINDS = ["moons", "nested", "gauss3", "gauss4"]
SHARED = ["jain", "iris"]

# The keys of fit -json that differ from run to run or need the labels.
VOLATILE = {"train_seconds", "assign_seconds", "metrics"}


def frame(x, names):
    return pd.DataFrame(x, columns=names) if pd is not None else x


def check_parity(cli, path, tmp_path, seed=1, args=(), **params):
    """Fits path with the command and with SVClust and compares everything."""
    x, names = read_csv(path)
    xf = frame(x, names)
    model_cli = str(tmp_path / "cli.json")
    out = run(cli, "fit", "-seed", str(seed), "-json", "-model", model_cli, "-o", "-", *args, path)
    labels_cli = np.array(column(out), dtype=np.int64)
    outlier_cli = [float(s) for s in column(out, 1)]

    os.environ["SOURCE_DATE_EPOCH"] = "0"
    try:
        est = svclust.SVClust(random_state=seed, **params).fit(xf)
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]
    assert est.labels_.tolist() == labels_cli.tolist()
    assert est.n_clusters_ == len(set(labels_cli.tolist()) - {-1})
    assert same_floats(est.outlier_scores_, outlier_cli)

    # Scores of the command's model, and of Python's, on the same rows.
    scored = run(cli, "score", "-model", model_cli, path)
    score_cli = [float(s) for s in column(scored)]
    assert same_floats(est.score_samples(xf), score_cli)
    assert same_floats(est.outlier_score(xf), [float(s) for s in column(scored, 1)])

    # fit -json, but for times and metrics.
    report = json.loads(run(cli, "fit", "-seed", str(seed), "-json", *args, path))
    for k in VOLATILE:
        report.pop(k, None)
        est.report_.pop(k, None)
    assert est.report_ == report
    assert est.choice_ == report["choice"]

    # The model files: the same bytes but for the run record's tool, data
    # name and hash (of the CSV file there, of the float64 values here).
    with open(model_cli, "rb") as f:
        file_cli = f.read()
    file_py = est.model_file()
    a, b = json.loads(file_cli), json.loads(file_py)
    for k in ("tool", "data", "data_sha256"):
        a["run"].pop(k), b["run"].pop(k)
    if pd is None:
        a["features"] = None
    assert a == b
    assert file_cli[file_cli.index(b'"model":'):] == file_py[file_py.index(b'"model":'):]

    # Python's model predicts with the command, the command's with Python.
    model_py = str(tmp_path / "py.json")
    est.save(model_py)
    pred_cli = np.array(column(run(cli, "predict", "-model", model_py, path)), dtype=np.int64)
    assert pred_cli.tolist() == est.labels_.tolist()
    loaded = svclust.SVClust.load(model_cli)
    assert loaded.feature_names_in_.tolist() == names
    assert loaded.n_iter_ == est.n_iter_ == report["iterations"]
    assert loaded.seed_ == est.seed_ == seed
    assert loaded.predict(xf).tolist() == labels_cli.tolist()
    assert same_floats(loaded.score_samples(xf), score_cli)
    assert same_floats(loaded.outlier_score(xf), outlier_cli)
    return est


@pytest.mark.parametrize("kind", KINDS)
def test_generated(cli, tmp_path, kind):
    path = str(tmp_path / f"{kind}.csv")
    run(cli, "gen", "-kind", kind, "-n", "800", "-seed", "4", "-o", path)
    check_parity(cli, path, tmp_path, seed=3)


def test_settings(cli, tmp_path):
    """Given γ, C, budget, a projection, rule components, outliers, minmax."""
    path = str(tmp_path / "moons.csv")
    run(cli, "gen", "-kind", "moons", "-n", "500", "-seed", "2", "-o", path)
    check_parity(cli, path, tmp_path, seed=5,
                 args=("-gamma", "8", "-C", "20", "-budget", "40", "-maintain", "project-knn", "-k", "4",
                       "-rule", "components", "-outliers", "-outlier-threshold", "0.3", "-scale", "minmax"),
                 gamma=8, C=20, budget=40, maintain="project-knn", k=4, rule="components",
                 outliers=True, outlier_threshold=0.3, scale="minmax")


@pytest.mark.parametrize("name", SHARED)
def test_shared(cli, tmp_path, name):
    path = os.path.join(data_dir(), f"{name}.csv")
    if not os.path.exists(path):
        pytest.skip(f"{path} is absent: set SVCLUST_DATA to the paper's data sets")
    check_parity(cli, path, tmp_path)


# The flags of `svclust help fit` that read or write files, or choose how
# a CSV file is read: in Python the data are an array or a DataFrame and
# the results attributes (python/README.md lists them).
FILE_FLAGS = {"-o", "-model", "-json", "-label", "-drop", "-features", "-sep", "-decimal", "-no-header", "-max-line",
              "-stream", "-sample", "-progress", "-quiet", "-cpuprofile", "-memprofile"}


def test_every_fit_flag(cli):
    """Every flag of `svclust help fit` is a parameter's (PARAMETERS, the
    README's table) or one of the file flags, and no parameter names a
    flag the command lacks (forget names update's)."""
    import re
    from svclust._estimator import PARAMETERS

    r = subprocess.run([cli, "help", "fit"], capture_output=True, text=True)
    flags = set(re.findall(r"^  (-[A-Za-z-]+)", r.stdout + r.stderr, re.M))
    assert "-seed" in flags and "-space" in flags
    params = {flag for name, (_, flag) in PARAMETERS.items() if name != "forget"}
    assert flags - FILE_FLAGS == params
    # forget is partial_fit's: the flag of `svclust update`.
    r = subprocess.run([cli, "help", "update"], capture_output=True, text=True)
    assert PARAMETERS["forget"][1] in set(re.findall(r"^  (-[A-Za-z-]+)", r.stdout + r.stderr, re.M))


def test_trajectories_all(cli, tmp_path):
    """trajectories="all" is -all, rule "components" (the same labels,
    report and model as the command's)."""
    path = str(tmp_path / "gauss3.csv")
    run(cli, "gen", "-kind", "gauss3", "-n", "400", "-seed", "2", "-o", path)
    check_parity(cli, path, tmp_path, seed=2, args=("-rule", "components", "-all"),
                 rule="components", trajectories="all")


def test_min_cluster_size_n_jobs(cli, tmp_path):
    """min_cluster_size is -min-size, n_jobs -workers."""
    path = str(tmp_path / "gauss4.csv")
    run(cli, "gen", "-kind", "gauss4", "-n", "600", "-seed", "3", "-o", path)
    check_parity(cli, path, tmp_path, seed=3, args=("-min-size", "30", "-workers", "1"),
                 min_cluster_size=30, n_jobs=1)


def test_space(cli, tmp_path):
    """On 8 features, where the subspace rule decides: space "auto" gives
    the command's result; space "input" gives that of -space input."""
    path = str(tmp_path / "hd8.csv")
    run(cli, "gen", "-kind", "hd8", "-n", "500", "-seed", "1", "-o", path)
    est = check_parity(cli, path, tmp_path, seed=1)
    assert "subspace" in est.choice_
    check_parity(cli, path, tmp_path, seed=1, args=("-space", "input"), space="input")


def test_text_column_like_the_command(cli, tmp_path):
    """A text column: the command and the package both refuse it, naming
    the column, saying it is not numeric and naming the fix."""
    pd = pytest.importorskip("pandas")
    path = str(tmp_path / "text.csv")
    with open(path, "w") as f:
        f.write("a,b,kind\n1,2,red\n3,4,blue\n5,6,red\n")
    r = subprocess.run([cli, "fit", path], capture_output=True, text=True)
    assert r.returncode != 0
    assert 'column "kind" is not numeric; -drop kind to ignore it' in r.stderr
    with pytest.raises(ValueError, match=r"column 'kind' is not numeric; X.drop\(columns=\['kind'\]\) to ignore it"):
        svclust.SVClust().fit(pd.read_csv(path))

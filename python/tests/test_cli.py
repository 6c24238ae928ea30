"""Python and the svclust command give the same labels, scores, reports and
model files on the same data and seed, and read each other's model files."""

import json
import os

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
    model_cli = str(tmp_path / "cli.json")
    out = run(cli, "fit", "-seed", str(seed), "-json", "-model", model_cli, "-o", "-", *args, path)
    labels_cli = np.array(column(out), dtype=np.int64)
    outlier_cli = [float(s) for s in column(out, 1)]

    os.environ["SOURCE_DATE_EPOCH"] = "0"
    try:
        est = svclust.SVClust(seed=seed, **params).fit(frame(x, names))
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]
    assert est.labels_.tolist() == labels_cli.tolist()
    assert est.n_clusters_ == len(set(labels_cli.tolist()) - {-1})
    assert same_floats(est.outlier_scores_, outlier_cli)

    # Scores of the command's model, and of Python's, on the same rows.
    scored = run(cli, "score", "-model", model_cli, path)
    score_cli = [float(s) for s in column(scored)]
    assert same_floats(est.score_samples(x), score_cli)
    assert same_floats(est.outlier_score(x), [float(s) for s in column(scored, 1)])

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
    assert loaded.predict(x).tolist() == labels_cli.tolist()
    assert same_floats(loaded.score_samples(x), score_cli)
    assert same_floats(loaded.outlier_score(x), outlier_cli)
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

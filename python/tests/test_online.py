"""partial_fit: the first call fits, later calls update the model as
`svclust update` does, to the same bytes; forget; stable cluster ids."""

import json
import warnings

import numpy as np
import pytest

import svclust
from conftest import column, read_csv, run


def batches(cli, tmp_path, n=600, kind="gauss3"):
    """Three CSV files of n rows each of one generated set, and their rows."""
    path = str(tmp_path / f"{kind}.csv")
    run(cli, "gen", "-kind", kind, "-n", str(3 * n), "-seed", "5", "-o", path)
    with open(path) as f:
        lines = f.read().splitlines(keepends=True)
    out = []
    for k in range(3):
        p = str(tmp_path / f"b{k}.csv")
        with open(p, "w") as f:
            f.write(lines[0] + "".join(lines[1 + k * n:1 + (k + 1) * n]))
        out.append(p)
    return out


def from_model(b):
    return b[b.index(b'"model":'):]


@pytest.mark.parametrize("forget", [None, "auto", 0.001])
def test_partial_fit_parity(cli, tmp_path, forget):
    """Python's partial_fit, batch after batch, and the command's fit then
    update give the same model, partition and ids, byte for byte, and the
    same labels."""
    b = batches(cli, tmp_path)
    m = [str(tmp_path / f"m{k}.json") for k in range(3)]
    run(cli, "fit", "-seed", "4", "-model", m[0], b[0])
    flag = {None: "off", "auto": "auto"}.get(forget, str(forget))
    reports = []
    for k in (1, 2):
        out = run(cli, "update", "-from", m[k - 1], "-model", m[k], "-forget", flag, "-json", "-o", str(tmp_path / "l.csv"), b[k])
        reports.append(json.loads(out))
    labels_cli = [int(v) for v in column(open(tmp_path / "l.csv").read())]

    est = svclust.SVClust(random_state=4, forget=forget)
    for k in range(3):
        x, _ = read_csv(b[k])
        assert est.partial_fit(x) is est
    with open(m[2], "rb") as f:
        file_cli = f.read()
    assert from_model(est.model_file()) == from_model(file_cli)
    assert est.labels_.tolist() == labels_cli
    upd = est.report_["update"]
    assert upd == reports[1]["update"]
    assert upd["rows_seen"] == 1800 and upd["batches"] == 2
    assert est.n_iter_ == upd["steps"] == 1200

    # A model loaded from the command's file updates to the same bytes.
    loaded = svclust.SVClust.load(m[1]).set_params(forget=forget)
    x2, _ = read_csv(b[2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the file names its features, x2 has none
        loaded.partial_fit(x2)
    assert from_model(loaded.model_file()) == from_model(file_cli)


def test_partial_fit_first_call_is_fit(cli, tmp_path):
    b = batches(cli, tmp_path, n=300)
    x, _ = read_csv(b[0])
    a = svclust.SVClust(random_state=2).partial_fit(x)
    f = svclust.SVClust(random_state=2).fit(x)
    assert a.labels_.tolist() == f.labels_.tolist()
    assert from_model(a.model_file()) == from_model(f.model_file())


def test_partial_fit_errors(cli, tmp_path):
    b = batches(cli, tmp_path, n=300)
    x, _ = read_csv(b[0])
    est = svclust.SVClust(random_state=2).partial_fit(x)
    with pytest.raises(ValueError, match="features"):
        est.partial_fit(x[:, :1])
    bad = x.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        est.partial_fit(bad)
    for forget in (1.5, -0.1):
        est.set_params(forget=forget)
        with pytest.raises(ValueError, match="forget"):
            est.partial_fit(x)
    est.set_params(forget="often")
    with pytest.raises(ValueError, match="forget"):
        est.partial_fit(x)
    est.set_params(forget=None)
    before = est.model_file()
    xs = x.copy()
    est.partial_fit(xs)
    assert np.array_equal(xs, x), "partial_fit changed the caller's X"
    assert est.model_file() != before


def test_partial_fit_min_cluster_size(cli, tmp_path):
    """min_cluster_size and eps are the estimator's in an update, as the
    command's -min-size and -eps: the same bytes as `svclust update
    -min-size`, one cluster when it exceeds every cluster, and a value
    the command refuses named by its parameter."""
    b = batches(cli, tmp_path, n=300)
    x0, _ = read_csv(b[0])
    x1, _ = read_csv(b[1])
    m0, m1 = str(tmp_path / "m0.json"), str(tmp_path / "m1.json")
    run(cli, "fit", "-seed", "3", "-min-size", "40", "-model", m0, b[0])
    run(cli, "update", "-from", m0, "-model", m1, "-min-size", "40", b[1])
    est = svclust.SVClust(random_state=3, min_cluster_size=40).partial_fit(x0)
    est.partial_fit(x1)
    with open(m1, "rb") as f:
        assert from_model(est.model_file()) == from_model(f.read())
    assert est.report_["min_size"] == 40
    est = svclust.SVClust(random_state=3).partial_fit(x0)
    assert est.n_clusters_ >= 2
    est.set_params(min_cluster_size=100000)
    assert est.partial_fit(x1).n_clusters_ == 1
    for bad, match in ((0, "min_cluster_size"), (2.5, "min_cluster_size")):
        est.set_params(min_cluster_size=bad)
        with pytest.raises((ValueError, TypeError), match=match):
            est.partial_fit(x1)
    est.set_params(min_cluster_size="auto", eps=0.1)
    with pytest.raises(ValueError, match="eps"):
        est.partial_fit(x1)


def test_stable_ids(cli, tmp_path):
    """On a stationary stream, every cluster keeps its id: predict on the
    same rows gives the same labels after each update."""
    b = batches(cli, tmp_path, n=600)
    xs = [read_csv(p)[0] for p in b]
    est = svclust.SVClust(random_state=1).partial_fit(xs[0])
    probe = np.vstack(xs)
    first = est.predict(probe)
    for x in xs[1:]:
        est.partial_fit(x)
        upd = est.report_["update"]
        assert upd["born"] == upd["died"] == upd["merged"] == upd["split"] == []
        assert (est.predict(probe) == first).mean() > 0.99

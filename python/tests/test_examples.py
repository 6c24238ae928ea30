"""The examples a user runs first: python/README.md's Python block and
python/examples/quickstart.py, each run in an empty directory, which they
must leave empty but for what they say they write."""

import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

README = os.path.join(ROOT, "python", "README.md")
QUICKSTART = os.path.join(ROOT, "python", "examples", "quickstart.py")


def test_readme_example(tmp_path, monkeypatch):
    """The README's two examples make their own data (no file that no
    step writes) and run as written: the first finds the two moons of
    make_moons and writes model.json, as it says, and nothing else; the
    second learns two drifting blobs batch by batch."""
    if not os.path.exists(README):
        pytest.skip("no python/README.md beside the tests")
    with open(README, encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) == 2
    for code in blocks:
        assert "loadtxt" not in code and "read_csv" not in code
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(blocks[0], README, "exec"), scope)
    assert scope["est"].n_clusters_ == 2  # make_moons: two half-moons
    assert sorted(os.listdir(tmp_path)) == ["model.json"]
    # The second block, partial_fit on batches, follows the first as a
    # reader runs them; it writes nothing.
    exec(compile(blocks[1], README, "exec"), scope)
    stream = scope["stream"]
    assert stream.report_["update"]["rows_seen"] == 5 * 400
    assert len(stream.labels_) == 400 and stream.n_clusters_ == 2  # the two blobs, followed
    assert sorted(os.listdir(tmp_path)) == ["model.json"]


def _png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("with_path", [False, True])
def test_quickstart(tmp_path, with_path):
    """quickstart.py writes its plot to the path it is given, or else into
    a new temporary directory, never the current one, and prints where."""
    if not os.path.exists(QUICKSTART):
        pytest.skip("no python/examples beside the tests")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    args = [sys.executable, QUICKSTART]
    if with_path:
        args.append(str(tmp_path / "plot.png"))
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "clusters, sizes" in r.stdout
    assert os.listdir(cwd) == []
    m = re.search(r"^plot written to (.+)$", r.stdout, re.M)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert m is None and "matplotlib is not installed" in r.stdout
        return
    assert m is not None, r.stdout
    out = m.group(1)
    assert os.path.isabs(out) and _png(out)
    if with_path:
        assert out == str(tmp_path / "plot.png")
    else:
        assert os.path.dirname(out) != str(cwd)
        os.remove(out)
        os.rmdir(os.path.dirname(out))

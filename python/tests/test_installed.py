"""The tests run against the package as installed (from a clone or from
the wheel), not against the clone's python/svclust, which holds no
library; CI's run against the wheel also says where it must be."""

import os

import pytest

import svclust
from svclust import _native
from conftest import ROOT


def test_installed_package():
    pkg = os.path.realpath(os.path.dirname(svclust.__file__))
    lib = os.path.realpath(_native._lib._name)
    if os.environ.get("SVCLUST_LIBRARY"):
        # README's route without installing: PYTHONPATH=python and a
        # library built apart.
        assert lib == os.path.realpath(os.environ["SVCLUST_LIBRARY"])
        pytest.skip("SVCLUST_LIBRARY is set: the package may be the clone's python/svclust")
    assert pkg != os.path.realpath(os.path.join(ROOT, "python", "svclust"))
    assert lib == os.path.join(pkg, os.path.basename(lib)) and os.path.isfile(lib)
    prefix = os.environ.get("SVCLUST_EXPECT_PREFIX")
    if prefix:
        # CI's run against the wheel: installed into that environment.
        assert pkg.startswith(os.path.realpath(prefix) + os.sep), (pkg, prefix)

"""Build of the svclust Python package: its native part is the Go library,
built by the local Go toolchain as a C shared library (python/export) and
shipped inside the package as svclust/libsvclust.so. Metadata is in
pyproject.toml. Install from a clone with (see README.md)

    /usr/bin/python3 -m pip install --no-build-isolation --break-system-packages ./python

or build a platform wheel holding the library, which installs where no Go
toolchain is:

    /usr/bin/python3 -m pip wheel --no-build-isolation --no-deps -w dist ./python
"""

import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)  # the Go module: the clone's root
LIB = "libsvclust.dylib" if sys.platform == "darwin" else "libsvclust.so"


def build_library(out):
    """Builds the shared library into the file out with `go build`."""
    if not os.path.exists(os.path.join(ROOT, "go.mod")):
        sys.exit(f"svclust: {ROOT} holds no go.mod: install from a clone of the repository (pip install ./python)")
    go = os.environ.get("GO") or shutil.which("go")
    if go is None:
        sys.exit("svclust: the Go toolchain (go) is not on PATH: it builds the native part of the package")
    env = dict(os.environ, CGO_ENABLED="1", GOTOOLCHAIN=os.environ.get("GOTOOLCHAIN", "local"))
    cmd = [go, "build", "-trimpath", "-buildmode=c-shared", "-o", out, "./python/export"]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    header = os.path.splitext(out)[0] + ".h"
    if os.path.exists(header):
        os.remove(header)


class BuildPy(build_py):
    """build_py that also builds the Go shared library into the package."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "svclust")
        os.makedirs(target, exist_ok=True)
        build_library(os.path.abspath(os.path.join(target, LIB)))


class BinaryDistribution(Distribution):
    """The wheel holds a native library: tag it for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPy}, distclass=BinaryDistribution)

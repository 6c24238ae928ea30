"""svclust: support vector clustering with a budget, in process.

A scikit-learn estimator, SVClust, over the svclust Go library, which is
built as a C shared library and loaded with ctypes: numpy arrays go in by
pointer and come back in arrays you own; no CSV, no subprocess. Model files
are the svclust command's: a model saved here predicts with `svclust
predict`, and a model of `svclust fit -model` loads here.
"""

from ._estimator import SVClust

__all__ = ["SVClust"]
__version__ = "0.1.0"

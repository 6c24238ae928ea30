"""SVClust: the scikit-learn estimator over the svclust Go library."""

import contextlib
import math
import numbers
import os
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils import check_random_state

from . import _native
from ._input import as_rows, check_finite, is_integral

# The parameters of SVClust, in the order of its constructor: the name of
# each in the parameters python/export takes as JSON (None: handled here,
# not sent) and the flag of `svclust fit` it stands for. README.md's table
# of parameters lists the same.
PARAMETERS = {
    "gamma": ("gamma", "-gamma"),
    "C": ("C", "-C"),
    "budget": ("budget", "-budget"),
    "width": ("width", "-width"),
    "space": ("space", "-space"),
    "rule": ("rule", "-rule"),
    "min_cluster_size": ("min_size", "-min-size"),
    "maintain": ("maintain", "-maintain"),
    "k": ("k", "-k"),
    "eps": ("eps", "-eps"),
    "trajectories": ("all", "-all"),
    "tol": ("tol", "-tol"),
    "max_iter": ("max_iter", "-max-iter"),
    "min_iter": ("min_iter", "-min-iter"),
    "m": ("m", "-m"),
    "scale": ("scale", "-scale"),
    "random_state": ("seed", "-seed"),
    "n_jobs": ("workers", "-workers"),
    "outliers": ("outliers", "-outliers"),
    "outlier_threshold": ("outlier_threshold", "-outlier-threshold"),
    "na": (None, "-na"),
    "forget": (None, "-forget"),
}

# The parameters that are a number or "auto", as the fit flags -gamma, -C,
# -budget, -min-size and -eps; the second value says a whole number.
_AUTO = {"gamma": False, "C": False, "budget": True, "min_cluster_size": True, "eps": False}
_INTS = ("max_iter", "min_iter", "m")
_STRS = ("width", "space", "rule", "maintain", "scale", "na", "trajectories")
_BOOLS = ("outliers",)


def _param(name, v):
    """Returns the JSON value of parameter name, or raises TypeError."""
    if isinstance(v, np.generic):
        v = v.item()
    if name in _AUTO:
        if isinstance(v, str) and v.lower() == "auto":
            return "auto"
        whole = _AUTO[name]
        if isinstance(v, bool) or not isinstance(v, numbers.Integral if whole else numbers.Real):
            kind = "a whole number" if whole else "a number"
            raise TypeError(f'{name} must be {kind} or "auto", not {v!r}')
        return _int64(name, v) if whole else _float(v)
    if name == "forget":
        # None, "off" or 0: no forgetting; "auto"; or a rate in (0, 1), as
        # `svclust update -forget` takes it.
        if isinstance(v, str):
            if v.lower() not in ("off", "auto"):
                raise ValueError(f'forget must be None, a rate in (0, 1) or "auto", not {v!r}')
            return v.lower()
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f'forget must be None, a rate in (0, 1) or "auto", not {v!r}')
        if not (v == 0 or 0 < v < 1):
            raise ValueError(f'forget must be None, a rate in (0, 1) or "auto", not {v!r}')
        return float(v)
    if name == "k":
        if v is None:
            return None
        if not is_integral(v):
            raise TypeError(f"k must be a whole number or None, not {v!r}")
        return _int64(name, v)
    if name in ("tol", "outlier_threshold"):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"{name} must be a number, not {v!r}")
        return _float(v)
    if name in _INTS:
        if not is_integral(v):
            raise TypeError(f"{name} must be a whole number, not {v!r}")
        return _int64(name, v)
    if name in _STRS:
        if not isinstance(v, str):
            raise TypeError(f"{name} must be a string, not {v!r}")
        if name == "trajectories" and v not in ("strip", "all"):
            raise ValueError(f"trajectories must be strip or all, not {v!r}")
        if name == "na" and v not in ("error", "drop"):
            raise ValueError(f"na must be error or drop, not {v!r}")
        return v
    if name in _BOOLS:
        if not isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, not {v!r}")
        return bool(v)
    if name == "random_state":
        return _seed(v)
    if name == "n_jobs":
        return _workers(v)
    raise TypeError(f"unknown parameter {name}")


def _int64(name, v):
    """The whole number v, or a ValueError naming the parameter when it is
    beyond the 64-bit integers the library takes."""
    lo, hi = -(2**63), 2**63 - 1
    if not lo <= int(v) <= hi:
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}, not {int(v)}")
    return int(v)


def _float(v):
    try:
        v = float(v)
    except OverflowError:  # an int beyond float64, such as 10**400
        v = math.inf if v > 0 else -math.inf
    return v if math.isfinite(v) else repr(v)  # "nan", "inf": JSON has no such numbers


_SEED_MAX = 2**64 - 1  # -seed is a uint64


def _seed(random_state):
    """The seed of training that random_state gives: an int is the seed
    itself (random_state=1 is `svclust fit -seed 1`); None draws one from
    numpy's global RandomState and a RandomState instance draws one from
    it, as scikit-learn's check_random_state takes them."""
    if random_state is None or isinstance(random_state, np.random.RandomState):
        return int(check_random_state(random_state).randint(0, 2**32, dtype=np.int64))
    if isinstance(random_state, np.random.Generator):
        raise TypeError("random_state must be None, a whole number or a numpy.random.RandomState, not a "
                        "numpy.random.Generator (scikit-learn does not take one): pass a seed drawn from it, "
                        "random_state=int(rng.integers(2**32))")
    if not is_integral(random_state):
        raise TypeError(f"random_state must be None, a whole number or a numpy.random.RandomState, not {random_state!r}")
    if not 0 <= int(random_state) <= _SEED_MAX:
        raise ValueError(f"random_state must be a whole number from 0 to {_SEED_MAX}, not {int(random_state)}")
    return int(random_state)


def _workers(n_jobs):
    """The number of goroutines (-workers, 0: all cores) that n_jobs gives,
    as scikit-learn's glossary reads n_jobs: -1 all cores, -2 all but one,
    and so on; None is all cores too (see the class's doc)."""
    if n_jobs is None:
        return 0
    if not is_integral(n_jobs):
        raise TypeError(f"n_jobs must be None or a whole number, not {n_jobs!r}")
    n = _int64("n_jobs", n_jobs)
    if n == 0:
        raise ValueError("n_jobs must not be 0: None or -1 means all cores, a positive number that many, "
                         "-2 all but one")
    if n > 0:
        return n
    if n == -1:
        return 0
    import joblib  # a dependency of scikit-learn

    return max(1, joblib.cpu_count() + 1 + n)


# The word that names each flag of `svclust fit` in the library's messages:
# this package's parameter (python/export renders its messages with it).
_NAMES = {flag: name for name, (_, flag) in PARAMETERS.items()}
_NAMES["-all"] = 'trajectories="all"'


class SVClust(ClusterMixin, BaseEstimator):
    """Support vector clustering with a budget (svclust fit, in process).

    The parameters are the fit flags of the svclust command under the
    names scikit-learn and hdbscan give them (README.md maps each to its
    flag), with the command's defaults ("auto": chosen from the data); see
    `svclust help fit`. fit scales X as the command does (z-scores by
    default, in the Go library), trains a budgeted one-class SVM and
    clusters the rows: on the same data and seed (random_state=1 is the
    command's default -seed 1) it gives the labels of `svclust fit`.

    Parameters
    ----------
    gamma : float or "auto", default="auto"
        Kernel width γ in exp(-γ‖x-y‖²), > 0.
    C : float or "auto", default="auto"
        Trade-off C of the objective, > 0; the domain f ≥ 0 is empty unless
        C > 1.
    budget : int or "auto", default="auto"
        Largest number of support vectors; 0 means no budget.
    width : {"adaptive", "global"}, default="adaptive"
        Kernel widths when gamma and C are both "auto".
    space : {"auto", "input"}, default="auto"
        Where the kernel works when gamma and C are both "auto": "auto" on
        the principal directions above noise when the distances of 4 or
        more features concentrate, "input" on the features themselves.
    rule : {"levels", "components"}, default="levels"
        Cluster assignment: the tree of the levels of f, or the components
        of f ≥ 0 (the paper's Algorithm 3).
    min_cluster_size : int or "auto", default="auto"
        Smallest cluster of rule "levels", in rows (auto: 0.75 % of the rows,
        at least 5); hdbscan's name.
    maintain : {"merge", "removal", "project-knn", "project-random"}, default="merge"
        Budget maintenance.
    k : int or None, default=None
        Number of support vectors a projection projects onto; None is the
        command's default, 5 capped by the budget.
    eps : float or "auto", default="auto"
        Half-width ε of the strip |f| ≤ ε (rule "components").
    trajectories : {"strip", "all"}, default="strip"
        Which rows follow a trajectory of f to an equilibrium, with rule
        "components": "strip", those of the strip |f| ≤ eps, every other
        row taking the cluster of its nearest strip row; "all", every row
        (the command's -all; slower, one trajectory per row).
    tol : float, default=0.01
        Stopping threshold on ‖w_{t+1} − w_t‖; 0 runs max_iter steps.
    max_iter : int, default=0
        Largest number of SGD steps; 0 means 1,000,000.
    min_iter : int, default=0
        SGD steps before the stopping rule is checked; 0 means 10,000, -1
        checks it from the first step.
    m : int, default=20
        Number of points of the segment test.
    scale : {"zscore", "minmax", "none"}, default="zscore"
        Feature scaling fitted on X; predict applies it to new rows.
    random_state : int, numpy.random.RandomState or None, default=None
        Seed of training. An int is the seed itself, from 0 to 2**64 − 1:
        fits with the same int give the same result, and random_state=1
        gives that of `svclust fit` (-seed 1 by default). None, as in
        scikit-learn, draws a seed from numpy's global RandomState at each
        fit (so fits differ unless numpy.random.seed was called), and a
        RandomState draws one from it; seed_ tells the seed used. A
        numpy.random.Generator is refused (scikit-learn takes none).
    n_jobs : int or None, default=None
        Number of threads (goroutines) of fit, predict and scoring: a
        positive number; -1 all cores, -2 all but one, and so on. None
        means all cores, as the command's -workers 0 and scikit-learn's
        estimators with native threads (such as KMeans), not one: results
        never depend on it.
    outliers : bool, default=False
        Label as -1 the points whose outlier score is at least
        outlier_threshold.
    outlier_threshold : float, default=0.5
        Outlier score in (0, 1) at and above which a point is an outlier
        (`svclust fit -outlier-threshold`): 0.5, where a point's
        remoteness reaches the fence Q3 + 3 IQR of the training rows'
        and its membership strength reaches 0 (docs/outliers.md).
    na : {"error", "drop"}, default="error"
        What a row with a missing value (NaN; NA or None in a DataFrame)
        is, as the command's -na: "error" (the default) raises ValueError
        naming the first and counting the rows and columns that have one;
        "drop" leaves those rows out of training and gives them the label
        -1 in labels_ and predict (as an outlier's: a scikit-learn label
        array holds no NaN; na_rows_ tells them apart) and NaN in
        score_samples and decision_function. An infinity is always an
        error.
    forget : None, float in (0, 1) or "auto", default=None
        The forgetting rate of partial_fit, as `svclust update -forget`:
        each SGD step of an update decays the model by 1 − max(1/t,
        forget) instead of (t−1)/t, so that old rows weigh less and the
        model follows a drift; "auto" is 1/(5·steps), an update's weight
        falling to 1/e after 5 more updates; None forgets nothing.

    Attributes
    ----------
    labels_ : ndarray of int64, shape (n_samples,)
        Cluster of each training row, -1 for outliers and, with na="drop",
        for the rows with a missing value. Not stored in model files:
        absent after `load`.
    na_rows_ : ndarray of int64
        With na="drop", the indices of the training rows left out for a
        missing value (empty if none); absent otherwise.
    outlier_scores_ : ndarray of float64, shape (n_samples,)
        Outlier score of each training row, in [0, 1]: about 0.3 for a
        typical row, towards 1 far from the data's mass (the column "outlier" of
        `svclust fit -o`; docs/outliers.md); NaN for the rows na="drop"
        left out. Absent after `load`.
    probabilities_ : ndarray of float64, shape (n_samples,)
        Membership strength of each training row in its cluster, in
        [0, 1] (hdbscan's name): 1 where the data are most typical, 0 exactly for the
        rows whose outlier score reaches outlier_threshold; NaN for the
        rows na="drop" left out. Absent after `load`.
    n_clusters_ : int
    n_iter_ : int
        Number of SGD steps the training of the model ran (the
        "iterations" of `svclust fit -json`): at most max_iter, fewer when
        the stopping rule (tol) ended it. Also known after `load`.
    seed_ : int
        The seed training used (`svclust fit -seed`): random_state's, or
        the one drawn for random_state None or a RandomState.
    support_vectors_ : ndarray, shape (n_sv, n_features)
        Support vectors in the units of X (the model file stores them
        scaled).
    dual_coef_ : ndarray, shape (1, n_sv)
        Coefficients αᵢ of the support vectors.
    gamma_, C_, budget_ : the values used, chosen or given.
    choice_ : dict
        What was chosen from the data and why: the "choice" of `fit -json`.
    report_ : dict
        The report of `svclust fit -json` (without metrics); None after load.
    offset_ : float
        0: decision_function is f(x), ≥ 0 inside the domain.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        The column names of a DataFrame X whose columns are all named by
        strings (pandas is optional). Applied to a DataFrame, predict and
        the scores take its columns by name, in any order; applied to an
        array after a fit on a DataFrame, or the reverse, they warn as
        scikit-learn's estimators do.
    """

    def __init__(self, gamma="auto", C="auto", budget="auto", width="adaptive", space="auto", rule="levels",
                 min_cluster_size="auto", maintain="merge", k=None, eps="auto", trajectories="strip", tol=0.01,
                 max_iter=0, min_iter=0, m=20, scale="zscore", random_state=None, n_jobs=None, outliers=False,
                 outlier_threshold=0.5, na="error", forget=None):
        self.gamma = gamma
        self.C = C
        self.budget = budget
        self.width = width
        self.space = space
        self.rule = rule
        self.min_cluster_size = min_cluster_size
        self.maintain = maintain
        self.k = k
        self.eps = eps
        self.trajectories = trajectories
        self.tol = tol
        self.max_iter = max_iter
        self.min_iter = min_iter
        self.m = m
        self.scale = scale
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.outliers = outliers
        self.outlier_threshold = outlier_threshold
        self.na = na
        self.forget = forget

    # -- fitting -----------------------------------------------------------

    def _library_params(self):
        """The parameters as python/export takes them: a dict of its JSON
        names. Checks the type of each, and the values of those that the
        library does not take as they are."""
        out = {}
        for name, v in self.get_params(deep=False).items():
            v = _param(name, v)
            if name == "trajectories":
                v = v == "all"
            out[PARAMETERS[name][0] or name] = v
        out["names"] = _NAMES
        return out

    def fit(self, X, y=None):
        """Scales X, trains and clusters it; y is ignored. Returns self.

        X is read in place when it is a float64 C-contiguous array, copied
        once otherwise. Ctrl-C stops training (KeyboardInterrupt)."""
        x, owned, names = as_rows(X, type(self).__name__)
        params = self._library_params()
        na = params.pop("na")
        params.pop("forget")  # partial_fit's
        missing = check_finite(x, na, names)
        if missing is not None:
            if missing.all():
                raise ValueError(f"X: every row has a missing value (NaN), {missing.shape[0]} rows")
            x, owned = x[~missing], True  # a copy without those rows
        params["features"] = names
        params["data"] = "<DataFrame>" if names is not None else "<array>"
        params["source_date_epoch"] = os.environ.get("SOURCE_DATE_EPOCH", "")
        if not owned and params["scale"] != "none":
            # The library trains on scaled rows, which it scales in place:
            # in a copy here, never in the caller's X. The copy is numpy's
            # rather than the Go heap's, which would reserve as much again
            # for its collector (1M 2-D rows, 15 MiB: peak RSS +52 MiB, not +68).
            x, owned = x.copy(order="C"), True
        with _placed(missing, None):
            handle, labels = _native.run_fit(x, owned, params)
        outlier = handle.train_outliers(len(labels))
        if na == "drop":
            rows = np.flatnonzero(missing) if missing is not None else np.zeros(0, dtype=np.int64)
            if missing is not None:
                labels, outlier = _expand_fitted(labels, outlier, missing)
        self._set_fitted(handle, labels, outlier)
        if na == "drop":
            self.na_rows_ = rows.astype(np.int64)
            if self.report_ is not None and len(rows):
                self.report_["dropped"] = int(len(rows))
        return self

    def partial_fit(self, X, y=None):
        """Learns the rows of X as they arrive; y is ignored. Returns self.

        The first call (on an estimator not fitted, or after a change of
        its parameters by set_params, which scikit-learn's convention
        leaves to the caller) is fit(X). Each later call continues the
        training of the fitted model with the rows of X, as `svclust
        update` does: scaled with the first fit's scaler (never refitted),
        with the model's γ, C, budget and seeded generator, forgetting old
        rows at the rate forget (None: none), then clusters X with the
        updated model and matches the clusters to the previous ones, so
        that a cluster that persists keeps its id. labels_, outlier_scores_
        and probabilities_ are then those of X's rows; report_["update"]
        gives the rows seen, the stable ids and the clusters born, died,
        merged and split. A model loaded from a file updates too (a file
        of version 8, which holds the training state). min_cluster_size
        and eps are the estimator's, applied to the re-clustering of X
        and the model's support vectors (the model file does not keep
        them: a loaded model's are "auto"); forget, n_jobs and na are the
        estimator's too; every other parameter is the first fit's."""
        if getattr(self, "_handle", None) is None:
            return self.fit(X)
        h, x, missing, cols = self._rows(X)
        params = {
            "forget": _param("forget", self.forget),
            "min_size": _param("min_cluster_size", self.min_cluster_size),
            "eps": _param("eps", self.eps),
            "steps": 0,
            "workers": _workers(self.n_jobs),
            "data": "<DataFrame>" if cols is not None or getattr(self, "feature_names_in_", None) is not None else "<array>",
            "source_date_epoch": os.environ.get("SOURCE_DATE_EPOCH", ""),
        }
        if missing is not None:
            if missing.all():
                raise ValueError(f"X: every row has a missing value (NaN), {missing.shape[0]} rows")
            x = x[~missing]
        # The library scales the rows in place: in a copy, never in X.
        x = np.array(x, dtype=np.float64, order="C", copy=True)
        with _placed(missing, cols):
            handle, labels = _native.run_update(h, x, True, params)
        outlier = handle.train_outliers(len(labels))
        if missing is not None:
            labels, outlier = _expand_fitted(labels, outlier, missing)
        self._set_fitted(handle, labels, outlier)
        if missing is not None:
            self.na_rows_ = np.flatnonzero(missing).astype(np.int64)
        return self

    def fit_predict(self, X, y=None):
        """Fits X and returns labels_."""
        return self.fit(X).labels_

    def _set_fitted(self, handle, labels, outlier=None):
        for a in list(vars(self)):
            if a.endswith("_") and not a.startswith("_"):
                delattr(self, a)  # a refit or a load leaves nothing of before
        self._handle = handle
        info = handle.info()
        self._info = info
        d = info["n_features"]
        self.n_features_in_ = d
        if info["features"] is not None:
            self.feature_names_in_ = np.asarray(info["features"], dtype=object)
        if labels is not None:
            self.labels_ = labels
        if outlier is not None:
            self.outlier_scores_, self.probabilities_ = outlier
        self.n_clusters_ = info["n_clusters"] if info["clustered"] else 0
        self.support_vectors_, alpha = handle.support_vectors(info["n_sv"], d)
        self.dual_coef_ = alpha.reshape(1, -1)
        self.gamma_ = info["gamma"]
        self.gammas_ = None if info["gammas"] is None else np.asarray(info["gammas"])
        self.C_ = info["C"]
        run = info["run"] or {}
        self.budget_ = run.get("budget")
        self.seed_ = run.get("seed")
        # The SGD steps of the model's training: the "iterations" of the
        # report, which the model file's stats also hold (so a loaded
        # model knows them too).
        self.n_iter_ = info["iterations"]
        self.report_ = info["report"]
        self.choice_ = self.report_["choice"] if self.report_ else None
        self.offset_ = 0.0

    def _fitted(self):
        if getattr(self, "_handle", None) is None:
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet: call fit or SVClust.load first")
        return self._handle

    def _rows(self, X):
        """The fitted handle, X as the model's rows, the mask of its rows
        with a missing value to leave out (None when there are none), and
        the column of X of each of the model's features (None: the same).

        A DataFrame's columns are taken by name when the model knows its
        feature names, as `svclust predict` takes them; an array after a
        fit on a DataFrame, or a DataFrame after a fit on an array, gives
        scikit-learn's warning."""
        h = self._fitted()
        cls = type(self).__name__
        x, _, names = as_rows(X, cls)
        cols = None  # the model's columns are X's
        want = getattr(self, "feature_names_in_", None)
        if names is None and want is not None:
            warnings.warn(f"X does not have valid feature names, but {cls} was fitted with feature names",
                          UserWarning, stacklevel=3)
        elif names is not None and want is None:
            warnings.warn(f"X has feature names, but {cls} was fitted without feature names",
                          UserWarning, stacklevel=3)
            names = None  # the model's columns are positions
        if names is not None and list(names) != list(want):
            # Columns are matched by name, as `svclust predict` matches
            # them: their order does not matter, a missing or extra one is
            # an error naming it.
            pos = {a: k for k, a in enumerate(names)}  # distinct: as_rows checked
            for b in want:
                if b not in pos:
                    raise ValueError(f"X has no column {b!r}, a feature of the model (its columns: {', '.join(names)})")
            extra = [a for a in names if a not in set(want)]
            if extra:
                raise ValueError(f"X: column {extra[0]!r} is no feature of the model (its features: {', '.join(want)})")
            cols = [pos[b] for b in want]
            x = np.ascontiguousarray(x[:, cols])
            names = list(want)
        d = self._info["n_features"]
        if x.shape[1] != d:
            # Before any row is dropped for a missing value, so that a
            # row of the wrong width is never mistaken for one to drop.
            raise ValueError(f"X has {x.shape[1]} features, but the model was trained on {d}")
        return h, x, check_finite(x, _param("na", self.na), names), cols

    # -- applying ----------------------------------------------------------

    def predict(self, X):
        """Cluster of each row of X (raw, unscaled), -1 for an outlier, as
        `svclust predict` gives it; on the training rows, labels_. With
        na="drop" a row with a missing value gets -1."""
        h, x, missing, cols = self._rows(X)
        workers = _workers(self.n_jobs)
        with _placed(missing, cols):
            if missing is None:
                return h.predict(x, workers)
            out = np.full(x.shape[0], -1, dtype=np.int64)
            if not missing.all():
                out[~missing] = h.predict(x[~missing], workers)
            return out

    def score_samples(self, X):
        """f(x) = Σᵢ αᵢ k(svᵢ, x) − 1 of each row of X, as `svclust score`
        gives it: lower is more abnormal, < 0 outside the domain. With
        na="drop" a row with a missing value gets NaN."""
        h, x, missing, cols = self._rows(X)
        workers = _workers(self.n_jobs)
        with _placed(missing, cols):
            if missing is None:
                return h.score(x, workers)
            out = np.full(x.shape[0], np.nan)
            if not missing.all():
                out[~missing] = h.score(x[~missing], workers)
            return out

    def decision_function(self, X):
        """score_samples(X) − offset_ (offset_ is 0): ≥ 0 inside the domain
        of novelty, < 0 outside, as scikit-learn's outlier detectors."""
        return self.score_samples(X) - self.offset_

    # -- persistence -------------------------------------------------------

    def model_file(self):
        """The bytes of the model file, as `svclust fit -model` writes it."""
        return self._fitted().model_file()

    def save(self, path):
        """Writes the model file to path (readable by `svclust predict`)."""
        data = self.model_file()
        tmp = f"{os.fspath(path)}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path):
        """Reads a model file written by save or by `svclust fit -model`.

        The parameters recorded in the file (random_state, gamma, C,
        budget, rule, maintain, k, width, scale, outliers,
        outlier_threshold) are set; the others keep their defaults.
        labels_ is absent: the file does not hold the training rows'
        labels (predict them from the training data)."""
        with open(path, "rb") as f:
            return cls.from_model_file(f.read())

    @classmethod
    def from_model_file(cls, data):
        """Builds a fitted estimator from the bytes of a model file."""
        handle = _native.load(bytes(data))
        est = cls()
        est._set_fitted(handle, None)
        est.set_params(**_params_of(est._info))
        return est

    def __getstate__(self):
        # The model travels as the bytes of its model file; the labels and
        # the report, which the file does not hold, beside them.
        state = {k: v for k, v in vars(self).items() if not k.endswith("_") or k.startswith("_")}
        state.pop("_handle", None)
        state.pop("_info", None)
        if getattr(self, "_handle", None) is not None:
            state["_model_file"] = self._handle.model_file()
            state["_labels"] = getattr(self, "labels_", None)
            if hasattr(self, "outlier_scores_"):
                state["_outlier"] = (self.outlier_scores_, self.probabilities_)
            state["_report"] = self.report_
            if hasattr(self, "na_rows_"):
                state["_na_rows"] = self.na_rows_
        return state

    def __setstate__(self, state):
        state = dict(state)
        data = state.pop("_model_file", None)
        labels = state.pop("_labels", None)
        outlier = state.pop("_outlier", None)
        report = state.pop("_report", None)
        na_rows = state.pop("_na_rows", None)
        self.__dict__.update(state)
        if data is not None:
            self._set_fitted(_native.load(data), labels, outlier)
            if na_rows is not None:
                self.na_rows_ = na_rows
            self._info["report"] = report
            self.report_ = report
            self.choice_ = report["choice"] if report else None

    # -- outliers ----------------------------------------------------------

    def outlier_score(self, X):
        """Outlier score of each row of X (raw, unscaled), in [0, 1], as
        `svclust score` gives it in its column "outlier": about 0.3 for a
        typical row, outlier_threshold (0.5 by default) where -outliers
        starts, towards 1 far from the data's mass; a point further from
        every support vector never scores lower (docs/outliers.md). On the training rows,
        outlier_scores_. A model file written before the scores gives a
        ValueError."""
        return self._outlier(X)[0]

    def membership_strength(self, X):
        """Membership strength of each row of X in its cluster, in [0, 1]:
        1 − D/Dₜ, D the row's remoteness (docs/outliers.md) and Dₜ the
        remoteness at the threshold; 0 exactly where outlier_score(X) ≥
        outlier_threshold. On the training rows, probabilities_."""
        return self._outlier(X)[1]

    def _outlier(self, X):
        """The outlier scores and membership strengths of the rows of X;
        NaN for a row with a missing value when na is "drop"."""
        h, x, missing, cols = self._rows(X)
        workers = _workers(self.n_jobs)
        with _placed(missing, cols):
            if missing is None:
                return h.outlier(x, workers)
            if missing.all():
                return np.full(x.shape[0], np.nan), np.full(x.shape[0], np.nan)
            return tuple(_expand(v, missing) for v in h.outlier(x[~missing], workers))

    def _more_tags(self):
        # allow_nan: "whether the estimator supports data with missing
        # values encoded as np.nan" (scikit-learn's developer guide,
        # "Developing scikit-learn estimators", section "Estimator Tags",
        # https://scikit-learn.org/1.2/developers/develop.html#estimator-tags).
        # With na="drop" it does: the rows are left out and labelled -1.
        # With the default na="error" the tag is False and NaN raises, as
        # check_estimators_nan_inf requires. No check is skipped by it
        # for the default estimator.
        return {"allow_nan": self.na == "drop"}

    def __sklearn_tags__(self):
        # The same tag for scikit-learn 1.6 and later, which read tags
        # from __sklearn_tags__ instead of _more_tags (never called by 1.2).
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.na == "drop"
        return tags


def _expand(v, missing):
    """v, the values of the rows without a missing value, at their places
    among all rows, NaN at the rows of missing."""
    out = np.full(missing.shape[0], np.nan)
    out[~missing] = v
    return out


def _expand_fitted(labels, outlier, missing):
    """The labels (−1 at the rows of missing) and the outlier arrays (NaN
    there) of the rows without a missing value, at their places among all
    rows."""
    full = np.full(missing.shape[0], -1, dtype=labels.dtype)
    full[~missing] = labels
    return full, tuple(_expand(v, missing) for v in outlier)


@contextlib.contextmanager
def _placed(missing, cols):
    """Raises a ValueError about a value of the rows passed to the library
    (_native.LocatedError) at its place in the caller's X: the rows before
    those with a missing value were left out (missing, or None), the
    columns before they were put in the model's order (cols, or None)."""
    try:
        yield
    except _native.LocatedError as e:
        row = e.row
        if row is not None and missing is not None:
            row = int(np.flatnonzero(~missing)[row])
        col = e.col if cols is None else cols[e.col]
        raise ValueError(e.at(row, col)) from None


def _params_of(info):
    """The constructor parameters recorded in a model file."""
    run = info.get("run") or {}
    p = {"scale": info["scale"]}
    if info["clustered"]:
        p["rule"] = info["rule"]
        p["outliers"] = info["outliers"]
        if info.get("outlier_threshold"):
            p["outlier_threshold"] = info["outlier_threshold"]
    if not run:
        return p
    p["random_state"] = run["seed"]
    p["gamma"] = "auto" if run.get("gamma_from") == "auto" else run["gamma"]
    p["C"] = "auto" if run.get("C_from") == "auto" else run["C"]
    if run.get("strategy") == "none":
        p["budget"] = 0
    else:
        p["maintain"] = run["strategy"]
        p["budget"] = "auto" if run.get("budget_from") == "auto" else run["budget"]
        if run.get("k"):
            p["k"] = run["k"]
    if run.get("width"):
        p["width"] = run["width"]
    return p

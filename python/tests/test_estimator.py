"""SVClust as a scikit-learn estimator: parameters, clone, pickling, bad
input, threads, interruption and the export layer's panic guard."""

import os
import pickle
import signal
import threading
import time

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import svclust
from svclust import _native
from conftest import blobs, same_floats


@pytest.fixture(scope="module")
def X():
    return blobs()


@pytest.fixture(scope="module")
def fitted(X):
    return svclust.SVClust(random_state=7).fit(X)


def test_defaults_are_the_cli_flags():
    """The defaults are those of `svclust fit` (svclust help fit), but
    random_state and n_jobs, whose None is scikit-learn's (a fresh seed;
    all cores, the command's -workers 0), and forget, partial_fit's, whose
    None is `svclust update -forget off`."""
    p = svclust.SVClust().get_params()
    assert p == dict(gamma="auto", C="auto", budget="auto", width="adaptive", space="auto", rule="levels",
                     min_cluster_size="auto", maintain="merge", k=None, eps="auto", trajectories="strip",
                     tol=0.01, max_iter=0, min_iter=0, m=20, scale="zscore", random_state=None, n_jobs=None,
                     outliers=False, outlier_threshold=0.5, na="error", forget=None)


def test_get_set_params_clone(X):
    est = svclust.SVClust(gamma=2.5, budget=30, random_state=9, outliers=True)
    p = est.get_params()
    again = svclust.SVClust(**p)
    assert again.get_params() == p
    assert est.set_params(random_state=3) is est and est.random_state == 3
    c = clone(est)
    assert c.get_params() == est.get_params() and c is not est
    assert not hasattr(c, "labels_")
    # A clone fits to the same labels.
    assert clone(est).fit_predict(X).tolist() == est.fit_predict(X).tolist()


def test_fitted_attributes(fitted, X):
    n, d = X.shape
    assert fitted.labels_.shape == (n,) and fitted.labels_.dtype == np.int64
    assert fitted.n_clusters_ == 3
    assert fitted.n_features_in_ == d
    nsv = fitted.support_vectors_.shape[0]
    assert fitted.support_vectors_.shape == (nsv, d)
    assert fitted.dual_coef_.shape == (1, nsv) and (fitted.dual_coef_ > 0).all()
    assert fitted.budget_ == fitted.report_["budget"] and nsv <= fitted.budget_
    assert fitted.choice_["gamma_auto"] and fitted.choice_["C_auto"]
    # The support vectors are in the units of X: within its range.
    assert (fitted.support_vectors_.min(0) >= X.min(0) - 1e-9).all()
    assert (fitted.support_vectors_.max(0) <= X.max(0) + 1e-9).all()
    assert not hasattr(fitted, "feature_names_in_")
    assert fitted.predict(X).tolist() == fitted.labels_.tolist()
    assert same_floats(fitted.decision_function(X), fitted.score_samples(X))


def test_dataframe_names(X):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(X, columns=["a", "b"])
    est = svclust.SVClust(random_state=7).fit(df)
    assert est.feature_names_in_.tolist() == ["a", "b"]
    assert est.labels_.tolist() == svclust.SVClust(random_state=7).fit(X).labels_.tolist()
    # Columns are matched by name: reordered, the same labels and scores;
    # a missing or extra column is an error naming it.
    swapped = pd.DataFrame({"b": X[:, 1], "a": X[:, 0]})
    assert est.predict(swapped).tolist() == est.labels_.tolist()
    assert same_floats(est.score_samples(swapped), est.score_samples(df))
    with pytest.raises(ValueError, match="X has no column 'b', a feature of the model"):
        est.predict(pd.DataFrame(X, columns=["a", "c"]))
    with pytest.raises(ValueError, match="column 'id' is no feature of the model"):
        est.predict(pd.DataFrame({"id": X[:, 0], "a": X[:, 0], "b": X[:, 1]}))


def test_pickle(fitted, X):
    b = pickle.dumps(fitted)
    back = pickle.loads(b)
    assert back.get_params() == fitted.get_params()
    assert back.labels_.tolist() == fitted.labels_.tolist()
    assert back.model_file() == fitted.model_file()
    assert back.report_ == fitted.report_
    assert same_floats(back.outlier_scores_, fitted.outlier_scores_)
    assert same_floats(back.probabilities_, fitted.probabilities_)
    assert back.predict(X).tolist() == fitted.labels_.tolist()
    assert same_floats(back.score_samples(X), fitted.score_samples(X))
    # An unfitted estimator pickles too.
    assert pickle.loads(pickle.dumps(svclust.SVClust(budget=5))).budget == 5


def test_save_load(fitted, X, tmp_path):
    path = tmp_path / "m.json"
    fitted.save(path)
    back = svclust.SVClust.load(path)
    assert back.model_file() == fitted.model_file()
    assert back.predict(X).tolist() == fitted.labels_.tolist()
    assert not hasattr(back, "labels_") and not hasattr(back, "outlier_scores_")
    assert same_floats(back.outlier_score(X), fitted.outlier_scores_)
    assert back.outlier_threshold == 0.5
    assert back.random_state == 7 and back.seed_ == 7 and back.gamma == "auto" and back.rule == "levels"
    assert back.n_clusters_ == fitted.n_clusters_


def test_copies(X):
    """A Fortran-ordered, strided or int array gives the results of the
    C-contiguous float64 one, and X itself is never modified."""
    ref = svclust.SVClust(random_state=2).fit(X)
    before = X.copy()
    for x in (np.asfortranarray(X), np.hstack([X, X])[:, ::2], X.astype(np.float32).astype(np.float64)):
        assert svclust.SVClust(random_state=2).fit(x).labels_.tolist() == svclust.SVClust(random_state=2).fit(np.ascontiguousarray(x)).labels_.tolist()
    assert svclust.SVClust(random_state=2).fit(np.asfortranarray(X)).labels_.tolist() == ref.labels_.tolist()
    xi = np.rint(X * 10).astype(np.int64)
    assert svclust.SVClust(random_state=2).fit(xi).labels_.tolist() == svclust.SVClust(random_state=2).fit(xi.astype(float)).labels_.tolist()
    svclust.SVClust(random_state=2, scale="none").fit(X)
    assert same_floats(X, before)


@pytest.mark.parametrize("bad, exc, match", [
    (np.array([[0.0, 1.0], [np.nan, 2.0]]), ValueError, r"^X\[1, 0\]: not a finite number: NaN \(a missing value\); "
                                                        r"1 row has missing values, in 1 column \(na='drop' skips those rows\)$"),
    (np.array([[0.0, np.inf], [1.0, -np.inf]]), ValueError, r"^X\[0, 1\]: not a finite number: inf \(infinity\); 2 rows have "
                                                           r"infinite values, in 1 column; .*na='drop'"),
    (np.array([[np.nan, np.inf]]), ValueError, r"^X\[0, 0\]: not a finite number: NaN"),
    (np.zeros((0, 2)), ValueError, r"^Found array with 0 sample\(s\) \(shape=\(0, 2\)\) while a minimum of 1 is required"),
    (np.zeros((3, 0)), ValueError, r"^Found array with 0 feature\(s\) \(shape=\(3, 0\)\) while a minimum of 1 is required"),
    (np.zeros(5), ValueError, r"got a 1-dimensional array of shape \(5,\): Reshape your data either using X.reshape\(-1, 1\)"),
    ([1.0, 2.0], ValueError, "Reshape your data"),
    (np.zeros((2, 2, 2)), ValueError, r"X must be 2-dimensional \(rows × features\), not of shape \(2, 2, 2\)"),
    (np.array([[1, "a"]], dtype=object), ValueError, r"^X\[0, 1\]: not a number: 'a' \(could not convert"),
    (np.array([[1, "1,5"]], dtype=object), ValueError, r"^X\[0, 1\]: not a number: '1,5' .*decimal comma"),
    (np.array([[1, {"foo": "bar"}]], dtype=object), TypeError, r"^X\[0, 1\]: not a number: \{'foo': 'bar'\} \(float\(\) argument must be a string or a (real )?number"),
    (np.array([[1, 2j]], dtype=object), ValueError, r"^Complex data not supported: X\[0, 1\] is 2j"),
    (np.array([["1", "2"]]), ValueError, r"X holds text \(dtype <U1\), not numbers: convert it with X.astype\(float\)"),
    (np.array([[1 + 1j, 2]]), ValueError, r"^Complex data not supported: X holds complex numbers \(dtype complex128\)"),
    (np.array([["2020-01-01"]], dtype="datetime64[D]"), TypeError, r"X must hold numbers, not values of dtype datetime64\[D\]"),
])
def test_bad_data(bad, exc, match):
    with pytest.raises(exc, match=match):
        svclust.SVClust().fit(bad)


def test_sparse(fitted, X):
    """Sparse input is refused at fit and predict, saying so and how to
    convert it (check_estimator_sparse_data wants "sparse" in the message)."""
    sparse = pytest.importorskip("scipy.sparse")
    for fmt in (sparse.csr_matrix, sparse.csc_matrix, sparse.coo_matrix):
        with pytest.raises(TypeError, match=r"^SVClust does not support sparse input \(X is a scipy.sparse "
                                            r"\w+ of shape \(400, 2\)\): pass a dense array, X.toarray\(\)"):
            svclust.SVClust().fit(fmt(X))
        with pytest.raises(TypeError, match="does not support sparse input"):
            fitted.predict(fmt(X))


def test_object_numbers(X):
    """An object array of numbers (and numeric strings) is read as numpy
    converts it: the labels of the float array; None is a missing value."""
    ref = svclust.SVClust(random_state=2).fit(X)
    obj = X.astype(object)
    assert svclust.SVClust(random_state=2).fit(obj).labels_.tolist() == ref.labels_.tolist()
    text = np.array([[repr(v) for v in row] for row in X[:50]], dtype=object)
    assert ref.predict(text).tolist() == ref.predict(X[:50]).tolist()
    obj[3, 1] = None
    with pytest.raises(ValueError, match=r"^X\[3, 1\]: not a finite number: NaN \(a missing value\)"):
        svclust.SVClust().fit(obj)
    est = svclust.SVClust(random_state=2, na="drop").fit(obj)
    assert est.na_rows_.tolist() == [3]


def test_overflow():
    """Finite values that overflow when scaled: the command's messages."""
    x = [[1e308, 1.0], [-1e308, 2.0], [0.0, 3.0]]
    with pytest.raises(ValueError, match=r"^X\[:, 0\]: its mean, range or standard deviation overflows float64, "
                                         r"so its values cannot be scaled \(scale minmax\)"):
        svclust.SVClust(scale="minmax").fit(x)
    with pytest.raises(ValueError, match=r"^X\[0, 0\]: the value 1e\+308 overflows when scaled "
                                         r"\(scale none\): it scales to 1e\+308, beyond ±1e\+150"):
        svclust.SVClust(scale="none").fit(x)


def test_bad_data_at_predict(fitted):
    with pytest.raises(ValueError, match="X has 3 features, but the model was trained on 2"):
        fitted.predict(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="X has 3 features, but the model was trained on 2"):
        fitted.score_samples(np.zeros((4, 3)))
    with pytest.raises(ValueError, match=r"^X\[0, 1\]: not a finite number: NaN"):
        fitted.predict(np.array([[0.0, np.nan]]))
    for method in (fitted.predict, fitted.score_samples, fitted.decision_function, fitted.outlier_score):
        with pytest.raises(ValueError, match=r"^X\[1, 0\]: not a finite number: -inf \(infinity\)"):
            method(np.array([[0.0, 1.0], [-np.inf, 0.0]]))
        with pytest.raises(ValueError, match="Reshape your data"):
            method(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="overflows when scaled"):
        fitted.score_samples(np.array([[1e300, 0.0]]))
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        fitted.predict(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="a missing value"):
        fitted.predict(np.array([[None, 1]], dtype=object))
    with pytest.raises(TypeError, match="argument must be a string"):
        fitted.predict(np.array([[object(), 1]], dtype=object))
    with pytest.raises(NotFittedError):
        svclust.SVClust().predict(np.zeros((1, 2)))


@pytest.mark.parametrize("params, exc, match", [
    (dict(gamma=-1), ValueError, 'gamma must be > 0 or "auto"'),
    (dict(gamma=float("nan")), ValueError, 'gamma must be > 0 or "auto"'),
    (dict(C=0), ValueError, 'C must be > 0 or "auto"'),
    (dict(budget=-2), ValueError, "budget must be ≥ 0"),
    (dict(budget=20001), ValueError, "budget 20001: must be ≤ 20,000"),
    (dict(rule="tree"), ValueError, "rule must be levels or components"),
    (dict(width="wide"), ValueError, "width must be adaptive or global"),
    (dict(maintain="drop"), ValueError, "maintain must be"),
    (dict(k=3), ValueError, "k applies only to maintain project-knn and project-random"),
    (dict(k=0, maintain="project-knn"), ValueError, "k must be ≥ 1"),
    (dict(eps=0.1), ValueError, 'trajectories="all" and eps apply only to rule components'),
    (dict(min_cluster_size=0), ValueError, 'min_cluster_size must be ≥ 1 or "auto"'),
    (dict(min_cluster_size=10, rule="components"), ValueError, "min_cluster_size applies only to rule levels"),
    (dict(trajectories="all"), ValueError, 'trajectories="all" and eps apply only to rule components'),
    (dict(trajectories="every"), ValueError, "trajectories must be strip or all, not 'every'"),
    (dict(trajectories=True), TypeError, "trajectories must be a string"),
    (dict(n_jobs=2000), ValueError, "n_jobs 2000: must be ≤ 1,024"),
    (dict(n_jobs=0), ValueError, "n_jobs must not be 0"),
    (dict(n_jobs=1.5), TypeError, "n_jobs must be None or a whole number"),
    (dict(random_state=1.5), TypeError, "random_state must be None, a whole number or a numpy.random.RandomState"),
    (dict(random_state=np.random.default_rng(0)), TypeError, r"not a numpy.random.Generator .*int\(rng.integers\(2\*\*32\)\)"),
    (dict(tol=float("inf")), ValueError, "tol must be ≥ 0 and finite"),
    (dict(m=1), ValueError, "m must be ≥ 2"),
    (dict(scale="log"), ValueError, "scale must be none, zscore or minmax"),
    (dict(gamma=True), TypeError, "gamma must be a number"),
    (dict(budget=2.5), TypeError, "budget must be a whole number"),
    (dict(rule=1), TypeError, "rule must be a string"),
    (dict(outliers="yes"), TypeError, "outliers must be True or False"),
    (dict(outlier_threshold=1), ValueError, r"outlier_threshold must be in \(0, 1\), not 1"),
    (dict(outlier_threshold=0), ValueError, r"outlier_threshold must be in \(0, 1\)"),
    (dict(outlier_threshold=float("nan")), ValueError, r"outlier_threshold must be in \(0, 1\)"),
    (dict(outlier_threshold="half"), TypeError, "outlier_threshold must be a number"),
])
def test_bad_params(X, params, exc, match):
    with pytest.raises(exc, match=match):
        svclust.SVClust(**params).fit(X)


def test_bad_model_file(tmp_path):
    with pytest.raises(ValueError, match="not a model file"):
        svclust.SVClust.from_model_file(b"[1, 2]")
    with pytest.raises(ValueError, match="format"):
        svclust.SVClust.from_model_file(b'{"format": "x", "version": 2}')


def test_panic_is_an_error(fitted):
    """A Go panic (here: an invalid handle) is a RuntimeError, not a crash."""
    bogus = _native.Handle(fitted._handle.h + 1000003)
    with pytest.raises(RuntimeError, match="internal error"):
        bogus.predict(np.zeros((2, 2)), 0)
    bogus.h = 0  # nothing to release


def test_threads():
    """Two estimators fitted at once on two threads give the results of
    fitting them one at a time."""
    data = [blobs(1500, seed=1), blobs(1500, seed=2)]
    alone = [svclust.SVClust(random_state=4).fit(x) for x in data]
    got = [None, None]

    def work(i):
        got[i] = svclust.SVClust(random_state=4).fit(data[i])

    ts = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for a, b, x in zip(alone, got, data):
        assert b.labels_.tolist() == a.labels_.tolist()
        assert b.model_file()[b.model_file().index(b'"model":'):] == a.model_file()[a.model_file().index(b'"model":'):]
        assert same_floats(b.score_samples(x), a.score_samples(x))


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX signals")
def test_keyboard_interrupt():
    """Ctrl-C during a long fit raises KeyboardInterrupt promptly: training
    is cancelled through its context."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # A shell without job control starts background commands with
        # SIGINT ignored, and Python then takes no Ctrl-C at all.
        pytest.skip("SIGINT is ignored in this process (started in the background by a shell)")
    x = blobs(3000, seed=3)
    est = svclust.SVClust(gamma=1, C=10, budget=100, tol=0, max_iter=200_000_000)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            est.fit(x)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 10
    assert not hasattr(est, "labels_")
    # The package still works afterwards.
    assert svclust.SVClust(random_state=1).fit(x[:300]).n_clusters_ >= 1


def test_na_drop(X):
    """na="drop": the rows with a NaN are left out of training and labelled
    -1 in place; the other rows get the labels of a fit without them, and
    predict and score_samples give -1 and NaN for a NaN row."""
    Xn = X.copy()
    rows = [1, 7, 30]
    Xn[1, 0] = np.nan
    Xn[7, 1] = np.nan
    Xn[30, :] = np.nan
    keep = np.setdiff1d(np.arange(len(X)), rows)
    est = svclust.SVClust(random_state=3, na="drop").fit(Xn)
    ref = svclust.SVClust(random_state=3).fit(X[keep])
    assert est.na_rows_.tolist() == rows
    assert est.labels_[rows].tolist() == [-1, -1, -1]
    assert est.labels_[keep].tolist() == ref.labels_.tolist()
    assert est.report_["dropped"] == 3 and est.report_["n"] == len(keep)
    assert est.predict(Xn).tolist() == est.labels_.tolist()
    s = est.score_samples(Xn)
    assert np.isnan(s[rows]).all()
    assert same_floats(s[keep], ref.score_samples(X[keep]))
    assert np.isnan(est.outlier_scores_[rows]).all() and np.isnan(est.probabilities_[rows]).all()
    assert same_floats(est.outlier_scores_[keep], ref.outlier_scores_)
    assert np.isnan(est.outlier_score(Xn)[rows]).all()
    assert same_floats(est.outlier_score(Xn)[keep], ref.outlier_scores_)
    assert svclust.SVClust(random_state=3, na="drop").fit(X).na_rows_.tolist() == []


def test_na_error(X):
    Xn = X.copy()
    Xn[4, 1] = np.nan
    Xn[9, 1] = np.nan
    with pytest.raises(ValueError, match=r"X\[4, 1\]: not a finite number: NaN \(a missing value\); 2 rows have missing values, in 1 column \(na='drop' skips those rows\)"):
        svclust.SVClust().fit(Xn)
    with pytest.raises(ValueError, match="na must be error or drop, not 'skip'"):
        svclust.SVClust(na="skip").fit(X)
    with pytest.raises(ValueError, match="every row has a missing value"):
        svclust.SVClust(na="drop").fit(np.full((3, 2), np.nan))
def test_outlier_scores(fitted, X):
    """outlier_scores_ and probabilities_ of the training rows: in [0, 1],
    the strength 0 exactly where the score reaches the threshold, and the
    same from outlier_score and membership_strength on the same rows; most
    rows typical (below the threshold) and ranked (no block of ties); a
    point far from every blob scores near 1, further still higher."""
    s, p = fitted.outlier_scores_, fitted.probabilities_
    assert s.shape == p.shape == (X.shape[0],)
    assert ((s >= 0) & (s <= 1)).all() and ((p >= 0) & (p <= 1)).all()
    assert ((p == 0) == (s >= 0.5)).all()
    assert np.median(s) < 0.5 and p.max() > 0.5
    assert len(np.unique(s)) >= 0.9 * len(s)
    assert same_floats(fitted.outlier_score(X), s)
    assert same_floats(fitted.membership_strength(X), p)
    far = fitted.outlier_score(np.array([[60.0, 60.0], [120.0, 120.0], [1e4, 1e4]]))
    assert 0.5 < far[0] < far[1] < far[2] < 1
    assert (fitted.membership_strength(np.array([[60.0, 60.0]])) == 0).all()


@pytest.mark.parametrize("rule", ["levels", "components"])
def test_outliers_threshold(X, rule):
    """outliers=True labels -1 exactly the rows whose outlier score reaches
    outlier_threshold."""
    rng = np.random.default_rng(1)
    Xn = np.vstack([X, rng.uniform(-10, 22, size=(40, 2))])  # noise over the blobs
    est = svclust.SVClust(random_state=7, rule=rule, outliers=True, outlier_threshold=0.3).fit(Xn)
    flagged = est.outlier_scores_ >= 0.3
    assert flagged.any()
    assert ((est.labels_ == -1) == flagged).all()
    assert ((est.probabilities_ == 0) == flagged).all()
    assert est.predict(Xn).tolist() == est.labels_.tolist()


def test_old_model_file():
    """A model file written before the outlier scores (version 5) predicts,
    but its outlier scores are a ValueError naming the fix."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    est = svclust.SVClust.load(os.path.join(root, "modelfile", "testdata", "old", "v5-levels.json"))
    assert est.feature_names_in_.tolist() == ["x1", "x2"]
    x = np.array([[2.0, 2.0]])
    with pytest.warns(UserWarning, match="X does not have valid feature names, but SVClust was fitted with feature names"):
        assert est.predict(x).shape == (1,)
    with pytest.raises(ValueError, match="fit the data again"), pytest.warns(UserWarning):
        est.outlier_score(x)


def test_hostile_python_edges(X):
    """Issue 34's Python cases: a seed outside its range is named in plain
    words; a DataFrame naming a column twice is refused at fit; with
    na="drop" an all-NaN array of the wrong width is a width error, not
    rows to drop; a pickled na="drop" estimator keeps na_rows_."""
    for seed in (-1, 2**70):
        with pytest.raises(ValueError, match=r"^random_state must be a whole number from 0 to 18446744073709551615, not "):
            svclust.SVClust(random_state=seed).fit(X)
    with pytest.raises(ValueError, match=r"^max_iter must be a whole number from "):
        svclust.SVClust(max_iter=2**70).fit(X)
    pd = pytest.importorskip("pandas")
    with pytest.raises(ValueError, match=r"X: column 'a' occurs twice"):
        svclust.SVClust().fit(pd.DataFrame(X, columns=["a", "a"]))
    with pytest.raises(ValueError, match=r"X: column 'a' occurs twice"):
        svclust.SVClust(random_state=1).fit(pd.DataFrame(X, columns=["a", "b"])).predict(pd.DataFrame(X, columns=["a", "a"]))
    Xn = X.copy()
    Xn[[3, 7], 0] = np.nan
    est = svclust.SVClust(random_state=1, na="drop").fit(Xn)
    with pytest.raises(ValueError, match="X has 5 features, but the model was trained on 2"):
        est.predict(np.full((3, 5), np.nan))
    back = pickle.loads(pickle.dumps(est))
    assert list(back.na_rows_) == [3, 7] and list(est.na_rows_) == [3, 7]
    assert (back.labels_ == est.labels_).all()


def test_hostile_python_places_and_names(X):
    """The second hostile battery's Python cases (issue 34): an overflow is
    named at its place in the caller's X (rows before na="drop" left some
    out, columns before they were put in the model's order); a DataFrame
    column named "label" is a feature the fitted model keeps (predict,
    pickle, save); a column name that is not text is refused at fit rather
    than stored as U+FFFD; numbers beyond 64 bits and beyond float64 are
    ValueErrors naming the parameter."""
    import pickle

    bad = np.array([[np.nan, 1.0], [np.nan, 2.0], [1.0, 1.0], [2.0, 2.0], [3e200, 3.0], [4.0, 4.0]])
    with pytest.raises(ValueError, match=r"^X\[4, 0\]: the value 3e\+200 overflows when scaled"):
        svclust.SVClust(na="drop", scale="none", random_state=1).fit(bad)
    est = svclust.SVClust(na="drop", scale="none", random_state=1, gamma=1.0, C=10.0).fit(X[:60])
    with pytest.raises(ValueError, match=r"^X\[2, 0\]: the value 1e\+200 overflows"):
        est.predict(np.array([[np.nan, 1.0], [np.nan, 1.0], [1e200, 1.0]]))
    try:
        import pandas as pd
    except ImportError:
        pd = None
    if pd is not None:
        frame = pd.DataFrame(X[:60], columns=["a", "b"])
        est = svclust.SVClust(scale="none", random_state=1, gamma=1.0, C=10.0).fit(frame)
        shuffled = frame[["b", "a"]].copy()
        shuffled.iloc[3, 1] = 1e200
        with pytest.raises(ValueError, match=r'^X\[3, 1\]: feature "a": the value 1e\+200 overflows'):
            est.predict(shuffled)
        labelled = pd.DataFrame(X, columns=["label", "b"])
        est = svclust.SVClust(random_state=1).fit(labelled)
        assert est.predict(labelled).tolist() == est.labels_.tolist()
        back = pickle.loads(pickle.dumps(est))
        assert back.predict(labelled).tolist() == est.labels_.tolist()
        with pytest.raises(ValueError, match="is not text"):
            svclust.SVClust().fit(pd.DataFrame(X, columns=["a\udc80", "c"]))
    with pytest.raises(ValueError, match=r"^k must be a whole number from"):
        svclust.SVClust(k=2**70, maintain="project-knn").fit(X)
    with pytest.raises(ValueError, match=r"^n_jobs must be a whole number from"):
        svclust.SVClust(n_jobs=2**70).fit(X)
    with pytest.raises(ValueError, match=r"^budget 9223372036854775807: must be ≤ 20,000$"):
        svclust.SVClust(budget=2**63 - 1).fit(X)
    with pytest.raises(ValueError, match=r'^gamma must be > 0 or "auto"$'):
        svclust.SVClust(gamma=10**400).fit(X)

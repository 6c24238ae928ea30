"""pandas DataFrames: feature names and scikit-learn's warnings about them,
and the columns that are not plain numbers (text, categories, pandas'
nullable Int64 and Float64 with NA, dates, sparse), which are read or
refused as the svclust command reads or refuses a text column."""

import warnings

import numpy as np
import pytest

import svclust
from conftest import blobs

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def X():
    return blobs(300)


@pytest.fixture(scope="module")
def df(X):
    return pd.DataFrame(X, columns=["a", "b"])


def sklearn_warning(fit_X, predict_X):
    """The UserWarning scikit-learn's own KMeans gives when fitted on
    fit_X and applied to predict_X, with its class name left out."""
    from sklearn.cluster import KMeans

    km = KMeans(n_clusters=2, n_init=1, random_state=0).fit(fit_X)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        km.predict(predict_X)
    msgs = [str(w.message) for w in got if issubclass(w.category, UserWarning) and "feature names" in str(w.message)]
    assert len(msgs) == 1, msgs
    return msgs[0].replace("KMeans", "SVClust")


METHODS = ["predict", "score_samples", "decision_function", "outlier_score", "membership_strength"]


@pytest.mark.parametrize("method", METHODS)
def test_feature_name_warnings(X, df, method):
    """Fitted on a DataFrame and applied to an array, or the reverse, every
    method warns with the words of scikit-learn's own estimators; with the
    same kind of input as at fit, none warns."""
    on_frame = svclust.SVClust(random_state=1).fit(df)
    on_array = svclust.SVClust(random_state=1).fit(X)
    assert on_frame.feature_names_in_.tolist() == ["a", "b"] and on_frame.feature_names_in_.dtype == object
    assert not hasattr(on_array, "feature_names_in_")
    for est, x in ((on_frame, X), (on_array, df)):
        want = sklearn_warning(df if est is on_frame else X, x)
        with pytest.warns(UserWarning, match=f"^{want}$"):
            getattr(est, method)(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = getattr(on_frame, method)(df)
        b = getattr(on_array, method)(X)
    assert np.array_equal(a, b, equal_nan=True)


def test_refit_forgets_names(X, df):
    """A fit on an array after one on a DataFrame leaves no feature names,
    as scikit-learn's estimators."""
    est = svclust.SVClust(random_state=1).fit(df)
    est.fit(X)
    assert not hasattr(est, "feature_names_in_")


def test_column_names(X):
    """Names that are not all strings: none (pandas' 0, 1, ...) gives no
    feature names; a mix is a TypeError, as in scikit-learn."""
    est = svclust.SVClust(random_state=1).fit(pd.DataFrame(X))
    assert not hasattr(est, "feature_names_in_")
    with pytest.raises(TypeError, match=r"feature names are only supported if all the columns are named by strings.*"
                                        r"X.columns = X.columns.astype\(str\)"):
        svclust.SVClust().fit(pd.DataFrame(X, columns=["a", 1]))


def test_text_column(df):
    """A column of text is refused naming the value, the column and the
    fix, as the command refuses one ("column "kind" is not numeric;
    -drop kind to ignore it"); also a pandas string column."""
    bad = df.assign(kind=np.where(np.arange(len(df)) % 2, "red", "blue"))
    msg = r"^X\[0, 2\]: not a number: 'blue'; column 'kind' is not numeric; X.drop\(columns=\['kind'\]\) to ignore it$"
    with pytest.raises(ValueError, match=msg):
        svclust.SVClust().fit(bad)
    with pytest.raises(ValueError, match=msg):
        svclust.SVClust().fit(bad.astype({"kind": "string"}))
    est = svclust.SVClust(random_state=1).fit(df)
    with pytest.raises(ValueError, match=r"column 'kind' is not numeric"):
        est.predict(bad)
    # The fix the message names works.
    assert svclust.SVClust(random_state=1).fit(bad.drop(columns=["kind"])).labels_.tolist() == est.labels_.tolist()


def test_numbers_as_text(X, df):
    """An object column of numbers, or of their text, is read as numbers;
    text with a decimal comma is refused naming the fix."""
    ref = svclust.SVClust(random_state=1).fit(df)
    obj = df.astype({"a": object})
    obj["b"] = [repr(v) for v in df["b"]]
    assert svclust.SVClust(random_state=1).fit(obj).labels_.tolist() == ref.labels_.tolist()
    comma = df.assign(b=[f"{v:.3f}".replace(".", ",") for v in df["b"]])
    with pytest.raises(ValueError, match=r"^X\[0, 1\]: not a number: '[-0-9]+,[0-9]+'; column 'b' is written with a "
                                         r"decimal comma; read it with pandas.read_csv\(\.\.\., decimal=','\)"):
        svclust.SVClust().fit(comma)


@pytest.mark.parametrize("dtype", ["Int64", "Float64"])
def test_nullable_with_na(X, dtype):
    """pandas' nullable columns: NA is a missing value, governed by na=
    as NaN is: an error naming the first (and its column) by default,
    rows left out with na="drop", which then label as a fit without
    them does."""
    xi = np.rint(X * 100)
    frame = pd.DataFrame({"a": pd.array(xi[:, 0].astype(np.int64), dtype=dtype), "b": xi[:, 1]})
    frame.loc[[4, 9], "a"] = pd.NA
    with pytest.raises(ValueError, match=r"^X\[4, 0\] \(column 'a'\): not a finite number: NaN \(a missing value\); "
                                         r"2 rows have missing values, in 1 column \(na='drop' skips those rows\)$"):
        svclust.SVClust().fit(frame)
    est = svclust.SVClust(random_state=1, na="drop").fit(frame)
    assert est.na_rows_.tolist() == [4, 9]
    keep = np.setdiff1d(np.arange(len(xi)), [4, 9])
    ref = svclust.SVClust(random_state=1).fit(pd.DataFrame(xi[keep], columns=["a", "b"]))
    assert est.labels_[keep].tolist() == ref.labels_.tolist()
    assert (est.labels_[[4, 9]] == -1).all()
    assert est.predict(frame).tolist() == est.labels_.tolist()
    # Without NA the column is read as its numbers.
    full = pd.DataFrame({"a": pd.array(xi[:, 0].astype(np.int64), dtype=dtype), "b": xi[:, 1]})
    plain = svclust.SVClust(random_state=1).fit(pd.DataFrame(xi, columns=["a", "b"]))
    assert svclust.SVClust(random_state=1).fit(full).labels_.tolist() == plain.labels_.tolist()


def test_none_in_object_column(df):
    """None in an object column is a missing value, as pandas takes it."""
    obj = df.astype({"a": object})
    obj.iloc[7, 0] = None
    with pytest.raises(ValueError, match=r"^X\[7, 0\] \(column 'a'\): not a finite number: NaN \(a missing value\)"):
        svclust.SVClust().fit(obj)
    assert svclust.SVClust(na="drop", random_state=1).fit(obj).na_rows_.tolist() == [7]


def test_categorical(df):
    """A categorical column of text is refused naming it and the fix, as
    the command refuses a text column; one of numbers is read as its
    values."""
    cat = df.assign(c=pd.Categorical(np.where(np.arange(len(df)) % 3, "x", "y")))
    with pytest.raises(ValueError, match=r"^X: column 'c' is categorical \('x', 'y'\), not numeric; "
                                         r"X.drop\(columns=\['c'\]\) to ignore it, or encode it as numbers"):
        svclust.SVClust().fit(cat)
    num = df.assign(a=pd.Categorical(df["a"]))
    ref = svclust.SVClust(random_state=1).fit(df)
    assert svclust.SVClust(random_state=1).fit(num).labels_.tolist() == ref.labels_.tolist()


def test_dates_and_sparse(df):
    """A column of dates is refused naming it; a sparse column as sparse
    input, naming the conversion."""
    dated = df.assign(when=pd.date_range("2024-01-01", periods=len(df)))
    with pytest.raises(ValueError, match=r"^X: column 'when' holds datetime64\[ns\], not numbers; "
                                         r"X.drop\(columns=\['when'\]\) to ignore it"):
        svclust.SVClust().fit(dated)
    sp = df.astype({"a": pd.SparseDtype("float64", 0.0)})
    with pytest.raises(TypeError, match=r"^SVClust does not support sparse input \(X: column 'a' is "
                                        r"Sparse\[float64, 0\.0\]\): pass a dense DataFrame, X.sparse.to_dense\(\)"):
        svclust.SVClust().fit(sp)


def test_frame_not_modified(df):
    """A float64 DataFrame is never scaled in place."""
    before = df.copy()
    svclust.SVClust(random_state=1).fit(df[["a"]])
    svclust.SVClust(random_state=1).fit(df)
    pd.testing.assert_frame_equal(df, before)

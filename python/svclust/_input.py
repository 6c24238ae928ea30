"""X as the library takes it: a 2-D float64 C-contiguous array of rows,
made from an array, a list or a pandas DataFrame, with the errors of bad
input in the svclust command's manner (the value, its place, its column
and the fix) and, where scikit-learn's checks expect them, in
scikit-learn's words ("Reshape your data", "Complex data not supported",
"0 feature(s)", "sparse")."""

import numbers

import numpy as np
from scipy import sparse  # a dependency of scikit-learn

# The numpy kinds read as numbers: bool, signed and unsigned int, float.
_NUMERIC = "biuf"


def as_rows(X, est="SVClust", what="X"):
    """Returns X as a 2-D float64 C-contiguous array, whether it is a copy
    made here (which the caller may then modify), and the column names of
    a DataFrame whose columns are all named by strings (None otherwise).

    An array of float64 in C order is returned as it is; any other array
    of numbers is converted once. An object array is converted as
    numpy converts it (numbers and strings of numbers), and a value that
    is no number is an error naming it. A DataFrame is read column by
    column: numeric columns, pandas' nullable ones (Int64, Float64,
    boolean; NA is a missing value, NaN here) and categorical columns of
    numbers are read; a column of text, of categories that are not
    numbers, of dates or of sparse values is an error naming the column
    and the fix, as the svclust command names a text column."""
    if sparse.issparse(X):
        raise TypeError(
            f"{est} does not support sparse input ({what} is a scipy.sparse {type(X).__name__} "
            f"of shape {X.shape}): pass a dense array, {what}.toarray(), if it fits in memory")
    names, owned = None, False
    if _is_frame(X):
        X, names, owned = _frame(X, est, what)
    elif not isinstance(X, np.ndarray):
        X = np.asarray(X)
    if X.ndim == 1:
        raise ValueError(
            f"Expected a 2-dimensional {what} (rows × features), got a 1-dimensional array of shape {X.shape}: "
            f"Reshape your data either using {what}.reshape(-1, 1) if it has a single feature "
            f"or {what}.reshape(1, -1) if it is a single sample")
    if X.ndim != 2:
        raise ValueError(f"{what} must be 2-dimensional (rows × features), not of shape {X.shape}")
    kind = X.dtype.kind
    if kind == "c":
        raise ValueError(
            f"Complex data not supported: {what} holds complex numbers (dtype {X.dtype}); "
            f"pass real features, such as {what}.real and {what}.imag side by side")
    if kind == "O":
        X, owned = _objects(X, what), True
    elif kind in "US":
        raise ValueError(
            f"{what} holds text (dtype {X.dtype}), not numbers: convert it with {what}.astype(float) "
            "if the text is numbers")
    elif kind not in _NUMERIC:
        raise TypeError(f"{what} must hold numbers, not values of dtype {X.dtype}")
    n, d = X.shape
    if n == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required by {est}: "
                         "no data")
    if d == 0:
        raise ValueError(f"Found array with 0 feature(s) (shape={X.shape}) while a minimum of 1 is required by {est}: "
                         "no data")
    if X.dtype == np.float64 and X.flags.c_contiguous and X.flags.aligned:
        return X, owned, names
    return np.ascontiguousarray(X, dtype=np.float64), True, names


def _is_frame(X):
    return hasattr(X, "columns") and hasattr(X, "dtypes") and hasattr(X, "iloc") and X.__class__.__module__.startswith("pandas")


def _frame(X, est, what):
    """The values of a DataFrame as a 2-D array, its column names, and
    whether the array is a copy made here."""
    import pandas as pd  # X is a DataFrame: pandas is there

    cols = list(X.columns)
    names = feature_names(cols, what)
    dtypes = list(X.dtypes)
    if all(isinstance(t, np.dtype) and t.kind in _NUMERIC for t in dtypes):
        return X.to_numpy(), names, False  # possibly a view of X: not owned
    out = np.empty((X.shape[0], len(cols)), dtype=np.float64)
    for j, (c, t) in enumerate(zip(cols, dtypes)):
        out[:, j] = _column(pd, X.iloc[:, j], j, c, t, est, what)
    return out, names, True


def feature_names(cols, what="X"):
    """The column names of a DataFrame as scikit-learn takes them: a list
    when they are all strings, None when none is (such as pandas' default
    0, 1, ...); a mix is a TypeError, as in scikit-learn. A name twice is a
    ValueError."""
    strs = [isinstance(c, str) for c in cols]
    if not any(strs):
        return None
    if not all(strs):
        kinds = sorted({type(c).__name__ for c in cols})
        raise TypeError(
            f"{what}: feature names are only supported if all the columns are named by strings, but "
            f"{what} has columns named by {kinds}; convert them all to strings with "
            f"{what}.columns = {what}.columns.astype(str), or name none by a string")
    seen = set()
    for c in cols:
        if c in seen:
            raise ValueError(f"{what}: column {c!r} occurs twice")
        try:
            c.encode("utf-8")
        except UnicodeEncodeError as e:
            # A lone surrogate (a name decoded with errors="surrogateescape"):
            # the model file holds UTF-8 text, which would store it as
            # U+FFFD and then match no column.
            raise ValueError(f"{what}: the name of column {c!r} is not text: {e.reason} at offset {e.start}; "
                             "rename the column") from None
        seen.add(c)
    return cols


def _drop_hint(what, c):
    return f"{what}.drop(columns=[{c!r}]) to ignore it"


def _column(pd, s, j, c, t, est, what):
    """The values of column s (position j, name c, dtype t) as float64,
    NaN for a missing value (NA, None, NaN)."""
    if isinstance(t, pd.SparseDtype):
        raise TypeError(
            f"{est} does not support sparse input ({what}: column {c!r} is {t}): "
            f"pass a dense DataFrame, {what}.sparse.to_dense(), if it fits in memory")
    if isinstance(t, pd.CategoricalDtype):
        if t.categories.dtype.kind in _NUMERIC:
            return s.astype("float64").to_numpy()
        shown = ", ".join(repr(v) for v in list(t.categories[:3])) + (", ..." if len(t.categories) > 3 else "")
        raise ValueError(
            f"{what}: column {c!r} is categorical ({shown}), not numeric; {_drop_hint(what, c)}, "
            "or encode it as numbers first (such as with sklearn.preprocessing.OneHotEncoder)")
    if isinstance(t, np.dtype) and t.kind == "c":
        raise ValueError(f"Complex data not supported: {what}: column {c!r} holds complex numbers ({t}); "
                         "pass real features, such as its real and imaginary parts as two columns")
    if pd.api.types.is_numeric_dtype(t) or pd.api.types.is_bool_dtype(t):
        return s.to_numpy(dtype=np.float64, na_value=np.nan)
    if not (pd.api.types.is_object_dtype(t) or pd.api.types.is_string_dtype(t)):
        raise ValueError(f"{what}: column {c!r} holds {t}, not numbers; {_drop_hint(what, c)}, "
                         "or convert it to numbers first")
    v = s.to_numpy(dtype=object)
    missing = pd.isna(v)
    out = np.full(len(v), np.nan)
    try:
        out[~missing] = np.asarray(v[~missing]).astype(np.float64)
        return out
    except (TypeError, ValueError):
        pass
    for i in np.flatnonzero(~missing):
        err = _not_a_number(v[i])
        if err is None:
            continue
        where = f"{what}[{i}, {j}]: not a number: {v[i]!r}; column {c!r}"
        if isinstance(v[i], (str, bytes)):
            if _decimal_comma(v[i]):
                raise ValueError(f"{where} is written with a decimal comma; read it with "
                                 "pandas.read_csv(..., decimal=',')")
            raise ValueError(f"{where} is not numeric; {_drop_hint(what, c)}")
        raise _as_error(err, f"{where} is not numeric ({err})")
    raise AssertionError("unreachable: a value failed to convert, but none alone does")


def _objects(X, what):
    """An object array converted to float64 as numpy converts it, or the
    error of its first value that is no number, naming its place."""
    try:
        return np.ascontiguousarray(X.astype(np.float64))
    except (TypeError, ValueError):
        pass
    for (i, j), v in np.ndenumerate(X):
        err = _not_a_number(v)
        if err is None:
            continue
        if isinstance(v, (complex, np.complexfloating)):
            raise ValueError(f"Complex data not supported: {what}[{i}, {j}] is {v!r}")
        hint = ""
        if isinstance(v, (str, bytes)) and _decimal_comma(v):
            hint = "; it is written with a decimal comma"
        raise _as_error(err, f"{what}[{i}, {j}]: not a number: {v!r} ({err}){hint}")
    raise AssertionError("unreachable: a value failed to convert, but none alone does")


def _not_a_number(v):
    """The error numpy's conversion of v to float64 gives, or None."""
    a = np.empty(1, dtype=object)
    a[0] = v  # not np.asarray([v]), which would unpack a sequence v
    try:
        a.astype(np.float64)
        return None
    except (TypeError, ValueError) as e:
        return e


def _as_error(err, msg):
    """An error of the type of err (TypeError for a value that is no
    number at all, ValueError for a string that is not a number) with
    message msg."""
    return TypeError(msg) if isinstance(err, TypeError) else ValueError(msg)


def _decimal_comma(s):
    """Whether s is a number written with a decimal comma, such as 1,5."""
    if isinstance(s, bytes):
        s = s.decode("utf-8", "replace")
    if s.count(",") != 1 or any(ch in s for ch in "eE_xXpP"):
        return False
    try:
        float(s.replace(",", "."))
        return True
    except ValueError:
        return False


def check_finite(x, na, names=None, what="X"):
    """The boolean mask of the rows of x with a missing value (NaN) when na
    is "drop" and some have one; None when none has. An infinity is
    always an error; a NaN is one when na is "error". The errors name the
    first such value, count the rows and columns that have one and say
    what to do, as the svclust command's."""
    if np.isfinite(x).all():
        return None
    nan = np.isnan(x)
    inf = ~nan & ~np.isfinite(x)
    first = inf if na == "drop" or not nan.any() else (inf | nan)
    if first.any():
        k = int(np.flatnonzero(first.ravel())[0])
        i, j = divmod(k, x.shape[1])
        if inf[i, j]:
            raise ValueError(f"{_place(what, i, j, names)}: not a finite number: {x[i, j]} (infinity); "
                             f"{_count(inf, 'infinite values')}; infinity is never a feature value "
                             "(set such values to numpy.nan and use na='drop' to skip their rows)")
        raise ValueError(f"{_place(what, i, j, names)}: not a finite number: NaN (a missing value); "
                         f"{_count(nan, 'missing values')} (na='drop' skips those rows)")
    return nan.any(axis=1)


def _place(what, i, j, names):
    return f"{what}[{i}, {j}]" + (f" (column {names[j]!r})" if names is not None else "")


def _count(mask, what):
    """How many rows and columns of mask hold a True, in words: "2 rows
    have what, in 1 column"."""
    rows = int(mask.any(axis=1).sum())
    cols = int(mask.any(axis=0).sum())
    r = "1 row has" if rows == 1 else f"{rows} rows have"
    c = "1 column" if cols == 1 else f"{cols} columns"
    return f"{r} {what}, in {c}"


def is_integral(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))

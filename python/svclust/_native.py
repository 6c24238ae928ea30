"""The Go library, loaded with ctypes: its C functions (python/export) and
the calls that turn their errors into Python exceptions.

Signals. The Go runtime of a shared library installs no handler for SIGINT
and the like, so a signal delivered to a thread while it runs Go code would
run Python's C handler on a goroutine's small stack. The library is
therefore loaded with the asynchronous signals blocked (the threads of the
Go runtime inherit that mask), and every call into it blocks them on the
calling thread for its duration (see `blocked`); a Ctrl-C during a call is
delivered when it returns. fit runs in a thread of its own so that the main
thread stays free to take KeyboardInterrupt and cancel it (see `run_fit`).
"""

import ctypes
import json
import os
import signal
import sys
import threading
from contextlib import contextmanager

import numpy as np

_LIB_NAME = "libsvclust.dylib" if sys.platform == "darwin" else "libsvclust.so"

# The signals Python may handle that can arrive at any thread. Go handles the
# synchronous ones (SIGSEGV, SIGBUS, SIGFPE, ...) and SIGURG (preemption).
_ASYNC = {
    getattr(signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2",
                 "SIGALRM", "SIGCHLD", "SIGWINCH", "SIGPIPE", "SIGVTALRM", "SIGXCPU",
                 "SIGXFSZ", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGCONT")
    if hasattr(signal, name)
}
_HAVE_SIGMASK = hasattr(signal, "pthread_sigmask")


@contextmanager
def blocked():
    """Blocks the asynchronous signals on the calling thread while Go runs."""
    if not _HAVE_SIGMASK:
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _ASYNC)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _load():
    path = os.environ.get("SVCLUST_LIBRARY") or os.path.join(os.path.dirname(__file__), _LIB_NAME)
    if not os.path.exists(path):
        raise ImportError(
            f"svclust: the native library {path} is missing: install the package with "
            "`/usr/bin/python3 -m pip install --no-build-isolation --break-system-packages ./python` "
            "from a clone, or set SVCLUST_LIBRARY to a library built with "
            "`go build -buildmode=c-shared -o libsvclust.so ./python/export`")
    with blocked():
        return ctypes.CDLL(path)


_lib = _load()

_p = ctypes.c_void_p
_i64 = ctypes.c_int64
_int = ctypes.c_int
_h = ctypes.c_size_t  # uintptr_t
_dp = ctypes.POINTER(ctypes.c_double)
_lp = ctypes.POINTER(ctypes.c_int64)
_err = [ctypes.POINTER(_int), ctypes.POINTER(ctypes.c_char_p)]


def _sig(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype, f.argtypes = restype, list(argtypes)
    return f


_canceller = _sig("svclust_canceller", _h)
_cancel = _sig("svclust_cancel", None, _h)
_release = _sig("svclust_release", None, _h)
_free = _sig("svclust_free", None, _p)
_fit = _sig("svclust_fit", _h, _dp, _i64, _i64, _int, ctypes.c_char_p, _i64, _h, _lp, *_err)
_update = _sig("svclust_update", _h, _h, _dp, _i64, _i64, _int, ctypes.c_char_p, _i64, _h, _lp, *_err)
_predict = _sig("svclust_predict", _int, _h, _dp, _i64, _i64, _int, _lp, *_err)
_score = _sig("svclust_score", _int, _h, _dp, _i64, _i64, _int, _dp, *_err)
_model_file = _sig("svclust_model_file", _int, _h, ctypes.POINTER(_p), ctypes.POINTER(_i64), *_err)
_load_model = _sig("svclust_load", _h, ctypes.c_char_p, _i64, *_err)
_info = _sig("svclust_info", _int, _h, ctypes.POINTER(_p), ctypes.POINTER(_i64), *_err)
_support = _sig("svclust_support_vectors", _int, _h, _dp, _dp, _i64, _i64, *_err)
_outlier = _sig("svclust_outlier", _int, _h, _dp, _i64, _i64, _int, _dp, _dp, *_err)
_train_outliers = _sig("svclust_train_outliers", _int, _h, _i64, _dp, _dp, *_err)

# The error kinds of python/export/export.go.
_KIND_VALUE, _KIND_CANCELED, _KIND_LOCATED = 1, 2, 4


class LocatedError(ValueError):
    """A ValueError about one value of the rows passed to the library (row
    and col in them; row None for a whole column), which the estimator
    names at its place in the caller's X."""

    def __init__(self, row, col, message):
        self.row, self.col, self.message = row, col, message
        super().__init__(self.at(row, col))

    def at(self, row, col):
        """The message, placed at X[row, col] (X[:, col] for no row)."""
        return f"X[{':' if row is None else row}, {col}]: {self.message}"


class _Error:
    """The out-parameters of an error, raised as a Python exception."""

    def __init__(self):
        self.kind = _int(0)
        self.msg = ctypes.c_char_p()

    def args(self):
        return ctypes.byref(self.kind), ctypes.byref(self.msg)

    def raise_(self):
        msg = self.msg.value.decode("utf-8", "replace") if self.msg.value else "svclust: unknown error"
        _free(ctypes.cast(self.msg, _p))
        if self.kind.value == _KIND_VALUE:
            raise ValueError(msg)
        if self.kind.value == _KIND_LOCATED:
            where = json.loads(msg)
            row = where["row"] if where["row"] >= 0 else None
            raise LocatedError(row, where["col"], where["message"])
        if self.kind.value == _KIND_CANCELED:
            raise KeyboardInterrupt(msg)
        raise RuntimeError(msg)


def _call(f, *args):
    """Calls f with the error out-parameters, raising on failure."""
    e = _Error()
    with blocked():
        r = f(*args, *e.args())
    if not r:
        e.raise_()
    return r


def _bytes_out(f, h):
    buf, n = _p(), _i64(0)
    _call(f, h, ctypes.byref(buf), ctypes.byref(n))
    try:
        return ctypes.string_at(buf, n.value)
    finally:
        _free(buf)


def _dptr(a):
    return a.ctypes.data_as(_dp)


class Handle:
    """A fitted model in the Go library, released when collected."""

    def __init__(self, h):
        self.h = h

    def __del__(self):
        if self.h and _release is not None:
            _release(self.h)
            self.h = 0

    def predict(self, x, workers):
        out = np.empty(x.shape[0], dtype=np.int64)
        _call(_predict, self.h, _dptr(x), x.shape[0], x.shape[1], workers, out.ctypes.data_as(_lp))
        return out

    def score(self, x, workers):
        out = np.empty(x.shape[0], dtype=np.float64)
        _call(_score, self.h, _dptr(x), x.shape[0], x.shape[1], workers, _dptr(out))
        return out

    def outlier(self, x, workers):
        """The outlier scores and membership strengths of the rows x."""
        scores = np.empty(x.shape[0], dtype=np.float64)
        strength = np.empty(x.shape[0], dtype=np.float64)
        _call(_outlier, self.h, _dptr(x), x.shape[0], x.shape[1], workers, _dptr(scores), _dptr(strength))
        return scores, strength

    def train_outliers(self, n):
        """The outlier scores and membership strengths of the n training
        rows of a fit."""
        scores = np.empty(n, dtype=np.float64)
        strength = np.empty(n, dtype=np.float64)
        _call(_train_outliers, self.h, n, _dptr(scores), _dptr(strength))
        return scores, strength

    def model_file(self):
        return _bytes_out(_model_file, self.h)

    def info(self):
        return json.loads(_bytes_out(_info, self.h))

    def support_vectors(self, nsv, d):
        sv = np.empty((nsv, d), dtype=np.float64)
        alpha = np.empty(nsv, dtype=np.float64)
        _call(_support, self.h, _dptr(sv), _dptr(alpha), nsv, d)
        return sv, alpha


def load(data):
    """Reads the bytes of a model file."""
    return Handle(_call(_load_model, data, len(data)))


def run_fit(x, owned, params):
    """Fits the rows x (float64, C-contiguous) with the parameters params (a
    dict, sent as JSON) and returns the Handle and the labels (see _run)."""
    return _run(lambda *a: _fit(*a), x, owned, params)


def run_update(handle, x, owned, params):
    """Updates the model of handle with the rows x (float64, C-contiguous)
    and the parameters params (a dict, sent as JSON), as `svclust update`
    does, and returns the Handle of the updated model and the batch's
    labels (see _run)."""
    return _run(lambda *a: _update(handle.h, *a), x, owned, params)


def _run(call, x, owned, params):
    """Runs call (a fit or an update) on the rows x and returns the Handle
    and the labels.

    The call runs in a thread of its own with the asynchronous signals
    blocked. The main thread waits for it in short joins, so that Ctrl-C
    raises KeyboardInterrupt there: the fit is then cancelled through its
    context (training stops at its next check) and the interrupt re-raised.
    ctypes releases the GIL during the call, so other threads run on.
    """
    n, d = x.shape
    js = json.dumps(params, allow_nan=True).encode()
    labels = np.empty(n, dtype=np.int64)
    canc = _canceller()
    result = {}

    def work():
        e = _Error()
        with blocked():
            h = call(_dptr(x), n, d, int(owned), js, len(js), canc, labels.ctypes.data_as(_lp), *e.args())
        result["handle"], result["error"] = h, e

    t = threading.Thread(target=work, name="svclust-fit", daemon=True)
    try:
        t.start()
        if threading.current_thread() is threading.main_thread():
            while t.is_alive():
                t.join(0.05)
        else:
            t.join()
    except KeyboardInterrupt:
        _cancel(canc)
        t.join()
        if result.get("handle"):
            _release(result["handle"])
        raise
    finally:
        _release(canc)
    if not result["handle"]:
        result["error"].raise_()
    return Handle(result["handle"]), labels

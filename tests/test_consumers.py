"""Array API consumers on usm_ndarrays, each result compared with the NumPy run:
scikit-learn (``array_api_dispatch=True``), SciPy (``SCIPY_ARRAY_API=1``),
array-api-extra and array-api-compat (the ``consumers`` extra).

Calls that fail through another library's fault are xfail(strict=True) with
the reason; docs/ecosystem.md lists them with the upstream change.
"""

import os

os.environ["SCIPY_ARRAY_API"] = "1"   # read once, when SciPy is first imported

import array_api_compat as xpc
import array_api_extra as xpx
import numpy as np
import pytest
import scipy.fft
import scipy.signal
import scipy.special
import scipy.stats
import sklearn
from scipy._lib import _array_api as scipy_xp
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import Ridge
from sklearn.metrics import r2_score
from sklearn.metrics.pairwise import euclidean_distances, rbf_kernel
from sklearn.preprocessing import LabelEncoder, MinMaxScaler, StandardScaler

import usmarray as ua
from conftest import device_supports

if not scipy_xp.SCIPY_ARRAY_API:
    raise RuntimeError("SciPy was imported before tests/test_consumers.py set SCIPY_ARRAY_API=1: "
                       "export SCIPY_ARRAY_API=1 before running the tests")

pytestmark = pytest.mark.consumers

F = np.float64 if device_supports(np.float64) else np.float32
RTOL = 1e-9 if F is np.float64 else 2e-4
rng = np.random.default_rng(0)
X = rng.standard_normal((40, 5)).astype(F)
Y_CLASS = np.where(X[:, 0] + 0.3 * rng.standard_normal(40) > 0, 2, 7).astype(np.int64)
Y_REG = (X @ np.arange(1, 6, dtype=F) + 0.1 * rng.standard_normal(40)).astype(F)
P = rng.uniform(0.1, 3.0, (6, 5)).astype(F)


def _same(got, expected, rtol=RTOL, atol=None):
    """`got` (from usm_ndarrays) equals the NumPy run's `expected`; array
    results stay usm_ndarrays on the device."""
    if isinstance(expected, np.ndarray) and expected.ndim:
        assert isinstance(got, ua.usm_ndarray), type(got)
        assert got.shape == expected.shape
    if isinstance(got, ua.usm_ndarray):
        got = ua.asnumpy(got)
    np.testing.assert_allclose(got, expected, rtol=rtol,
                               atol=100 * rtol if atol is None else atol)


# ------------------------------------------------------------------ scikit-learn
def _pca(solver):
    def run(x, y, yr):
        kw = {"power_iteration_normalizer": "QR"} if solver == "randomized" else {}
        pca = PCA(n_components=2, svd_solver=solver, random_state=0, **kw)
        z = pca.fit_transform(x)
        return z, pca.components_, pca.explained_variance_
    return run


SKLEARN = {
    "PCA-full": _pca("full"),
    "PCA-covariance_eigh": _pca("covariance_eigh"),
    "PCA-randomized": _pca("randomized"),
    "PCA-auto": _pca("auto"),
    "PCA-arpack": _pca("arpack"),
    "LinearDiscriminantAnalysis": lambda x, y, yr: (
        lambda m: (m.predict(x), m.predict_proba(x), _canonical_signs(m.transform(x))))(
            LinearDiscriminantAnalysis().fit(x, y)),
    "Ridge-svd": lambda x, y, yr: (lambda m: (m.predict(x), m.coef_))(
        Ridge(alpha=0.5, solver="svd").fit(x, yr)),
    "StandardScaler": lambda x, y, yr: (lambda m: (m.transform(x), m.mean_, m.scale_))(
        StandardScaler().fit(x)),
    "MinMaxScaler": lambda x, y, yr: MinMaxScaler((-1, 2)).fit_transform(x),
    "LabelEncoder": lambda x, y, yr: (lambda m: (m.transform(y), m.classes_))(
        LabelEncoder().fit(y)),
    "r2_score": lambda x, y, yr: r2_score(yr, yr * 0.9 + 0.05),
    "euclidean_distances": lambda x, y, yr: euclidean_distances(x, x[:7]),
    "rbf_kernel": lambda x, y, yr: rbf_kernel(x[:9], x, gamma=0.3),
}
def _canonical_signs(t):
    """t with each column's sign chosen so its largest-magnitude entry is
    positive: the signs of singular vectors are arbitrary (LAPACK's gesdd, the
    CPU device's svd, and oneMKL's SYCL gesvd, the generic path, differ)."""
    xp = ua if isinstance(t, ua.usm_ndarray) else np
    i = xp.argmax(xp.abs(t), axis=0)
    return t * xp.sign(xp.take_along_axis(t, xp.reshape(i, (1, -1)), axis=0))


SKLEARN_XFAIL = {
    "PCA-arpack": pytest.mark.xfail(
        strict=True, raises=ValueError,
        reason="scikit-learn: svd_solver='arpack' (scipy.sparse.linalg.svds) is NumPy-only by "
               "design ('PCA with svd_solver='arpack' is not supported for Array API inputs')"),
}


@pytest.mark.parametrize("run", [pytest.param(f, id=k, marks=SKLEARN_XFAIL.get(k, ()))
                                 for k, f in SKLEARN.items()])
def test_sklearn(run):
    expected = run(X, Y_CLASS, Y_REG)
    with sklearn.config_context(array_api_dispatch=True):
        got = run(ua.asarray(X), ua.asarray(Y_CLASS), ua.asarray(Y_REG))
    if not isinstance(expected, tuple):
        got, expected = (got,), (expected,)
    for g, e in zip(got, expected):
        _same(g, e)


# ------------------------------------------------------------------ SciPy
# SciPy's is_marray(xp) is `"marray" in xp.__name__`, and "usmarray" contains
# "marray": SciPy then takes usmarray for MArray (docs/ecosystem.md).
MARRAY_XFAIL = pytest.mark.xfail(
    strict=True, raises=(AttributeError, RecursionError),
    reason="SciPy 1.17's is_marray(xp) is `'marray' in xp.__name__`, true for 'usmarray': "
           "SciPy calls MArray-only functions (xp.count, x.mask) or recurses (docs/ecosystem.md)")


def _scipy_calls():
    """(id, function of the arrays, NumPy inputs, whether is_marray breaks it)."""
    a, b = P, P[::-1] * 0.5
    return [
        ("special.logsumexp", lambda x: scipy.special.logsumexp(x, axis=1), (X[:6],), False),
        ("special.logsumexp-b", lambda x, w: scipy.special.logsumexp(x, b=w, axis=0), (a, b), False),
        ("fft.fft", lambda x: scipy.fft.fft(x, axis=0), (X[:8],), False),
        ("fft.rfft-ifft", lambda x: scipy.fft.ifft(scipy.fft.rfft(x)), (X[:8],), False),
        ("special.softmax", lambda x: scipy.special.softmax(x, axis=1), (a,), False),
        ("special.xlogy", scipy.special.xlogy, (a, b), False),
        ("stats.zscore", lambda x: scipy.stats.zscore(x, axis=0), (X[:10],), True),
        ("special.erf", scipy.special.erf, (X[:6] / 2,), True),
        ("special.expit", scipy.special.expit, (X[:6],), True),
        ("special.gammaln", scipy.special.gammaln, (a,), True),
        ("special.ndtr", scipy.special.ndtr, (X[:6],), True),
        ("stats.describe-variance", lambda x: scipy.stats.describe(x, axis=0).variance, (a,), True),
        ("stats.skew", lambda x: scipy.stats.skew(x, axis=0), (a,), True),
        ("stats.ttest_ind", lambda x, y: scipy.stats.ttest_ind(x, y, axis=0).statistic, (a, b),
         True),
    ]


@pytest.mark.parametrize("name,fn,args", [
    pytest.param(n, f, a, id=n, marks=[MARRAY_XFAIL] if broken else [])
    for n, f, a, broken in _scipy_calls()])
def test_scipy(name, fn, args):
    expected = fn(*args)
    _same(fn(*(ua.asarray(h) for h in args)), expected)


def test_scipy_signal_welch_refuses_its_own_window_by_default():
    """SciPy 1.17's csd() converts x with np.asarray but keeps y, the caller's
    array, when y is x (welch calls csd(x, x)); ShortTimeFFT then multiplies
    the usm_ndarray segments by its NumPy window. Without the opt-in that is
    the no-implicit-transfer TypeError, and its message names the opt-in."""
    h = X.reshape(-1)[:160]
    with pytest.raises(TypeError, match=r"numpy.multiply: operand of type numpy.ndarray.*"
                                        r"ua.allow_host_operands\(\)"):
        scipy.signal.welch(ua.asarray(h), nperseg=32)


@pytest.mark.parametrize("kw", [dict(nperseg=32), dict(nperseg=40, noverlap=10, detrend="linear"),
                                dict(nperseg=32, average="median", scaling="spectrum")],
                         ids=["default", "linear-detrend", "median-spectrum"])
def test_scipy_signal_welch(kw):
    h = X.reshape(-1)[:160]
    f0, p0 = scipy.signal.welch(h, **kw)
    with ua.allow_host_operands():
        f, p = scipy.signal.welch(ua.asarray(h), **kw)
    for got, expected in ((f, f0), (p, p0)):
        got = ua.asnumpy(got) if isinstance(got, ua.usm_ndarray) else np.asarray(got)
        np.testing.assert_allclose(got, expected, rtol=RTOL, atol=100 * RTOL)


def test_scipy_signal_welch_of_the_host_copy():
    """The route that works today: welch of the host copy (x.get())."""
    h = X.reshape(-1)[:160]
    f, p = scipy.signal.welch(ua.asarray(h).get(), nperseg=32)
    np.testing.assert_allclose(p, scipy.signal.welch(h, nperseg=32)[1], rtol=RTOL)


def _docs_workaround():
    """The workaround block of docs/ecosystem.md, as users copy it."""
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "ecosystem.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    block = text.split("<!-- workaround:begin -->")[1].split("<!-- workaround:end -->")[0]
    return block.strip().removeprefix("```python").removesuffix("```")


@pytest.fixture
def is_marray_workaround(monkeypatch):
    # restores SciPy's is_marray afterwards; scipy.special caches its dispatch
    # per namespace, so the cache is emptied before and after
    monkeypatch.setattr(scipy_xp.is_marray, "__code__", scipy_xp.is_marray.__code__)
    special_dispatch = scipy.special._support_alternative_backends._FuncInfo._wrapper_for
    special_dispatch.cache_clear()
    exec(_docs_workaround(), {})
    yield
    special_dispatch.cache_clear()


@pytest.mark.parametrize("name,fn,args", [
    pytest.param(n, f, a, id=n) for n, f, a, broken in _scipy_calls() if broken])
def test_scipy_with_the_is_marray_workaround(is_marray_workaround, name, fn, args):
    """docs/ecosystem.md's user-side workaround makes SciPy's is_marray exact."""
    assert not scipy_xp.is_marray(ua)
    assert scipy_xp.is_marray(type(ua)("marray.numpy")) and scipy_xp.is_marray(type(ua)("marray"))
    expected = fn(*args)
    _same(fn(*(ua.asarray(h) for h in args)), expected)


# ------------------------------------------------------------------ array-api-extra
A_INT = np.array([3, 1, 2, 3, 5, 1, 7, 7])
B_INT = np.array([1, 5, 9])


def _at(f):
    # at() on a copy: NumPy and usmarray arrays are writeable, so at() may work in place
    return lambda xp, x: f(xp.asarray(x, copy=True))


XPX = {
    "at-set": (_at(lambda x: xpx.at(x, (0, 1)).set(9.0)), (X[:4],)),
    "at-add-slices": (_at(lambda x: xpx.at(x)[1:, ::2].add(2.0)), (X[:4],)),
    "at-multiply-mask": (_at(lambda x: xpx.at(x, x > 0).multiply(0.5)), (X[:4],)),
    "at-min-mask": (_at(lambda x: xpx.at(x, x < 0).min(-0.5)), (X[:4],)),
    "at-set-int-array": (_at(lambda x: xpx.at(x)[[2, 0], 1:].set(-1.0)), (X[:4],)),
    "cov": (lambda xp, x: xpx.cov(x, xp=xp), (X[:6].T,)),
    "pad": (lambda xp, x: xpx.pad(x, 2, constant_values=1.5, xp=xp), (X[:3],)),
    "pad-per-axis": (lambda xp, x: xpx.pad(x, ((1, 0), (0, 2)), xp=xp), (X[:3],)),
    "kron": (lambda xp, x, y: xpx.kron(x, y, xp=xp), (X[:3, :2], P[:2, :3])),
    "nunique": (lambda xp, x: xpx.nunique(x, xp=xp), (A_INT,)),
    "setdiff1d": (lambda xp, x, y: xpx.setdiff1d(x, y, xp=xp), (A_INT, B_INT)),
    "setdiff1d-unique": (lambda xp, x, y: xpx.setdiff1d(x[:3], y, assume_unique=True, xp=xp),
                         (A_INT, B_INT)),
    "sinc": (lambda xp, x: xpx.sinc(x, xp=xp), (np.concatenate([X[:5, 0], [0.0]]).astype(F),)),
    "isclose": (lambda xp, x, y: xpx.isclose(x, y, xp=xp), (X[:5], X[:5] + 1e-12)),
    "isclose-scalar-atol": (lambda xp, x: xpx.isclose(x, 0.5, atol=0.6, xp=xp), (X[:5],)),
}


@pytest.mark.parametrize("fn,args", [pytest.param(*v, id=k) for k, v in XPX.items()])
def test_array_api_extra(fn, args):
    expected = fn(np, *args)
    got = fn(ua, *(ua.asarray(h) for h in args))
    if np.ndim(expected) == 0:
        expected = np.asarray(expected)[()]
        got = ua.asnumpy(got)[()] if isinstance(got, ua.usm_ndarray) else got
    _same(got, expected)


# ------------------------------------------------------------------ array-api-compat
@pytest.mark.parametrize("shape", [(), (0, 3), (4, 5)])
def test_array_api_compat(shape):
    h = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = ua.asarray(h)
    assert xpc.array_namespace(x) is ua
    assert xpc.array_namespace(x, ua.asarray([1]), 2.0) is ua
    assert xpc.array_namespace(x, api_version="2024.12") is ua
    assert xpc.is_array_api_obj(x) and not xpc.is_numpy_array(x)
    assert xpc.device(x) == x.device
    assert xpc.size(x) == h.size
    y = xpc.to_device(x, x.device)
    assert isinstance(y, ua.usm_ndarray) and y.device == x.device
    np.testing.assert_array_equal(ua.asnumpy(y), h)
    assert xpc.is_writeable_array(x) and not xpc.is_lazy_array(x)
    with pytest.raises(TypeError):
        xpc.array_namespace(x, h)    # mixing namespaces: array-api-compat's rule

"""Reductions: sum, prod, max, min, all, any; mean, var, std over sum;
cumulative_sum, cumulative_prod and cumulative_logsumexp (scans).

The reductions run on the core's skeleton (``_core/_reduce.py``); the
scans here, one kernel family of kernels/sycl/scan.cpp.
"""

import numpy as np

from . import elementwise as ew
from ._core import _dtypes, _engine, _kernels
from ._core._array import empty_array, usm_ndarray, view
from ._core._copy import astype
from ._core._exceptions import AxisError
from ._core._layout import merged_stride
from ._core._views import reshape
from ._core._reduce import normalize_axes, reduce, sum_types
from ._core._kernels import compiled_together

__all__ = ["sum", "prod", "max", "min", "all", "any", "mean", "var", "std", "cumulative_sum",
           "cumulative_prod", "cumulative_logsumexp", "AxisError"]

_TN = _dtypes.TYPE_NAMES
_DT = dict(zip(_TN, _dtypes.DTYPES))


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    """Sum of elements over `axis` (default: all). Integers accumulate in
    int64/uint64, bool in int64, float16 in float32."""
    return reduce("sum", x, axis, keepdims, dtype)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """Product of elements over `axis` (default: all); types as for sum."""
    return reduce("prod", x, axis, keepdims, dtype)


def max(x, /, *, axis=None, keepdims=False):
    """Maximum over `axis` (NaN propagates; ValueError for an empty selection)."""
    return reduce("max", x, axis, keepdims)


def min(x, /, *, axis=None, keepdims=False):
    """Minimum over `axis` (NaN propagates; ValueError for an empty selection)."""
    return reduce("min", x, axis, keepdims)


def all(x, /, *, axis=None, keepdims=False):
    """Whether all elements over `axis` are true (non-zero)."""
    return reduce("all", x, axis, keepdims)


def any(x, /, *, axis=None, keepdims=False):
    """Whether any element over `axis` is true (non-zero)."""
    return reduce("any", x, axis, keepdims)


def _count(x, axis):
    n = 1
    for i in normalize_axes(axis, x.ndim):
        n *= x._shape[i]
    return n


def _as_float(name, x, kinds):
    """x itself if its kind is in `kinds`, integers and bool in the default
    float type (as NumPy and dpctl.tensor do), else TypeError."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")
    if x._dtype.kind in kinds:
        return x
    if x._dtype.kind in "biu":
        return astype(x, _dtypes.float64 if x._q.fp64 else _dtypes.float32)
    raise TypeError(f"{name} is not defined for dtype {x._dtype.name}")


def one_of(name, value, alias):
    """`value`, or its other name's `alias` when given (not both: NumPy's
    ValueError, as for var's ddof and correction)."""
    if alias is None:
        return value
    if value != 0:
        raise ValueError(f"{name}: ddof and correction can't be provided simultaneously")
    return alias


def _wide(x):
    return _dtypes.float32 if x._dtype is _dtypes.float16 else None


def _widened(x):
    return astype(x, _dtypes.float32) if x._dtype is _dtypes.float16 else x


def _narrow(r, x):
    return astype(r, x._dtype) if r._dtype is not x._dtype else r


@compiled_together
def mean(x, /, *, axis=None, keepdims=False, dtype=None):
    """Arithmetic mean over `axis` (default: all); NaN for an empty selection.

    Floating-point and complex inputs keep their dtype; integer and bool
    inputs are averaged in the default floating-point type. NumPy's and
    CuPy's ``dtype=`` casts the input first and the mean to it.
    """
    if dtype is not None and isinstance(x, usm_ndarray):
        dt = _dtypes.to_dtype(dtype)
        _dtypes.check_device_support(dt, x._q)
        if not np.can_cast(x.dtype, dt, "same_kind"):   # (NumPy's: 1.5 is no int64 mean)
            raise TypeError(f"mean: cannot cast {x.dtype} to {dt} under the rule same_kind")
        return astype(mean(astype(x, dt, copy=False), axis=axis, keepdims=keepdims), dt,
                      copy=False)
    x = _as_float("mean", x, "fc")
    n = _count(x, axis)
    # float16 sums in float32 to the end: a sum may overflow where the mean does not
    s = sum(x, axis=axis, keepdims=keepdims, dtype=_wide(x))
    # 0 / 0 is NaN: the mean of nothing, as the standard asks
    m = ew.divide(s, float(n)) if n else ew.multiply(s, float("nan"))
    return _narrow(m, x)


@compiled_together
def var(x, /, *, axis=None, correction=0.0, keepdims=False, ddof=None):
    """Variance over `axis`: sum((x - mean(x))**2) / (N - correction).

    Computed in two passes (mean, then squared deviations), which keeps the
    precision of NumPy's var. NaN where N - correction <= 0. Complex input
    gives the real variance of its absolute deviations, as NumPy's. NumPy's
    and CuPy's ``ddof=`` is another name of `correction`.
    """
    correction = one_of("var", correction, ddof)
    x = _as_float("var", x, "fc")
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        raise TypeError(f"correction must be a real number, got {type(correction).__name__}")
    n = _count(x, axis)
    xw = _widened(x)
    d = ew.subtract(xw, mean(xw, axis=axis, keepdims=True)) if n else xw
    if d.dtype.kind == "c":
        # |d|**2 as NumPy sums it: re**2 + im**2
        re, im = ew.real(d), ew.imag(d)
        sq = ew.add(ew.multiply(re, re), ew.multiply(im, im))
    else:
        sq = ew.multiply(d, d)
    s = sum(sq, axis=axis, keepdims=keepdims)
    dof = n - correction
    v = ew.divide(s, float(dof)) if dof > 0 else ew.multiply(s, float("nan"))
    return v if x.dtype.kind == "c" else _narrow(v, x)


@compiled_together
def std(x, /, *, axis=None, correction=0.0, keepdims=False, ddof=None):
    """Standard deviation over `axis`: sqrt(var(x, axis, correction))
    (``ddof=`` as for var)."""
    correction = one_of("std", correction, ddof)
    x = _as_float("std", x, "fc")
    xw = _widened(x)
    r = ew.sqrt(var(xw, axis=axis, correction=correction, keepdims=keepdims))
    return r if x.dtype.kind == "c" else _narrow(r, x)


# ------------------------------------------------------------------ scans
_SCAN_OPS = ("usmk::scan_sum", "usmk::scan_prod", "usmk::red_logaddexp")
# operations scanning real floating types only, without vector-block kernels
_SCAN_FLOAT_ONLY = ("usmk::red_logaddexp",)
# the element include_initial puts first
_SCAN_INITIAL = {"usmk::scan_sum": 0, "usmk::scan_prod": 1, "usmk::red_logaddexp": -float("inf")}


def _scan_types(qi):
    # float16 scans run in float32 (see sum_types); bool inputs in int64
    return [t for t in _kernels.device_types(qi) if t not in ("b1", "f2")]


# input types a scan kernel converts on the fly (the common default
# accumulators of sum); other conversions are a copy first
_SCAN_WIDEN = {"i8": ("b1", "i4"), "u8": ("u4",), "f4": ("f2",)}
# accumulators with vector-block variants (CPU devices)
_SCAN_VEC = ("i4", "u4", "i8", "u8", "f4", "f8")
# bundles per operation: by kind of accumulator (a bundle of every type
# compiles for tens of seconds)
_SCAN_GROUPS = {"float": ("f4", "f8"), "int64": ("i8", "u8"),
                "int": ("i1", "u1", "i2", "u2", "i4", "u4"), "complex": ("c8", "c16")}
_SCAN_GROUP_OF = {t: g for g, ts in _SCAN_GROUPS.items() for t in ts}


def _scan_names(key, qi):
    op, group = key.split("|")
    simd = _kernels.simd_kernels(qi)
    dev = _kernels.device_types(qi)
    names = []
    for t in _SCAN_GROUPS[group]:
        if t not in dev:
            continue
        for s in (t,) + tuple(w for w in _SCAN_WIDEN.get(t, ()) if w in dev):
            targs = f"{op}, {s}, {t}"
            names += [f"scan_totals<{targs}>", f"scan_apply<{targs}>", f"scan_cols<{targs}>"]
            if simd and t in _SCAN_VEC and s != "f2" and op not in _SCAN_FLOAT_ONLY:
                names += [f"scan_totals_vec<{targs}>", f"scan_apply_vec<{targs}>",
                          f"scan_cols_vec<{targs}>"]
    return names


def _scan_keys(qi):
    dev = _kernels.device_types(qi)
    # (this module's `any` is the array reduction)
    return [f"{op}|{g}" for op in _SCAN_OPS for g, ts in _SCAN_GROUPS.items()
            if set(ts) & set(dev) and (g == "float" or op not in _SCAN_FLOAT_ONLY)]


_kernels.register_family(_kernels.Family(
    ("scan_totals", "scan_apply", "scan_cols", "scan_totals_vec", "scan_apply_vec",
     "scan_cols_vec"), "scan.cpp", lambda a: f"{a[0]}|{_SCAN_GROUP_OF[a[2]]}", _scan_names,
    _scan_keys, cost=4))


def _bnc_view(x, a0):
    """x as (B, n, C): the dimensions before and after axis a0 merged, or None."""
    sb = merged_stride(x._shape[:a0], x._strides[:a0])
    sc = merged_stride(x._shape[a0 + 1:], x._strides[a0 + 1:])
    if sb is None or sc is None:
        return None
    B = C = 1
    for d in x._shape[:a0]:
        B *= d
    for d in x._shape[a0 + 1:]:
        C *= d
    return view(x, x._off, (B, x._shape[a0], C), (sb, x._strides[a0], sc))


def _cumulative(name, struct, x, axis, dtype, include_initial):
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")
    if x._dtype.kind not in "biufc":
        raise TypeError(f"{name} is not defined for dtype {x._dtype.name}")
    nd = x.ndim
    if nd == 0 and axis in (None, 0, -1):
        # dpctl.tensor's scan of a 0-d array: its item (0-d), or with
        # include_initial the initial value and the item (1-d)
        r = _cumulative(name, struct, reshape(x, (1,)), 0, dtype, include_initial)
        return r if include_initial else reshape(r, ())
    if axis is None:
        if nd != 1:
            raise ValueError(f"{name}: axis is required for arrays of {nd} dimensions")
        axis = 0
    if nd == 0:
        raise ValueError(f"{name} needs an array of at least one dimension")
    a0 = normalize_axes(axis, nd)[0] if not isinstance(axis, tuple) else None
    if a0 is None:
        raise TypeError(f"{name}: axis must be an int")
    qi = x._q
    if dtype is not None:
        dtype = _dtypes.to_dtype(dtype)
        _dtypes.check_device_support(dtype, qi)
        if dtype is _dtypes.bool and x._dtype is not _dtypes.bool:
            # NumPy's bool accumulation: the truth values first, then a
            # logical or (sum) or and (prod); 0.2 is True, 2 + -2 is no False
            x = astype(x, _dtypes.bool)
        elif dtype is _dtypes.float16 and x._dtype is not _dtypes.float16:
            x = astype(x, _dtypes.float16)   # (cast first, as _core._reduce.reduce says why)
    acc, res = sum_types(_TN[x._tc], dtype, qi)
    if acc in ("b1", "f2"):
        acc = "i8" if acc == "b1" else "f4"
    if not qi.fp64 and acc in ("f8", "c16"):
        acc = "f4" if acc == "f8" else "c8"
    src = _TN[x._tc]
    if src != acc and src not in _SCAN_WIDEN.get(acc, ()):
        x = astype(x, _DT[acc])
    shape = x._shape
    n = shape[a0]
    inc = 1 if include_initial else 0
    # the result in C order, whatever the input's layout
    buf = empty_array(shape[:a0] + (n + inc,) + shape[a0 + 1:], _DT[acc], qi, x._alloc.kind)
    if x.size:
        xv = _bnc_view(x, a0)
        if xv is None:
            xv = _bnc_view(astype(x, x._dtype, order="C"), a0)
        B, _, C = xv._shape
        yv = view(buf, buf._off + inc * C, (B, n, C), ((n + inc) * C, C, 1))
        _engine.scan(qi.ref, qi.kc, struct, xv, yv)
    if inc and buf.size:
        buf[(slice(None),) * a0 + (slice(0, 1),)] = _SCAN_INITIAL[struct]
    return astype(buf, _DT[res]) if acc != res else buf


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative sum along `axis` (optional for 1-D `x`); dtypes as for sum.
    With `include_initial`, the result starts with the sum of nothing (0)."""
    return _cumulative("cumulative_sum", "usmk::scan_sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative product along `axis`; as cumulative_sum, starting from 1."""
    return _cumulative("cumulative_prod", "usmk::scan_prod", x, axis, dtype, include_initial)


def cumulative_logsumexp(x, /, *, axis=None, dtype=None, include_initial=False):
    """log(cumsum(exp(x))) along `axis`, each step a logaddexp (no overflow).

    dpctl.tensor's function. Real floating results: x's dtype, or the
    device's default floating dtype for integer and bool input (``dtype=``
    picks another real floating dtype); complex input is a TypeError.
    ``include_initial`` puts -inf (the empty sum's log) first.
    """

    if not isinstance(x, usm_ndarray):
        raise TypeError(f"cumulative_logsumexp: expected a usm_ndarray, got {type(x).__name__}")
    if x._dtype.kind == "c":
        raise TypeError("cumulative_logsumexp is not defined for complex inputs")
    qi = x._q
    if dtype is None:
        dt = x._dtype if x._dtype.kind == "f" else qi.float
    else:
        dt = _dtypes.to_dtype(dtype)
        if dt.kind != "f":
            raise ValueError(f"cumulative_logsumexp: dtype must be a real floating type, "
                             f"got {dt.name}")
    if x._dtype.kind != "f":
        x = astype(x, dt)
    return _cumulative("cumulative_logsumexp", "usmk::red_logaddexp", x, axis, dt,
                       include_initial)

"""logsumexp and reduce_hypot (dpctl.tensor's reductions beyond the array
API), computed without overflow through the maximum of each reduced group."""

from . import elementwise as ew
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import astype
from ._core._exceptions import DTypeError
from ._core._kernels import compiled_together
from .creation import full
from .manipulation import squeeze
from .reduction import any as rany, max as rmax, normalize_axes, sum as rsum
from .searching import where

__all__ = ["logsumexp", "reduce_hypot"]


def _float_input(name, x, dtype):
    """(x in the real floating type computed in, that type, the result's
    dtype): `dtype` when it is real floating, else (dpctl.tensor's other
    dtypes) the input's or default floating type, the result cast to it."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")
    qi = x._q
    if x.dtype.kind == "c":
        raise DTypeError(f"{name} is not defined for complex inputs")
    dt = x.dtype if x.dtype.kind == "f" else qi.float
    out = dt
    if dtype is not None:
        out = _dtypes.to_dtype(dtype)
        _dtypes.check_device_support(out, qi)
        if out.kind == "f":
            dt = out
    if dt == _dtypes.float16:
        # (computed in float32, the result rounded once: the scaled sum of
        # 70000 zeros' exps, 70000, is past float16 where its log is not)
        dt = _dtypes.float32
    return astype(x, dt, copy=False), dt, out


def _reduced_shape(x, axes, keepdims):
    return tuple(1 if i in axes else n for i, n in enumerate(x.shape)
                 if keepdims or i not in axes)


def _finish(r, axes, keepdims):
    return r if keepdims else squeeze(r, axis=axes) if axes else r


@compiled_together
def logsumexp(x, /, *, axis=None, dtype=None, keepdims=False):
    """log(sum(exp(x))) over `axis` without overflow.

    Real floating results: the input's dtype, or the device's default
    floating dtype for integer and bool input; complex input is a TypeError.
    An empty reduction gives -inf.
    """
    x, dt, out = _float_input("logsumexp", x, dtype)
    axes = normalize_axes(axis, x.ndim)
    if any(x.shape[a] == 0 for a in axes) or x.size == 0:
        r = full(_reduced_shape(x, axes, keepdims), -float("inf"), dtype=dt,
                 sycl_queue=x.sycl_queue, usm_type=x.usm_type)
        return astype(r, out, copy=False)
    m = rmax(x, axis=axes, keepdims=True)
    # a group whose maximum is ±inf (or NaN) needs no shift: exp gives the answer
    shift = where(ew.isfinite(m), m, 0.0)
    s = rsum(ew.exp(ew.subtract(x, shift)), axis=axes, keepdims=True)
    return astype(_finish(ew.add(ew.log(s), shift), axes, keepdims), out, copy=False)


@compiled_together
def reduce_hypot(x, /, *, axis=None, dtype=None, keepdims=False):
    """sqrt(sum(x**2)) over `axis` without overflow or underflow (as chained hypot).

    Real floating results as for logsumexp; an empty reduction gives 0.
    """
    x, dt, out = _float_input("reduce_hypot", x, dtype)
    axes = normalize_axes(axis, x.ndim)
    if any(x.shape[a] == 0 for a in axes) or x.size == 0:
        return full(_reduced_shape(x, axes, keepdims), 0.0, dtype=out, sycl_queue=x.sycl_queue,
                    usm_type=x.usm_type)
    a = ew.abs(x)
    m = rmax(a, axis=axes, keepdims=True)
    scale = where(ew.logical_and(ew.isfinite(m), ew.greater(m, 0)), m, 1.0)
    r = ew.multiply(ew.sqrt(rsum(ew.square(ew.divide(a, scale)), axis=axes, keepdims=True)), scale)
    # an infinite element makes the result inf even beside NaNs (as hypot)
    r = where(rany(ew.isinf(a), axis=axes, keepdims=True), float("inf"), r)
    return astype(_finish(r, axes, keepdims), out, copy=False)


"""Searching functions: where, argmax, argmin, count_nonzero, nonzero,
searchsorted; NumPy's argwhere and flatnonzero."""

from fractions import Fraction

import numpy as np

from . import elementwise as ew
from ._core import _dtypes, _engine, _kernels
from ._core._array import empty_array, empty_c, usm_ndarray, view
from ._core._copy import astype, broadcast_view, cast
from ._core._device import coerce_usm_type, common_queue
from ._core._indexing import take
from ._core._layout import C_CONTIG, KIND_CODE, broadcast_shapes
from ._core._masks import true_positions
from ._core._reduce import normalize_axes, reduce
from ._core._scalars import (as_scalar, int_range, scalar_array, scalars_dtype,
                             weak_scalar_dtype)
from ._core._trace import traced
from ._core._views import check_array, reshape
from .creation import asarray
from .elementwise import _deliver, _destination
from .manipulation import stack

__all__ = ["where", "argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "argwhere",
           "flatnonzero"]


def _where_family():
    mv = _kernels.MOVE_TYPES
    def names(t, qi):
        vec = _kernels.simd_kernels(qi) and t != "x16"
        return ([f"where_contig<{t}>"] +
                [f"where_strided<{t}, {nd}>" for nd in _kernels.STRIDED_VARIANTS] +
                ([f"where_vec<{t}, {inner}>" for inner in range(4)] if vec else []))

    return _kernels.Family(("where_contig", "where_strided", "where_vec"), "where.cpp",
                           lambda a: a[0], names, lambda qi: mv, cost=1.2)


_kernels.register_family(_where_family())


# one bundle per type: both sides
_kernels.register_family(_kernels.Family(
    ("search_sorted",), "where.cpp", lambda a: a[0],
    lambda t, qi: [f"search_sorted<{t}, 0>", f"search_sorted<{t}, 1>"],
    _kernels.device_types, cost=4))


# (where's one-argument form: neither x1 nor x2 given)
_ONLY_CONDITION = object()


def where(condition, x1=_ONLY_CONDITION, x2=_ONLY_CONDITION, /, *, out=None, order="K"):
    """Elements of `x1` where `condition` is true, else of `x2` (broadcast).

    `x1` and `x2` may be Python scalars (not both); the result dtype is
    their promoted dtype. ``out`` and ``order`` as for elementwise functions.
    ``where(condition)`` alone is ``nonzero(condition)``, as in NumPy.
    """
    if x1 is _ONLY_CONDITION or x2 is _ONLY_CONDITION:
        if x1 is not x2:
            raise ValueError("where: give both x1 and x2, or neither")
        if out is not None:
            raise TypeError("where(condition) takes no out")
        return nonzero(condition)
    if out is None and type(condition) is usm_ndarray and type(x1) is usm_ndarray \
            and type(x2) is usm_ndarray:
        # the common case (a bool condition, arrays of one dtype, shape, USM
        # kind and queue, C-contiguous) in few calls: half of where's time
        # on small arrays
        qi, shape = condition._q, condition._shape
        if (x1._q is qi and x2._q is qi and x1._shape == shape and x2._shape == shape
                and x1._dtype is x2._dtype and condition._dtype is _dtypes.bool
                and condition._flags & x1._flags & x2._flags & C_CONTIG
                and (order == "K" or order == "C")):
            k = condition._alloc.kind
            if x1._alloc.kind == k and x2._alloc.kind == k:
                res = empty_c(shape, x1._dtype, qi, KIND_CODE[k])
                _engine.where(qi.ref, qi.kc, condition, x1, x2, res)
                return res
    if not isinstance(condition, usm_ndarray) or not (
            (isinstance(x1, usm_ndarray) or as_scalar(x1) is not None)
            and (isinstance(x2, usm_ndarray) or as_scalar(x2) is not None)):
        t = traced(condition, x1, x2)
        if t is not None and out is None:
            return t.__usm_trace__("where", (condition, x1, x2), {})
        if not isinstance(condition, usm_ndarray):
            raise TypeError(f"where: condition must be a usm_ndarray, got "
                            f"{type(condition).__name__}")
        bad = x1 if not isinstance(x1, usm_ndarray) and as_scalar(x1) is None else x2
        raise TypeError(f"where: x1 and x2 must be usm_ndarrays or Python scalars, got "
                        f"{type(bad).__name__}")
    arrays = [a for a in (x1, x2) if isinstance(a, usm_ndarray)]
    qi = common_queue(condition, *arrays)
    if not arrays:
        dt = scalars_dtype((x1, x2), qi)   # (two scalars, as NumPy takes them)
    elif len(arrays) == 2:
        dt = _dtypes.promote(x1._dtype, x2._dtype)
    else:
        a = arrays[0]
        s = as_scalar(x2 if a is x1 else x1)
        dt = _dtypes.promote(a._dtype, weak_scalar_dtype(s, a._dtype, qi))
    shape = broadcast_shapes(condition._shape, *(a._shape for a in arrays))
    kind = coerce_usm_type([condition._alloc.kind] + [a._alloc.kind for a in arrays])
    ops = []
    for v in (x1, x2):
        if isinstance(v, usm_ndarray):
            v = v if v._dtype is dt else cast(v, dt)
            ops.append(broadcast_view(v, shape))
        else:
            ops.append(scalar_array(as_scalar(v), dt, qi, kind, shape))
    c = condition if condition._dtype is _dtypes.bool else cast(condition, _dtypes.bool)
    dest, res = _destination("where", out, shape, dt, qi, kind, order, [condition] + arrays)
    _engine.where(qi.ref, qi.kc, broadcast_view(c, shape), ops[0], ops[1], dest)
    return _deliver(dest, res)


def _arg_extreme(name, x, axis, keepdims):
    """Index of the first maximum/minimum along `axis`: one reduction of
    (value, index) states (a NaN counts as the extreme, so the first NaN
    wins, as in NumPy; complex values compare by real part, then
    imaginary part)."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")
    nd = x.ndim
    if axis is None:
        # indices into the flattened array: a 1-D view (C order) or copy
        if nd == 1:
            xs = x
        elif x._flags & C_CONTIG:
            xs = view(x, x._off, (x.size,), (1,))
        else:
            xs = reshape(x, (-1,))
        ax = 0
    else:
        xs, ax = x, normalize_axes(axis, nd)
        if len(ax) != 1:
            raise TypeError(f"{name}: axis must be an int or None")
        ax = ax[0]
    if xs._shape[ax] == 0:
        raise ValueError(f"{name} of an empty sequence")
    r = reduce(name, xs, ax, keepdims)
    if axis is None and keepdims:
        r = reshape(r, (1,) * nd)
    return r


def argmax(x, /, *, axis=None, keepdims=False):
    """Index of the (first) largest element along `axis` (None: of the
    flattened array), as int64. ValueError for an empty axis."""
    return _arg_extreme("argmax", x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    """Index of the (first) smallest element along `axis` (None: flattened)."""
    return _arg_extreme("argmin", x, axis, keepdims)


def count_nonzero(x, /, *, axis=None, keepdims=False):
    """Number of non-zero elements along `axis` (default: all), as int64."""
    return reduce("count", x, axis, keepdims)


def nonzero(x, /):
    """Indices of the non-zero elements of `x`: a tuple of int64 arrays, one
    per dimension, in C order."""
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"nonzero: expected a usm_ndarray, got {type(x).__name__}")
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for zero-dimensional arrays")
    p = true_positions(x if x._dtype is _dtypes.bool else ew.not_equal(x, 0))
    out = []
    stride = 1
    for d in reversed(range(x.ndim)):
        n = x._shape[d]
        c = p if stride == 1 else ew.floor_divide(p, stride)
        out.append(ew.remainder(c, n) if d else c)
        stride *= n
    return tuple(reversed(out))


def _exact_side(s, dt, side):
    """The side that places a Python number `s` as NumPy does, comparing
    it exactly, once it is rounded to the floating `dt`: rounded up, it
    goes before the rounded value's equals ("left"), rounded down after
    them ("right"); NumPy compares in float64, and rounding 2**24 + 1 to
    float32 put it before 2**24 + 2 where NumPy puts it after 2**24."""
    if dt.kind != "f" or type(s) not in (int, float) or s != s:
        return side
    with np.errstate(all="ignore"):
        r = float(dt.type(s))
    if r in (float("inf"), float("-inf")):
        return "left" if r > 0 else "right"
    exact, wanted = Fraction(r), Fraction(s)
    return side if exact == wanted else "left" if exact > wanted else "right"


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Indices where the elements of `x2` would be inserted into the sorted
    1-D `x1` to keep it sorted (side 'left': before equal elements, 'right':
    after them). `sorter` (int indices) sorts an unsorted `x1`. The order
    is `sort`'s (NumPy's: NaNs last; complex values by real part, then
    imaginary part). int64 result of `x2`'s shape (0-d for a scalar)."""
    if not isinstance(x1, usm_ndarray):
        raise TypeError(f"searchsorted: x1 must be a usm_ndarray, got {type(x1).__name__}")
    if x1.ndim != 1:
        raise ValueError("searchsorted: x1 must be one-dimensional")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    qi = x1._q
    if isinstance(x2, usm_ndarray):
        common_queue(x1, x2)
        dt = _dtypes.result_type(x1, x2)
    else:
        s = as_scalar(x2)
        if s is None:
            raise TypeError(f"searchsorted: x2 must be a usm_ndarray or a Python scalar, "
                            f"got {type(x2).__name__}")
        if type(s) is int and x1._dtype.kind in "iu":
            lo, hi = int_range(x1._dtype)
            if not lo <= s <= hi:
                # beyond every value of x1's dtype: before or after all of
                # them, as in NumPy (the scalar does not convert to the dtype)
                return asarray(0 if s < lo else x1.size, dtype=_dtypes.int64,
                               sycl_queue=x1.sycl_queue, usm_type=x1.usm_type)
        dt = weak_scalar_dtype(s, x1._dtype, qi)
        side = _exact_side(s, dt, side)
        x2 = asarray(s, dtype=dt, sycl_queue=x1.sycl_queue, usm_type=x1.usm_type)
    if sorter is not None:
        if not isinstance(sorter, usm_ndarray) or sorter._dtype.kind not in "iu":
            raise TypeError("sorter must be an integer usm_ndarray")
        if sorter._shape != x1._shape:
            raise ValueError("sorter must have the shape of x1")
        if sorter._dtype.kind == "i" and x1.size:
            # negative positions are out of range, as in NumPy (take counts
            # them from the end): moved past the end, where take refuses them
            sorter = where(ew.less(sorter, 0), x1.size, astype(sorter, _dtypes.int64, copy=False))
        try:
            x1 = take(x1, sorter)
        except IndexError:   # (NumPy's ValueError)
            raise ValueError("sorter index out of range") from None
    # the kernel takes contiguous operands of the common dtype (astype with
    # copy=False keeps a view of that dtype as it is)
    s1, v = astype(x1, dt, copy=False), astype(x2, dt, copy=False)
    if not s1.flags.c_contiguous:
        s1 = astype(s1, dt, copy=True, order="C")
    if not v.flags.c_contiguous:
        v = astype(v, dt, copy=True, order="C")
    out = empty_array(x2._shape, _dtypes.int64, qi, coerce_usm_type((x1.usm_type, x2.usm_type)))
    if out.size:   # (a zero-size view may keep strides the kernel does not take)
        _engine.search_sorted(qi.ref, qi.kc, s1, v, out, side == "right")
    return out


def argwhere(a):
    """Indices of the non-zero elements, one row each, as ``numpy.argwhere``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.

    Returns
    -------
    usm_ndarray
        Shape (N, a.ndim), default integer dtype.
    """
    check_array(a, "argwhere")
    if a.ndim == 0:
        return argwhere(reshape(a, (1,)))[:, :0]
    return stack(nonzero(a), axis=1)


def flatnonzero(a):
    """Indices of the non-zero elements of the flattened array, as ``numpy.flatnonzero``.

    Parameters
    ----------
    a : usm_ndarray
        Input array.

    Returns
    -------
    usm_ndarray
        1-d, default integer dtype.
    """
    check_array(a, "flatnonzero")
    return nonzero(reshape(a, (-1,)))[0]

"""NumPy's functional-programming helpers: ``piecewise``, ``apply_along_axis``
and ``apply_over_axes``. They call the user's Python functions on usm_ndarrays
(slices, masked selections) and assemble the results on the device; the
loops over slices run in Python, as NumPy's do."""

import itertools
import operator

import numpy as np

from . import manipulation, reduction
from ._core._array import usm_ndarray
from ._core._copy import astype
from ._core._device import common_queue
from ._core._views import check_array, normalize_axis
from .creation import asarray, zeros_like

__all__ = ["piecewise", "apply_along_axis", "apply_over_axes"]


def _conditions(x, condlist):
    """condlist as a list of bool usm_ndarrays (NumPy's reading: a bare array
    or scalar is one condition). A condition selects as ``x[cond]`` does:
    of x's shape or of its leading dimensions' (rows); a Python bool holds
    everywhere or nowhere."""
    items = condlist if isinstance(condlist, (list, tuple)) else None
    for c in items or (condlist,):
        if isinstance(c, np.ndarray):
            raise TypeError("piecewise: conditions must be usm_ndarrays or Python bools, not "
                            "NumPy arrays (move them with ua.asarray)")
    if isinstance(condlist, usm_ndarray):
        conds = [condlist] if condlist.ndim <= x.ndim else list(condlist)
    elif items is not None:
        conds = list(items)
        if conds and not isinstance(conds[0], (list, tuple, usm_ndarray)) and x.ndim != 0:
            conds = [conds]
    else:
        conds = [condlist]
    out = []
    for c in conds:
        c = c if isinstance(c, usm_ndarray) else asarray(c, sycl_queue=x.sycl_queue)
        common_queue(x, c)
        if c.dtype.kind != "b":
            c = astype(c, "bool")
        if c.ndim == 0:
            c = manipulation.broadcast_to(c, x.shape)
        elif c.shape != x.shape[:c.ndim]:
            raise IndexError(f"piecewise: a condition of shape {c.shape} does not select from "
                             f"an array of shape {x.shape}")
        out.append(c)
    return out


def piecewise(x, condlist, funclist, *args, **kw):
    """An array of x's shape and dtype, zero where no condition holds, and
    where ``condlist[i]`` holds ``funclist[i](x[condlist[i]], *args, **kw)``
    (or the value ``funclist[i]`` when it is not callable), as
    ``numpy.piecewise``: later conditions win; one function more than
    conditions is the value where none holds."""
    check_array(x, "piecewise")
    conds = _conditions(x, condlist)
    funcs = list(funclist) if isinstance(funclist, (list, tuple)) else [funclist]
    n, n2 = len(conds), len(funcs)
    if n == n2 - 1:
        if conds:
            anyc = reduction.any(manipulation.stack(conds), axis=0)
            conds.append(~anyc)
        else:
            conds.append(manipulation.broadcast_to(
                asarray(True, sycl_queue=x.sycl_queue), x.shape))
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    for cond, func in zip(conds, funcs):
        if not callable(func):
            y[cond] = func
            continue
        vals = x[cond]
        if vals.size > 0:
            y[cond] = func(vals, *args, **kw)
    return y


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` applied to every 1-d slice of `arr` along `axis`, as
    ``numpy.apply_along_axis``: the results (arrays of one shape, or
    scalars) take the place of `axis` in the result's shape."""
    check_array(arr, "apply_along_axis")
    nd = arr.ndim
    axis = normalize_axis(axis, nd)
    inner = manipulation.moveaxis(arr, axis, -1)
    outer = inner.shape[:-1]
    if any(d == 0 for d in outer):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    results = []
    first = None
    for ind in itertools.product(*(range(d) for d in outer)):
        r = func1d(inner[ind], *args, **kwargs)
        r = r if isinstance(r, usm_ndarray) else asarray(r, sycl_queue=arr.sycl_queue,
                                                         usm_type=arr.usm_type)
        if first is None:
            first = r
        elif r.shape != first.shape:
            raise ValueError(f"apply_along_axis: func1d returned shape {r.shape} after "
                             f"{first.shape}; every call must return one shape")
        results.append(astype(r, first.dtype, copy=False))   # (NumPy's buffer: the first's dtype)
    res = manipulation.reshape(manipulation.stack(results), outer + first.shape)
    # the result's dimensions where `axis` was
    k = first.ndim
    order = list(range(axis)) + list(range(nd - 1, nd - 1 + k)) + list(range(axis, nd - 1))
    return manipulation.permute_dims(res, tuple(order))


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` for each axis in turn, each result (with the axis
    put back when func dropped it) the next call's input, as
    ``numpy.apply_over_axes``."""
    check_array(a, "apply_over_axes")
    val = a
    n = a.ndim
    for ax in ((axes,) if np.ndim(axes) == 0 else axes):
        ax = operator.index(ax)
        if ax < 0:
            ax += n
        res = func(val, ax)
        if not isinstance(res, usm_ndarray):
            raise TypeError("apply_over_axes: func must return a usm_ndarray")
        if res.ndim != val.ndim:
            res = manipulation.expand_dims(res, axis=ax)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val

"""Differences and integrals of sampled data, as NumPy has them:
``gradient``, ``trapezoid``, ``unwrap``. Composed of
usmarray's elementwise operations, differences and sums on the device."""

import math
import warnings

import numpy as np

from . import creation, elementwise as ew, manipulation, reduction
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._device import coerced_kind
from ._core._views import check_array, normalize_axis
from .searching import where

__all__ = ["gradient", "trapezoid", "unwrap"]


def _along(a, axis, sl):
    return a[(slice(None),) * axis + (sl,)]


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of `y` along `axis` by the trapezoidal rule, as
    ``numpy.trapezoid``: sample points `x` (1-d along the axis, or of y's
    shape), else a spacing `dx`.

    Returns
    -------
    usm_ndarray
        y's shape without `axis` (a 0-d array for 1-d `y`), floating point.
    """
    check_array(y, "trapezoid")
    nd = y.ndim
    if nd == 0:
        raise ValueError("trapezoid: y must be at least 1-d")
    a = normalize_axis(axis, nd)
    if x is None:
        d = dx
    else:
        x = x if isinstance(x, usm_ndarray) else creation.asarray(x, sycl_queue=y.sycl_queue,
                                                                 usm_type=y.usm_type)
        if x.ndim == 1:
            d = manipulation.diff(x)
            d = manipulation.reshape(d, tuple(d.shape[0] if i == a else 1 for i in range(nd)))
        else:
            d = manipulation.diff(x, axis=a)
    hi, lo = _along(y, a, slice(1, None)), _along(y, a, slice(None, -1))
    return reduction.sum(ew.divide(ew.multiply(d, ew.add(hi, lo)), 2.0), axis=a)


def gradient(f, /, *varargs, axis=None, edge_order=1):
    """The gradient of sampled `f` by central differences inside and one-sided
    ones (first or second order, `edge_order`) at the ends, as
    ``numpy.gradient``.

    Parameters
    ----------
    f : usm_ndarray
        The samples (integers and bools in the default floating type).
    *varargs : scalars or 1-d usm_ndarrays
        The spacing: none (1), one for every axis, or one per axis; an array
        gives the coordinates along its axis (uneven spacing).
    axis : None, int or tuple of ints
        The axes to differentiate along (None: all).
    edge_order : {1, 2}

    Returns
    -------
    usm_ndarray or tuple of usm_ndarray
        One array per axis (a single array for one axis).
    """
    check_array(f, "gradient")
    nd = f.ndim
    axes = tuple(range(nd)) if axis is None else tuple(
        normalize_axis(a, nd) for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    if len(set(axes)) != len(axes):
        raise ValueError("gradient: repeated axis")
    n = len(varargs)
    if n == 0:
        spacing = [1.0] * len(axes)
    elif n == 1 and not (isinstance(varargs[0], usm_ndarray) and varargs[0].ndim == 1
                         and len(axes) > 1):
        spacing = list(varargs) * len(axes)
    elif n == len(axes):
        spacing = list(varargs)
    else:
        raise TypeError("gradient: invalid number of spacing arguments")
    if edge_order not in (1, 2):
        raise ValueError("gradient: edge_order must be 1 or 2")
    f = f if f.dtype.kind in "fc" else creation.asarray(f, dtype=f._q.float)
    out = []
    for a, h in zip(axes, spacing):
        if not isinstance(h, usm_ndarray) and np.ndim(h) == 1:
            h = creation.asarray(h, sycl_queue=f.sycl_queue, usm_type=f.usm_type)   # a list
        elif np.ndim(h) > 1:
            raise ValueError("distances must be either scalars or 1d")
        m = f.shape[a]
        if m < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        g = creation.empty_like(f, usm_type=coerced_kind([f, h] if isinstance(h, usm_ndarray) else [f]))
        s = lambda sl: _along(f, a, sl)    # noqa: E731
        def put(sl, v):
            if v.dtype.kind == "c" and g.dtype.kind != "c":
                # complex spacing with real samples: NumPy stores the real part
                warnings.warn("Casting complex values to real discards the imaginary part",
                              np.exceptions.ComplexWarning, stacklevel=3)
                v = ew.real(v)
            g[(slice(None),) * a + (sl,)] = v
        if isinstance(h, usm_ndarray) and h.ndim == 1:
            if h.shape[0] != m:
                raise ValueError("gradient: when 1d, distances must match the length of the "
                                 "corresponding dimension")
            h = h if h.dtype.kind in "fc" else creation.asarray(h, dtype=f._q.float)
            d = manipulation.diff(h)
            along = tuple(m - 2 if i == a else 1 for i in range(nd))   # (broadcast along a)
            dx1, dx2 = manipulation.reshape(d[:-1], along), manipulation.reshape(d[1:], along)
            # interior: NumPy's second-order formula for uneven spacing
            w_a = ew.negative(ew.divide(dx2, ew.multiply(dx1, ew.add(dx1, dx2))))
            w_b = ew.divide(ew.subtract(dx2, dx1), ew.multiply(dx1, dx2))
            w_c = ew.divide(dx1, ew.multiply(dx2, ew.add(dx1, dx2)))
            put(slice(1, -1), ew.add(ew.add(ew.multiply(w_a, s(slice(None, -2))),
                                            ew.multiply(w_b, s(slice(1, -1)))),
                                     ew.multiply(w_c, s(slice(2, None)))))
            h0, h1, hl, hm = d[0], d[1] if m > 2 else None, d[-1], d[-2] if m > 2 else None
            if edge_order == 1:
                put(slice(0, 1), ew.divide(ew.subtract(s(slice(1, 2)), s(slice(0, 1))), h0))
                put(slice(-1, None), ew.divide(ew.subtract(s(slice(-1, None)), s(slice(-2, -1))), hl))
            else:
                a0 = ew.negative(ew.divide(ew.add(ew.multiply(2.0, h0), h1),
                                           ew.multiply(h0, ew.add(h0, h1))))
                b0 = ew.divide(ew.add(h0, h1), ew.multiply(h0, h1))
                c0 = ew.negative(ew.divide(h0, ew.multiply(h1, ew.add(h0, h1))))
                put(slice(0, 1), ew.add(ew.add(ew.multiply(a0, s(slice(0, 1))),
                                               ew.multiply(b0, s(slice(1, 2)))),
                                        ew.multiply(c0, s(slice(2, 3)))))
                an = ew.divide(hl, ew.multiply(hm, ew.add(hm, hl)))
                bn = ew.negative(ew.divide(ew.add(hl, hm), ew.multiply(hm, hl)))
                cn = ew.divide(ew.add(ew.multiply(2.0, hl), hm), ew.multiply(hl, ew.add(hm, hl)))
                put(slice(-1, None), ew.add(ew.add(ew.multiply(an, s(slice(-3, -2))),
                                                   ew.multiply(bn, s(slice(-2, -1)))),
                                            ew.multiply(cn, s(slice(-1, None)))))
        else:
            h = complex(h) if np.iscomplexobj(h) else float(h)
            put(slice(1, -1), ew.divide(ew.subtract(s(slice(2, None)), s(slice(None, -2))), 2.0 * h))
            if edge_order == 1:
                put(slice(0, 1), ew.divide(ew.subtract(s(slice(1, 2)), s(slice(0, 1))), h))
                put(slice(-1, None), ew.divide(ew.subtract(s(slice(-1, None)), s(slice(-2, -1))), h))
            else:
                put(slice(0, 1), ew.divide(ew.add(ew.add(ew.multiply(-1.5, s(slice(0, 1))),
                                                         ew.multiply(2.0, s(slice(1, 2)))),
                                                  ew.multiply(-0.5, s(slice(2, 3)))), h))
                put(slice(-1, None), ew.divide(ew.add(ew.add(ew.multiply(0.5, s(slice(-3, -2))),
                                                             ew.multiply(-2.0, s(slice(-2, -1)))),
                                                      ew.multiply(1.5, s(slice(-1, None)))), h))
        out.append(g)
    return out[0] if len(out) == 1 else tuple(out)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """`p` with jumps between neighbours larger than `discont` (default
    period / 2) reduced by multiples of `period`, as ``numpy.unwrap``: in
    the result type of p's differences and `period` (integers stay integers
    for an integer period)."""
    check_array(p, "unwrap")
    if p.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    if p.dtype.kind == "c":
        raise TypeError("unwrap: complex input is not supported (NumPy's remainder has no "
                        "complex loop)")
    a = normalize_axis(axis, p.ndim)
    dd = manipulation.diff(p, axis=a)
    if discont is None:
        discont = period / 2
    dt = _dtypes.result_type(dd.dtype, period)
    if dt.kind in "iu":
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = ew.add(ew.remainder(ew.subtract(dd, low), period), low)
    if ambiguous:
        # (a jump of exactly +period / 2 stays positive, as NumPy keeps it)
        ddmod = where(ew.logical_and(ew.equal(ddmod, low), ew.greater(dd, 0)), high, ddmod)
    correct = where(ew.less(ew.abs(dd), discont), 0, ew.subtract(ddmod, dd))
    up = creation.asarray(p, dtype=dt, copy=True)
    if p.shape[a] > 1:
        up[(slice(None),) * a + (slice(1, None),)] = ew.add(
            _along(p, a, slice(1, None)), reduction.cumulative_sum(correct, axis=a))
    return up

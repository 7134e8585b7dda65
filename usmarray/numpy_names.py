"""NumPy's names for what usmarray has under the array API's, for code
written against NumPy or CuPy (``xp.concatenate``, ``xp.cumsum``,
``xp.arccos``, ``xp.array``).

- The ufuncs NumPy spells otherwise (``arccos``, ``power``, ``absolute``,
  ...) are the array API functions themselves, as ``numpy.absolute`` is
  ``numpy.abs``.
- NumPy's functions whose arguments differ from the array API's
  (``concatenate(arrays, axis=None)``, ``cumsum`` of the flattened array,
  ``unique`` with ``return_counts``, ``transpose``, ``dot``, ...) run the
  same translation as ``numpy.concatenate(x)`` on a usm_ndarray does
  (usmarray.numpy_protocols.FUNCTIONS): one set of rules for both spellings.
- ``array``, ``ascontiguousarray``, ``asfortranarray`` and ``fromfunction``
  create arrays as NumPy's do, on the device the keywords name.

Names the array API already has (``round``, ``clip``, ``sort``, ...) keep
its semantics; NumPy's variants of those remain reachable as ``numpy.round(x)``.
"""

import inspect
import operator

import numpy as np

from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._device import resolve_queue
from . import elementwise as ew
from . import numpy_protocols
from .creation import asarray
from .index_tricks import indices
from .manipulation import reshape

ndarray = usm_ndarray
"""CuPy's and NumPy's name of the array class (``isinstance(x, xp.ndarray)``)."""

# NumPy's ufunc name -> the array API function (the same object)
_UFUNC_ALIASES = {
    "absolute": ew.abs, "arccos": ew.acos, "arccosh": ew.acosh, "arcsin": ew.asin,
    "arcsinh": ew.asinh, "arctan": ew.atan, "arctan2": ew.atan2, "arctanh": ew.atanh,
    "bitwise_not": ew.bitwise_invert, "conjugate": ew.conj, "invert": ew.bitwise_invert,
    "left_shift": ew.bitwise_left_shift, "mod": ew.remainder, "power": ew.pow,
    "right_shift": ew.bitwise_right_shift, "rint": ew.round, "true_divide": ew.divide,
}
globals().update(_UFUNC_ALIASES)

# NumPy functions run by their dispatch entry
_BY_DISPATCH = ("amax", "amin", "around", "array2string", "array_repr", "array_str",
                "concatenate", "cross", "cumprod", "cumsum", "diagonal", "dot",
                "may_share_memory", "ndim", "outer", "ravel", "shape", "shares_memory", "size",
                "trace", "transpose", "unique")


def _by_dispatch(name):
    np_func = getattr(np, name)

    def f(*args, **kwargs):
        # (the table is filled when the package has loaded: numpy_protocols.build)
        return numpy_protocols.FUNCTIONS[np_func](args, kwargs)

    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    f.__signature__ = inspect.signature(np_func)
    f.__doc__ = (f"``numpy.{name}`` on usm_ndarrays: NumPy's arguments and results, computed "
                 f"on the arrays' device.\n\nThe same call as ``numpy.{name}(x, ...)`` on a "
                 "usm_ndarray (usmarray.numpy_protocols.FUNCTIONS); see NumPy's documentation "
                 "for the parameters.\n")
    return f


globals().update({name: _by_dispatch(name) for name in _BY_DISPATCH})


def array(object, dtype=None, *, copy=True, order="K", ndmin=0, device=None, usm_type=None,
          sycl_queue=None):
    """An array from `object`, as ``numpy.array`` (CuPy's ``cupy.array``).

    Parameters
    ----------
    object : array_like
        A usm_ndarray, NumPy array, nested sequence, scalar, or an object
        with DLPack's or the SYCL USM array interface (see ``asarray``).
    dtype : dtype, optional
        The result's type; by default the input's (Python numbers: the
        device's defaults).
    copy : bool or None
        True (the default) always copies; None copies only when needed;
        False raises ValueError when a copy is needed.
    order : {"K", "A", "C", "F"}
        Memory layout of a copy.
    ndmin : int
        Ones are prepended to the shape up to this many dimensions.
    device, usm_type, sycl_queue
        Where the array is made (by default: where a usm_ndarray input is,
        else the default device, in device memory).

    Returns
    -------
    usm_ndarray
    """
    ndmin = operator.index(ndmin)
    if ndmin < 0:
        raise ValueError(f"ndmin must be non-negative, got {ndmin}")
    r = asarray(object, dtype=dtype, copy=copy, order=order, device=device, usm_type=usm_type,
                sycl_queue=sycl_queue)
    if r.ndim < ndmin:
        r = reshape(r, (1,) * (ndmin - r.ndim) + r.shape)
    return r


def _in_layout(name, order, layout):
    def f(a, dtype=None, *, device=None, usm_type=None, sycl_queue=None):
        return array(a, dtype, copy=None, order=order, ndmin=1, device=device,
                     usm_type=usm_type, sycl_queue=sycl_queue)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"""`a` as {layout} array of at least one dimension, copied only
    when needed, as ``numpy.{name}``.

    Parameters
    ----------
    a : array_like
    dtype : dtype, optional
    device, usm_type, sycl_queue
        As for ``array``.

    Returns
    -------
    usm_ndarray
    """
    return f


ascontiguousarray = _in_layout("ascontiguousarray", "C", "a C-contiguous")
asfortranarray = _in_layout("asfortranarray", "F", "an F-contiguous")


def fromfunction(function, shape, *, dtype=float, device=None, usm_type="device",
                 sycl_queue=None, **kwargs):
    """``function(*indices)`` over a grid of `shape`, as ``numpy.fromfunction``.

    Parameters
    ----------
    function : callable
        Called once with ``len(shape)`` arrays: the coordinates along each
        dimension (of type `dtype`), and `kwargs`. Whatever it returns is
        returned; usmarray's functions and operators keep it on the device.
    shape : tuple of ints
    dtype : dtype
        The coordinates' type (NumPy's default, float: the device's default
        float type).
    device, usm_type, sycl_queue
        Where the coordinates are made.

    Returns
    -------
    Whatever `function` returns.
    """
    qi = resolve_queue(device, sycl_queue)
    dt = _dtypes.device_dtype(_dtypes.to_dtype(np.dtype(dtype)), qi)
    grid = indices(tuple(shape), dtype=dt, sycl_queue=qi.queue, usm_type=usm_type)
    return function(*grid, **kwargs)


__all__ = (["ndarray", "array", "ascontiguousarray", "asfortranarray", "fromfunction"]
           + sorted(_UFUNC_ALIASES) + list(_BY_DISPATCH))

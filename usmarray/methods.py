"""The methods of usm_ndarray that the array module cannot define itself,
bound onto the class in one place, ``install()``, once every other module
has loaded (``usmarray/__init__.py`` calls it last):

- the array's protocols that need copies, indexing, printing or pickling
  (``__getitem__``, ``__setitem__``, ``__iter__``, ``__array__``, ``__dlpack__``,
  ``__repr__``, ``__reduce_ex__``, ``to_device``, ...; ``PROTOCOLS``);
- the operators of the elementwise table and ``@`` (``OPERATORS``);
- NumPy's protocols, ``__array_ufunc__`` and ``__array_function__``;
- NumPy-style methods (``x.sum()``, ``x.reshape(2, 3)``, ``x.tolist()``,
  ``x.get()``, ...), as NumPy and CuPy have them. Most are NumPy's
  function of the same name with the array first: ``x.sum(axis=0)`` is
  ``np.sum(x, axis=0)``, computed by the usmarray counterpart that
  ``numpy_protocols.FUNCTIONS`` maps it to (same argument translation, same
  errors). ``DELEGATED`` lists those; ``ADAPTED`` holds the methods whose
  NumPy signature differs from the function's (``reshape(*shape)``,
  ``transpose(*axes)``, in-place ``sort`` and ``fill``, ...).

So the array module (``_core/_array.py``) imports nothing above the core,
and no module imports one above it to reach the array's methods.
"""

import operator

import dpctl
import numpy as np

from . import (_pickle, elementwise, indexing, linear_algebra, manipulation, numpy_protocols,
               sorting, special)
from ._core import _copy, _dlpack, _print
from ._core._array import usm_ndarray, view as _view
from ._core._device import resolve_queue
from ._core._indexing import basic_view
from ._core._layout import RO_LOCK, WRITABLE, contig_flags
from ._core._views import ravel, reshaped_view
from .numpy_protocols import FUNCTIONS, numpy_sort_kind
from .reduction import any as _any

__all__ = ["PROTOCOLS", "DELEGATED", "ADAPTED", "install"]

_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


# ------------------------------------------------------------ the array's protocols
def to_device(self, device, /, *, stream=None):
    """The array on another device or queue (a copy unless the memory is reachable).

    ``stream`` may be None or a dpctl.SyclQueue (its only effect is to be
    validated: usmarray orders the copy by events)."""
    if stream is not None and not isinstance(stream, dpctl.SyclQueue):
        raise TypeError("stream must be None or a dpctl.SyclQueue")
    return _copy.to_queue(self, resolve_queue(device))


def _set_shape(self, new_shape):
    """``x.shape = s``: reshape in place where the layout allows a view;
    AttributeError otherwise, as NumPy and dpctl.tensor (ValueError for a
    shape of another size)."""
    y = reshaped_view(self, new_shape)
    if y is None:
        raise AttributeError("incompatible shape for in-place modification: the layout needs "
                             "a copy; use reshape() to make one with the desired shape")
    self._shape, self._strides, self._off = y._shape, y._strides, y._off
    self._flags = contig_flags(self._shape, self._strides) | (self._flags & (WRITABLE | RO_LOCK))


def __contains__(self, value):
    # NumPy's rule: `value in x` is any(x == value)
    eq = self.__eq__(value)
    if eq is NotImplemented:
        return False
    return bool(_any(eq))


def __array__(self, dtype=None, /, *, copy=None):
    """A NumPy array of the contents: a view of host-accessible memory unless
    ``copy=True`` or another dtype asks for a copy (``copy=False`` raises
    ValueError where one is needed)."""
    if copy is not True:
        h = _copy.host_view(self)
        if h is not None:
            if dtype is None or np.dtype(dtype) == h.dtype:
                return h
            if copy is False:
                raise ValueError("converting to another dtype needs a copy, but copy=False")
            return h.astype(dtype)
        if copy is False:
            raise ValueError("the array is in device memory the host cannot reach: "
                             "a copy is needed, but copy=False")
    h = _copy.asnumpy(self)
    if dtype is not None and np.dtype(dtype) != h.dtype:
        h = h.astype(dtype)
    return h


def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """Export as a DLPack capsule (array API contract; kDLOneAPI or kDLCPU).

    ``stream`` may be None (the producer finishes pending work first), -1
    (no synchronisation) or a dpctl.SyclQueue of the array's context (its
    later commands wait for the pending work; no host wait). For
    consumers that take only legacy kDLCPU capsules (TensorFlow), use
    ``x.__dlpack__(dl_device=(1, 0))``; a kDLCPU export with ``copy=True``
    is a copy in C order, which consumers that refuse other strides
    (TensorFlow, JAX) take.
    """
    return _dlpack.export(self, stream, max_version, dl_device, copy)


def __dlpack_device__(self):
    """(kDLOneAPI, index of the memory's root device in sycl::device::get_devices())."""
    return _dlpack.dlpack_device(self)


def __copy__(self):
    return _copy.copy(self)


def __deepcopy__(self, memo):
    return _copy.copy(self)


def __reduce_ex__(self, protocol):
    """Pickle support: contents through host memory, usm_type and device
    kept (see ``usmarray._pickle``); protocol 5 hands the data out of band."""
    return _pickle.reduce_array(self, protocol)


def __repr__(self):
    return _print.usm_ndarray_repr(self)


def __str__(self):
    return _print.usm_ndarray_str(self)


PROTOCOLS = {f.__name__: f for f in (to_device, __contains__, __array__, __dlpack__,
                                     __dlpack_device__, __copy__, __deepcopy__, __reduce_ex__,
                                     __repr__, __str__)}
PROTOCOLS.update(__getitem__=indexing.getitem, __setitem__=indexing.setitem,
                 __iter__=indexing.iterate)


def _array_namespace(namespace):
    def __array_namespace__(self, *, api_version=None):
        """The array API namespace of the array: ``usmarray`` (or the
        ``array_namespace`` given to the constructor)."""
        if api_version is not None and api_version not in _API_VERSIONS:
            raise ValueError(f"unsupported array API version {api_version!r}; "
                             f"supported: {', '.join(_API_VERSIONS)}")
        return namespace if self._ns is None else self._ns
    return __array_namespace__


# ------------------------------------------------------------ NumPy-style methods

# method name -> the NumPy function it is (with the array as first argument)
DELEGATED = {
    "sum": np.sum, "prod": np.prod, "mean": np.mean, "std": np.std, "var": np.var,
    "min": np.min, "max": np.max, "argmin": np.argmin, "argmax": np.argmax, "any": np.any,
    "all": np.all, "cumsum": np.cumsum, "cumprod": np.cumprod, "ravel": np.ravel,
    "squeeze": np.squeeze, "swapaxes": np.swapaxes, "clip": np.clip, "round": np.round,
    "dot": np.dot, "nonzero": np.nonzero, "repeat": np.repeat, "take": np.take,
    "argsort": np.argsort, "searchsorted": np.searchsorted, "diagonal": np.diagonal,
    "trace": np.trace,
}


def _shape_args(args, what):
    """NumPy's ``f(*ints)`` and ``f(tuple)`` forms: one tuple, or None for no arguments."""
    if len(args) == 1 and (args[0] is None or isinstance(args[0], (tuple, list))):
        return args[0]
    try:
        return tuple(operator.index(a) for a in args)
    except TypeError:
        raise TypeError(f"{what}: expected integers or one tuple of integers, got {args!r}") \
            from None


def reshape(self, *shape, order="C", copy=None):
    """``x.reshape(2, 3)`` or ``x.reshape((2, 3))``: a view where the layout allows."""
    return manipulation.reshape(self, _shape_args(shape, "reshape"), order=order, copy=copy)


def transpose(self, *axes):
    """``x.transpose()`` reverses the axes; ``x.transpose(1, 0, 2)`` or
    ``x.transpose((1, 0, 2))`` permutes them (a view)."""
    axes = _shape_args(axes, "transpose") if axes else None
    if axes is None or (not axes and self.ndim == 0):
        axes = tuple(range(self.ndim))[::-1]   # (an empty tuple of axes only fits 0-d: below)
    return manipulation.permute_dims(self, tuple(axes))


def flatten(self, order="C"):
    """A 1-D copy (``ravel`` is the view where possible), read in `order`
    ("C", "F", "A" or "K", as NumPy's)."""
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"flatten: order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    r = ravel(self, order)
    return _copy.copy(r) if r._alloc is self._alloc else r


def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """A copy cast to `dtype` (none if ``copy=False`` and the dtype matches)."""
    return _copy.astype(self, dtype, copy=copy, order=order, casting=casting)


def copy(self, order="C"):
    """A copy, C-contiguous by default (NumPy's default for the method)."""
    return _copy.copy(self, order=order)


def fill(self, value):
    """Set every element to the scalar `value`, in place."""
    self[...] = value


def sort(self, axis=-1, kind=None, order=None, *, stable=None):
    """Sort in place along `axis` (a stable sort, as ``usmarray.sort``)."""
    if order is not None:
        raise TypeError("sort: order= (structured dtypes) is not supported")
    if not self._flags & WRITABLE:
        raise ValueError("sort: the array is read-only")
    self[...] = sorting.sort(self, axis=axis, kind=numpy_sort_kind(kind))


def tolist(self):
    """The elements as nested Python lists of Python scalars (a host copy)."""
    return _copy.asnumpy(self).tolist()


def tobytes(self, order="C"):
    """The elements' bytes in `order` ("C", "F", or "A"/"K" as NumPy), as
    ``numpy.ndarray.tobytes`` (a host copy)."""
    return _copy.asnumpy(self).tobytes(order=order)


def item(self, *args):
    """One element as a Python scalar: ``x.item()`` of a one-element array,
    ``x.item(flat_index)`` or ``x.item(i, j, ...)``. Only that element is copied."""
    if not args:
        if self.size != 1:
            raise ValueError("item: can only convert an array of size 1 to a Python scalar")
        return self._scalar("a Python scalar")
    if len(args) == 1:
        i = args[0]
        key = i if isinstance(i, tuple) else None
        if key is not None and len(key) == 1:
            i, key = key[0], None    # (NumPy's: a 1-tuple is a flat index)
        if key is None:
            if isinstance(i, (bool, np.bool_)):
                raise TypeError("item: an index must be an integer, not a bool (as in NumPy)")
            i = operator.index(i)
            n = self.size
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for size {n}")
            key = np.unravel_index(i % n, self.shape) if self.ndim else ()
    else:
        key = args
    if any(isinstance(k, (bool, np.bool_)) for k in key):
        raise TypeError("item: an index must be an integer, not a bool (as in NumPy)")
    if len(key) != self.ndim:
        raise ValueError("item: incorrect number of indices for array")
    # (the element's view, read once: x[key] would copy it first)
    off, shape, strides = basic_view(self, tuple(int(k) for k in key))
    return _view(self, off, shape, strides)._scalar("a Python scalar")


def view(self, dtype=None, type=None):
    """The same memory as another dtype of the same item size (``int32`` as
    ``float32``, ``uint8`` as ``bool``...)."""
    if type is not None:
        raise TypeError("view: type= is not supported (usm_ndarray has no subclasses)")
    if dtype is None:
        return _view(self, self._off, self._shape, self._strides)
    # (a non-native byte order would misread the bytes: a ValueError, as for
    # usm_ndarray(..., buffer=x))
    dt = usm_ndarray._dtype_for(dtype, self._q, data=True)
    if dt.itemsize != self._dtype.itemsize:
        raise ValueError(f"view: {dt.name} has item size {dt.itemsize}, the array's dtype "
                         f"{self._dtype.name} has {self._dtype.itemsize}; only views as a dtype "
                         "of the same size are supported")
    return _view(self, self._off, self._shape, self._strides, dt)


def get(self, stream=None, order="C", out=None):
    """The array as a NumPy array on the host (CuPy's name for ``ua.asnumpy``).

    ``out``: a NumPy array of the same shape to copy into (returned)."""
    if order not in ("C", "F", "A"):
        raise ValueError(f"get: unsupported order {order!r} (C, F or A)")
    h = _copy.asnumpy(self)
    if out is not None:
        if not isinstance(out, np.ndarray) or out.shape != h.shape:
            raise ValueError("get: out must be a NumPy array of the array's shape")
        np.copyto(out, h, casting="same_kind")
        return out
    if order == "A":
        order = "F" if self.flags.fnc else "C"
    # (np.ascontiguousarray would make a 0-d array 1-d)
    return h if h.flags[order + "_CONTIGUOUS"] else h.copy(order=order)


def conj(self):
    """The complex conjugate, a new array (``usmarray.conj``); for real dtypes
    a copy of the same dtype, as NumPy's method."""
    if self._dtype.kind == "c":
        return elementwise.conj(self)
    return _copy.copy(self)


def conjugate(self):
    """The complex conjugate (as ``conj``)."""
    return conj(self)


ADAPTED = {f.__name__: f for f in (reshape, transpose, flatten, astype, copy, fill, sort,
                                    tolist, tobytes, item, view, get, conj, conjugate)}


def _delegate(name, np_func):
    entry = FUNCTIONS[np_func]

    def method(self, *args, **kwargs):
        return entry((self,) + args, kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"``x.{name}(...)`` is ``numpy.{np_func.__name__}(x, ...)``, computed on "
                      f"the device by ``usmarray.{entry.target_name}``.")
    return method


def _divmod(self, other):
    """``divmod(x, y)``: ``(x // y, x % y)``, as NumPy's arrays give."""
    return special.divmod(self, other)


def _rdivmod(self, other):
    return special.divmod(other, self)


def install(namespace):
    """Bind the methods onto usm_ndarray: the protocols, operators, NumPy's
    protocols (after building ``numpy_protocols``' tables from `namespace`,
    the usmarray module) and the NumPy-style methods."""
    numpy_protocols.build(namespace)
    methods = dict(PROTOCOLS)
    methods.update(elementwise.operator_methods())
    methods.update(linear_algebra.OPERATORS)
    methods.update(__divmod__=_divmod, __rdivmod__=_rdivmod)
    methods.update(__array_ufunc__=numpy_protocols.array_ufunc,
                   __array_function__=numpy_protocols.array_function,
                   __array_namespace__=_array_namespace(namespace),
                   # above NumPy's 0: libraries that pick the array type of a
                   # result by it (Dask's tensordot, dot) pick usm_ndarray's
                   __array_priority__=100.0)
    methods.update((name, _delegate(name, np_func)) for name, np_func in DELEGATED.items())
    methods.update(ADAPTED)
    for name, f in methods.items():
        setattr(usm_ndarray, name, f)
    usm_ndarray.shape = property(usm_ndarray.shape.fget, _set_shape,
                                 doc="The shape; assigning one reshapes in place (a view).")

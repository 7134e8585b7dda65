"""NumPy's dispatch protocols on usm_ndarray: ``__array_ufunc__`` (NEP 13)
and ``__array_function__`` (NEP 18).

``np.sin(x)``, ``np.add(x, 1, out=(y,))``, ``np.add.reduce(x)``, ``np.sum(x)``,
``np.concatenate([x, y])`` or ``np.linalg.svd(x)`` on usm_ndarrays run the
usmarray function of the same meaning: the result stays on the device. What
maps where is two tables:

- ``UFUNCS``: NumPy ufunc name -> usmarray function. Made from the table of
  elementwise operations (every operation whose name is a NumPy ufunc, or a
  NumPy alias of one) and ``UFUNC_NAMES`` for the names that differ.
- ``FUNCTIONS``: NumPy function -> ``Function`` (the usmarray function and
  how NumPy's arguments become its arguments). Made from ``SAME_NAME`` (the
  functions whose usmarray counterpart has NumPy's name), ``RENAMED`` and the
  few entries that need an argument adapter.

Arguments are translated by one rule (``Function.__call__``): NumPy's
signature binds the call; its leading parameters fill the counterpart's
positional-only ones; the others go by name (after renames). A NumPy
argument the counterpart lacks is accepted only at its default value, except
``out=`` (the result is copied into it) and ``dtype=`` (the input is cast
first). Anything else is a TypeError naming the function and the argument.

CuPy's rule for operands: no implicit transfer. A NumPy array (or other host
array) next to a usm_ndarray is a TypeError that says to move it with
``ua.asarray(...)``; Python and NumPy scalars are fine. A NumPy function
without a counterpart is a TypeError naming it, never a silent host round
trip. ``np.asarray(x)`` still copies to the host through ``__array__``.
Inside ``with allow_host_operands():`` NumPy arrays next to a usm_ndarray
in a ufunc or a NumPy function are copied to that array's device instead,
for host-side libraries (SciPy's ``welch``) that mix their own NumPy arrays
into a computation on the caller's array.
"""

import contextlib
import contextvars
import inspect
import math
import sys

import numpy as np

from . import (calculus, comparison, contractions, convolution, creation, elementwise, fft,
               index_tricks, indexing, io, linalg, linear_algebra, manipulation, matrices, nanfunctions,
               padding, polynomials, reduction, searching, sets, sorting, special, stacking,
               statistics, ufunc_methods)
from ._core import _copy, _dtypes, _indexing, _print
from ._core._array import usm_ndarray
from ._core._layout import broadcast_shapes
from ._core._views import normalize_axis, ravel
from ._core._copy import check_out, copy_into
from ._dask import register_if_loaded as register_with_dask
from ._core._scalars import as_scalar as _as_scalar, weak_scalar_dtype
from .elementwise import OP, mixed_operand_error

__all__ = ["UFUNCS", "FUNCTIONS", "REDUCE", "ACCUMULATE", "Function", "mixed_operand_error",
           "allow_host_operands"]

# A context variable, not a global: the permission belongs to the code in the
# with block, not to other threads or tasks that happen to run meanwhile.
_HOST_OPERANDS = contextvars.ContextVar("usmarray_host_operands", default=False)


@contextlib.contextmanager
def allow_host_operands(allow=True):
    """Within the block, copy NumPy arrays that meet a usm_ndarray in a NumPy
    ufunc or function to that usm_ndarray's device, instead of refusing them.

    usmarray follows CuPy: ``np.ones(3) + x`` is a TypeError, so that no
    transfer happens unseen. Host-side libraries sometimes combine arrays of
    their own with the caller's array (SciPy's ``signal.welch`` multiplies
    the caller's segments by a NumPy window); this block lets such calls run
    on the device. Only ``numpy.ndarray`` operands are copied: lists stay a
    TypeError, as does a NumPy ``out=`` (the result would have to come back
    to the host).

    Parameters
    ----------
    allow : bool, optional
        ``False`` restores the refusal inside an enclosing block.

    Examples
    --------
    >>> with ua.allow_host_operands():
    ...     f, p = scipy.signal.welch(x, nperseg=256)   # doctest: +SKIP
    """
    token = _HOST_OPERANDS.set(bool(allow))
    try:
        yield
    finally:
        _HOST_OPERANDS.reset(token)


def _to_device(v, like):
    """`v` with NumPy arrays (itself, or items of a list/tuple) copied to
    `like`'s queue and USM kind."""
    if isinstance(v, np.ndarray):
        return creation.asarray(v, sycl_queue=like.sycl_queue, usm_type=like.usm_type)
    if isinstance(v, (list, tuple)) and any(isinstance(w, np.ndarray) for w in v):
        return type(v)(_to_device(w, like) for w in v)
    return v


_NS = []   # the public namespace, set by build() (from usmarray.methods.install)


def _namespace():
    return _NS[0]


# ================================================================= errors
# (mixed_operand_error, the TypeError for host data next to a usm_ndarray, is
# elementwise's: the operators raise it too)


def _check_operands(what, values):
    """TypeError for NumPy arrays among `values` (and in lists/tuples of
    them), and for lists next to usm_ndarrays in a list of arrays
    (``np.concatenate([x, [1.0]])``; ``np.pad``'s ``((1, 2), (0, 1))`` holds
    no array and passes)."""
    for v in values:
        if isinstance(v, np.ndarray):
            raise mixed_operand_error(what, v)
        if isinstance(v, (list, tuple)):
            host = (np.ndarray, list, tuple) if any(isinstance(w, usm_ndarray) for w in v) \
                else np.ndarray
            for w in v:
                if isinstance(w, host):
                    raise mixed_operand_error(what, w)


def _show(value):
    return f"<{type(value).__name__}>" if isinstance(value, (usm_ndarray, np.ndarray)) \
        else repr(value)


def _unsupported(what, name, value, target):
    return TypeError(f"{what}: the argument {name}={_show(value)} is not supported by "
                     f"usmarray.{target}")


# ================================================================= ufuncs
# usmarray function name -> NumPy ufunc name, where the names differ (NumPy 2
# also has the array API names as aliases; this keeps NumPy 1.x mapped too)
UFUNC_NAMES = {
    "arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh",
    "arctan": "atan", "arctanh": "atanh", "arctan2": "atan2", "power": "pow",
    "absolute": "abs", "invert": "bitwise_invert", "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift", "conjugate": "conj", "true_divide": "divide",
    "rint": "round", "matmul": "matmul", "vecdot": "vecdot", "rad2deg": "degrees",
    "deg2rad": "radians", "divmod": "divmod", "modf": "modf", "frexp": "frexp",
    "ldexp": "ldexp", "bitwise_count": "bitwise_count", "matvec": "matvec", "vecmat": "vecmat",
}
# (np.round is a function rounding half to even like ua.round; np.rint is its ufunc)


def _make_ufuncs():
    ns = {name: getattr(elementwise, name) for name in OP}
    ns["matmul"] = linear_algebra.matmul
    ns["vecdot"] = linear_algebra.vecdot
    for name in ("divmod", "modf", "frexp", "ldexp", "bitwise_count"):
        ns[name] = getattr(special, name)
    ns["matvec"], ns["vecmat"] = linear_algebra.matvec, linear_algebra.vecmat
    table = {}
    for name in OP:
        u = getattr(np, name, None)
        if isinstance(u, np.ufunc):
            table[u.__name__] = ns[name]
    for np_name, name in UFUNC_NAMES.items():
        table[np_name] = ns[name]
    return table


UFUNCS = _make_ufuncs()
"""NumPy ufunc name (``ufunc.__name__``) -> usmarray function."""

REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
          "logical_and": "all", "logical_or": "any"}
"""NumPy ufunc name -> usmarray reduction, for ``ufunc.reduce``."""

ACCUMULATE = {"add": "cumulative_sum", "multiply": "cumulative_prod"}
"""NumPy ufunc name -> usmarray cumulative function, for ``ufunc.accumulate``."""

# ufunc keywords and the values that need no support (NumPy's defaults)
_UFUNC_DEFAULTS = {"casting": "same_kind", "subok": True, "where": True, "signature": None}


_PARAMS = {}


def _params(fn):
    """The parameters of a usmarray function (cached: inspect is slow on the call path)."""
    p = _PARAMS.get(fn)
    if p is None:
        p = _PARAMS[fn] = inspect.signature(fn).parameters
    return p


def _deliver(what, result, out, broadcast=False, casting="same_kind"):
    """`result` copied into `out` (dpctl.tensor's out rules, cast as
    `casting` allows; a complex result never into a real out), or `result`;
    `broadcast`: a ufunc's result may broadcast to `out`'s shape (NumPy's rule)."""
    if out is None:
        return result
    shape = result._shape
    if broadcast and isinstance(out, usm_ndarray) and out._shape != shape and \
            broadcast_shapes(shape, out._shape) == out._shape:
        shape = out._shape
    if casting == "unsafe" and isinstance(out, usm_ndarray) and _drops_imag(result._dtype,
                                                                            out.dtype):
        casting = "same_kind"
    check_out(what, out, shape, result._dtype, result._q, casting)
    copy_into(out, result)
    return out


def _drops_imag(src, dst):
    """Whether a cast from `src` to `dst` drops imaginary parts (refused
    where NumPy casts with a ComplexWarning: losing them silently is a bug)."""
    return src.kind == "c" and dst.kind != "c"


def _loop_in_out_type(x, out_dt):
    """(x, dtype=) that run a ufunc reduction's loop in out's type, as
    NumPy's: x cast first where that cast is not within its kind
    (np.sum(int8_x, out=uint8_y) adds in uint8); (x, None) where out's type
    is x's or would drop imaginary parts."""
    if out_dt == x.dtype or _drops_imag(x.dtype, out_dt):
        return x, None
    if not np.can_cast(x.dtype, out_dt, "same_kind"):
        x = _copy.astype(x, out_dt)
    return x, out_dt


# (the kind of a Python scalar, as a dtype that casts as it does)
_SCALAR_KINDS = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64),
                 complex: np.dtype(np.complex128)}


def _check_same_kind(what, inputs, dtype):
    """np.dtype(dtype), or TypeError when an input does not cast to it
    within its kind (an array, a NumPy scalar of its dtype, a Python scalar
    of its kind: np.add(int8_x, 2.7, dtype=int8) is NumPy's error too)."""
    dt = np.dtype(dtype)
    for a in inputs:
        src = a.dtype if isinstance(a, (usm_ndarray, np.generic)) else _SCALAR_KINDS.get(type(a))
        if src is not None and not np.can_cast(src, dt, "same_kind"):
            raise TypeError(f"{what}: cannot cast the input from {src} to {dt} with casting "
                            "rule 'same_kind'")
    return dt


def _natural_dtype(fn, inputs):
    """The output dtype `fn` gives `inputs` without ``dtype=`` (None where
    the table does not say: functions without a table entry)."""
    op = getattr(fn, "_op", None)
    arr = next((v for v in inputs if isinstance(v, usm_ndarray)), None)
    if op is None or arr is None:
        return None
    qi = arr._q
    adt = _dtypes.result_type(*[v for v in inputs if isinstance(v, usm_ndarray)])
    dts = tuple(v._dtype if isinstance(v, usm_ndarray) else
                _dtypes.to_dtype(v.dtype) if isinstance(v, np.generic) else
                weak_scalar_dtype(v, adt, qi) for v in inputs)
    try:
        return op.resolve(dts, qi)[1]
    except TypeError:
        return None


def _cast_inputs(what, inputs, dtype):
    """The array inputs cast to a ufunc's ``dtype=``, within their kind as
    NumPy's default casting="same_kind" allows (float -> int truncated the
    inputs)."""
    dt = _check_same_kind(what, inputs, dtype)
    return tuple(_copy.astype(a, dt, copy=False) if isinstance(a, usm_ndarray) else a
                 for a in inputs)


def _check_loop(what, fn, inputs, dtype):
    """TypeError unless `fn` has a loop of the inputs cast to `dtype` giving
    `dtype` (NumPy 2's ``dtype=`` names the loop: ``np.less(x, 1,
    dtype=float64)`` has none, where the cast inputs would give bool)."""
    op = getattr(fn, "_op", None)
    arr = next((v for v in inputs if isinstance(v, usm_ndarray)), None)
    if op is None or arr is None:   # (np.add(1, 2, out=x, dtype=...): computed as usual)
        return
    qi = arr._q
    dt = np.dtype(dtype)
    try:
        out_dt = op.resolve((dt,) * op.nin, qi)[1]
    except TypeError:
        out_dt = None
    if out_dt is None or out_dt != dt:   # (np.dtype(None) is float64: None first)
        raise TypeError(f"{what}: no loop matching the specified signature and casting was "
                        f"found (dtype={dt.name})")


def _single_out(what, out):
    if out is None:
        return None
    if isinstance(out, tuple):
        if len(out) != 1:
            raise TypeError(f"{what}: out must be one usm_ndarray")
        out = out[0]
    if out is None:
        return None
    if not isinstance(out, usm_ndarray):
        if isinstance(out, np.ndarray):
            raise mixed_operand_error(what, out)
        raise TypeError(f"{what}: out must be a usm_ndarray, got {type(out).__name__}")
    return out


def _several_out(what, out, nout):
    """The `out` of a ufunc of `nout` results (divmod, modf, frexp): a tuple
    of that many usm_ndarrays or Nones (None: all new)."""
    if out is None:
        return (None,) * nout
    if not isinstance(out, tuple) or len(out) != nout:
        raise TypeError(f"{what}: out must be a tuple of {nout} usm_ndarrays (or Nones)")
    for o in out:
        if o is not None and not isinstance(o, usm_ndarray):
            if isinstance(o, np.ndarray):
                raise mixed_operand_error(what, o)
            raise TypeError(f"{what}: out must hold usm_ndarrays, got {type(o).__name__}")
    return out


def ufunc_name(ufunc):
    """A ufunc's public name: "numpy.sin" for NumPy's; for others (SciPy's,
    which have no ``__module__``) the module that holds it, found in
    sys.modules only for ufuncs not NumPy's: the shortest public one
    ("scipy.special.erf"), else the public package of a private one (SciPy's
    array API mode replaces scipy.special.erf by a wrapper: the ufunc is then
    only in scipy.special._ufuncs, named scipy.special.erf too)."""
    name = ufunc.__name__
    if getattr(np, name, None) is ufunc:
        return "numpy." + name
    found = [m for m, mod in list(sys.modules.items())
             if mod is not None and getattr(mod, "__dict__", {}).get(name) is ufunc]
    public = [m for m in found if not any(p.startswith("_") for p in m.split("."))]
    if public:
        return f"{min(public, key=len)}.{name}"
    for m in sorted(found, key=len):
        parts = m.split(".")
        head = parts[:next(i for i, p in enumerate(parts) if p.startswith("_"))]
        if head:
            return ".".join(head + [name])
    return f"the ufunc {name}"


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """``usm_ndarray.__array_ufunc__``: NumPy ufuncs computed by usmarray."""
    what = ufunc_name(ufunc) + ("" if method == "__call__" else f".{method}")
    # a NumPy scalar on the left of a comparison (np.float64(2.5) < x)
    # arrives as a 0-d ndarray: its value, a scalar
    inputs = tuple(v[()] if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "biufc"
                   else v for v in inputs)
    if _HOST_OPERANDS.get():
        inputs = tuple(_to_device(v, self) for v in inputs)
    if method == "at":
        # (the indices are an index: host lists and arrays are fine there)
        if kwargs:
            raise TypeError(f"{what}: unexpected keyword {next(iter(kwargs))!r}")
        if len(inputs) not in (2, 3):
            raise TypeError(f"{what} takes the array, the indices and the values")
        fn = UFUNCS.get(ufunc.__name__)   # (the table's name: power -> pow)
        return ufunc_methods.ufunc_at(fn.__name__ if fn is not None else ufunc.__name__,
                                      inputs[0], inputs[1], inputs[2] if len(inputs) == 3 else None,
                                      what)
    if method == "reduceat":
        # (the indices, like at's, may be host data)
        unknown = set(kwargs) - {"axis", "dtype", "out"}
        if unknown:
            raise TypeError(f"{what}: unexpected keyword {sorted(unknown)[0]!r}")
        if len(inputs) != 2:
            raise TypeError(f"{what} takes the array and the indices")
        fn = UFUNCS.get(ufunc.__name__)
        res = ufunc_methods.ufunc_reduceat(fn.__name__ if fn is not None else ufunc.__name__,
                                           inputs[0], inputs[1], kwargs.get("axis", 0),
                                           kwargs.get("dtype"), what)
        out = _single_out(what, kwargs.get("out"))
        if out is not None and out.dtype != res.dtype:
            res = _copy.astype(res, out.dtype)   # (NumPy's reductions cast into out unsafely)
        return _deliver(what, res, out)
    for v in inputs + tuple(kwargs.get("out", None) or ()):
        if v is None or isinstance(v, usm_ndarray) or _as_scalar(v) is not None:
            continue
        if isinstance(v, (np.ndarray, list, tuple)):
            raise mixed_operand_error(what, v)
        if hasattr(type(v), "__array_ufunc__"):
            return NotImplemented   # another array type may know how to combine with us
        raise TypeError(f"{what}: unsupported operand type {type(v).__name__}")
    several = ufunc.nout > 1 and method == "__call__"   # (divmod, modf, frexp)
    out = kwargs.pop("out", None)
    out = _several_out(what, out, ufunc.nout) if several else _single_out(what, out)
    for k, default in _UFUNC_DEFAULTS.items():
        if k in kwargs:
            v = kwargs.pop(k)
            if isinstance(default, bool) and isinstance(v, np.bool_):
                v = bool(v)   # (where=np.True_ is where=True)
            if not (v is default or (type(v) is type(default) and v == default)):
                hint = (": compute everywhere and select with ua.where(mask, result, other)"
                        if k == "where" else "")
                raise TypeError(f"{what}: {k}={_show(v)} is not supported{hint}")
    if several:
        res = _ufunc_call(what, ufunc, inputs, None, kwargs)
        return tuple(_deliver(what, r, o, broadcast=True) for r, o in zip(res, out))
    if method == "__call__":
        return _ufunc_call(what, ufunc, inputs, out, kwargs)
    if method == "reduce":
        return _ufunc_reduce(what, ufunc, inputs, out, kwargs, REDUCE,
                             ("axis", "dtype", "keepdims"))
    if method == "accumulate":
        return _ufunc_reduce(what, ufunc, inputs, out, kwargs, ACCUMULATE, ("axis", "dtype"))
    if method == "outer" and ufunc.nin == 2 and ufunc.signature is None and len(inputs) == 2:
        # op(a[..., None, ...], b): a's dimensions first, then b's; scalars are
        # arrays there (NumPy's outer converts them: int64, float64)
        a, b = (v if isinstance(v, usm_ndarray) else
                creation.asarray(np.asarray(v), sycl_queue=self.sycl_queue, usm_type=self.usm_type)
                for v in inputs)
        if isinstance(a, usm_ndarray):
            a = manipulation.reshape(a, a.shape + (1,) * np.ndim(b))
        return _ufunc_call(what, ufunc, (a, b), out, kwargs)
    raise TypeError(f"{what}: the ufunc method {method!r} is not supported by usmarray "
                    "(supported: __call__, at, reduceat and outer, and reduce/accumulate of some "
                    "ufuncs)")


def _ufunc_call(what, ufunc, inputs, out, kwargs):
    fn = UFUNCS.get(ufunc.__name__)
    if fn is None:
        raise TypeError(f"{what} has no usmarray counterpart (ufuncs usmarray computes: "
                        "usmarray.numpy_protocols.UFUNCS)")
    params = _params(fn)
    dtype = kwargs.pop("dtype", None)
    kw = {}
    for k in list(kwargs):
        if k in params and k in ("order", "axis"):
            kw[k] = kwargs.pop(k)
    if kwargs:
        k, v = next(iter(kwargs.items()))
        raise _unsupported(what, k, v, fn.__name__)
    if dtype is not None and getattr(getattr(fn, "_op", None), "truthy", False) \
            and np.dtype(dtype) == np.bool_:
        dtype = None   # (NumPy's logical_and(ints, ints, dtype=bool): their truth values)
    natural = _natural_dtype(fn, inputs) if dtype is not None and "dtype" not in params else None
    if natural is not None and natural == np.dtype(dtype):   # (np.dtype(None) is float64)
        # (NumPy's dtype= names the output's type: the call's own, as
        # np.equal(a, b, dtype=bool), np.absolute(c128, dtype=float64))
        _check_same_kind(what, [v for v in inputs if not isinstance(v, usm_ndarray)], dtype)
        dtype = None
    if dtype is not None:
        if "dtype" in params:
            _check_same_kind(what, inputs, dtype)
            kw["dtype"] = dtype
        elif fn is special.ldexp:
            # (the mantissas' type: the exponents stay integers)
            if np.dtype(dtype).kind != "f":
                raise TypeError(f"{what}: no loop matching the specified signature and casting "
                                f"was found (dtype={np.dtype(dtype).name})")
            inputs = _cast_inputs(what, inputs[:1], dtype) + tuple(inputs[1:])
        else:
            inputs = _cast_inputs(what, inputs, dtype)
            _check_loop(what, fn, inputs, dtype)
    elementwise = ufunc.signature is None   # (not matmul, vecdot: gufuncs)
    if not elementwise and "axis" in kw:
        # a gufunc's core axis counts in each operand's own dimensions
        # (np.vecdot(a, b, axis=1) of (2, 3, 3) and (3, 3)), not the broadcast ones
        a = kw.pop("axis")
        inputs = [manipulation.moveaxis(v, normalize_axis(a, v.ndim), -1)
                  if isinstance(v, usm_ndarray) else v for v in inputs]
    if out is not None and "out" in params and not (
            elementwise and isinstance(out, usm_ndarray) and out._shape != broadcast_shapes(
                *(v.shape if isinstance(v, usm_ndarray) else np.shape(v) for v in inputs))):
        return fn(*inputs, out=out, **kw)
    return _deliver(what, fn(*inputs, **kw), out, broadcast=elementwise)


def _ufunc_reduce(what, ufunc, inputs, out, kwargs, table, allowed):
    name = table.get(ufunc.__name__)
    if name is None:
        raise TypeError(f"{what} is not supported by usmarray (supported for: "
                        f"{', '.join(sorted(table))})")
    if len(inputs) != 1 or not isinstance(inputs[0], usm_ndarray):
        raise TypeError(f"{what}: expected one usm_ndarray")
    x = inputs[0]
    fn = getattr(_namespace(), name)
    for k, v in kwargs.items():
        if k not in allowed:
            if k == "initial" and v is np._NoValue:
                continue
            raise _unsupported(what, k, v, name)
    axis = kwargs.get("axis", 0)       # NumPy reduces and accumulates along axis 0 by default
    dtype = kwargs.get("dtype")
    params = _params(fn)
    kw = {}
    if dtype is not None and ufunc.__name__ in UFUNCS:
        # (the dtype must name a loop of the ufunc, as for a call:
        # logical_or.reduce(x, dtype=float64) has none)
        _check_loop(what, UFUNCS[ufunc.__name__], (x, x), dtype)
    if dtype is not None:
        # (NumPy casts a reduction's input as it must: add.reduce(int32_x,
        # dtype=uint64); complex into real only is refused, as stores are)
        dt = np.dtype(dtype)
        if _drops_imag(x.dtype, dt):
            raise TypeError(f"{what}: cannot cast the complex input to {dt} (the imaginary "
                            "parts would be dropped)")
        if "dtype" in params:
            kw["dtype"] = dtype
            if not np.can_cast(x.dtype, dt, "same_kind"):
                x = _copy.astype(x, dt)
        else:
            x = _copy.astype(x, dt, copy=False)
    if table is ACCUMULATE:
        if axis is None:
            raise TypeError(f"{what}: axis=None is not supported (as in NumPy)")
        if x.ndim == 0:
            raise TypeError(f"{what}: cannot accumulate on a 0-d array")
    else:
        if kwargs.get("keepdims"):
            kw["keepdims"] = True
        if x.ndim == 0 and type(axis) is int and axis in (0, -1):
            axis = None   # (NumPy reduces a 0-d array along "axis 0" to itself)
    kw["axis"] = axis
    if isinstance(out, usm_ndarray) and dtype is None and "dtype" in params:
        x, loop = _loop_in_out_type(x, out.dtype)
        if loop is not None:
            kw["dtype"] = loop
    if out is not None and "out" in params and (out.dtype == x.dtype or "dtype" in kw):
        return fn(x, out=out, **kw)
    return _deliver(what, fn(x, **kw), out, casting="unsafe")


# ================================================================= functions
def _same(value, default):
    if value is default:
        return True
    return (type(value) is type(default) and isinstance(default, (bool, int, float, str, tuple))
            and value == default)


# NumPy functions that take axis 0 (or -1) of a 0-d array as its only axis
# (those built on ufunc.reduce and accumulate, argmax/argmin, argsort,
# count_nonzero, squeeze; not mean, std, var, median, sort): the same as
# axis=None. (usmarray's functions of NumPy's names only, nansum, ptp...,
# read it so themselves: _core._reduce.numpy_axis.)
_AXIS_OF_0D = {"numpy." + n for n in (
    "sum prod max min amax amin any all argmax argmin cumsum cumprod count_nonzero "
    "argsort squeeze repeat").split()}


# NumPy's functions that are ufunc reductions or accumulations: with out= and no
# dtype=, their loop runs in out's type
_LOOP_OF_OUT = {"numpy." + n for n in (
    "sum prod cumsum cumprod nansum nanprod nancumsum nancumprod cumulative_sum "
    "cumulative_prod").split()}
# NumPy's reductions, whose result is cast into out= as it must (not within
# its kind only, as a ufunc's): np.max(int8_x, out=uint8_y)
_OUT_CAST = _LOOP_OF_OUT | {"numpy." + n for n in (
    "mean var std max min amax amin nanmax nanmin nanmean nanvar nanstd ptp median "
    "nanmedian all any").split()}



class _Param:
    """A parameter of a NumPy signature: inspect.Parameter's name, kind and
    default as plain attributes (its properties took a tenth of a small
    call's dispatch)."""

    __slots__ = ("name", "kind", "default")
    POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = inspect.Parameter.VAR_POSITIONAL
    KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY
    VAR_KEYWORD = inspect.Parameter.VAR_KEYWORD
    empty = inspect.Parameter.empty

    def __init__(self, p):
        self.name, self.kind, self.default = p.name, p.kind, p.default


class Function:
    """One NumPy function and its usmarray counterpart.

    Parameters
    ----------
    np_func : callable
        The NumPy function (its signature binds the call).
    target : callable
        The usmarray function.
    rename : dict, optional
        NumPy parameter name -> the counterpart's name, or None for a NumPy
        parameter that is accepted and ignored.
    defaults : dict, optional
        Keyword arguments given to the counterpart unless the call sets them
        (``np.fft.fft2``'s axes).
    prep : callable, optional
        ``prep(arguments) -> arguments`` on NumPy's bound arguments (a dict)
        before they are translated; may also return ``(result,)`` to answer
        the call itself.
    host_operands : bool
        Whether host arrays are accepted (the creation functions with
        ``like=``, whose point is to move data to the device).
    """

    __slots__ = ("np_func", "what", "target", "rename", "defaults", "prep", "_np_params",
                 "_npos", "_tparams", "host_operands", "_sig", "_by_name", "_npos_np",
                 "_simple", "_var_pos", "_t_var_kw")

    def __init__(self, np_func, target, rename=None, defaults=None, prep=None,
                 host_operands=False):
        self.np_func = np_func
        self.what = f"{np_func.__module__}.{np_func.__name__}"
        self.target = target
        self.rename = rename or {}
        self.defaults = defaults or {}
        self.prep = prep
        self.host_operands = host_operands
        self._sig = inspect.signature(np_func)
        self._np_params = [_Param(p) for p in self._sig.parameters.values()]
        # (a signature without *args and **kwargs binds without inspect)
        self._simple = all(p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                           for p in self._np_params)
        self._by_name = {p.name: p for p in self._np_params if p.kind is not p.POSITIONAL_ONLY}
        self._npos_np = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                            for p in self._np_params)
        # (NumPy's *args: the parameters before it go to the target by position)
        self._var_pos = next((i for i, p in enumerate(self._np_params)
                              if p.kind is p.VAR_POSITIONAL), None)
        tparams = list(_params(target).values())
        self._t_var_kw = any(p.kind is p.VAR_KEYWORD for p in tparams)
        self._npos = sum(p.kind is p.POSITIONAL_ONLY for p in tparams)
        self._tparams = {p.name for p in tparams if p.kind is not p.POSITIONAL_ONLY}

    def _bind(self, args, kwargs):
        """{parameter name: value} of a call, in the signature's order, as
        ``inspect.Signature.bind`` gives it (which took a third of a small
        call's dispatch)."""
        if not self._simple or len(args) > self._npos_np or \
                any(k not in self._by_name for k in kwargs):
            return dict(self._sig.bind(*args, **kwargs).arguments)
        given = {}
        for i, p in enumerate(self._np_params):
            if i < len(args):
                if p.name in kwargs:
                    raise TypeError(f"multiple values for argument {p.name!r}")
                given[p.name] = args[i]
            elif p.name in kwargs:
                given[p.name] = kwargs[p.name]
            elif p.default is p.empty:
                raise TypeError(f"missing a required argument: {p.name!r}")
        return given

    @property
    def target_name(self):
        return getattr(self.target, "__name__", repr(self.target))

    def __call__(self, args, kwargs, extra=None):
        """The result of ``np_func(*args, **kwargs)``; `extra`: more keywords for the target."""
        if (not kwargs and not extra and len(args) == 1 and self.prep is None
                and not self.defaults and isinstance(args[0], usm_ndarray)):
            return self.target(args[0])    # np.sum(x), x.sum(): nothing to translate
        try:
            given = self._bind(args, kwargs)
        except TypeError as e:
            raise TypeError(f"{self.what}: {e}") from None
        if not self.host_operands:
            host = HOST_PARAMS.get(self.what[len("numpy."):], ())
            _check_operands(self.what, list(args) + list(kwargs.values()) if not host else
                            [v for k, v in given.items() if k not in host])
        if self.what in _AXIS_OF_0D and "axis" in given:
            a = given["axis"]
            x = next(iter(given.values()))
            if isinstance(x, usm_ndarray) and x.ndim == 0 and type(a) is int and a in (0, -1):
                given["axis"] = None   # NumPy's reading of axis 0 of a 0-d array here
        if self.prep is not None:
            given = self.prep(given)
            if isinstance(given, tuple):
                return given[0]
        pos, kw = [], dict(self.defaults)
        if extra:
            kw.update(extra)
        out = dtype = None
        npos = self._npos
        if self._var_pos is not None and given.get(self._np_params[self._var_pos].name):
            npos = self._var_pos   # (apply_along_axis(f, 1, x, 2): f, 1, x by position)
        for i, p in enumerate(self._np_params):
            if p.name not in given:
                continue
            v = given[p.name]
            if p.kind is p.VAR_POSITIONAL:
                pos.extend(v)
                continue
            if p.kind is p.VAR_KEYWORD:
                if v and not self._t_var_kw:
                    raise _unsupported(self.what, next(iter(v)), next(iter(v.values())),
                                       self.target_name)
                kw.update(v)
                continue
            if i < npos:
                if len(pos) != i:
                    raise TypeError(f"{self.what}: argument {p.name} given without the ones "
                                    "before it")
                pos.append(v)
                continue
            if v is np._NoValue or (p.default is not p.empty and _same(v, p.default)):
                continue
            # (a counterpart that has NumPy's name, np.cov's ddof say, keeps it)
            name = p.name if p.name in self._tparams else self.rename.get(p.name, p.name)
            if name is None:
                continue
            if name in self._tparams:
                kw[name] = v
            elif name == "out":
                out = v
            elif name == "dtype":
                dtype = v
            else:
                raise _unsupported(self.what, p.name, v, self.target_name)
        if dtype is not None:
            if pos and isinstance(pos[0], usm_ndarray):
                pos[0], = _cast_inputs(self.what, pos[:1], dtype)
            else:
                raise _unsupported(self.what, "dtype", dtype, self.target_name)
        if out is not None and not isinstance(out, usm_ndarray):
            raise TypeError(f"{self.what}: out must be a usm_ndarray, got {type(out).__name__}")
        o = out if out is not None else kw.get("out")
        casting = "same_kind"
        if isinstance(o, usm_ndarray) and self.what in _OUT_CAST:
            # NumPy's reductions cast into out as they must (np.mean(f32, out=int16))
            casting = "unsafe"
            if "out" in kw:
                out = kw.pop("out")
        if (isinstance(o, usm_ndarray) and self.what in _LOOP_OF_OUT and "dtype" not in kw
                and pos and isinstance(pos[0], usm_ndarray)):
            # (np.prod(float16, out=float64) multiplies in float64)
            pos[0], loop = _loop_in_out_type(pos[0], o.dtype)
            if loop is not None:
                kw["dtype"] = loop
        r = self.target(*pos, **kw)
        if dtype is not None and isinstance(r, usm_ndarray) and r.dtype != np.dtype(dtype):
            r = _copy.astype(r, np.dtype(dtype))   # (np.mean(ints, dtype=int64): an int64 result)
        return _deliver(self.what, r, out, casting=casting)


# ---- adapters (argument rules NumPy and the array API spell differently)
def _flat_when_axis_none(default_none):
    """NumPy's functions that work on the flattened array for axis=None
    (cumsum, take: also when axis is not given; sort, argsort, take_along_axis:
    only when it is given as None, their default being -1); the array API's
    need 1-D input then."""
    def prep(args):
        flat = args.get("axis") is None if default_none else \
            ("axis" in args and args["axis"] is None)
        name = next(iter(args))   # (the array: "a", take_along_axis's "arr")
        a = args[name]
        if flat and isinstance(a, usm_ndarray):
            args[name] = manipulation.reshape(a, (-1,))
            args["axis"] = 0
        return args
    return prep


def _one_d_when_0d(args):
    """np.cumulative_sum/prod of a 0-d array: NumPy's reads it as 1-d."""
    x = args.get("x")
    if isinstance(x, usm_ndarray) and x.ndim == 0 and args.get("axis") in (None, 0, -1):
        args["x"] = manipulation.reshape(x, (1,))
        args["axis"] = 0
    return args


def _clip_dtype(args):
    """np.clip computes in NumPy's result dtype of the array and its bounds
    (Python numbers weak: an int8 array clipped to 0.5 is float64; ua.clip,
    dpctl.tensor's, keeps the array's dtype)."""
    x = args.get("a")
    if not isinstance(x, usm_ndarray):
        return args
    parts = [x.dtype]
    for k in ("a_min", "a_max", "min", "max"):
        v = args.get(k, np._NoValue)
        if v is None or v is np._NoValue:
            continue
        parts.append(v.dtype if isinstance(v, (usm_ndarray, np.generic)) else v)
    dt = np.result_type(*parts)
    if dt != x.dtype:
        if dt.kind in "fc" and dt.itemsize > x._q.float.itemsize * (2 if dt.kind == "c" else 1):
            dt = x._q.float if dt.kind == "f" else x._q.complex   # (a device without fp64)
        args["a"] = _copy.astype(x, dt)
    return args


def _matrix_of_1d(args):
    """np.tril/np.triu of a 1-d array: NumPy's masks it broadcast as the rows
    of a square matrix."""
    m = args.get("m")
    if isinstance(m, usm_ndarray) and m.ndim == 1:
        args["m"] = manipulation.broadcast_to(m, m.shape * 2)
    return args


def numpy_sort_kind(kind):
    """usmarray's sort kind for NumPy's: a stable sort is a valid "quicksort" or
    "heapsort" (NumPy promises those no order among equal keys)."""
    return None if kind in ("quicksort", "heapsort") else kind


_flat_sort = _flat_when_axis_none(False)


def _sort_args(args):
    if "kind" in args:
        args["kind"] = numpy_sort_kind(args["kind"])
    a = args.get("a")
    if isinstance(a, usm_ndarray) and a.ndim == 0 and args.get("axis", -1) is not None:
        # NumPy: no axis to sort along (np.argsort takes the 0-d array as 1-d)
        raise np.exceptions.AxisError(args.get("axis", -1), 0)
    return _flat_sort(args)


def _argsort_args(args):
    a = args.get("a")
    if isinstance(a, usm_ndarray) and a.ndim == 0:
        # (NumPy takes the 0-d array as 1-d: axis 0, -1 or None only)
        ax = args.get("axis", -1)
        args["a"], args["axis"] = manipulation.reshape(a, (1,)), -1
        if ax is not None:
            normalize_axis(ax, 1)
    return _sort_args(args)


def _transpose(args):
    if args.get("axes") is None:
        args["axes"] = tuple(range(args["a"].ndim))[::-1] if isinstance(args["a"], usm_ndarray) \
            else args.get("axes")
    return args


def _where(args):
    if "x" not in args and "y" not in args:
        return (searching.nonzero(args["condition"]),)
    if "x" not in args or "y" not in args:
        raise TypeError("numpy.where: either both or neither of x and y should be given")
    return args


def _put_along_axis(args):
    """np.put_along_axis: an index out of bounds raises IndexError, as in NumPy
    (usmarray's put_along_axis maps indices into range by its `mode`)."""
    arr, axis = args["arr"], args["axis"]
    if axis is None:
        if not isinstance(arr, usm_ndarray) or arr.ndim != 1:
            raise TypeError("numpy.put_along_axis: axis=None is supported for 1-D arrays only")
        axis = 0
    _indexing.put_along_axis(arr, args["indices"], args["values"], axis=axis)
    return (None,)


def _take(a, indices, axis=None, out=None, mode="raise"):
    """np.take: NumPy's index modes ("wrap": modulo the axis' length, "clip":
    into [0, n - 1], negative indices too; usmarray's take has dpctl.tensor's)
    and indices of any shape, whose shape replaces the axis in the result."""
    if not isinstance(a, usm_ndarray):
        raise TypeError("numpy.take: expected a usm_ndarray")
    if axis is None:
        a, axis = manipulation.reshape(a, (-1,)), 0
    axis = normalize_axis(axis, a.ndim)
    if isinstance(indices, (list, tuple)) and np.size(indices) == 0:
        indices = np.zeros(np.shape(indices), np.int64)   # ([]: NumPy's float64 empty list)
    i = indices if isinstance(indices, usm_ndarray) else \
        creation.asarray(indices, sycl_queue=a.sycl_queue, usm_type=a.usm_type)
    if i.dtype.kind not in "iu":
        raise TypeError(f"numpy.take: indices must be integers, got {i.dtype.name}")
    n = a.shape[axis]
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"numpy.take: clipmode must be one of 'clip', 'raise', or 'wrap', got {mode!r}")
    if mode != "raise" and i.size:
        if n == 0:
            raise IndexError("numpy.take: cannot do a non-empty take from an empty axis")
        i = elementwise.remainder(i, n) if mode == "wrap" else elementwise.clip(i, 0, n - 1)
    r = indexing.take(a, manipulation.reshape(i, (-1,)), axis=axis)
    return _deliver("numpy.take", manipulation.reshape(r, a.shape[:axis] + i.shape + a.shape[axis + 1:]),
                    out)


def _put(a, ind, v, mode="raise"):
    """np.put: ``a.flat[ind] = v`` in place, `v` repeated to ind's length,
    NumPy's index modes ("raise": IndexError out of bounds, "wrap": modulo
    the size, "clip": into [0, size - 1], negative indices too)."""
    if not isinstance(a, usm_ndarray):
        raise TypeError("numpy.put: expected a usm_ndarray")
    if not a.flags.writable:
        raise ValueError("numpy.put: the array is read-only")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"numpy.put: clipmode must be one of 'clip', 'raise', or 'wrap', got {mode!r}")
    i = ind if isinstance(ind, usm_ndarray) else \
        creation.asarray(np.asarray(ind, dtype=np.int64) if np.size(ind) == 0 else ind,
                         sycl_queue=a.sycl_queue, usm_type=a.usm_type)
    if i.dtype.kind not in "iu":
        raise TypeError(f"numpy.put: indices must be integers, got {i.dtype.name}")
    i = manipulation.reshape(i, (-1,))
    n, k = a.size, i.shape[0]
    if k == 0:
        return None
    if n == 0:
        raise IndexError("numpy.put: cannot replace in an empty array")
    if mode == "raise":
        if int(reduction.min(i)) < -n or int(reduction.max(i)) >= n:
            raise IndexError(f"numpy.put: an index is out of bounds for size {n}")
        i = elementwise.remainder(i, n)
    else:
        i = elementwise.remainder(i, n) if mode == "wrap" else elementwise.clip(i, 0, n - 1)
    vals = v if isinstance(v, usm_ndarray) else creation.asarray(
        v, dtype=a.dtype, sycl_queue=a.sycl_queue, usm_type=a.usm_type)
    vals = manipulation.reshape(vals, (-1,))
    if vals.shape[0] == 0:
        return None
    if vals.shape[0] != k:   # (repeated as NumPy repeats a short v)
        vals = manipulation.tile(vals, -(-k // vals.shape[0]))[:k]
    a[index_tricks.unravel_index(i, a.shape)] = vals
    return None


def _meshgrid(args):
    # NumPy's: inputs of any shape read as 1-D, each grid of its input's type
    xi = args.get("xi", ())
    indexing = args.get("indexing", "xy")
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    if not all(isinstance(a, usm_ndarray) for a in xi):
        raise TypeError("numpy.meshgrid: expected usm_ndarrays")
    return (creation.coordinate_grids([ravel(a) for a in xi], indexing,
                                      bool(args.get("sparse", False)),
                                      bool(args.get("copy", True))) if xi else (),)


def _ravel(args):
    a = args["a"]
    order = args.get("order", "C")
    if order not in ("C", "F", "A", "K") or not isinstance(a, usm_ndarray):
        raise ValueError(f"numpy.ravel: order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    return (ravel(a, order),)


def _unique(args):
    ar = args["ar"]
    flags = [bool(args.get(k)) for k in ("return_index", "return_inverse", "return_counts")]
    axis = args.get("axis")
    if axis is not None and isinstance(ar, usm_ndarray) and ar.ndim == 1:
        # NumPy's: along the one axis is the flat case (NaNs merged by equal_nan)
        normalize_axis(axis, 1)
        axis = None
    if axis is not None:
        r = sets.unique_along(ar, axis, *flags)
        return (r if any(flags) else r[0],)
    if not any(flags):
        return (sets.np_unique(ar) if args.get("equal_nan", True) else sets.unique_values(ar),)
    r = sets.unique_all(ar)
    values, indices, inverse, counts = _one_nan(r.values, r, args)
    # (the inverse has the input's shape, as NumPy 2's for axis=None)
    parts = [values] + [p for p, f in zip((indices, inverse, counts), flags) if f]
    return (tuple(parts),)


def _one_nan(values, r, args):
    """(values, indices, inverse, counts) of np.unique: with equal_nan (NumPy's
    default) the NaNs, each unique for the array API and sorted last, are one
    value (the first in sorted order, as NumPy's), counted together, its index
    where that value is (for complex NaNs not always the first NaN in x), and
    the inverse of each points to it (the host learns how many values are NaN)."""
    parts = (values, r.indices, r.inverse_indices, r.counts)
    if not args.get("equal_nan", True) or values.dtype.kind not in "fc":
        return parts
    k = int(reduction.sum(elementwise.logical_not(elementwise.isnan(values)), dtype=_dtypes.int64))
    if values.shape[0] - k < 2:
        return parts
    one = (1,)
    indices = r.indices[:k + 1]
    counts = manipulation.concat([r.counts[:k], manipulation.reshape(
        reduction.sum(r.counts[k:]), one)])
    return values[:k + 1], indices, elementwise.minimum(r.inverse_indices, k), counts


def _cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """np.cross of 3-vectors (NumPy 2 deprecates 2-vectors: refused) along
    `axisa` of a and `axisb` of b into `axisc` (all `axis` when given)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    if not (isinstance(a, usm_ndarray) and isinstance(b, usm_ndarray)):
        raise TypeError("numpy.cross: expected two usm_ndarrays")
    x1, x2 = manipulation.moveaxis(a, axisa, -1), manipulation.moveaxis(b, axisb, -1)
    if x1.shape[-1] != 3 or x2.shape[-1] != 3:
        raise ValueError("numpy.cross: incompatible dimensions for cross product (usmarray "
                         "takes vectors of 3 elements)")
    r = linalg.cross(x1, x2, axis=-1)
    return manipulation.moveaxis(r, -1, axisc)


def _outer(args):
    """np.outer flattens its inputs (linalg.outer takes vectors only)."""
    a, b = (manipulation.reshape(v, (-1,)) if isinstance(v, usm_ndarray) else v
            for v in (args["a"], args["b"]))
    return (_deliver("numpy.outer", linalg.outer(a, b), args.get("out")),)


def _dot(args):
    a, b = args["a"], args["b"]
    out = args.get("out")
    if not (isinstance(a, usm_ndarray) and isinstance(b, usm_ndarray)):
        r = elementwise.multiply(a, b)
    elif a.ndim == 0 or b.ndim == 0:
        r = elementwise.multiply(a, b)
    elif a.ndim <= 2 and b.ndim <= 2:
        r = linear_algebra.matmul(a, b)
    else:
        r = linear_algebra.tensordot(a, b, axes=((a.ndim - 1,), (max(b.ndim - 2, 0),)))
    return (_deliver("numpy.dot", r, out),)


def _round(args):
    """np.round(a, decimals): NumPy's way, rint(a * 10**decimals) / 10**decimals."""
    d = args.pop("decimals", 0)
    a = args["a"]
    if not d or not isinstance(a, usm_ndarray):
        return args
    out = args.get("out")
    # 10**|d| past the float range is inf (NumPy's answer is then NaN), not
    # Python's OverflowError
    scale = 10.0 ** abs(d) if abs(d) <= 308 else math.inf
    if a.dtype.kind in "iu":
        # NumPy's integers: unchanged for decimals > 0, else the float way
        # below cast back (NumPy's results, extremes included)
        r = _copy.copy(a) if d > 0 else _copy.astype(elementwise.multiply(
            elementwise.round(elementwise.divide(a, scale)), scale), a.dtype)
        return (_deliver("numpy.round", r, out),)
    if a.dtype.kind not in "fc":
        raise _unsupported("numpy.round", "decimals", d, "round (of booleans)")
    def rounded(v):
        if d > 0:
            return elementwise.divide(elementwise.round(elementwise.multiply(v, scale)), scale)
        return elementwise.multiply(elementwise.round(elementwise.divide(v, scale)), scale)

    if a.dtype.kind == "c":
        # part by part, as NumPy (a complex product by the scale would make
        # inf * 0 = NaN of an infinite part's partner)
        r = _copy.copy(a)
        r.real = rounded(elementwise.real(a))
        r.imag = rounded(elementwise.imag(a))
    else:
        r = rounded(a)
    return (_deliver("numpy.round", r, out),)


def _svd(args):
    if args.get("compute_uv", True) is False:
        return (linalg.svdvals(args["a"]),)
    args.pop("compute_uv", None)
    return args


def _qr(args):
    """np.linalg.qr(a, mode="r"): R alone (NumPy's mode "raw", LAPACK's
    packed form, stays refused by ua.linalg.qr)."""
    if args.get("mode") == "r":
        return (linalg.qr(args["a"], mode="reduced")[1],)
    return args


def _svd_args(args):
    """np.linalg.svd: ``compute_uv=False`` gives the singular values alone;
    ``hermitian=True`` (NumPy's eigh-based shortcut) computes the general
    SVD, the same factorisation of a Hermitian matrix."""
    args.pop("hermitian", None)
    return _svd(args)


def _pinv(args):
    """np.linalg.pinv with NumPy's cutoffs: ``rcond`` (default 1e-15, unless
    ``rtol`` is given; ``rtol=None``: max(M, N) * eps, ua.linalg.pinv's)."""
    rcond = args.pop("rcond", None)
    rtol = args.pop("rtol", np._NoValue)
    args.pop("hermitian", None)   # (the general pseudo-inverse: the same for Hermitian input)
    if rcond is not None:
        args["rtol"] = rcond
    elif rtol is np._NoValue:
        args["rtol"] = 1e-15
    elif rtol is not None:
        args["rtol"] = rtol
    return args


def _fft_input(args):
    """np.fft's transforms take integer and bool arrays, computing in the
    default floating type (usmarray.fft, as the array API, takes floats)."""
    a = args.get("a")
    if isinstance(a, usm_ndarray) and a.dtype.kind in "biu":
        args["a"] = _copy.astype(a, a._q.float)
    return args


def _uplo(args):
    """np.linalg.eigh/eigvalsh: ``UPLO="U"`` reads the upper triangle (the
    lower one of the conjugate transpose, which ua.linalg reads)."""
    uplo = args.pop("UPLO", "L")
    if uplo not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    if uplo == "U":
        a = args["a"]
        t = manipulation.matrix_transpose(a)
        args["a"] = elementwise.conj(t) if a.dtype.kind == "c" else t
    return args


def _matrix_rank(args):
    """np.linalg.matrix_rank: ``tol`` an absolute cutoff on the singular
    values, ``rtol`` a relative one; ``hermitian`` computes the general SVD."""
    args.pop("hermitian", None)
    tol = args.pop("tol", None)
    if tol is None:
        return args
    a = args["A"]
    if not isinstance(a, usm_ndarray) or a.ndim < 2:
        return args   # (ua.linalg.matrix_rank says what it makes of these)
    sv = linalg.svdvals(a)
    t = tol if not isinstance(tol, usm_ndarray) else manipulation.expand_dims(tol, axis=-1)
    return (searching.count_nonzero(elementwise.greater(sv, t), axis=-1),)


def _irfftn_s(default_axes):
    def prep(args):
        """np.fft.irfftn/irfft2: -1 in ``s`` is the input's length along
        that axis (NumPy's _cook_nd_args), also the last (usmarray.fft
        reads it as the default length there, 2 * (m - 1))."""
        args = _fft_input(args)
        s = args.get("s")
        if s is not None and -1 in list(s):
            a = args["a"]
            axes = args.get("axes", default_axes)
            if axes is None:
                axes = range(a.ndim - len(s), a.ndim)
            args["s"] = tuple(a.shape[ax] if v == -1 else v for v, ax in zip(s, axes))
        return args
    return prep


def _angle(args):
    if args.get("deg"):
        raise _unsupported("numpy.angle", "deg", True, "angle")
    z = args["z"]
    if isinstance(z, usm_ndarray) and z.dtype.kind != "c":
        # the angle of a real number: 0 or pi (NumPy's arctan2(0, x), in its
        # loop's float type: int8 -> float16, int16 -> float32; bool beside
        # the Python 0 is an int64)
        dt = z._q.float if z.dtype.kind == "b" else OP["atan2"].resolve((z.dtype,) * 2, z._q)[0][0]
        f = _copy.astype(z, dt, copy=False)
        return (elementwise.atan2(creation.zeros_like(f), f),)
    return args


def _pad(args):
    """np.pad(array, pad_width, mode, **kwargs): the mode's options in **kwargs."""
    return (padding.pad(args["array"], args["pad_width"], args.get("mode", "constant"),
                        **args.get("kwargs", {})),)


def _einsum(args):
    """np.einsum(*operands, out=, optimize=, **kwargs): dtype, order and
    casting arrive in NumPy's **kwargs."""
    return (contractions.einsum(*args.get("operands", ()), out=args.get("out"),
                                optimize=args.get("optimize", False), **args.get("kwargs", {})),)


def _savez(target):
    def prep(args):
        target(args["file"], *args.get("args", ()), allow_pickle=args.get("allow_pickle", True),
               **args.get("kwds", {}))
        return (None,)
    return prep


def _shape(a, /):
    return a.shape


def _can_cast(from_, to, casting="safe"):
    """``numpy.can_cast`` of an array: its dtype's cast, as NumPy's."""
    return np.can_cast(from_.dtype if isinstance(from_, usm_ndarray) else from_, to, casting)


def _ndim(a, /):
    return a.ndim


def _size(a, /, axis=None):
    if axis is None:
        return a.size
    axes = (axis,) if isinstance(axis, int) else axis
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


def _two_axes(name, a, axis1, axis2, offset, rest):
    """np.trace/np.diagonal: NumPy's axes (default 0, 1) moved last for the linalg function."""
    if not isinstance(a, usm_ndarray):
        raise TypeError(f"numpy.{name}: expected a usm_ndarray")
    m = manipulation.moveaxis(a, (axis1, axis2), (-2, -1))
    return getattr(linalg, name)(m, offset=offset, **rest)


def _extract(condition, arr, /):
    """np.extract: condition and arr flattened, of any sizes (the first
    elements of arr; a true entry beyond them is an IndexError)."""
    if isinstance(condition, usm_ndarray) and isinstance(arr, usm_ndarray) and \
            condition.shape != arr.shape:
        c, a = manipulation.reshape(condition, (-1,)), manipulation.reshape(arr, (-1,))
        n = a.shape[0]
        if c.shape[0] > n:
            if int(searching.count_nonzero(c[n:])):
                raise IndexError(f"index {n} is out of bounds for axis 0 with size {n}")
            c = c[:n]
        condition, arr = c, a[:c.shape[0]]
    return indexing.extract(condition, arr)


def _place(arr, /, mask, vals):
    """np.place: a mask of arr's size (not shape) is enough; array values
    must cast safely (ua.place casts them as dpctl.tensor's did)."""
    if isinstance(arr, usm_ndarray) and isinstance(vals, usm_ndarray) and \
            not np.can_cast(vals.dtype, arr.dtype, "safe"):
        raise TypeError(f"Cannot cast array data from dtype('{vals.dtype}') to "
                        f"dtype('{arr.dtype}') according to the rule 'safe'")
    if isinstance(arr, usm_ndarray) and isinstance(mask, usm_ndarray) and \
            mask.shape != arr.shape:
        if mask.size != arr.size:
            raise ValueError("place: mask and data must be the same size")
        mask = manipulation.reshape(mask, arr.shape)
    return indexing.place(arr, mask, vals)


def _array_repr(arr, /, max_line_width=None, precision=None, suppress_small=None):
    return _print.usm_ndarray_repr(arr, line_width=max_line_width, precision=precision,
                                   suppress=suppress_small)


def _array_str(a, /, max_line_width=None, precision=None, suppress_small=None):
    return _print.usm_ndarray_str(a, line_width=max_line_width, precision=precision,
                                  suppress=suppress_small)


def _array2string(a, /, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                  prefix="", threshold=None, edgeitems=None, sign=None, floatmode=None,
                  suffix=""):
    """np.array2string of a usm_ndarray: as str(x) with the options given
    (usmarray's print options for the others; NumPy's formatter= and legacy=
    are a TypeError)."""
    return _print.usm_ndarray_str(a, line_width=max_line_width, edge_items=edgeitems,
                                  threshold=threshold, precision=precision, floatmode=floatmode,
                                  suppress=suppress_small, sign=sign, separator=separator,
                                  prefix=prefix, suffix=suffix, scalar_str=False)


def _trace(a, /, offset=0, axis1=0, axis2=1, dtype=None):
    return _two_axes("trace", a, axis1, axis2, offset, {"dtype": dtype})


def _diagonal(a, /, offset=0, axis1=0, axis2=1):
    return _two_axes("diagonal", a, axis1, axis2, offset, {})


def _like_shape(make):
    """np.zeros_like(a, shape=...): a new array of that shape on a's queue and USM kind."""
    def prep(args):
        shape = args.pop("shape", None)
        if shape is None:
            return args
        a = args["a"] if "a" in args else args["prototype"]
        if not isinstance(a, usm_ndarray):
            raise TypeError("expected a usm_ndarray")
        dtype = args.get("dtype") or a.dtype
        fill = (args["fill_value"],) if "fill_value" in args else ()
        order = "F" if args.get("order") == "F" else "C"
        return (make(shape, *fill, dtype=dtype, order=order, sycl_queue=a.sycl_queue,
                     usm_type=a.usm_type),)
    return prep


def _byte_range(v):
    if isinstance(v, usm_ndarray):
        return v._byte_bounds
    return np.lib.array_utils.byte_bounds(np.asarray(v))


def _shares_memory(a, b, /, max_work=None):
    """np.shares_memory and np.may_share_memory with usm_ndarrays: whether
    the bytes the two arrays span overlap (NumPy's host view of a
    usm_ndarray, ``np.asarray(x)`` of host-accessible memory, has the same
    addresses). Exact when both are host-accessible (NumPy's own answer on
    host views of them), the bounds otherwise (a may-answer)."""
    ha = _copy.host_view(a) if isinstance(a, usm_ndarray) else a
    hb = _copy.host_view(b) if isinstance(b, usm_ndarray) else b
    if ha is not None and hb is not None:
        return bool(np.shares_memory(ha, hb))
    (lo1, hi1), (lo2, hi2) = _byte_range(a), _byte_range(b)
    return lo1 < hi1 and lo2 < hi2 and lo1 < hi2 and lo2 < hi1


def _may_share_memory(a, b, /, max_work=None):
    (lo1, hi1), (lo2, hi2) = _byte_range(a), _byte_range(b)
    return lo1 < hi1 and lo2 < hi2 and lo1 < hi2 and lo2 < hi1


# NumPy creation function -> usmarray's, for ``np.zeros(..., like=x)``: the array is
# made on x's queue with x's USM kind (host data given to asarray/array is copied there)
LIKE = {"empty": creation.empty, "zeros": creation.zeros, "ones": creation.ones,
        "full": creation.full, "arange": creation.arange, "asarray": creation.asarray,
        "array": None, "eye": creation.eye, "identity": creation.eye,
        "tri": matrices.tri}   # (array: usmarray.array, found in the namespace at build)
LIKE_FUNCTIONS = {}
"""NumPy creation function -> Function, for ``like=`` (filled by ``build``)."""


# NumPy functions whose usmarray counterpart has the same name and arguments (NumPy's
# statistics, nan* reductions, stacking and comparisons, median, nanmean, vstack, ...,
# are written with NumPy's own signatures)
SAME_NAME = (
    "sum prod mean std var min max argmin argmax all any count_nonzero nonzero "
    "concat stack permute_dims matrix_transpose reshape expand_dims squeeze flip roll tile "
    "repeat moveaxis swapaxes broadcast_to broadcast_arrays diff unstack "
    "sort argsort searchsorted isin unique_values unique_counts unique_inverse unique_all "
    "take take_along_axis tensordot vecdot "
    "zeros_like ones_like empty_like full_like copy astype real imag round "
    "result_type argwhere flatnonzero inner vdot fliplr flipud rot90 partition argpartition "
    "lexsort vander ediff1d union1d intersect1d setdiff1d setxor1d select choose compress "
    "putmask trim_zeros sinc resize isposinf isneginf fix i0 rollaxis copyto sort_complex "
    "common_type piecewise apply_along_axis apply_over_axes packbits unpackbits "
    # NumPy's functions beyond the array API, written with NumPy's signatures
    "diag diagflat fill_diagonal kron diag_indices_from tril_indices_from triu_indices_from "
    "logspace geomspace nan_to_num iscomplexobj isrealobj iscomplex isreal real_if_close "
    "delete insert unravel_index ravel_multi_index ix_ histogram histogram_bin_edges "
    "histogram2d histogramdd bincount digitize interp einsum_path save"
).split() + (statistics.__all__ + nanfunctions.__all__ + stacking.__all__ + calculus.__all__
             + convolution.__all__ + polynomials.__all__ + ["isclose", "array_equal", "array_equiv"])

# parameters of the computation rather than its data, which may be host
# values (docs/numpy.md): NumPy name -> parameter names
HOST_PARAMS = {
    "histogram": ("bins", "range"), "histogram_bin_edges": ("bins", "range"),
    "histogram2d": ("bins", "range"), "histogramdd": ("bins", "range"), "digitize": ("bins",),
    "partition": ("kth",), "argpartition": ("kth",), "pad": ("pad_width", "constant_values",
                                                             "end_values"),
    "delete": ("obj",), "insert": ("obj",), "split": ("indices_or_sections",),
    "array_split": ("indices_or_sections",), "hsplit": ("indices_or_sections",),
    "vsplit": ("indices_or_sections",), "dsplit": ("indices_or_sections",),
}

# NumPy name -> usmarray name
RENAMED = {"amin": "min", "amax": "max", "concatenate": "concat", "cumsum": "cumulative_sum",
           "cumprod": "cumulative_prod", "transpose": "permute_dims"}

# NumPy parameter names -> usmarray's, for every function where they occur
PARAM_RENAMES = {"ddof": "correction", "a_min": "min", "a_max": "max", "subok": None}

# adapters: NumPy name -> (usmarray function, prep, defaults)
ADAPTED = {
    "cumsum": (reduction.cumulative_sum, _flat_when_axis_none(True), None),
    "cumulative_sum": (reduction.cumulative_sum, _one_d_when_0d, None),
    "cumulative_prod": (reduction.cumulative_prod, _one_d_when_0d, None),
    "clip": (elementwise.clip, _clip_dtype, None),
    "tril": (creation.tril, _matrix_of_1d, None),
    "triu": (creation.triu, _matrix_of_1d, None),
    "cumprod": (reduction.cumulative_prod, _flat_when_axis_none(True), None),
    "take": (_take, None, None),
    "put": (_put, None, None),
    "take_along_axis": (indexing.take_along_axis, _flat_when_axis_none(False), None),
    "sort": (sorting.sort, _sort_args, None),
    "argsort": (sorting.argsort, _argsort_args, None),
    "transpose": (manipulation.permute_dims, _transpose, None),
    "where": (searching.where, _where, None),
    "ravel": (manipulation.reshape, _ravel, None),
    "meshgrid": (creation.meshgrid, _meshgrid, None),
    "put_along_axis": (indexing.put_along_axis, _put_along_axis, None),
    "unique": (sets.unique_all, _unique, None),
    "dot": (linear_algebra.matmul, _dot, None),
    "outer": (linalg.outer, _outer, None),
    "cross": (_cross, None, None),
    "angle": (elementwise.angle, _angle, None),
    "linalg.svd": (linalg.svd, _svd_args, None),
    "linalg.qr": (linalg.qr, _qr, None),
    "round": (elementwise.round, _round, None),
    "around": (elementwise.round, _round, None),
    "trace": (_trace, None, None),
    "array_repr": (_array_repr, None, None),
    "extract": (_extract, None, None),
    "place": (_place, None, None),
    "array_str": (_array_str, None, None),
    "array2string": (_array2string, None, None),
    "diagonal": (_diagonal, None, None),
    "zeros_like": (creation.zeros_like, _like_shape(creation.zeros), None),
    "ones_like": (creation.ones_like, _like_shape(creation.ones), None),
    "empty_like": (creation.empty_like, _like_shape(creation.empty), None),
    "full_like": (creation.full_like, _like_shape(creation.full), None),
    "shape": (_shape, None, None),
    "ndim": (_ndim, None, None),
    "size": (_size, None, None),
    "allclose": (comparison.numpy_allclose, None, None),
    "einsum": (contractions.einsum, _einsum, None),
    "pad": (padding.pad, _pad, None),
    "savez": (io.savez, _savez(io.savez), None),
    "savez_compressed": (io.savez_compressed, _savez(io.savez_compressed), None),
    "fft.fft2": (fft.fftn, _fft_input, {"axes": (-2, -1)}),
    "fft.ifft2": (fft.ifftn, _fft_input, {"axes": (-2, -1)}),
    "fft.rfft2": (fft.rfftn, _fft_input, {"axes": (-2, -1)}),
    "fft.irfft2": (fft.irfftn, _irfftn_s((-2, -1)), {"axes": (-2, -1)}),
    "fft.irfftn": (fft.irfftn, _irfftn_s(None), None),
    "linalg.pinv": (linalg.pinv, _pinv, None),
    "linalg.eigh": (linalg.eigh, _uplo, None),
    "linalg.eigvalsh": (linalg.eigvalsh, _uplo, None),
    "linalg.matrix_rank": (linalg.matrix_rank, _matrix_rank, None),
}

# NumPy's linalg and fft functions mapped to usmarray.linalg and usmarray.fft by name
LINALG = [n for n in linalg.__all__ if callable(getattr(np.linalg, n, None))
          and not isinstance(getattr(np.linalg, n), type)]
FFT = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
       "fftshift", "ifftshift"]


def _resolve(name):
    """NumPy's object and usmarray's object for a dotted name ("linalg.svd")."""
    ns = _namespace()
    mod_np, mod_ua, attr = np, ns, name
    if "." in name:
        sub, attr = name.split(".")
        mod_np, mod_ua = getattr(np, sub), getattr(ns, sub)
    return getattr(mod_np, attr, None), getattr(mod_ua, attr, None)


FUNCTIONS = {}
"""NumPy function -> Function (filled by ``build``)."""


# NumPy functions that write their operands to the host (NumPy arrays among
# them are data to save, not operands computed with usm_ndarrays)
_TO_HOST = {"save", "savez", "savez_compressed"}


def _add(np_name, target, prep=None, defaults=None):
    np_func, _ = _resolve(np_name)
    if np_func is None or isinstance(np_func, np.ufunc):
        return   # not in this NumPy version; ufuncs dispatch through __array_ufunc__
    FUNCTIONS[np_func] = Function(np_func, target, PARAM_RENAMES, defaults, prep,
                                  host_operands=np_name in _TO_HOST)


def _build_functions():
    for n in SAME_NAME:
        _add(n, _resolve(n)[1])
    for n, t in RENAMED.items():
        _add(n, _resolve(t)[1])
    for n in LINALG:
        _add("linalg." + n, getattr(linalg, n))
    for n in FFT:
        _add("fft." + n, getattr(fft, n), None if n.endswith("shift") else _fft_input)
    for n, (target, prep, defaults) in ADAPTED.items():
        _add(n, target, prep, defaults)
    for np_func, target in ((np.shares_memory, _shares_memory),
                            (np.may_share_memory, _may_share_memory), (np.can_cast, _can_cast)):
        # (NumPy's permutation of a usm_ndarray asks whether its host copy is one)
        FUNCTIONS[np_func] = Function(np_func, target, host_operands=True)
    for n, target in LIKE.items():
        np_func = getattr(np, n)
        if n == "array":   # (usmarray.array: NumPy's copy=True and ndmin, which Dask asks for)
            target = _namespace().array
        LIKE_FUNCTIONS[np_func] = Function(np_func, target, dict(PARAM_RENAMES, device=None),
                                           host_operands=True)


def array_function(self, func, types, args, kwargs):
    """``usm_ndarray.__array_function__``: NumPy functions computed by usmarray."""
    register_with_dask()   # (Dask calls this while it builds a graph: see _dask.py)
    for t in types:
        if not issubclass(t, (usm_ndarray, np.ndarray)):
            return NotImplemented
    f = FUNCTIONS.get(func)
    if f is not None and not f.host_operands and _HOST_OPERANDS.get():
        args = tuple(_to_device(v, self) for v in args)
        # (a NumPy out= stays, to be refused: filling it needs a copy back)
        kwargs = {k: v if k == "out" else _to_device(v, self) for k, v in kwargs.items()}
    if f is None and func in LIKE_FUNCTIONS:
        # np.zeros(..., like=self): the new array on self's queue, with self's USM kind
        return LIKE_FUNCTIONS[func](args, kwargs, {"sycl_queue": self.sycl_queue,
                                                   "usm_type": self.usm_type})
    if f is None:
        raise TypeError(
            f"{func.__module__}.{func.__name__} has no usmarray counterpart, and usmarray does "
            "not copy to the host implicitly: call the usmarray function, or convert "
            "explicitly with ua.asnumpy(x) (x.get()) and back with ua.asarray(...) "
            "(mapped functions: usmarray.numpy_protocols.FUNCTIONS)")
    return f(args, kwargs)


class UfuncMethod:
    """NumPy's ufunc method `method` (``at``, ``reduce``, ``accumulate``,
    ``reduceat``, ``outer``) of usmarray's elementwise function: ``ua.add.at(x,
    i, 1)`` is ``np.add.at(x, i, 1)``, as CuPy's ufuncs have them."""

    def __init__(self, ufunc, method, name):
        self._ufunc, self._method = ufunc, method
        self.__name__ = method
        self.__qualname__ = f"{name}.{method}"
        self.__doc__ = f"``usmarray.{name}.{method}(...)``: ``numpy.{ufunc.__name__}.{method}``."

    def __call__(self, *inputs, **kwargs):
        arr = next((v for v in inputs if isinstance(v, usm_ndarray)), None)
        if arr is None:
            raise TypeError(f"usmarray.{self.__qualname__}: expected a usm_ndarray operand")
        r = array_ufunc(arr, self._ufunc, self._method, *inputs, **kwargs)
        if r is NotImplemented:
            raise TypeError(f"usmarray.{self.__qualname__}: unsupported operand types")
        return r


def _install_ufunc_methods():
    """The ufunc methods onto usmarray's binary elementwise functions that are
    NumPy ufuncs (array_ufunc's methods take binary operations only)."""
    for np_name, fn in UFUNCS.items():
        u = getattr(np, np_name, None)
        if not isinstance(u, np.ufunc) or not isinstance(fn, elementwise._ElementwiseFunction) \
                or u.nout != 1 or u.nin != 2:
            continue
        for m in ("at", "reduce", "accumulate", "reduceat", "outer"):
            if not hasattr(fn, m):
                setattr(fn, m, UfuncMethod(u, m, fn.__name__))


def build(namespace):
    """Build the function tables from `namespace` (the usmarray module);
    ``usmarray.methods.install`` calls it before binding ``array_ufunc`` and
    ``array_function`` onto usm_ndarray."""
    _NS[:] = [namespace]
    _build_functions()
    _install_ufunc_methods()

"""The reduction skeleton: reduce the trailing dimensions of a view with one
operation of ``_REDUCTIONS`` (sum, prod, max, min, all, any, count,
argmax, argmin and the NaN-skipping ones), into a new contiguous array.

A reduction permutes the reduced axes to the end of a view and asks the
engine to reduce the trailing dimensions; the engine collapses them and
runs one pass over the input that leaves a partial state per block, then
small passes over the partials (one launch when a row fits one block). The
kernels (kernels/sycl/reduction.hpp) are one skeleton instantiated per
operation: generic work-group kernels, and vector-block kernels on CPU
devices (`KernelCache.simd`; USMARRAY_GENERIC_KERNELS=1 turns them off).
The public reductions (``usmarray.reduction``, ``usmarray.searching``)
and the checks of the core (index bounds) call ``reduce``.
"""

import math
import operator
from typing import NamedTuple

from . import _dtypes, _engine, _kernels
from ._array import empty_array, empty_c, usm_ndarray, view
from ._copy import astype
from ._exceptions import AxisError, DTypeError
from ._layout import KIND_CODE
from ._trace import traced

__all__ = ["normalize_axes", "reduce", "nan_reduce", "sum_types", "types", "has_vector_kernels",
           "state_size"]

_TN = _dtypes.TYPE_NAMES
_DT = dict(zip(_TN, _dtypes.DTYPES))
# (name, type code, queue capabilities) -> what reduce() passes the engine
# for the default dtype= (types() and state_size() cost more than a small
# reduction's launch)
_PLANS = {}




def numpy_axis(a, axis, floats_only=False):
    """The axis NumPy's own reductions (nansum, ptp, ...) read: axis 0 or
    -1 of a 0-d array is its only "axis", as None (``floats_only``: of float
    arrays only, as NumPy's nanmean of integers is mean, which has none)."""
    if type(axis) is int and axis in (0, -1) and isinstance(a, usm_ndarray) and a.ndim == 0 \
            and (not floats_only or a.dtype.kind in "fc"):
        return None
    return axis


def normalize_axes(axis, nd):
    """Sorted tuple of distinct non-negative axes of an int, a tuple or list of
    ints (as dpctl.tensor) or None (all)."""
    if axis is None:
        return tuple(range(nd))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in axes:
        try:
            a = operator.index(a)
        except TypeError:
            raise TypeError(f"axis must be an int, a tuple of ints or None, got {axis!r}") from None
        if not -nd <= a < nd:
            raise AxisError(f"axis {a} is out of bounds for an array of dimension {nd}")
        a %= nd
        if a in out:
            raise ValueError(f"repeated axis {a}")
        out.append(a)
    return tuple(sorted(out))


def sum_types(t, dtype, qi):
    """(accumulator, result) type names of sum/prod over items of type name t."""
    if dtype is not None:
        r = _TN[_dtypes.TC[dtype]]
        return ("f4" if r == "f2" else r), r
    if t == "b1" or t[0] == "i":
        return "i8", "i8"
    if t[0] == "u":
        return "u8", "u8"
    if t == "f2":
        return "f4", "f2"
    return t, t


def _same_types(t, dtype, qi):
    return t, t


def _bool_types(t, dtype, qi):
    return "b1", "b1"


def _count_types(t, dtype, qi):
    return "i8", "i8"


class _Reduction(NamedTuple):
    struct: str         # the kernel operation over items (kernels/sycl/reduction.hpp)
    types: object       # (item type name, dtype=, queue) -> (state, result) type names
    takes_dtype: bool   # whether dtype= is accepted
    kinds: str          # the input dtype kinds
    partials: str = ""  # the operation over partial states, when not `struct`


_REDUCTIONS = {
    "sum": _Reduction("usmk::red_sum", sum_types, True, "biufc"),
    "prod": _Reduction("usmk::red_prod", sum_types, True, "biufc"),
    "max": _Reduction("usmk::red_max", _same_types, False, "biufc"),
    "min": _Reduction("usmk::red_min", _same_types, False, "biufc"),
    "all": _Reduction("usmk::red_all", _bool_types, False, "biufc"),
    "any": _Reduction("usmk::red_any", _bool_types, False, "biufc"),
    # count_nonzero and argmax/argmin (searching.py)
    "count": _Reduction("usmk::red_count", _count_types, False, "biufc", "usmk::red_sum"),
    "argmax": _Reduction("usmk::red_argmax", lambda t, dtype, qi: (f"usmk::vi<{t}>", "i8"), False,
                         "biufc"),
    "argmin": _Reduction("usmk::red_argmin", lambda t, dtype, qi: (f"usmk::vi<{t}>", "i8"), False,
                         "biufc"),
    # the NaN-skipping reductions of nanfunctions.py (floating inputs;
    # the others reduce with the plain ones): NaN items count as the
    # identity (nansum, nanprod) or lose to any number (nanmax, nanmin:
    # fmax/fmin, NaN only for an all-NaN selection); count_num counts the
    # items that are not NaN
    "nansum": _Reduction("usmk::red_nansum", sum_types, True, "fc", "usmk::red_sum"),
    "nanprod": _Reduction("usmk::red_nanprod", sum_types, True, "fc", "usmk::red_prod"),
    "nanmax": _Reduction("usmk::red_fmax", _same_types, False, "f"),
    "nanmin": _Reduction("usmk::red_fmin", _same_types, False, "f"),
    "count_num": _Reduction("usmk::red_count_num", _count_types, False, "fc", "usmk::red_sum"),
}
_BY_STRUCT = {v[0]: (k, v) for k, v in _REDUCTIONS.items()}
# vector-block variants (CPU devices): items of these types, states of 32-
# and 64-bit types (or bool for all/any, of 1-, 4- and 8-byte items): 8- and
# 16-bit vector compares cost the kernel compiler seconds
_VEC_TYPES = ("b1", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "f8")
_VEC_STATES = ("i4", "u4", "i8", "u8", "f4", "f8")
_VEC_BOOL_ITEMS = ("b1", "i4", "u4", "i8", "u8", "f4", "f8")
_ARG_VEC_TYPES = ("i4", "u4", "i8", "u8", "f4", "f8")


def state_size(a):
    """Bytes of a reduction state (kernels/sycl/reduction.hpp: usmk::vi is
    a value and an int64 index, the value padded to 8 bytes: 16 bytes, 24
    for complex128)."""
    if a.startswith("usmk::vi<"):
        return -(-_DT[a[len("usmk::vi<"):-1]].itemsize // 8) * 8 + 8
    return _DT[a].itemsize


def _pass_names(struct, t, a, r, simd):
    """Kernels a reduction of items t (states a, result r) may launch: the
    first pass (generic, and vector-block on CPU devices) and the passes over
    partial states (in the bundle of the operation over partials, when that
    is another one)."""
    names = set()
    comb = _BY_STRUCT[struct][1].partials or struct
    for k in ("reduce_group", "reduce_cols"):
        names.update((f"{k}<{struct}, {t}, {a}, {r}>", f"{k}<{struct}, {t}, {a}, {a}>"))
        if comb == struct:
            names.update((f"{k}<{struct}, {a}, {a}, {a}>", f"{k}<{struct}, {a}, {a}, {r}>"))
    if simd and has_vector_kernels(struct, t, a):
        arg = struct in ("usmk::red_argmax", "usmk::red_argmin")
        for k in ("reduce_rows_vec",) if arg else ("reduce_rows_vec", "reduce_cols_vec"):
            names.update((f"{k}<{struct}, {t}, {a}, {r}>", f"{k}<{struct}, {t}, {a}, {a}>"))
    return names


_defaults = None


def _default_args():
    """Template arguments of every reduction's default type combinations."""
    global _defaults
    if _defaults is None:
        _defaults = set()
        for struct, rule, _, kinds, partials in _REDUCTIONS.values():
            for t in _TN:
                if _DT[t].kind in kinds:
                    a, r = rule(t, None, None)
                    _defaults.update({(struct, t, a, r), (struct, t, a, a)})
                    if not partials:   # the passes over partial states
                        _defaults.update({(struct, a, a, a), (struct, a, a, r)})
    return _defaults


# the kernels a reduction that starts with one of these runs (see part)
_FOLLOWED_BY = {"reduce_rows_vec": ("reduce_rows_vec", "reduce_cols"),
                "reduce_cols_vec": ("reduce_cols_vec", "reduce_cols")}


class _ReductionFamily(_kernels.Family):
    """One bundle per reduction with its default type combinations; other
    combinations (sum(x, dtype=...)) get a bundle of their own."""

    def __init__(self):
        super().__init__(("reduce_group", "reduce_cols", "reduce_rows_vec", "reduce_cols_vec"),
                         "reduction.cpp", self._key, None, self._keys, cost=3)

    @staticmethod
    def _key(args):
        return args[0] if tuple(args) in _default_args() else "|".join(args)

    @staticmethod
    def _keys(qi):
        return list(_BY_STRUCT)

    def spec(self, key, qi):
        simd = _kernels.simd_kernels(qi)
        if "|" in key:
            struct, t, a, r = key.split("|")
            if (struct, t, a, r) in _default_args():   # a combining pass's
                return self.spec(struct, qi)
            names = _pass_names(struct, t, a, r, simd)
        else:
            struct = key
            name, (_, rule, _, kinds, _) = _BY_STRUCT[struct]
            names = set()
            for t in _kernels.device_types(qi):
                if _DT[t].kind in kinds:
                    names |= _pass_names(struct, t, *rule(t, None, qi), simd)
        label = struct.split("::")[-1] + ("" if "|" not in key else "-" + key.replace("|", "-"))
        return _kernels.BundleSpec(f"{label}", _kernels._read_source(self.source), sorted(names),
                                   cost=self.cost)

    def part(self, name, spec, qi):
        # the passes of one reduction of items t (states a, result r) that
        # the engine runs after the requested one (kernels/engine/reduce.cpp):
        # a vector-block first pass is followed by column passes over the
        # partial states, a column pass and a work-group pass by their own
        prefix, (struct, t, a, r) = _kernels.split_name(name)
        kinds = _FOLLOWED_BY.get(prefix, (prefix,))
        names = [n for n in _pass_names(struct, t, a, r, _kernels.simd_kernels(qi))
                 if _kernels.split_name(n)[0] in kinds]
        return f"{prefix[7:]}-{t}-{a}-{r}", sorted(names)


_kernels.register_family(_ReductionFamily())


def types(name, dt, dtype, qi):
    """(operation struct, struct over partial states, state type name,
    result type name) of reduction `name` of items of dtype `dt`, with the
    dtype= argument `dtype`, or TypeError."""
    struct, rule, takes_dtype, kinds, partials = _REDUCTIONS[name]
    if dt.kind not in kinds:
        raise DTypeError(f"{name} is not defined for dtype {dt.name}")
    if dtype is not None:
        if not takes_dtype:
            raise TypeError(f"{name} has no dtype argument")
        dtype = _dtypes.to_dtype(dtype)
        _dtypes.check_device_support(dtype, qi)
    a, r = rule(_TN[_dtypes.TC[dt]], dtype, qi)
    if not qi.fp64 and a in ("f8", "c16"):
        a = "f4" if a == "f8" else "c8"
    return struct, partials or struct, a, r


def has_vector_kernels(struct, t, a):
    """Whether the reduction `struct` of items t into states a has
    vector-block kernels (on CPU devices)."""
    if struct in ("usmk::red_argmax", "usmk::red_argmin"):
        return t in _ARG_VEC_TYPES
    return t in _VEC_TYPES and (a in _VEC_STATES or (a == "b1" and t in _VEC_BOOL_ITEMS))


_NO_IDENTITY = ("max", "min", "nanmax", "nanmin")


def reduce(name, x, axis, keepdims, dtype=None):
    """The reduction `name` of `x` over `axis` (None: all), as a new array."""
    if not isinstance(x, usm_ndarray):
        if traced(x) is not None:
            return x.__usm_trace__(name, (x,), dict(axis=axis, keepdims=keepdims, dtype=dtype))
        what = "count_nonzero" if name == "count" else name
        raise TypeError(f"{what}: expected a usm_ndarray, got {type(x).__name__}")
    qi = x._q
    if dtype is not None and x._dtype is not _dtypes.float16 and \
            _dtypes.to_dtype(dtype) is _dtypes.float16:
        # the array API's dtype=: x cast first. (float16 accumulates in float32,
        # which would skip the values' rounding to float16; wider types round
        # each item as the accumulator takes it.)
        x = astype(x, _dtypes.float16)
    plan = _PLANS.get((name, x._tc, qi.caps)) if dtype is None else None
    if plan is None:
        struct, partials, a, r = types(name, x._dtype, dtype, qi)
        plan = (struct, partials, a, _DT[r], state_size(a), name[:3] == "arg")
        if dtype is None:
            _PLANS[name, x._tc, qi.caps] = plan
    struct, partials, a, rdt, size, indexed = plan
    nd = len(x._shape)
    if axis is None and not keepdims and not indexed:
        # everything into a 0-d result: the common case in few calls
        if 0 in x._shape and name in _NO_IDENTITY:
            raise ValueError(f"{name} of an empty selection has no identity")
        out = empty_c((), rdt, qi, KIND_CODE[x._alloc.kind])
        _engine.reduce(qi.ref, qi.kc, struct, partials, x, nd, out, a, size, indexed)
        return out
    if axis is None:
        axes = range(nd)
        n_red = math.prod(x._shape)
    else:
        axes = normalize_axes(axis, nd)
        n_red = 1
        for i in axes:
            n_red *= x._shape[i]
    if axis is None or len(axes) == nd:
        # everything: no permutation
        xv, out_shape = x, ()
    else:
        kept = [i for i in range(nd) if i not in axes]
        perm = kept + list(axes)
        xv = view(x, x._off, tuple(x._shape[i] for i in perm), tuple(x._strides[i] for i in perm))
        out_shape = tuple(x._shape[i] for i in kept)
    if n_red == 0 and name in _NO_IDENTITY:   # (also when the result is empty, as NumPy)
        raise ValueError(f"{name} of an empty selection has no identity")
    out = empty_array(out_shape, rdt, qi, x._alloc.kind)
    _engine.reduce(qi.ref, qi.kc, struct, partials, xv, len(axes), out, a, size, indexed)
    if keepdims:
        shape = tuple(1 if i in axes else s for i, s in enumerate(x._shape))
        strides = []
        acc = 1
        for s in reversed(shape):
            strides.append(acc)
            acc *= s if s else 1
        out = view(out, 0, shape, tuple(reversed(strides)))
    return out


def nan_reduce(name, x, axis=None, keepdims=False, dtype=None):
    """A NaN-skipping reduction of a floating `x` in one pass: "nansum",
    "nanprod", "nanmax", "nanmin" or "count_num" (the number of items that
    are not NaN, int64), for the nan* functions of usmarray.nanfunctions."""
    if name not in ("nansum", "nanprod", "nanmax", "nanmin", "count_num"):
        raise ValueError(f"no NaN-skipping reduction {name!r}")
    return reduce(name, x, axis, keepdims, dtype)

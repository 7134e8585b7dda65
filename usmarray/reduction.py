"""Reductions: sum, prod, max, min, all, any; mean, var, std over sum;
cumulative_sum and cumulative_prod (scans).

A reduction permutes the reduced axes to the end of a view and asks the
engine to reduce the trailing dimensions into a new contiguous array; the
engine collapses them and runs one pass over the input that leaves a partial
state per block, then small passes over the partials (one launch when a row
fits one block). The kernels (kernels/sycl/reduction.hpp) are one skeleton
instantiated per operation of `_REDUCTIONS` (argmax/argmin and count_nonzero
of searching.py included): generic work-group kernels, and vector-block
kernels on CPU devices (`KernelCache.simd`; USMARRAY_GENERIC_KERNELS=1 turns
them off).
"""

import operator
from typing import NamedTuple

from . import _dtypes, _engine, _kernels
from ._array import empty_array, usm_ndarray, view
from ._exceptions import AxisError
from ._indexing import merged_stride

__all__ = ["sum", "prod", "max", "min", "all", "any", "mean", "var", "std", "cumulative_sum",
           "cumulative_prod", "cumulative_logsumexp", "AxisError"]

_TN = _dtypes.TYPE_NAMES
_DT = dict(zip(_TN, _dtypes.DTYPES))




def normalize_axes(axis, nd):
    """Sorted tuple of distinct non-negative axes (None: all)."""
    if axis is None:
        return tuple(range(nd))
    axes = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in axes:
        try:
            a = operator.index(a)
        except TypeError:
            raise TypeError(f"axis must be an int, a tuple of ints or None, got {a!r}") from None
        if not -nd <= a < nd:
            raise AxisError(f"axis {a} is out of bounds for an array of dimension {nd}")
        a %= nd
        if a in out:
            raise ValueError(f"repeated axis {a}")
        out.append(a)
    return tuple(sorted(out))


def _sum_types(t, dtype, qi):
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
    "sum": _Reduction("usmk::red_sum", _sum_types, True, "biufc"),
    "prod": _Reduction("usmk::red_prod", _sum_types, True, "biufc"),
    "max": _Reduction("usmk::red_max", _same_types, False, "biuf"),
    "min": _Reduction("usmk::red_min", _same_types, False, "biuf"),
    "all": _Reduction("usmk::red_all", _bool_types, False, "biufc"),
    "any": _Reduction("usmk::red_any", _bool_types, False, "biufc"),
    # count_nonzero and argmax/argmin (searching.py)
    "count": _Reduction("usmk::red_count", _count_types, False, "biufc", "usmk::red_sum"),
    "argmax": _Reduction("usmk::red_argmax", lambda t, dtype, qi: (f"usmk::vi<{t}>", "i8"), False,
                         "biuf"),
    "argmin": _Reduction("usmk::red_argmin", lambda t, dtype, qi: (f"usmk::vi<{t}>", "i8"), False,
                         "biuf"),
    # the NaN-skipping reductions of numpy_functions.py (floating inputs;
    # the others reduce with the plain ones): NaN items count as the
    # identity (nansum, nanprod) or lose to any number (nanmax, nanmin:
    # fmax/fmin, NaN only for an all-NaN selection); count_num counts the
    # items that are not NaN
    "nansum": _Reduction("usmk::red_nansum", _sum_types, True, "fc", "usmk::red_sum"),
    "nanprod": _Reduction("usmk::red_nanprod", _sum_types, True, "fc", "usmk::red_prod"),
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


def _state_size(a):
    """Bytes of a reduction state (kernels/sycl/reduction.hpp: usmk::vi is
    a value and an int64 index)."""
    if a.startswith("usmk::vi<"):
        return 16
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
    if simd:
        if struct in ("usmk::red_argmax", "usmk::red_argmin"):
            if t in _ARG_VEC_TYPES:
                names.update((f"reduce_rows_vec<{struct}, {t}, {a}, {r}>",
                              f"reduce_rows_vec<{struct}, {t}, {a}, {a}>"))
        elif t in _VEC_TYPES and (a in _VEC_STATES or (a == "b1" and t in _VEC_BOOL_ITEMS)):
            for k in ("reduce_rows_vec", "reduce_cols_vec"):
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


class _ReductionFamily(_kernels.Family):
    """One bundle per reduction with its default type combinations; other
    combinations (sum(x, dtype=...)) get a bundle of their own."""

    def __init__(self):
        super().__init__(("reduce_group", "reduce_cols", "reduce_rows_vec", "reduce_cols_vec"),
                         "reduction.cpp", self._key, None, self._keys)

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
        return _kernels.BundleSpec(f"{label}", _kernels._read_source(self.source), sorted(names))


_kernels.register_family(_ReductionFamily())


def _reduce(name, x, axis, keepdims, dtype=None):
    if not isinstance(x, usm_ndarray):
        what = "count_nonzero" if name == "count" else name
        raise TypeError(f"{what}: expected a usm_ndarray, got {type(x).__name__}")
    struct, rule, takes_dtype, kinds, partials = _REDUCTIONS[name]
    if x._dtype.kind not in kinds:
        raise TypeError(f"{name} is not defined for dtype {x._dtype.name}")
    qi = x._q
    if dtype is not None:
        if not takes_dtype:
            raise TypeError(f"{name} has no dtype argument")
        dtype = _dtypes.to_dtype(dtype)
        _dtypes.check_device_support(dtype, qi)
    nd = x.ndim
    axes = normalize_axes(axis, nd)
    t = _TN[x._tc]
    a, r = rule(t, dtype, qi)
    if not qi.fp64 and a in ("f8", "c16"):
        a = "f4" if a == "f8" else "c8"
    n_red = 1
    for i in axes:
        n_red *= x._shape[i]
    if len(axes) == nd:
        # everything: no permutation
        xv, out_shape = x, ()
    else:
        kept = [i for i in range(nd) if i not in axes]
        perm = kept + list(axes)
        xv = view(x, x._off, tuple(x._shape[i] for i in perm), tuple(x._strides[i] for i in perm))
        out_shape = tuple(x._shape[i] for i in kept)
    if n_red == 0 and name in ("max", "min", "nanmax", "nanmin") and 0 not in out_shape:
        raise ValueError(f"{name} of an empty selection has no identity")
    out = empty_array(out_shape, _DT[r], qi, x._alloc.kind)
    _engine.reduce(qi.ref, qi.kc, struct, partials or struct, xv, len(axes), out, a, _state_size(a),
                   name[:3] == "arg")
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
    are not NaN, int64), for the nan* functions of numpy_functions.py."""
    if name not in ("nansum", "nanprod", "nanmax", "nanmin", "count_num"):
        raise ValueError(f"no NaN-skipping reduction {name!r}")
    return _reduce(name, x, axis, keepdims, dtype)


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    """Sum of elements over `axis` (default: all). Integers accumulate in
    int64/uint64, bool in int64, float16 in float32."""
    return _reduce("sum", x, axis, keepdims, dtype)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """Product of elements over `axis` (default: all); types as for sum."""
    return _reduce("prod", x, axis, keepdims, dtype)


def max(x, /, *, axis=None, keepdims=False):
    """Maximum over `axis` (NaN propagates; ValueError for an empty selection)."""
    return _reduce("max", x, axis, keepdims)


def min(x, /, *, axis=None, keepdims=False):
    """Minimum over `axis` (NaN propagates; ValueError for an empty selection)."""
    return _reduce("min", x, axis, keepdims)


def all(x, /, *, axis=None, keepdims=False):
    """Whether all elements over `axis` are true (non-zero)."""
    return _reduce("all", x, axis, keepdims)


def any(x, /, *, axis=None, keepdims=False):
    """Whether any element over `axis` is true (non-zero)."""
    return _reduce("any", x, axis, keepdims)


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
        from ._copy import astype
        return astype(x, _dtypes.float64 if x._q.fp64 else _dtypes.float32)
    raise TypeError(f"{name} is not defined for dtype {x._dtype.name}")


def _wide(x):
    return _dtypes.float32 if x._dtype is _dtypes.float16 else None


def _widened(x):
    from ._copy import astype
    return astype(x, _dtypes.float32) if x._dtype is _dtypes.float16 else x


def _narrow(r, x):
    from ._copy import astype
    return astype(r, x._dtype) if r._dtype is not x._dtype else r


def mean(x, /, *, axis=None, keepdims=False):
    """Arithmetic mean over `axis` (default: all); NaN for an empty selection.

    Floating-point and complex inputs keep their dtype; integer and bool
    inputs are averaged in the default floating-point type.
    """
    from . import elementwise as ew
    x = _as_float("mean", x, "fc")
    n = _count(x, axis)
    # float16 sums in float32 to the end: a sum may overflow where the mean does not
    s = sum(x, axis=axis, keepdims=keepdims, dtype=_wide(x))
    # 0 / 0 is NaN: the mean of nothing, as the standard asks
    m = ew.divide(s, float(n)) if n else ew.multiply(s, float("nan"))
    return _narrow(m, x)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """Variance over `axis`: sum((x - mean(x))**2) / (N - correction).

    Computed in two passes (mean, then squared deviations), which keeps the
    precision of NumPy's var. NaN where N - correction <= 0.
    """
    from . import elementwise as ew
    x = _as_float("var", x, "f")
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        raise TypeError(f"correction must be a real number, got {type(correction).__name__}")
    n = _count(x, axis)
    xw = _widened(x)
    d = ew.subtract(xw, mean(xw, axis=axis, keepdims=True)) if n else xw
    s = sum(ew.multiply(d, d), axis=axis, keepdims=keepdims)
    dof = n - correction
    v = ew.divide(s, float(dof)) if dof > 0 else ew.multiply(s, float("nan"))
    return _narrow(v, x)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """Standard deviation over `axis`: sqrt(var(x, axis, correction))."""
    from . import elementwise as ew
    x = _as_float("std", x, "f")
    xw = _widened(x)
    return _narrow(ew.sqrt(var(xw, axis=axis, correction=correction, keepdims=keepdims)), x)


# ------------------------------------------------------------------ scans
_SCAN_OPS = ("usmk::red_sum", "usmk::red_prod", "usmk::red_logaddexp")
# operations scanning real floating types only, without vector-block kernels
_SCAN_FLOAT_ONLY = ("usmk::red_logaddexp",)
# the element include_initial puts first
_SCAN_INITIAL = {"usmk::red_sum": 0, "usmk::red_prod": 1, "usmk::red_logaddexp": -float("inf")}


def _scan_types(qi):
    # float16 scans run in float32 (see _sum_types); bool inputs in int64
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
    _scan_keys))


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
    from ._copy import astype

    if not isinstance(x, usm_ndarray):
        raise TypeError(f"{name}: expected a usm_ndarray, got {type(x).__name__}")
    if x._dtype.kind not in "biufc":
        raise TypeError(f"{name} is not defined for dtype {x._dtype.name}")
    nd = x.ndim
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
    acc, res = _sum_types(_TN[x._tc], dtype, qi)
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
    return _cumulative("cumulative_sum", "usmk::red_sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative product along `axis`; as cumulative_sum, starting from 1."""
    return _cumulative("cumulative_prod", "usmk::red_prod", x, axis, dtype, include_initial)


def cumulative_logsumexp(x, /, *, axis=None, dtype=None, include_initial=False):
    """log(cumsum(exp(x))) along `axis`, each step a logaddexp (no overflow).

    dpctl.tensor's function. Real floating results: x's dtype, or the
    device's default floating dtype for integer and bool input (``dtype=``
    picks another real floating dtype); complex input is a TypeError.
    ``include_initial`` puts -inf (the empty sum's log) first.
    """
    from ._copy import astype

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

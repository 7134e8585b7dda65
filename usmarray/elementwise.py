"""Elementwise functions and the array operators, made from the table in
``_elementwise_ops.py``.

For each table entry this module builds an ``ElementwiseOp`` (type
resolution, kernel source, kernel names), the public function and the
operators that map to it. The kernels of one operation (all its dtype
loops and iteration variants) form one bundle, compiled on first use.
"""

import operator
import re

import numpy as np

from ._core import _dtypes, _engine, _kernels
from ._core._array import empty_array, empty_c, from_suai, usm_ndarray
from ._core._copy import broadcast_view, cast, check_out, copy_into
from ._core._device import ExecutionPlacementError, coerce_usm_type
from ._core._exceptions import DTypeError
from ._core._layout import C_CONTIG, F_CONTIG, KIND_CODE, WRITABLE, broadcast_shapes
from ._core._reduce import reduce
from ._core._scalars import (as_scalar, fill, int_range, scalar_array, scalar_value,
                             weak_scalar_dtype)
from ._core._trace import traced
from ._elementwise_ops import NO_BOOL, OPERATORS, OPS, loops as _table_loops, vector_types

__all__ = [op[0] for op in OPS] + ["clip", "rad2deg", "deg2rad"]

_DT = dict(zip(_dtypes.TYPE_NAMES, _dtypes.DTYPES))

# the usmk:: helpers of kernels/sycl/numeric.hpp (the others are math.hpp's)
NUMERIC_HELPERS = {"isnan_", "isinf_", "isfinite_", "signbit_", "negative_", "square_", "conj_",
                   "real_", "imag_", "invert_", "maximum_", "minimum_", "left_shift_",
                   "right_shift_", "less_", "less_equal_", "greater_", "greater_equal_",
                   "fmax_", "fmin_", "gcd_", "lcm_"}


# (the name of DTypeError for in-place operators, kept for code that uses it)
InPlaceCastError = DTypeError

class ElementwiseOp:
    """One operation of the table: loops, resolution, kernel source and names."""

    __slots__ = ("name", "nin", "struct", "expr", "vexpr", "doc", "loops", "vector_sigs", "cache",
                 "no_bool", "ints_to_default_float", "truthy", "float_only")

    def __init__(self, name, nin, spec, expr, doc, vexpr=None):
        self.name = name
        self.nin = nin
        self.struct = "op_" + name
        self.expr = expr
        self.vexpr = vexpr
        self.doc = doc
        self.no_bool = name in NO_BOOL
        # NumPy and dpctl.tensor divide integers in the default float type
        # (float64, float32 without fp64), not in the smallest float
        # holding them: int8 / int8 in float16 would lose most values.
        self.ints_to_default_float = name == "divide"
        # logical_* take any input as its truth value (nonzero is true), as
        # NumPy and dpctl.tensor do: the operands are cast to bool first.
        self.truthy = name.startswith("logical_")
        self.loops = []
        self.vector_sigs = set()   # loops with vector-block kernels
        vtypes = vector_types(vexpr) if vexpr else ()
        for ins, out in _table_loops(spec, nin):
            sig = ", ".join((self.struct,) + ins + (out,))
            self.loops.append((tuple(_DT[t] for t in ins), _DT[out], sig))
            if out in vtypes and all(t == out for t in ins):
                self.vector_sigs.add(sig)
        # (operations with floating loops only take integer operands as
        # NumPy's ufuncs do: each cast safely to the first such loop)
        self.float_only = all(d.kind in "fc" for ins, _, _ in self.loops for d in ins)
        self.cache = {}

    # ------------------------------------------------------------- types
    def _device_loops(self, qi):
        for ins, out, sig in self.loops:
            if all(_supported(d, qi) for d in ins + (out,)):
                yield ins, out, sig

    def resolve(self, dts, qi):
        """(loop input dtypes, output dtype, kernel signature) for input dtypes."""
        key = (qi.caps,) + tuple(_dtypes.TC[d] for d in dts)
        r = self.cache.get(key)
        if r is not None:
            return r
        if self.no_bool and all(d is _dtypes.bool for d in dts):
            hint = "; use logical_xor or logical_not" if self.name in ("subtract",
                                                                       "negative") else ""
            raise DTypeError(f"{self.name} does not support bool inputs (as in NumPy{hint})")
        want = dts
        if self.truthy:
            want = (_dtypes.bool,) * len(dts)
        elif len(dts) == 2 and not (self.float_only and all(d.kind in "biu" for d in dts)):
            # (integers of two types into a floating loop: each cast on its
            # own, as NumPy: int8 with uint8 takes the float16 loop, not
            # that of their promoted int16)
            p = _dtypes.promote(dts[0], dts[1])
            want = (p, p)
        if self.ints_to_default_float and all(d.kind in "biu" for d in want):
            f = _dtypes.float64 if qi.fp64 else _dtypes.float32
            want = (f,) * len(want)
        found = None
        # A safe cast first; failing that (a device without fp64 and integer
        # inputs) the first same-kind one, float16 only as a last resort.
        f2 = _dtypes.float16
        half_in = any(d is f2 for d in want)
        for casting, half in (("safe", True), ("same_kind", half_in), ("same_kind", True)):
            for ins, out, sig in self._device_loops(qi):
                if not half and any(i is f2 for i in ins):
                    continue
                if all(np.can_cast(d, i, casting) for d, i in zip(want, ins)):
                    found = (ins, out, sig)
                    break
            if found:
                break
        if found is None:
            names = ", ".join(d.name for d in dts)
            raise DTypeError(f"{self.name} is not defined for input dtype(s) {names}"
                            + ("" if all(_supported(d, qi) for d in dts) else
                               f" on device {qi.device.name}"))
        self.cache[key] = found
        return found

    # ------------------------------------------------------------- kernels
    def source(self):
        args = "const A &a" if self.nin == 1 else "const A &a, const B &b"
        targs = "typename R, typename A" + ("" if self.nin == 1 else ", typename B")
        vector = ""
        if self.vexpr:
            # raw vectors in and out; a form calling sycl:: builtins sees
            # its operands as sycl::vec
            names = ("a",) if self.nin == 1 else ("a", "b")
            vargs = ", ".join(f"const V &{n}" for n in names)
            body = f"return {self.vexpr};"
            if "(" in self.vexpr:
                vargs = ", ".join(f"const V &{n}_" for n in names)
                body = ("".join(f"const auto {n} = usmk::to_sycl({n}_); " for n in names)
                        + f"return usmk::to_raw({self.vexpr});")
            vector = (f"  template <typename V> static V vapply({vargs}) {{\n"
                      f"    {body}\n"
                      f"  }}\n")
        return (f'#include "elementwise.hpp"\n{self._helpers()}'
                + f"struct {self.struct} {{\n"
                f"  template <{targs}> static R apply({args}) {{\n"
                f"    return usmk::convert<R>({self.expr});\n"
                f"  }}\n{vector}}};\n")

    def _helpers(self):
        """The #include of the helpers the expressions call: math.hpp for
        sycl:: builtins and most usmk:: functions, numeric.hpp for those it
        holds, none for plain operators. The sycl:: builtins' header is a
        third of a small bundle's compile time."""
        calls = set(re.findall(r"(?:usmk|sycl)::\w+", self.expr + " " + (self.vexpr or "")))
        if not calls:
            return ""
        if all(c[6:] in NUMERIC_HELPERS for c in calls if c.startswith("usmk::")) and \
                not any(c.startswith("sycl::") for c in calls):
            return '#include "numeric.hpp"\n'
        return '#include "math.hpp"\n'

    def kernel_names(self, qi):
        names = []
        k = "unary" if self.nin == 1 else "binary"
        simd = _kernels.simd_kernels(qi)
        for _, _, sig in self._device_loops(qi):
            names.append(f"{k}_contig<{sig}>")
            names += [f"{k}_strided<{sig}, {nd}>" for nd in _kernels.STRIDED_VARIANTS]
            names += [f"{k}_inner<{sig}, {nd}>" for nd in _kernels.INNER_VARIANTS]
            if self.nin == 2:
                names += [f"binary_scalar_l<{sig}>", f"binary_scalar_r<{sig}>",
                          f"binary_bcast<{sig}, 2, 0>", f"binary_bcast<{sig}, 2, 1>"]
            if simd and sig in self.vector_sigs:
                names.append(f"{k}_vec<{sig}>")
                if self.nin == 2:
                    names += [f"binary_scalar_l_vec<{sig}>", f"binary_scalar_r_vec<{sig}>"]
                    # matrix + row (both inputs walk rows), matrix + column
                    names += [f"binary_rows_vec<{sig}, {m}>" for m in (1, 2, 3)]
        return names


def _supported(dt, qi):
    if dt is _dtypes.float64 or dt is _dtypes.complex128:
        return qi.fp64
    if dt is _dtypes.float16:
        return qi.fp16
    return True


OP = {}
for _entry in OPS:
    OP[_entry[0]] = ElementwiseOp(*_entry)
_BY_STRUCT = {op.struct: op for op in OP.values()}


def _part(prefix, args):
    """What a first call compiles: the kernels of one loop (types) that walk
    its operands the way the call does: contiguous (with the vector-block
    variant), with a scalar on the left or the right, or strided (all the
    strided, inner and broadcast variants, which the engine picks among)."""
    if any(w in prefix for w in _kernels.STRIDED_WORDS):
        walk = "strided"
    else:
        walk = prefix.replace("_vec", "").replace("_contig", "")
    return (walk,) + tuple(a for a in args if not a.isdigit())


class _ElementwiseFamily(_kernels.Family):
    """All kernels of one operation form one bundle, with generated source."""

    def __init__(self):
        super().__init__(("unary_contig", "unary_strided", "unary_inner", "unary_vec",
                          "binary_contig", "binary_strided", "binary_inner", "binary_vec",
                          "binary_scalar_l", "binary_scalar_r", "binary_scalar_l_vec",
                          "binary_scalar_r_vec", "binary_rows_vec", "binary_bcast"),
                         None,
                         lambda args: args[0], None, lambda qi: list(_BY_STRUCT), _part)

    def spec(self, key, qi):
        op = _BY_STRUCT[key]
        return _kernels.BundleSpec(f"ew-{op.name}", op.source(), op.kernel_names(qi),
                                   merge="elementwise")


_kernels.register_family(_ElementwiseFamily())


# ----------------------------------------------------------------- dispatch
def _order(*arrays):
    """'F' when every operand is F- and not C-contiguous, else 'C'."""
    for a in arrays:
        if (a._flags & 3) != F_CONTIG:
            return "C"
    return "F"


_ORDERS = ("K", "C", "F", "A")


def _layout(order, operands):
    """Memory order of a new result: "C" and "F" as asked; "K" and "A" keep
    the operands' order when they are all F-contiguous (a C result otherwise)."""
    if order == "C" or order == "F":
        return order
    if order not in _ORDERS:
        raise ValueError(f"order must be one of 'K', 'C', 'F', 'A', got {order!r}")
    return _order(*operands)


def _same_view(a, b):
    return (a._off == b._off and a._shape == b._shape and a._strides == b._strides
            and a._dtype.itemsize == b._dtype.itemsize)


def _destination(name, out, shape, dt, qi, kind, order, operands):
    """(array the kernel writes, array returned to the caller).

    Writes go to `out` itself when it has the result dtype and overlaps no
    operand except as the same view (elementwise kernels allow that); else
    to a temporary, copied (and cast) into `out` afterwards, as NumPy does.
    """
    if out is None:
        r = empty_array(shape, dt, qi, kind, _layout(order, operands))
        return r, r
    check_out(name, out, shape, dt, qi)
    if out._dtype is dt and not any(a._alloc is out._alloc and not _same_view(a, out)
                                    for a in operands):
        return out, out
    return empty_array(shape, dt, qi, out._alloc.kind, _order(out)), out


def _deliver(dest, result):
    if dest is not result:
        copy_into(result, dest)
    return result


def _unary(op, x, out=None, order="K"):
    if not isinstance(x, usm_ndarray):
        if traced(x) is not None and out is None:
            return x.__usm_trace__(op.name, (x,), {})
        if hasattr(x, "__sycl_usm_array_interface__"):   # (as _not_arrays)
            return _unary(op, from_suai(x), out, order)
        raise TypeError(f"{op.name}: expected a usm_ndarray, got {type(x).__name__}")
    qi = x._q
    r = op.cache.get((qi.caps, x._tc))
    if r is None:
        r = op.resolve((x._dtype,), qi)
    ins, out_dt, sig = r
    if x._dtype is not ins[0]:
        x = cast(x, ins[0])
    if out is None and order == "K":
        res = dest = empty_array(x._shape, out_dt, qi, x._alloc.kind,
                                 "F" if (x._flags & 3) == F_CONTIG else "C")
    else:
        dest, res = _destination(op.name, out, x._shape, out_dt, qi, x._alloc.kind, order, (x,))
    _engine.unary(qi.ref, qi.kc, sig, x, dest)
    return _deliver(dest, res)


def _kind_of(v):
    """The dtype kind of an array or Python scalar ("b", "i", "u", "f", "c"),
    "O" for anything else."""
    if isinstance(v, usm_ndarray):
        return v._dtype.kind
    v = as_scalar(v)
    return ("b" if isinstance(v, bool) else "i" if isinstance(v, int) else
            "f" if isinstance(v, float) else "c" if isinstance(v, complex) else "O")


def _check_integer_power(x1, x2):
    """ValueError for integers to negative integer powers, as NumPy: the
    result would be an integer that cannot hold 1/x. Checking an exponent
    array means a reduction and a host wait, paid only by integer ** integer."""
    if _kind_of(x1) not in "biu" or _kind_of(x2) != "i":
        return
    if any(isinstance(v, usm_ndarray) and v.size == 0 for v in (x1, x2)):
        return   # (no power computed: nothing to refuse, as NumPy)
    a1, a2 = isinstance(x1, usm_ndarray), isinstance(x2, usm_ndarray)
    if a1 and a2 and np.result_type(x1._dtype, x2._dtype).kind not in "biu":
        return   # (uint64 ** int64 is float64, as NumPy's)
    if a1 != a2:
        # a Python int outside the array's type is the OverflowError the
        # operation itself raises, first as in NumPy
        arr, s = (x1, as_scalar(x2)) if a1 else (x2, as_scalar(x1))
        lo, hi = int_range(weak_scalar_dtype(s, arr._dtype, arr._q))
        if not lo <= s <= hi:
            return
    if a2:
        negative = int(reduce("min", x2, None, False)) < 0
    else:
        negative = as_scalar(x2) < 0
    if negative:
        raise ValueError("integers to negative integer powers are not allowed")


def _binary(op, x1, x2, out=None, order="K"):
    if op.name == "pow":
        _check_integer_power(x1, x2)
    if isinstance(x1, usm_ndarray):
        if isinstance(x2, usm_ndarray):
            return _binary_arrays(op, x1, x2, out, order)
        s = as_scalar(x2)
        if s is None:
            return _not_arrays(op, x1, x2, out, x2)
        return _binary_scalar(op, x1, s, False, out, order)
    if isinstance(x2, usm_ndarray):
        s = as_scalar(x1)
        if s is None:
            return _not_arrays(op, x1, x2, out, x1)
        return _binary_scalar(op, x2, s, True, out, order)
    return _not_arrays(op, x1, x2, out, None)


def _not_arrays(op, x1, x2, out, bad):
    """A binary operation whose operand `bad` (None: both) is neither an
    array nor a scalar: traced values go to their tracer, else TypeError."""
    t = traced(x1, x2)
    if t is not None and out is None:
        return t.__usm_trace__(op.name, (x1, x2), {})
    # objects describing USM memory (SUAI: dpnp's arrays and the like) are
    # operands as views, as dpctl.tensor took them
    v1, v2 = (from_suai(v) if not isinstance(v, usm_ndarray)
              and hasattr(v, "__sycl_usm_array_interface__") else v for v in (x1, x2))
    if v1 is not x1 or v2 is not x2:
        return _binary(op, v1, v2, out)
    if bad is None:
        raise TypeError(f"{op.name}: at least one argument must be a usm_ndarray")
    raise TypeError(f"{op.name}: unsupported operand type {type(bad).__name__}; "
                    "use usm_ndarrays or Python scalars (asarray() host data first)")


def _placement_error(x1, x2):
    raise ExecutionPlacementError(
        "arrays are bound to different SYCL queues "
        f"({x1._q.filter_string} and {x2._q.filter_string}, or two queues of one device); "
        "move one of them with x.to_device(y.device) before combining them")


def _binary_arrays(op, x1, x2, out=None, order="K"):
    qi = x1._q
    if x2._q is not qi:
        _placement_error(x1, x2)
    r = op.cache.get((qi.caps, x1._tc, x2._tc))
    if r is None:
        r = op.resolve((x1._dtype, x2._dtype), qi)
    ins, out_dt, sig = r
    if (out is None and x1._flags & x2._flags & C_CONTIG and x2._shape == x1._shape
            and x1._dtype is ins[0] and x2._dtype is ins[1] and (order == "K" or order == "C")):
        # the common case (the loop's dtypes, one shape, C-contiguous, a new
        # result) in few calls: a tenth of an operator's time on small arrays
        k = x1._alloc.kind
        if k == x2._alloc.kind:
            res = empty_c(x1._shape, out_dt, qi, KIND_CODE[k])
            _engine.binary(qi.ref, qi.kc, sig, x1, x2, res)
            return res
    if x1._dtype is not ins[0] or x2._dtype is not ins[1]:
        if op.name in COMPARISONS and signed_and_uint64(x1._dtype, x2._dtype):
            return _compare_signed_uint64(op, x1, x2, out, order)
        if x1._dtype is not ins[0]:
            x1 = cast(x1, ins[0])
        if x2._dtype is not ins[1]:
            x2 = cast(x2, ins[1])
    shape = x1._shape
    if x2._shape != shape:
        shape = broadcast_shapes(shape, x2._shape)
        x1 = broadcast_view(x1, shape)
        x2 = broadcast_view(x2, shape)
        layout = "C"
    else:
        layout = _order(x1, x2)
    k1, k2 = x1._alloc.kind, x2._alloc.kind
    kind = k1 if k1 == k2 else coerce_usm_type((k1, k2))
    if out is None and order == "K":
        res = dest = empty_array(shape, out_dt, qi, kind, layout)
    else:
        dest, res = _destination(op.name, out, shape, out_dt, qi, kind, order, (x1, x2))
    _engine.binary(qi.ref, qi.kc, sig, x1, x2, dest)
    return _deliver(dest, res)


def squares(op, x_dtype, s, left):
    """Whether `x ** s` is `square(x)`: NumPy's fast path for a Python
    scalar exponent of 2 (x * x, exact, where pow is a far costlier call
    within an ulp of it) where the result keeps x's dtype: an int 2 for
    numeric x, a float 2.0 for inexact x (an integer array ** 2.0 is
    float64); a bool x ** 2 is square's int8, as NumPy's (** 3 is int64)."""
    return (op.name == "pow" and not left and s == 2
            and (type(s) is int and x_dtype.kind in "biufc"
                 or type(s) is float and x_dtype.kind in "fc"))


# comparisons of integers with a Python int beyond their dtype's range:
# the same for every item (NumPy 2's answer; arithmetic still raises)
COMPARISONS = {"equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
                "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge}


def signed_and_uint64(d1, d2):
    return (d1.kind == "i" and d2 is _dtypes.uint64) or (d2.kind == "i" and d1 is _dtypes.uint64)


# (x1 op x2) as (x2 op' x1)
_SWAPPED = {"equal": "equal", "not_equal": "not_equal", "less": "greater",
            "less_equal": "greater_equal", "greater": "less", "greater_equal": "less_equal"}


def _compare_signed_uint64(op, x1, x2, out, order):
    """A comparison of signed integers with uint64, exact as NumPy 2's (their
    promoted type, float64, would round both above 2**53): a negative item
    is below every uint64; the others compare as uint64."""
    name = op.name
    if x1._dtype is _dtypes.uint64:
        x1, x2, name = x2, x1, _SWAPPED[name]
    neg = _binary_scalar(OP["less"], x1, 0, False)
    same = _binary_arrays(OP[name], cast(x1, _dtypes.uint64), x2)
    if name in ("equal", "greater", "greater_equal"):
        r = _binary_arrays(OP["logical_and"], _unary(OP["logical_not"], neg), same)
    else:
        r = _binary_arrays(OP["logical_or"], neg, same)
    if out is None and order in ("K", "A"):
        return r
    dest, res = _destination(op.name, out, r._shape, _dtypes.bool, r._q, r._alloc.kind, order,
                             (r,))
    copy_into(dest, r)
    return _deliver(dest, res)


def _compare_out_of_range(op, x, s, left, out, order):
    lo, hi = int_range(x._dtype)
    if lo <= s <= hi:
        return None
    # (any item of x compares with s as 0 does)
    value = COMPARISONS[op.name](s, 0) if left else COMPARISONS[op.name](0, s)
    dest, res = _destination(op.name, out, x._shape, _dtypes.bool, x._q, x._alloc.kind, order,
                             (x,))
    fill(dest, b"\x01" if value else b"\x00")
    return _deliver(dest, res)


def _binary_scalar(op, x, s, left, out=None, order="K"):
    if squares(op, x._dtype, s, left):
        return _unary(OP["square"], x, out, order)
    if type(s) is int and op.name in COMPARISONS and x._dtype.kind in "iu":
        r = _compare_out_of_range(op, x, s, left, out, order)
        if r is not None:
            return r
    qi = x._q
    sdt = weak_scalar_dtype(s, x._dtype, qi)
    if op.no_bool and x._dtype is _dtypes.bool and not isinstance(s, bool):
        # NumPy's answer for a bool array and a Python number (1 - (x > 0)):
        # both in the number's default dtype; bool with bool still raises
        dts = (sdt, sdt)
    else:
        dts = (sdt, x._dtype) if left else (x._dtype, sdt)
    r = op.cache.get((qi.caps, _dtypes.TC[dts[0]], _dtypes.TC[dts[1]]))
    if r is None:
        r = op.resolve(dts, qi)
    ins, out_dt, sig = r
    adt, sdt = (ins[1], ins[0]) if left else (ins[0], ins[1])
    if x._dtype is not adt:
        x = cast(x, adt)
    kind = x._alloc.kind
    if out is None and x._flags & C_CONTIG and (order == "K" or order == "C"):
        # (the common case in few calls, as _binary_arrays)
        res = empty_c(x._shape, out_dt, qi, KIND_CODE[kind])
        _engine.binary_scalar(qi.ref, qi.kc, sig, x, scalar_value(s, sdt), left, res)
        return res
    if out is None and order == "K":
        res = dest = empty_array(x._shape, out_dt, qi, kind,
                                 "F" if (x._flags & 3) == F_CONTIG else "C")
    else:
        dest, res = _destination(op.name, out, x._shape, out_dt, qi, kind, order, (x,))
    if x._flags & (C_CONTIG | F_CONTIG) and (dest._flags & 3) == (x._flags & 3):
        # the contiguous scalar kernel walks x and the result in one order
        _engine.binary_scalar(qi.ref, qi.kc, sig, x, scalar_value(s, sdt), left, dest)
        return _deliver(dest, res)
    sv = scalar_array(s, sdt, qi, kind, x._shape)
    _engine.binary(qi.ref, qi.kc, sig, sv if left else x, x if left else sv, dest)
    return _deliver(dest, res)


def _inplace(op, x1, x2):
    """x1 = op(x1, x2) computed into x1's memory; NotImplemented for other operand types."""
    if isinstance(x2, usm_ndarray):
        if x2._q is not x1._q:
            _placement_error(x1, x2)
        s, dt2 = None, x2._dtype
    else:
        s = as_scalar(x2)
        if s is None:
            return NotImplemented
        dt2 = weak_scalar_dtype(s, x1._dtype, x1._q)
    if not x1._flags & WRITABLE:
        raise ValueError("assignment destination is read-only")
    if s is not None and type(s) is int and dt2.kind in "iu":
        scalar_value(s, dt2)   # (OverflowError for an int out of range, first as in NumPy)
    qi = x1._q
    ins, out_dt, sig = op.resolve((x1._dtype, dt2), qi)
    if not np.can_cast(out_dt, x1._dtype, "same_kind"):
        # NumPy's rule: computed in the promoted dtype, then cast into x1
        # when that is a same-kind cast (int8 //= int16 divides in int16)
        raise DTypeError(
            f"in-place {op.name}: the result dtype {out_dt.name} cannot be cast to the left "
            f"operand's dtype {x1._dtype.name} (same_kind)")
    if op.name == "pow":
        _check_integer_power(x1, x2)
    if s is None and x2._shape != x1._shape:
        if broadcast_shapes(x1._shape, x2._shape) != x1._shape:
            raise ValueError(f"in-place {op.name}: an operand of shape {x2._shape} cannot be "
                             f"broadcast to the left operand's shape {x1._shape}")
    if ins[0] is not x1._dtype or out_dt is not x1._dtype:
        # computed in another dtype: evaluate, then cast into x1
        copy_into(x1, _binary(op, x1, x2 if s is None else s))
        return x1
    if s is not None:
        if x1._flags & (C_CONTIG | F_CONTIG):
            _engine.binary_scalar(qi.ref, qi.kc, sig, x1, scalar_value(s, ins[1]), False, x1)
            return x1
        b = scalar_array(s, ins[1], qi, x1._alloc.kind, x1._shape)
    else:
        # an operand overlapping x1 other than as the same view is read
        # from a copy, so no element is read after it was written
        overlap = x2._alloc is x1._alloc and not _same_view(x2, x1)
        b = x2 if x2._dtype is ins[1] and not overlap else cast(x2, ins[1])
        b = broadcast_view(b, x1._shape)
    _engine.binary(qi.ref, qi.kc, sig, x1, b, x1)
    return x1


# ----------------------------------------------------------------- functions
class _ElementwiseFunction:
    """An elementwise function of the table: callable like a function, with
    dpctl.tensor's introspection attributes (``nin``, ``nout``, ``types``)."""

    __module__ = "usmarray"
    nout = 1

    def __init__(self, op):
        self._op = op
        self.__name__ = self.__qualname__ = op.name
        params = "x" if op.nin == 1 else "x1, x2"
        types = sorted({ins[0].name for ins, _, _ in op.loops})
        self.__doc__ = (
            f"{op.doc[0].upper()}{op.doc[1:]}, elementwise: ``{op.name}({params}, /, *, "
            "out=None, order='K')``.\n\n"
            f"Computes in the dtypes {', '.join(types)}; other inputs are promoted "
            "(array API type promotion, then the first of these the inputs cast to "
            "safely). Python scalars take the array's dtype where their kind allows.\n\n"
            "``out``: a usm_ndarray of the result's shape on the operands' queue, whose "
            "dtype the result dtype casts to (same kind); operands overlapping it are "
            "read before it is written. ``order``: memory order of a new result, 'K' "
            "(as the operands), 'C', 'F' or 'A'.\n")

    @property
    def nin(self):
        return self._op.nin

    @property
    def types(self):
        """The loops as NumPy type-code signatures (``'ff->f'``)."""
        return ["".join(d.char for d in ins) + "->" + out.char for ins, out, _ in self._op.loops]

    def __repr__(self):
        return f"<usmarray elementwise function '{self.__name__}'>"

    def __reduce__(self):
        return self.__name__


class UnaryElementwiseFunction(_ElementwiseFunction):
    def __call__(self, x, /, *, out=None, order="K"):
        return _unary(self._op, x, out, order)


class BinaryElementwiseFunction(_ElementwiseFunction):
    def __call__(self, x1, x2, /, *, out=None, order="K"):
        op = self._op
        if type(x1) is usm_ndarray and type(x2) is usm_ndarray and op.name != "pow":
            return _binary_arrays(op, x1, x2, out, order)
        return _binary(op, x1, x2, out, order)


for _op in OP.values():
    globals()[_op.name] = (UnaryElementwiseFunction if _op.nin == 1
                           else BinaryElementwiseFunction)(_op)
rad2deg, deg2rad = globals()["degrees"], globals()["radians"]   # (NumPy's other names)


def clip(x, /, min=None, max=None, out=None, *, order="K"):
    """Clamp each element of `x` to [min, max]; the result has x's dtype.

    `min` and `max` may be None, Python scalars or arrays; the result has the
    shape x, min and max broadcast to. NaN in any argument gives NaN.
    ``out`` and ``order`` as for elementwise functions.
    """
    if out is not None or order != "K":
        r = clip(x, min, max)
        if out is None:
            layout = _layout(order, (x,))
            if _order(r) == layout:
                return r
            out = empty_array(r._shape, r._dtype, r._q, r._alloc.kind, layout)
        else:
            check_out("clip", out, r._shape, r._dtype, r._q)
        copy_into(out, r)
        return out
    if not isinstance(x, usm_ndarray):
        raise TypeError(f"clip: expected a usm_ndarray, got {type(x).__name__}")
    r = x
    for bound, fn in ((min, OP["maximum"]), (max, OP["minimum"])):
        if bound is None:
            continue
        s = as_scalar(bound)
        kind = _kind_of(bound)
        if kind in _CLIP_RANK and _CLIP_RANK[kind] > _CLIP_RANK[x._dtype.kind]:
            # (the result keeps x's dtype: a float bound of an integer array
            # would be cast into it, -5.0 of uint8 wrapping to 251)
            raise DTypeError(f"clip: a bound of kind {_KIND_NAMES[kind]} cannot clip an array "
                             f"of dtype {x._dtype.name} (the result keeps x's dtype)")
        if x._dtype.kind in "iu" and isinstance(s, int) and not isinstance(s, bool):
            # a bound outside x's range clamps like the nearest value in range
            info = np.iinfo(x._dtype)
            bound = s if info.min <= s <= info.max else (info.min if s < info.min else info.max)
        r = _binary(fn, r, bound)
    if r is x:
        return _unary(OP["positive"], x)
    if r._dtype is not x._dtype:
        if x._dtype.kind in "iu":
            # (a wider integer bound beyond x's range clamps as a Python int does)
            info = np.iinfo(x._dtype)
            r = clip(r, int(info.min), int(info.max))
        r = cast(r, x._dtype)
    return r


_CLIP_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}
_KIND_NAMES = {"b": "bool", "i": "integer", "u": "integer", "f": "real floating",
               "c": "complex floating"}


# ----------------------------------------------------------------- operators
def mixed_operand_error(what, obj):
    """TypeError for host data (a NumPy array, a list or a tuple) given where
    usm_ndarrays are computed on: the one message of operators, NumPy's
    protocols and the joining functions, which says how to move the data."""
    return TypeError(
        f"{what}: operand of type {type(obj).__module__}.{type(obj).__name__} next to a "
        "usm_ndarray; usmarray does not move data between host and device implicitly: "
        "move it to the device with ua.asarray(...) (or to the host with ua.asnumpy(x) / x.get()); "
        "for a library that mixes NumPy arrays of its own into a call, run the call inside "
        "`with ua.allow_host_operands():`")


def _host_data(other, dunder):
    """Whether `x <op> other` is host data next to x, to be refused with the
    message that says how to move it: lists and tuples, which NumPy would
    take as arrays. Other types get NotImplemented, so that their own
    reflected operator (Dask's, NumPy's) can answer; so do lists in ``==``
    and ``!=``, whose identity fallback ``x in [a, b]`` and ``list.index``
    rely on."""
    return isinstance(other, (list, tuple)) and dunder not in ("__eq__", "__ne__")


def operator_methods():
    """{dunder name: method} of the table's operators (``__add__``,
    ``__radd__``, ``__iadd__``, ...), which ``usmarray.methods.install``
    binds onto usm_ndarray. (NumPy's ufuncs, and so ``np_array + x``, reach
    ``usm_ndarray.__array_ufunc__``: numpy_protocols.py.)"""
    methods = {}
    for dunder, (name, rdunder, idunder) in OPERATORS.items():
        op = OP[name]
        if op.nin == 1:
            def method(self, _op=op):
                return _unary(_op, self)
        else:
            def method(self, other, _op=op, _dunder=dunder, _fast=op.name != "pow"):
                # (arrays and Python numbers straight to their paths; pow
                # has its checks in _binary)
                if _fast:
                    t = type(other)
                    if t is usm_ndarray:
                        return _binary_arrays(_op, self, other)
                    if t is float or t is int:
                        return _binary_scalar(_op, self, other, False)
                if not isinstance(other, usm_ndarray) and as_scalar(other) is None:
                    if _host_data(other, _dunder):
                        raise mixed_operand_error(f"usm_ndarray.{_dunder}", other)
                    return NotImplemented
                return _binary(_op, self, other)
        methods[dunder] = method
        if rdunder:
            def reflected(self, other, _op=op, _dunder=rdunder, _fast=op.name != "pow"):
                if _fast and (type(other) is float or type(other) is int):
                    return _binary_scalar(_op, self, other, True)
                if as_scalar(other) is None and not isinstance(other, usm_ndarray):
                    if _host_data(other, _dunder):
                        raise mixed_operand_error(f"usm_ndarray.{_dunder}", other)
                    return NotImplemented
                return _binary(_op, other, self)
            methods[rdunder] = reflected
        if idunder:
            def inplace(self, other, _op=op, _dunder=idunder):
                if _host_data(other, _dunder):
                    raise mixed_operand_error(f"usm_ndarray.{_dunder}", other)
                return _inplace(_op, self, other)
            methods[idunder] = inplace
    for name, f in methods.items():
        f.__name__ = name
    return methods

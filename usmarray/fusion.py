"""``fuse``: a Python function of elementwise operations run as one kernel,
as ``cupy.fuse``.

The first call with arguments of given dtypes and shapes runs the function
on traced values (``__usm_trace__``: the elementwise functions, the
operators, ``where``, ``astype`` and the reductions hand calls on them to
the tracer). The trace becomes C++: each operation is the table's own
operation struct (``op_add::apply<R>``, its vector form ``vapply``), so a
fused result follows the same type rules and, where the operations are
exact, is bit for bit the unfused one. Elementwise traces run on the
n-ary launcher (kernels/engine/nary.cpp); a trailing reduction on the
reduction skeleton, whose first pass maps the inputs through the trace
(usmk::src_t in kernels/sycl/reduction.hpp). Later calls with the same
dtypes and shapes reuse the plan and its kernels.

What the tracer cannot fuse (indexing, arrays not passed as arguments, a
reduction that is not the result, Python control flow on traced values,
...) runs unfused, with a FusionWarning.
"""

import functools
import math
import warnings

import numpy as np

from . import elementwise as ew
from ._core import _dtypes, _engine
from ._core._array import empty_array, usm_ndarray, view
from ._core._copy import astype, broadcast_view
from ._core._device import coerced_kind, common_queue
from ._core import _kernels
from ._core._kernels import KernelCompileError, simd_kernels
from ._core._layout import broadcast_shapes
from ._core._reduce import (has_vector_kernels, normalize_axes, state_size,
                            types as reduce_types)
from ._core._scalars import as_scalar, weak_scalar_dtype
from ._elementwise_ops import VECTOR_TYPES
from .user_kernels import (SOURCE_SCALAR_BYTES as _SCALAR_BYTES, NoVec, cxx_type, nary_kernels,
                           pack_scalars, register_kernel, source_hash, source_structs)
from .user_reductions import c_view, walked_strides

__all__ = ["fuse", "Fusion", "FusionWarning"]

_TN = dict(zip(_dtypes.DTYPES, _dtypes.TYPE_NAMES))
_REDUCTIONS = ("sum", "prod", "max", "min", "all", "any")
_MAX_REDUCE_INPUTS = 8    # kMaxSources
_MAX_OPERANDS = 16        # kernels/sycl/geometry.hpp kMaxOperands
# a value of each Python scalar type, for the weak scalar rules (which look
# at the type only)
_SAMPLE = {bool: True, int: 0, float: 0.0, complex: 0j}


class FusionWarning(UserWarning):
    """A fused function ran unfused (the message says why)."""


class _Unfusable(Exception):
    pass


class _Failed:
    """A trace that raised (see Fusion.__call__)."""

    __slots__ = ("why",)

    def __init__(self, why):
        self.why = why


# ---------------------------------------------------------------- tracing
class _Value:
    """A traced array value: an input array, or the result of an operation.

    `kind`: "input" (args[index]), "op" (elementwise operation `op` over
    `args` with loop input dtypes `ins`), "where", "astype" or "reduce"."""

    __slots__ = ("tracer", "kind", "dtype", "shape", "args", "op", "ins", "index", "extra")

    def __init__(self, tracer, kind, dtype, shape, args=(), op=None, ins=(), index=None,
                 extra=None):
        self.tracer, self.kind, self.dtype, self.shape = tracer, kind, dtype, shape
        self.args, self.op, self.ins, self.index, self.extra = args, op, ins, index, extra

    def __usm_trace__(self, what, args, kwargs):
        return self.tracer.call(what, args, kwargs)

    # what a traced function may ask of its values
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def astype(self, dtype, /, *, copy=True, device=None):
        return self.tracer.call("astype", (self, dtype), dict(copy=copy, device=device))

    def _reduction(name):
        def method(self, axis=None, dtype=None, out=None, keepdims=False):
            if out is not None:
                raise _Unfusable(f"{name}(out=...)")
            kw = dict(axis=axis, keepdims=keepdims, dtype=dtype)
            return self.tracer.call(name, (self,), kw)
        method.__name__ = name
        return method

    sum, prod, max, min, all, any = map(_reduction, _REDUCTIONS)
    del _reduction

    def _refuse(what):
        def method(self, *args, **kwargs):
            raise _Unfusable(f"{what} of a traced value")
        return method

    __bool__ = _refuse("the truth value")
    __len__ = __iter__ = _refuse("iteration")
    __getitem__ = __setitem__ = _refuse("indexing")
    __int__ = __float__ = __complex__ = __index__ = _refuse("conversion to a Python scalar")
    __array__ = __array_namespace__ = __dlpack__ = _refuse("conversion")
    __matmul__ = __rmatmul__ = _refuse("matmul")
    del _refuse


def _install_operators(cls):
    """The table's operators on traced values and scalar arguments: each
    records its operation; in-place ones refuse (they modify an array)."""
    for dunder, (name, rdunder, idunder) in ew.OPERATORS.items():
        if ew.OP[name].nin == 1:
            setattr(cls, dunder, lambda self, _n=name: self.tracer.call(_n, (self,), {}))
            continue
        setattr(cls, dunder,
                lambda self, other, _n=name: self.tracer.call(_n, (self, other), {}))
        if rdunder:
            setattr(cls, rdunder,
                    lambda self, other, _n=name: self.tracer.call(_n, (other, self), {}))
        if idunder:
            def inplace(self, other, _n=name):
                raise _Unfusable(f"in-place {_n}")
            setattr(cls, idunder, inplace)
    cls.__hash__ = object.__hash__


_install_operators(_Value)


class _Scalar:
    """A Python scalar argument of the fused function: a parameter of the
    kernel, with the weak dtype of a Python scalar of its type."""

    __slots__ = ("tracer", "index", "type")

    def __init__(self, tracer, index, type_):
        self.tracer, self.index, self.type = tracer, index, type_

    def __usm_trace__(self, what, args, kwargs):
        return self.tracer.call(what, args, kwargs)


_install_operators(_Scalar)
_Scalar.__bool__ = lambda self: _raise(_Unfusable("the truth value of a scalar argument"))


def _raise(e):
    raise e


class _Tracer:
    """Records a traced function's operations as _Values."""

    def __init__(self, args, qi):
        self.qi = qi
        self.args = args
        self.slots = []          # kernel scalars: (("arg", k) or ("const", value), dtype)
        self._slot_keys = []     # the same, constants by _exact (what makes two slots)
        self.reduction = None

    def value_of(self, k, a):
        if isinstance(a, usm_ndarray):
            return _Value(self, "input", a._dtype, a._shape, index=k)
        s = as_scalar(a)
        if s is not None:
            return _Scalar(self, k, _python_type(s))
        return a   # (anything else: the function may do what it likes with it)

    def operand(self, v):
        """A traced value, a scalar (_Scalar or a Python scalar), or _Unfusable."""
        if isinstance(v, _Value):
            if v.tracer is not self:
                raise _Unfusable("a value of another trace")
            if v.kind == "reduce":
                raise _Unfusable("an operation on the result of a reduction (only a trailing "
                                 "reduction fuses)")
            return v
        if isinstance(v, _Scalar):
            return v
        if isinstance(v, usm_ndarray):
            raise _Unfusable("an array that is not an argument of the fused function")
        s = as_scalar(v)
        if s is None:
            raise _Unfusable(f"an operand of type {type(v).__name__}")
        return s

    def slot(self, s, dt):
        """The kernel scalar for scalar `s` (a _Scalar or a Python scalar) as `dt`."""
        arg = isinstance(s, _Scalar)
        # (constants compared by _exact: 0.0 and -0.0 are two slots)
        exact = (("arg", s.index) if arg else ("const", _exact(s)), dt)
        if exact not in self._slot_keys:
            self._slot_keys.append(exact)
            self.slots.append((("arg", s.index) if arg else ("const", s), dt))
        return ("slot", self._slot_keys.index(exact))

    def call(self, what, args, kwargs):
        if what in ew.OP:
            return self.elementwise(ew.OP[what], [self.operand(a) for a in args])
        if what == "where":
            return self.where(*[self.operand(a) for a in args])
        if what == "astype":
            return self.astype(self.operand(args[0]), args[1], **kwargs)
        if what in _REDUCTIONS:
            return self.reduce(what, self.operand(args[0]), **kwargs)
        raise _Unfusable(f"{what}")

    def elementwise(self, op, xs):
        values = [x for x in xs if isinstance(x, _Value)]
        if not values:
            raise _Unfusable(f"{op.name} of scalars only")
        if isinstance(xs[0], _Value) and ew.squares(op, xs[0].dtype, xs[1] if len(xs) > 1 else
                                                     None, False):
            return self.elementwise(ew.OP["square"], xs[:1])   # (as unfused: x ** 2)
        if op.name == "pow" and all(_kind(x) in "biu" for x in xs):
            exp = xs[1]
            if not isinstance(exp, (int, bool)):
                # (unfused, the sign of an integer exponent is checked first)
                raise _Unfusable("an integer power with an array or argument exponent")
            if exp < 0:
                raise ValueError("integers to negative integer powers are not allowed")
        a = values[0]
        dts = tuple(x.dtype if isinstance(x, _Value) else
                    weak_scalar_dtype(_sample(x), a.dtype, self.qi) for x in xs)
        if len(dts) == 2 and op.name in ew.COMPARISONS and ew.signed_and_uint64(*dts):
            # (unfused, these compare exactly, not in their promoted float64)
            raise _Unfusable(f"{op.name} of a signed integer and uint64")
        ins, out, sig = op.resolve(dts, self.qi)
        shape = broadcast_shapes(*[v.shape for v in values])
        operands = tuple(x if isinstance(x, _Value) else self.slot(x, d)
                         for x, d in zip(xs, ins))
        return _Value(self, "op", out, shape, operands, op, ins, extra=sig)

    def where(self, c, x1, x2):
        if not isinstance(c, _Value):
            raise _Unfusable("where with a scalar condition")
        values = [v for v in (x1, x2) if isinstance(v, _Value)]
        if not values:
            raise _Unfusable("where of two scalars")
        if len(values) == 2:
            dt = _dtypes.promote(x1.dtype, x2.dtype)
        else:
            s = x2 if values[0] is x1 else x1
            dt = _dtypes.promote(values[0].dtype,
                                 weak_scalar_dtype(_sample(s), values[0].dtype, self.qi))
        shape = broadcast_shapes(c.shape, *[v.shape for v in values])
        operands = (c,) + tuple(v if isinstance(v, _Value) else self.slot(v, dt)
                                for v in (x1, x2))
        return _Value(self, "where", dt, shape, operands)

    def astype(self, x, dtype, copy=True, device=None, order="K", casting="unsafe"):
        if not isinstance(x, _Value):
            raise _Unfusable("astype of a scalar")
        if device is not None:
            raise _Unfusable("astype(device=...)")
        dt = _dtypes.to_dtype(dtype)
        _dtypes.check_device_support(dt, self.qi)
        if not np.can_cast(x.dtype, dt, casting=casting):
            raise TypeError(f"cannot cast from {x.dtype.name} to {dt.name} with "
                            f"casting={casting!r}")
        if dt is x.dtype:
            return x
        return _Value(self, "astype", dt, x.shape, (x,))

    def reduce(self, name, x, axis=None, keepdims=False, dtype=None):
        if not isinstance(x, _Value):
            raise _Unfusable(f"{name} of a scalar")
        if self.reduction is not None:
            raise _Unfusable("two reductions")
        struct, comb, a, r = reduce_types(name, x.dtype, dtype, self.qi)
        axes = normalize_axes(axis, len(x.shape))
        kept = tuple(s for i, s in enumerate(x.shape) if i not in axes)
        n_red = 1
        for i in axes:
            n_red *= x.shape[i]
        if n_red == 0 and name in ("max", "min") and 0 not in kept:
            raise ValueError(f"{name} of an empty selection has no identity")
        shape = (tuple(1 if i in axes else s for i, s in enumerate(x.shape)) if keepdims
                 else kept)
        self.reduction = _Value(self, "reduce", _DT[r], shape, (x,), index=None,
                                extra=(struct, comb, a, r, axes, keepdims))
        return self.reduction


_DT = dict(zip(_dtypes.TYPE_NAMES, _dtypes.DTYPES))


def _kind(x):
    if isinstance(x, _Value):
        return x.dtype.kind
    t = x.type if isinstance(x, _Scalar) else type(x)
    return "b" if t is bool else "i" if t is int else "f"


def _sample(s):
    return _SAMPLE[s.type] if isinstance(s, _Scalar) else s


# ---------------------------------------------------------------- plans
class _Plan:
    """A trace made into kernels: what a call with matching arguments runs."""

    __slots__ = ("inputs", "slots", "outputs", "returns", "shape", "prefix", "source", "vec",
                 "reduction", "family", "tuple", "block")


def _plan(tracer, result):
    """The plan of a trace whose function returned `result`."""
    items = result if isinstance(result, tuple) else (result,)
    if not items or not all(isinstance(v, _Value) and v.tracer is tracer for v in items):
        raise _Unfusable("the function must return traced arrays")
    red = tracer.reduction
    if red is not None and (len(items) != 1 or items[0] is not red):
        raise _Unfusable("a reduction that is not the function's result")
    top = red.args[0] if red is not None else None
    outs = [top] if red is not None else [v for v in items if v.kind != "input"]
    # the operations the results need, in trace order (operands first)
    order, seen = [], set()

    def visit(v):
        if id(v) in seen or not isinstance(v, _Value):
            return
        seen.add(id(v))
        for a in v.args:
            visit(a)
        order.append(v)
    for v in outs:
        visit(v)
    inputs = []   # argument positions of the array inputs, in order of use
    for v in order:
        if v.kind == "input" and v.index not in inputs:
            inputs.append(v.index)
    shapes = {v.shape for v in outs}
    if len(shapes) > 1:
        raise _Unfusable("results of different shapes")
    if red is None and len(inputs) + len(outs) > _MAX_OPERANDS:
        raise _Unfusable(f"more than {_MAX_OPERANDS} arrays")
    if red is not None and len(inputs) > _MAX_REDUCE_INPUTS:
        raise _Unfusable(f"a reduction of more than {_MAX_REDUCE_INPUTS} arrays")
    if not inputs:
        raise _Unfusable("no array input")
    p = _Plan()
    p.inputs, p.slots, p.reduction, p.tuple = inputs, list(tracer.slots), None, \
        isinstance(result, tuple)
    p.block = None
    p.shape = outs[0].shape if outs else items[0].shape
    p.outputs = [v.dtype for v in outs]
    # what the call returns: ("out", j) kernel output j, ("arg", k) an input
    # (by identity: == on traced values is the traced equal())
    p.returns = [("arg", v.index) if v.kind == "input" else
                 ("out", next(j for j, o in enumerate(outs) if o is v))
                 for v in items] if red is None else [("out", 0)]
    if red is not None:
        p.reduction = red.extra + (red.shape,)
    _generate(p, tracer, order, inputs, outs)
    return p


# Signed integer arithmetic whose overflow C++ leaves undefined: in one fused
# expression the compiler may assume it does not happen ((x + 1) > x folded
# to true, x * x taken as non-negative), where the unfused kernels, storing
# each result, wrap as NumPy does. Fused, these run in the unsigned type
# (32 bits at least: narrower ones would promote to int) and wrap back.
_WRAP_OPS = {"add": "+", "subtract": "-", "multiply": "*", "negative": "-", "square": "*"}


def _wrapping(name, dt, args, ct, vector=False):
    """A wrapping C++ expression of operation `name` on `args` of the signed
    integer dtype `dt` (None for other operations and dtypes)."""
    sym = _WRAP_OPS.get(name)
    if sym is None or dt.kind != "i":
        return None
    if name == "negative":
        args = ["0", args[0]] if not vector else [f"({args[0]} - {args[0]})", args[0]]
    elif name == "square":
        args = [args[0], args[0]]
    if vector:
        # clang vectors do not promote: the unsigned vector of the same lanes
        uv = f"usmk::raw_vec<std::make_unsigned_t<{cxx_type(dt)}>, sizeof({ct}) / sizeof({cxx_type(dt)})>"
        a, b = (f"__builtin_bit_cast({uv}, {x})" for x in args)
        return f"__builtin_bit_cast({ct}, {uv}({a} {sym} {b}))"
    u = "std::uint64_t" if dt.itemsize == 8 else "std::uint32_t"
    a, b = (f"static_cast<{u}>({x})" for x in args)
    return f"static_cast<{ct}>({a} {sym} {b})"


def _generate(p, tracer, order, inputs, outs):
    """The plan's kernel source and names, registered with the resolver."""
    qi = tracer.qi
    names = {}   # id(value) -> C++ name of its item
    in_dts = {}
    for v in order:
        if v.kind == "input":
            in_dts[v.index] = v.dtype
    dts = [in_dts[k] for k in inputs] + [v.dtype for v in order if v.kind != "input"]
    dts += [dt for _, dt in tracer.slots]
    red = p.reduction
    # the vector form: every value of one type with vector kernels, every
    # operation one with a vector form for it (as the unfused vector-block
    # kernels); reductions also need the skeleton's vector kernels
    one = set(dts) == {dts[0]} and _TN[dts[0]] in VECTOR_TYPES
    vec = one and simd_kernels(qi) and all(
        v.kind == "input" or (v.kind == "op" and v.extra in v.op.vector_sigs) for v in order)
    if red is not None:
        vec = vec and has_vector_kernels(red[0], _TN[dts[0]], red[2])
    stmts, vstmts = [], []
    for j, k in enumerate(inputs):
        names[("in", k)] = f"v{j}"

    def ref(a, vector=False):
        if isinstance(a, tuple):   # a kernel scalar
            return f"V(s{a[1]})" if vector else f"s{a[1]}"
        return names[("in", a.index)] if a.kind == "input" else names[id(a)]

    for t, v in enumerate(order):
        if v.kind == "input":
            continue
        names[id(v)] = name = f"t{t}"
        ct = cxx_type(v.dtype)
        if v.kind == "op":
            convs = [f"usmk::convert<{cxx_type(d)}>({ref(a)})" for a, d in zip(v.args, v.ins)]
            wrapped = _wrapping(v.op.name, v.dtype, convs, ct)
            expr = wrapped or f"{v.op.struct}::apply<{ct}>({', '.join(convs)})"
            stmts.append(f"  const {ct} {name} = {expr};\n")
            if vec:
                vargs = [ref(a, True) for a in v.args]
                vexpr = _wrapping(v.op.name, v.dtype, vargs, "V", vector=True) or \
                    f"{v.op.struct}::vapply({', '.join(vargs)})"
                vstmts.append(f"  const V {name} = {vexpr};\n")
        elif v.kind == "where":
            c, a, b = (ref(x) for x in v.args)
            stmts.append(f"  const {ct} {name} = usmk::convert<bool>({c}) ? "
                         f"usmk::convert<{ct}>({a}) : usmk::convert<{ct}>({b});\n")
        else:   # astype
            stmts.append(f"  const {ct} {name} = usmk::convert<{ct}>({ref(v.args[0])});\n")
    ops = {v.op for v in order if v.kind == "op"}
    complex_ = any(d.kind == "c" for d in dts + p.outputs)
    headers = {h for op in ops for h in [op._helpers()] if h}
    structs = "".join(_struct_of(op) for op in sorted(ops, key=lambda o: o.name))
    in_decl = [f"const {cxx_type(in_dts[k])} &v{j}" for j, k in enumerate(inputs)]
    s_decl = [f"const {cxx_type(dt)} s{i}" for i, (_, dt) in enumerate(tracer.slots)]
    s_args = [f"s{i}" for i in range(len(tracer.slots))]
    unpack_from = "s_" if red is not None else "prm.bytes"
    if red is None:
        block, offsets = pack_scalars([(dt, _SAMPLE_OF[dt.kind]) for _, dt in tracer.slots])
    else:
        try:
            block, offsets = _pack_source_scalars([(dt, _SAMPLE_OF[dt.kind])
                                                   for _, dt in tracer.slots])
        except ValueError as e:
            raise _Unfusable(str(e)) from None
    unpack = "".join(f"  {cxx_type(dt)} s{i};\n  __builtin_memcpy(&s{i}, {unpack_from} + "
                     f"{offsets[i]}, sizeof(s{i}));\n" for i, (_, dt) in enumerate(tracer.slots))
    ct0 = cxx_type(dts[0])
    head = (("#define USM_COMPLEX 1\n" if complex_ else "")
            + ('#include "reduction.hpp"\n' if red is not None else '#include "common.hpp"\n')
            + "".join(sorted(headers)) + structs)
    if red is None:
        o_decl = [f"{cxx_type(v.dtype)} &o{j}" for j, v in enumerate(outs)]
        body = (f"inline void body({', '.join(in_decl + o_decl + s_decl)}) {{\n"
                + "".join(stmts)
                + "".join(f"  o{j} = {ref(v)};\n" for j, v in enumerate(outs)) + "}\n")
        if vec:
            rv = f"usmk::raw_vec<{ct0}, L>"
            vin = [f"const {rv} &v{j}" for j in range(len(inputs))]
            vout = [f"{rv} &o{j}" for j in range(len(outs))]
            body += (f"template <int L> inline void vbody({', '.join(vin + vout + s_decl)}) {{\n"
                     f"  using V = {rv};\n" + "".join(vstmts)
                     + "".join(f"  o{j} = {ref(v, True)};\n" for j, v in enumerate(outs)) + "}\n")
        key = source_hash(head + body)
        prefix = f"fz_{key}"
        n_in = len(inputs)
        ptrs = ([f"kptr<const {cxx_type(in_dts[k])}> p{j}" for j, k in enumerate(inputs)]
                + [f"kptr<{cxx_type(v.dtype)}> p{n_in + j}" for j, v in enumerate(outs)])
        args_of = {
            "contig": [f"p{j}[i]" for j in range(n_in + len(outs))],
            "strided": [f"p{j}[off[{j}]]" for j in range(n_in + len(outs))],
            "vec": [f"usmk::load_raw<{ct0}, L>(p{j} + i)" for j in range(n_in)]
            + [f"o{n_in + j}" for j in range(len(outs))]}
        source = (head + f"namespace {prefix}_ns {{\n{body}}}\n"
                  + nary_kernels(prefix, ptrs, n_in + len(outs), n_in, unpack,
                                 lambda kind: f"  {prefix}_ns::{'v' if kind == 'vec' else ''}"
                                 f"body{'<L>' if kind == 'vec' else ''}("
                                 f"{', '.join(args_of[kind] + s_args)});\n",
                                 (ct0, [(n_in + j, cxx_type(v.dtype)) for j, v in
                                        enumerate(outs)], True) if vec else None))
        knames = [f"{prefix}_contig"] + [f"{prefix}_strided{nd}" for nd in _kernels.STRIDED_VARIANTS]
        if vec:
            knames.append(f"{prefix}_vec<1>")
        p.family = _register(prefix, knames, source)
        p.prefix, p.source, p.vec = prefix, source, vec
        return
    # a trailing reduction: the trace is the map of the first pass's source
    struct, comb, a, r = red[:4]
    top = outs[0]
    et = cxx_type(top.dtype)
    body = (f"inline {et} body({', '.join(in_decl + s_decl)}) {{\n" + "".join(stmts)
            + f"  return {ref(top)};\n}}\n")
    if vec:
        vin = [f"const usmk::raw_vec<{ct0}, L> &v{j}" for j in range(len(inputs))]
        body += (f"template <int L> inline usmk::raw_vec<{ct0}, L> vbody("
                 f"{', '.join(vin + s_decl)}) {{\n"
                 f"  using V = usmk::raw_vec<{ct0}, L>;\n" + "".join(vstmts)
                 + f"  return {ref(top, True)};\n}}\n")
    key = source_hash(head + body + repr(red[:4]))
    ns = f"fz_{key}"
    call = ", ".join([f"p{j}[k]" for j in range(len(inputs))] + s_args)
    vload = None
    if vec:
        loads = [f"usmk::load_raw<{ct0}, L>(p{j})" for j in range(len(inputs))]
        vload = ("L", f"usmk::raw_vec<{ct0}, L>",
                 unpack + f"    return vbody<L>({', '.join(loads + s_args)});\n")
    src = (head + f"namespace {ns} {{\n{body}"
           + source_structs(et, [(cxx_type(in_dts[k]), f"p{j}") for j, k in enumerate(inputs)],
                            "s_", ("k", unpack + f"    return body({call});\n"), vload))
    src += f"struct first : {struct} {{\n  using source = {ns}::source;\n}};\n}}\n"
    first = f"{ns}::first"
    t = _TN[in_dts[inputs[0]]]
    knames = []
    for kern in ("reduce_group", "reduce_cols") + (("reduce_rows_vec", "reduce_cols_vec")
                                                    if vec else ()):
        knames += [f"{kern}<{first}, {t}, {a}, {r}>", f"{kern}<{first}, {t}, {a}, {a}>"]
    p.family = _register(ns, list(dict.fromkeys(knames)), src, operations=(first,))
    p.prefix, p.source, p.vec = first, src, vec
    p.reduction = (first, comb, a, r) + red[4:]


_SAMPLE_OF = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}
_REGISTERED = {}   # prefix -> UserFamily


def _register(prefix, names, source, operations=()):
    fam = _REGISTERED.get(prefix)
    if fam is None:
        def part_of(name):
            return "vec" if "_vec" in name.split("<")[0] else "generic"
        fam = _REGISTERED[prefix] = register_kernel(names, source, f"fused-{prefix}",
                                                    part_of, operations)
    return fam


def _struct_of(op):
    """The operation struct of a table operation (its bundle's source
    without the #include lines)."""
    return "".join(ln + "\n" for ln in op.source().splitlines()
                   if not ln.startswith("#include"))


def _pack_source_scalars(values):
    """(bytes, [offset]) of the scalars of a reduction's source."""
    return pack_scalars(values, 0, _SCALAR_BYTES)


# ---------------------------------------------------------------- calls
def _python_type(s):
    """The Python scalar type of `s` (NumPy's float64 and complex128 are
    subclasses of float and complex)."""
    for t in (bool, int, float):
        if isinstance(s, t):
            return t
    return complex


# a call whose arguments have no key: traced anew, its plan not kept
_UNCACHED = object()


def _key(a):
    if isinstance(a, usm_ndarray):
        return (a._dtype, a._shape, a._q.caps)
    s = as_scalar(a)
    if s is not None:
        return _python_type(s)
    return _value_key(a)


def _value_key(a):
    """Another argument by value: a trace reads it as constants (a list's
    items), so equal values may share a plan; _UNCACHED for what has no such
    value (an object's identity is no key: a new object may get a freed
    one's id)."""
    if isinstance(a, (list, tuple)):
        items = tuple(_value_key(v) for v in a)
        return _UNCACHED if any(v is _UNCACHED for v in items) else (type(a), items)
    if a is None or isinstance(a, (str, bytes, bool, int, float, complex, np.generic)):
        return _exact(a) if a == a else _UNCACHED   # (a NaN equals no key)
    return _UNCACHED


def _exact(v):
    """A key equal for equal values of one type only: 0.0 and -0.0 differ
    (x * -0.0 is not x * 0.0)."""
    if isinstance(v, (float, np.floating)):
        return (type(v), v, math.copysign(1.0, v))
    if isinstance(v, (complex, np.complexfloating)):
        return (type(v), v, math.copysign(1.0, v.real), math.copysign(1.0, v.imag))
    return (type(v), v)


class Fusion:
    """A fused function (see ``fuse``)."""

    def __init__(self, func, kernel_name=None):
        functools.update_wrapper(self, func)
        self._func = func
        self.kernel_name = kernel_name or getattr(func, "__name__", "fused")
        self._plans = {}   # argument key -> _Plan, or the reason it does not fuse

    def __repr__(self):
        return f"<usmarray.fuse of {self._func!r}>"

    def __call__(self, *args, **kwargs):
        if kwargs:
            return self._unfused(args, kwargs, "keyword arguments")
        key, plan = self._plan(args)
        if isinstance(plan, _Plan):
            try:
                return _run(plan, args, self)
            except _OutOfRange as e:
                # a Python int beyond its operand's type: the unfused
                # operators compare it exactly (or raise, as NumPy does)
                return self._unfused(args, {}, str(e))
        if isinstance(plan, _Failed):
            # the trace raised: the unfused function reports the user's
            # error; if it runs, the tracer lacks something, said once
            r = self._func(*args)
            refused = self._refuse(plan.why, 3)
            if key is not None:
                self._plans[key] = refused
            return r
        return self._func(*args)

    def _plan(self, args):
        """(key, plan) of a call: the kept plan of arguments like these, or
        a new trace (kept unless an argument has no key: key None)."""
        key = tuple(map(_key, args))
        if any(k is _UNCACHED for k in key):
            return None, self._trace(args)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._trace(args)
        return key, plan

    def _trace(self, args):
        arrays = [a for a in args if isinstance(a, usm_ndarray)]
        if not arrays:
            return self._refuse("no array argument")
        try:
            qi = common_queue(*arrays)
        except Exception:   # (unfused, the function reports it)
            return self._refuse("arrays on different queues")
        tracer = _Tracer(args, qi)
        try:
            result = self._func(*[tracer.value_of(k, a) for k, a in enumerate(args)])
            return _plan(tracer, result)
        except _Unfusable as e:
            return self._refuse(str(e))
        except Exception as e:   # the unfused run raises it, or shows what we lack
            return _Failed(f"{type(e).__name__}: {e}")

    def _refuse(self, why, stacklevel=5):
        # (stacklevel: the caller of the fused function, from _trace by _plan)
        warnings.warn(f"fuse: {self.kernel_name} runs unfused: {why}", FusionWarning,
                      stacklevel=stacklevel)
        return why

    def _unfused(self, args, kwargs, why):
        warnings.warn(f"fuse: {self.kernel_name} runs unfused: {why}", FusionWarning,
                      stacklevel=3)
        return self._func(*args, **kwargs)

    def source(self, *args):
        """The C++ of the kernel these arguments run (None when they do not
        fuse), for debugging."""
        plan = self._plan(args)[1]
        return plan.source if isinstance(plan, _Plan) else None


class _OutOfRange(Exception):
    """A scalar the kernel's parameter type cannot hold."""


def _scalar_bytes(plan, args, pack):
    if plan.block is not None:
        return plan.block
    values = [(dt, args[src[1]] if src[0] == "arg" else src[1]) for src, dt in plan.slots]
    try:
        block = bytes(pack([(dt, as_scalar(v)) for dt, v in values])[0])
    except OverflowError as e:
        raise _OutOfRange(str(e)) from None
    if all(src[0] != "arg" for src, _ in plan.slots):
        plan.block = block   # (the function's own constants only)
    return block


def _run(plan, args, fusion):
    arrays = [args[k] for k in plan.inputs]
    qi = common_queue(*arrays)
    kind = coerced_kind(arrays)
    if plan.reduction is not None:
        return _run_reduction(plan, args, arrays, qi, kind)
    shape = plan.shape
    layout = ew._order(*arrays) if all(a._shape == shape for a in arrays) else "C"
    outs = [empty_array(shape, dt, qi, kind, layout) for dt in plan.outputs]
    views = [a if a._shape == shape else broadcast_view(a, shape) for a in arrays]
    block = _scalar_bytes(plan, args, pack_scalars)
    try:
        _engine.nary(qi.ref, qi.kc, plan.prefix, views + outs, len(views), [], block, plan.vec)
    except KernelCompileError:
        if not plan.vec:
            raise
        _drop_vec(plan)
        _engine.nary(qi.ref, qi.kc, plan.prefix, views + outs, len(views), [], block, False)
    res = [outs[i] if where == "out" else args[i] for where, i in plan.returns]
    return tuple(res) if plan.tuple else res[0]


def _drop_vec(plan):
    # (generated from the table's vector forms, the vector-block kernel
    # should compile; if a compiler does not take it, the generic one runs)
    NoVec.add(plan.prefix)
    plan.family.drop([n for n in plan.family.names if "_vec" in n.split("<")[0]])
    plan.vec = False


def _run_reduction(plan, args, arrays, qi, kind):
    first, comb, a, r, axes, keepdims, out_shape = plan.reduction
    shape = arrays[0]._shape
    if any(x._shape != shape for x in arrays):
        shape = broadcast_shapes(*[x._shape for x in arrays])
    nd = len(shape)
    kept = [i for i in range(nd) if i not in axes]
    if not kept:   # (all axes, in order: the arrays as they are)
        views = [x if x._shape == shape else broadcast_view(x, shape) for x in arrays]
    else:
        perm = kept + list(axes)
        views = []
        for x in arrays:
            b = x if x._shape == shape else broadcast_view(x, shape)
            views.append(view(b, b._off, tuple(shape[i] for i in perm),
                              tuple(b._strides[i] for i in perm)))
    if len(views) > 1:
        walk = [walked_strides(v) for v in views]
        if any(w != walk[0] for w in walk[1:]):
            views = [astype(v, v._dtype, order="C") for v in views]
    res = empty_array(tuple(shape[i] for i in kept), _DT[r], qi, kind)
    block = _scalar_bytes(plan, args, _pack_source_scalars)
    while True:
        try:
            _engine.reduce(qi.ref, qi.kc, first, comb, views[0], len(axes), res, a,
                           state_size(a), False, views[1:], block)
            break
        except KernelCompileError:
            if not plan.vec:
                raise
            _drop_vec(plan)
    return c_view(res, out_shape) if keepdims else res


def fuse(*args, kernel_name=None):
    """Fuse a function of elementwise operations into one kernel, as
    ``cupy.fuse``: ``@usmarray.fuse()``, ``@usmarray.fuse`` or
    ``usmarray.fuse(f, kernel_name=...)``.

    The function may use the elementwise functions and operators, ``where``,
    ``astype`` and, as its result, one reduction (``sum``, ``prod``,
    ``max``, ``min``, ``all``, ``any``, with ``axis``, ``keepdims`` and
    ``dtype``), on its array arguments and Python scalars. Its first call
    with arguments of given dtypes and shapes traces it and compiles one
    kernel (reused by later calls with the same dtypes and shapes; scalar
    arguments are kernel parameters). The type rules are the unfused
    functions': results are bit for bit the unfused ones where the
    operations are exact, within an ulp otherwise. A function it cannot
    fuse runs unfused with a FusionWarning. ``fused.source(*args)`` shows
    the kernel's C++.
    """
    if len(args) == 1 and callable(args[0]):
        return Fusion(args[0], kernel_name)
    if args:
        raise TypeError("fuse takes a function, or only keyword arguments")
    return lambda func: Fusion(func, kernel_name)

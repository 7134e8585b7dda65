"""``ReductionKernel``: reductions written by users, as CuPy has them, run on
the reduction skeleton of the built-in reductions (kernels/sycl/reduction.hpp).

The user's map, reduce and post-map expressions become an operation
struct of the skeleton: its first pass reads the inputs through a *source*
(usmk::src_t: a pointer per input, walked with the first input's strides,
and the scalar arguments) that applies the map; the passes over partial
states combine with the reduce expression; the kernels' result type is a
struct whose construction from a state applies the post-map expression.
So a user reduction gets the skeleton's layouts (rows, columns, any axes),
its vector-block kernels on CPU devices and its deterministic order.
"""

import re

import numpy as np

from ._core import _dtypes, _engine, _kernels
from ._core._array import empty_array, usm_ndarray, view
from ._core._copy import astype, broadcast_view, copy_into
from ._core._device import coerced_kind, common_queue
from ._core._kernels import KernelCompileError
from ._core._layout import C_CONTIG, WRITABLE, broadcast_shapes, c_strides
from ._core._reduce import normalize_axes
from ._core._scalars import as_scalar
from .user_kernels import (CALL, GENERAL_PATH, NOT_VEC, SOURCE_SCALAR_BYTES as _SCALAR_BYTES,
                           NoVec, bind_types, call_key, check_device_type, compile_error,
                           cxx_type, dtype_of, pack_scalars, parse_params, register_kernel,
                           resolved_for_arrays, section, source_hash, source_structs,
                           vector_safe)

__all__ = ["ReductionKernel", "c_view", "walked_strides"]

_TYPE_NAMES = dict(zip(_dtypes.DTYPES, _dtypes.TYPE_NAMES))   # dtype -> kernel type name
_MAX_INPUTS = 8          # kernels/engine/reduce.cpp kMaxSources
# reduce_type given as a C type
_C_TYPES = {"bool": "bool", "char": "int8", "signed char": "int8", "unsigned char": "uint8",
            "short": "int16", "unsigned short": "uint16", "int": "int32",
            "unsigned int": "uint32", "unsigned": "uint32", "long": "int64",
            "long long": "int64", "unsigned long": "uint64", "unsigned long long": "uint64",
            "float": "float32", "double": "float64", "half": "float16"}
# states the vector-block kernels take (the skeleton's raw_vec types)
_VEC_STATES = ("int32", "uint32", "int64", "uint64", "float32", "float64")
_VEC_KERNELS = ("reduce_rows_vec", "reduce_cols_vec")


class ReductionKernel:
    """A reduction from C++ expressions, as ``cupy.ReductionKernel``.

    Parameters
    ----------
    in_params : str
        Inputs, such as ``"T x, T y"`` or ``"float32 x, T w"`` (no
        ``raw``). Arrays broadcast together; scalars are allowed.
    out_params : str
        The one output, such as ``"T z"``.
    map_expr : str
        C++ expression of the inputs giving an item to reduce
        (``"x * x"``), converted to the reduce type.
    reduce_expr : str
        C++ expression combining two reduced values ``a`` and ``b``
        (``"a + b"``, ``"max(a, b)"``); it must be associative and
        commutative: the order of combination follows the layout.
    post_map_expr : str
        C++ statements setting the output from the reduced value ``a``
        (``"z = sqrt(a)"``).
    identity : str or None
        C++ expression of the reduce expression's identity (``"0"``). None:
        no identity; reducing an empty selection is then a ValueError.
    name : str
        Used in the kernels' names and messages.
    reduce_type : str, optional
        The type of the reduced values: a dtype name, a C type
        (``"float"``, ``"double"``, ``"long long"``) or a placeholder of the
        parameters. Default: the output's type.
    preamble : str
        C++ placed before the kernels (helper functions).
    reduce_dims, options :
        Accepted for compatibility: dimensions are always merged where the
        layout allows, and compiler options are not passed on.

    Notes
    -----
    Calling it with the inputs reduces over ``axis`` (None: all axes) with
    ``keepdims``, into ``out`` when given (also accepted as the argument
    after the inputs). The sycl:: math functions are in scope unqualified.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        if not isinstance(name, str) or not re.match(r"^[A-Za-z_]\w*$", name):
            raise ValueError(f"ReductionKernel: name must be a C identifier, got {name!r}")
        for what, text in (("map_expr", map_expr), ("reduce_expr", reduce_expr),
                           ("post_map_expr", post_map_expr)):
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"ReductionKernel: {what} must be C++ code")
        self.in_params = parse_params(in_params, "ReductionKernel in_params")
        self.out_params = parse_params(out_params, "ReductionKernel out_params")
        if not self.in_params:
            raise ValueError("ReductionKernel: at least one input parameter is needed")
        if len(self.out_params) != 1:
            raise ValueError("ReductionKernel: exactly one output parameter is needed, got "
                             f"{len(self.out_params)}")
        if any(p.raw for p in self.in_params + self.out_params):
            raise ValueError("ReductionKernel: raw parameters are not supported")
        if self.out_params[0].name in {p.name for p in self.in_params} | {"a", "b"}:
            raise ValueError(f"ReductionKernel: the output's name {self.out_params[0].name!r} is "
                             "taken (an input, or a/b of reduce_expr)")
        if len(self.in_params) > _MAX_INPUTS:
            raise ValueError(f"ReductionKernel: at most {_MAX_INPUTS} inputs")
        if identity is not None and not isinstance(identity, (str, int, float)):
            raise TypeError("ReductionKernel: identity must be a C++ expression string or None")
        self.identity = None if identity is None else str(identity)
        self.name, self.preamble = name, preamble
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.reduce_type = reduce_type
        if reduce_type is not None and not isinstance(reduce_type, str):
            self.reduce_type = np.dtype(reduce_type).name
        self.nin = len(self.in_params)
        self._compiled = {}   # key -> (first op, rest op, acc, acc size, result, family, vec)
        # call_key -> [types, input dtypes, output dtype, reduction dtype,
        # _kernels's result]: a call's type resolution, from its second call on
        self._resolved = {}
        self._started = set()   # kernels (namespaces) whose bundle a call asked for
        self.warm = False     # (usmarray's own reductions: compiled by warm-up too)

    # ------------------------------------------------------------ types
    def _reduce_dtype(self, types, out_dt):
        rt = self.reduce_type
        if rt is None:
            return out_dt
        if rt in types:
            return types[rt]
        name = _C_TYPES.get(" ".join(rt.split()), rt)
        try:
            dt = np.dtype(name)
        except TypeError:
            raise TypeError(f"{self.name}: reduce_type {rt!r} is neither a dtype, a C type nor a "
                            "placeholder bound by the arguments") from None
        return _dtypes.to_dtype(dt)

    # ------------------------------------------------------------ source
    def _source(self, ns, dts_in, scalar, offsets, types, rt, ot, vec):
        ct_r, ct_o = cxx_type(rt), cxx_type(ot)
        out = self.out_params[0].name
        # (_type_reduce: the reduce type, as CuPy's reduction kernels name it)
        typedefs = "".join(f"using {t} = {cxx_type(d)};\n" for t, d in types.items()) + \
            f"using _type_reduce = {ct_r};\n"
        arrays = [(k, p, d) for k, (p, d, s) in enumerate(zip(self.in_params, dts_in, scalar))
                  if not s]
        unpack = "".join(
            f"    {cxx_type(d)} {p.name};\n"
            f"    __builtin_memcpy(&{p.name}, usm_s_ + {offsets[k]}, sizeof({p.name}));\n"
            for k, (p, d, s) in enumerate(zip(self.in_params, dts_in, scalar)) if s)
        targs = ", ".join(f"class X{k}" for k in range(self.nin))
        margs = ", ".join(f"const X{k} &{p.name}" for k, p in enumerate(self.in_params))

        def call(item):
            return ", ".join(item(j) if not s else p.name
                             for j, (p, s) in enumerate(zip(self.in_params, scalar)))
        pos = {k: j for j, (k, _, _) in enumerate(arrays)}
        scalar_item = call(lambda k: f"usm_p{pos[k]}_[usm_k_]")
        # vectors of the inputs for the map: clang vectors when it is plain
        # arithmetic (no calls), else sycl::vec (the sycl:: math functions)
        plain = not CALL.search(self.map_expr)
        vec_item = call(lambda k: (f"usmk::load_raw<{cxx_type(dts_in[k])}, usm_L_>(usm_p{pos[k]}_)"
                                   if plain else f"usmk::to_sycl<{cxx_type(dts_in[k])}, usm_L_>("
                                   f"usmk::load_raw<{cxx_type(dts_in[k])}, usm_L_>(usm_p{pos[k]}_))"))
        has_id = self.identity is not None
        state = "state" if not has_id else ct_r
        if has_id:
            state_def = ""
            identity = f"    return A({ct_r}(\n{section('identity', self.identity)}));\n"
            combine = "    return reduce_(a, b);\n"
            lift = f"{ct_r}(map_({scalar_item}))"
            finish = f"  result(const {ct_r} &a) {{\n"
        else:
            state_def = f"struct state {{\n  {ct_r} v;\n  bool has;\n}};\n"
            identity = f"    return A{{{ct_r}(), false}};\n"
            combine = ("    if (!a.has) return b;\n    if (!b.has) return a;\n"
                       "    return A{reduce_(a.v, b.v), true};\n")
            lift = f"state{{{ct_r}(map_({scalar_item})), true}}"
            finish = f"  result(const state &usm_st_) {{\n    const {ct_r} a = usm_st_.v;\n"
        src = (
            '#include "reduction.hpp"\n#include "math.hpp"\n'
            + (section("preamble", self.preamble) if self.preamble else "")
            + f"namespace {ns} {{\nusing namespace sycl;\n{typedefs}"
            + f"template <{targs}> inline auto map_({margs}) {{\n  return (\n"
            + section("map_expr", self.map_expr) + "  );\n}\n"
            + "template <class V> inline V reduce_(const V &a, const V &b) {\n  return V(\n"
            + section("reduce_expr", self.reduce_expr) + "  );\n}\n"
            + state_def
            # the kernels' result: of the output's size, made from a final state
            + f"struct result {{\n  {ct_o} usm_v_;\n" + finish
            + f"    {ct_o} &{out} = usm_v_;\n"
            + section("post_map_expr", self.post_map_expr) + "    ;\n  }\n};\n"
            # the passes over partial states
            + "struct rest {\n"
            + "  template <typename A> static A identity() {\n" + identity + "  }\n"
            + "  template <typename A> static A combine(const A &a, const A &b) {\n"
            + combine + "  }\n")
        if vec and not CALL.search(self.reduce_expr):
            src += "  template <typename V> static V vcomb(V a, V b) { return reduce_(a, b); }\n"
        elif vec:
            src += (
                "  template <typename VT, int L>\n"
                "  static usmk::raw_vec<VT, L> vcomb(usmk::raw_vec<VT, L> a, "
                "usmk::raw_vec<VT, L> b) {\n"
                "    return usmk::to_raw<VT, L>(sycl::vec<VT, L>(reduce_("
                "usmk::to_sycl<VT, L>(a), usmk::to_sycl<VT, L>(b))));\n  }\n")
        src += "};\n"
        # the first pass's source of items (kernels/engine/reduce.cpp Sources)
        # (names the user's cannot be: usm_..._)
        vload = None
        if vec:
            vload = ("usm_L_", f"usmk::raw_vec<{ct_r}, usm_L_>", unpack + (
                f"    return usmk::raw_vec<{ct_r}, usm_L_>(map_({vec_item}));\n" if plain
                else f"    return usmk::to_raw<{ct_r}, usm_L_>(sycl::vec<{ct_r}, usm_L_>("
                f"map_({vec_item})));\n"))
        src += source_structs(state, [(cxx_type(d), f"usm_p{j}_") for j, (_, _, d) in
                                      enumerate(arrays)],
                              "usm_s_", ("usm_k_", unpack + f"    return {lift};\n"), vload)
        src += ("struct first : rest {\n  using source = " + ns + "::source;\n};\n"
                + f"}} // namespace {ns}\n")
        if has_id and rt.kind == "c":
            # a complex final state makes the result whole (usmk::finish
            # converts, and a conversion of complex to anything not complex
            # keeps the real part)
            src += (f"namespace usmk {{\ntemplate <> inline {ns}::result convert<{ns}::result, "
                    f"{ct_r}>(const {ct_r} &a) {{\n  return {ns}::result(a);\n}}\n}}\n")
        return src

    def _vectorizable(self, dts_in, scalar, rt):
        arrays = [d for d, s in zip(dts_in, scalar) if not s]
        return (self.identity is not None and rt.name in _VEC_STATES
                and all(d == rt for d in arrays)
                and not NOT_VEC.search(self.map_expr + self.reduce_expr + self.preamble)
                and vector_safe(rt, [d for d, s in zip(dts_in, scalar) if s],
                                self.map_expr + self.reduce_expr + self.preamble))

    def _kernels(self, dts_in, scalar, offsets, types, rt, ot):
        key = (tuple(dts_in), tuple(scalar), tuple(offsets), rt, ot,
               tuple(sorted((t, d.name) for t, d in types.items())))
        k = self._compiled.get(key)
        if k is not None:
            return k
        h = source_hash(repr(key), self.map_expr, self.reduce_expr, self.post_map_expr,
                        str(self.identity), self.preamble, repr(self.in_params),
                        repr(self.out_params))
        ns = f"ur_{self.name}_{h}"
        vec = self._vectorizable(dts_in, scalar, rt) and not NoVec.known(ns)
        source = self._source(ns, dts_in, scalar, offsets, types, rt, ot, vec)
        first, rest, result = f"{ns}::first", f"{ns}::rest", f"{ns}::result"
        if self.identity is None:
            acc = f"{ns}::state"
            align = min(rt.itemsize, 8)
            acc_size = -(-(rt.itemsize + 1) // align) * align
        else:
            acc, acc_size = _TYPE_NAMES[rt], rt.itemsize
        t = _TYPE_NAMES[next(d for d, s in zip(dts_in, scalar) if not s)]
        names = []
        for kern in ("reduce_group", "reduce_cols") + (_VEC_KERNELS if vec else ()):
            names += [f"{kern}<{first}, {t}, {acc}, {r}>" for r in (result, acc)]
        for kern in ("reduce_group", "reduce_cols"):
            names += [f"{kern}<{rest}, {acc}, {acc}, {r}>" for r in (acc, result)]

        def part_of(name):
            # vector-block first passes apart (they may not compile); the
            # generic kernels (first passes and the passes over partials)
            # together, also for a vector-block kernel the bundle lacks
            return "vec" if name.split("<")[0] in _VEC_KERNELS and name in family.names \
                else "generic"
        family = register_kernel(names, source, f"{self.name}-{h}", part_of, (first, rest),
                                 warm=self.warm)
        k = self._compiled[key] = [first, rest, acc, acc_size, result, family, vec, ns]
        return k

    # ------------------------------------------------------------ call
    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        if out is None and axis is None and not keepdims and len(args) == self.nin:
            r = self._reduce_all(args)
            if r is not GENERAL_PATH:
                return r
        if len(args) not in (self.nin, self.nin + 1):
            raise TypeError(f"{self.name}: takes {self.nin} inputs (and optionally the output), "
                            f"got {len(args)} arguments")
        ins = list(args[:self.nin])
        if len(args) > self.nin:
            if out is not None:
                raise TypeError(f"{self.name}: the output is given twice")
            out = args[self.nin]
        for p, a in zip(self.in_params, ins):
            if not isinstance(a, usm_ndarray) and as_scalar(a) is None:
                raise TypeError(f"{self.name}: argument {p.name} must be a usm_ndarray or a "
                                f"scalar, got {type(a).__name__}")
        if out is not None:
            if not isinstance(out, usm_ndarray):
                raise TypeError(f"{self.name}: out must be a usm_ndarray")
            if not out._flags & WRITABLE:
                raise ValueError(f"{self.name}: out is read-only")
        arrays = [a for a in ins if isinstance(a, usm_ndarray)]
        if not arrays:
            raise ValueError(f"{self.name}: at least one input must be an array")
        qi = common_queue(*arrays + ([out] if out is not None else []))
        outs = [out] if out is not None else []
        resolved = self._resolve(qi, ins, outs)
        types, dts_in, ot, rt = resolved[:4]
        shape = arrays[0]._shape
        if any(a._shape != shape for a in arrays):
            shape = broadcast_shapes(*[a._shape for a in arrays])
        nd = len(shape)
        axes = normalize_axes(axis, nd)
        kept = [i for i in range(nd) if i not in axes]
        out_shape = tuple(shape[i] for i in kept)
        n_red = 1
        for i in axes:
            n_red *= shape[i]
        if n_red == 0 and self.identity is None and 0 not in out_shape:
            raise ValueError(f"{self.name}: reduction of an empty selection without an identity")
        final_shape = (tuple(1 if i in axes else s for i, s in enumerate(shape)) if keepdims
                       else out_shape)
        if out is not None and out._shape != final_shape:
            raise ValueError(f"{self.name}: out has shape {out._shape}, the result has shape "
                             f"{final_shape}")
        # the inputs: of the declared types, broadcast, reduced axes last,
        # walked with one set of strides (else all C-contiguous)
        perm = kept + list(axes)
        scalar = [not isinstance(a, usm_ndarray) for a in ins]
        views, values = [], []
        for a, d in zip(ins, dts_in):
            if not isinstance(a, usm_ndarray):
                values.append((d, as_scalar(a)))
                continue
            if a._dtype is not d:
                a = astype(a, d)
            b = broadcast_view(a, shape)
            views.append(view(b, b._off, tuple(shape[i] for i in perm),
                              tuple(b._strides[i] for i in perm)))
        if any(walked_strides(v) != walked_strides(views[0]) for v in views[1:]):
            views = [astype(v, v._dtype, order="C") for v in views]
        block, offsets = pack_scalars(values, 0, _SCALAR_BYTES)
        it = iter(offsets)
        offsets = [next(it) if s else 0 for s in scalar]
        # the result: into `out` when it is C-contiguous of the output type
        direct = out is not None and out._dtype is ot and bool(out._flags & C_CONTIG)
        res = (c_view(out, out_shape) if direct
               else empty_array(out_shape, ot, qi, coerced_kind(arrays)))
        # (the offsets of the scalars follow from their dtypes: in the key)
        if resolved[4] is None:
            resolved[4] = self._kernels(dts_in, scalar, offsets, types, rt, ot)
        self._run(resolved[4], qi, views, res, len(axes), bytes(block))
        if out is None:
            return c_view(res, final_shape) if keepdims else res
        if not direct:
            copy_into(out, c_view(res, final_shape))
        return out

    def _resolve(self, qi, ins, outs):
        """[types, input dtypes, output dtype, reduction dtype, kernels (None
        until the first launch)] of a call, kept per call_key."""
        key = call_key(qi, ins, outs)
        resolved = self._resolved.get(key) if key is not None else None
        if resolved is None:
            types = bind_types(self.in_params, self.out_params, ins, outs, self.name)
            dts_in = [dtype_of(p, types, self.name) for p in self.in_params]
            ot = dtype_of(self.out_params[0], types, self.name)
            rt = self._reduce_dtype(types, ot)
            for d in dts_in + [ot, rt] + list(types.values()):
                check_device_type(self.name, d, qi)
            resolved = [types, dts_in, ot, rt, None]
            if key is not None:
                self._resolved[key] = resolved
        return resolved

    def prepare(self, *arrays):
        """Register the kernels of a call on `arrays` (all inputs, no
        scalars) without compiling or running them: with ``warm`` set,
        ``usmarray warmup`` then compiles them (usmarray's own reductions)."""
        qi = common_queue(*arrays)
        resolved = self._resolve(qi, list(arrays), [])
        if resolved[4] is None:
            types, dts_in, ot, rt = resolved[:4]
            n = len(arrays)
            resolved[4] = self._kernels(dts_in, [False] * n, [0] * n, types, rt, ot)

    def _reduce_all(self, args):
        """The reduction over all axes of arrays of one shape and queue, into
        a new result, with types resolved before (by the general path,
        __call__); GENERAL_PATH for every other call."""
        qi, resolved = resolved_for_arrays(self._resolved, args)
        if resolved is None or resolved[4] is None:
            return GENERAL_PATH
        shape = args[0]._shape
        if any(a._shape != shape for a in args) or (self.identity is None and 0 in shape):
            return GENERAL_PATH
        _, dts_in, ot, _, k = resolved
        views = [a if a._dtype is d else astype(a, d) for a, d in zip(args, dts_in)]
        if any(walked_strides(v) != walked_strides(views[0]) for v in views[1:]):
            return GENERAL_PATH
        res = empty_array((), ot, qi, coerced_kind(args))
        self._run(k, qi, views, res, len(shape), b"")
        return res

    def _run(self, k, qi, views, res, nred, block):
        first, rest, acc, acc_size, result, family, _, ns = k   # (k[6]: vector kernels)
        while True:
            try:
                if ns not in self._started:
                    # the first pass's kernels and those of the passes over
                    # partial states are two parts of the bundle: compiled
                    # side by side (threads: a user's error is reported
                    # once), not one after the other as the passes ask
                    self._started.add(ns)
                    simd = k[6] and qi.kc.simd
                    _kernels.resolver_of(qi.kc).compile_parts(
                        [n for n in family.names if simd or n.split("<")[0] not in _VEC_KERNELS],
                        f"ReductionKernel {self.name}", processes=False, errors=True)
                _engine.reduce(qi.ref, qi.kc, first, rest, views[0], nred, res, acc, acc_size,
                               False, views[1:], block, result)
                return
            except KernelCompileError as e:
                if not k[6]:
                    sections = {"map_expr": self.map_expr, "reduce_expr": self.reduce_expr,
                                "post_map_expr": self.post_map_expr,
                                "identity": self.identity or "", "preamble": self.preamble}
                    raise compile_error(e, "ReductionKernel", self.name, family.text,
                                        sections) from None
                # the vector-block kernels do not compile: the generic ones
                NoVec.add(ns)
                family.drop([n for n in family.names if n.split("<")[0] in _VEC_KERNELS])
                k[6] = False


def walked_strides(v):
    """The strides of the dimensions that are walked (size > 1)."""
    return tuple(s for n, s in zip(v._shape, v._strides) if n > 1)


def c_view(a, shape):
    """C-contiguous `a` seen with `shape` (of as many items)."""
    return view(a, a._off, shape, c_strides(shape))

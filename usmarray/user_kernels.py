"""Kernels written by users, as CuPy has them: ``ElementwiseKernel``,
``RawKernel`` and ``RawModule`` (``ReductionKernel``: user_reductions.py).

A kernel's C++ is compiled at run time like usmarray's own kernels: through
the kernel resolver, once per distinct source and dtypes, and kept in the
disk cache (docs/kernel-cache.md). Elementwise kernels run on the engine's
n-ary launcher (kernels/engine/nary.cpp): inputs and outputs of one
broadcast shape walked together (contiguous, or strided with the
dimensions that merge collapsed), scalars in a block of parameters.
docs/kernels.md shows them in use.
"""

import hashlib
import math
import operator
import os
import re
import struct

import numpy as np

from ._core import _dtypes, _engine, _env, _kernels
from ._core._array import empty_array, usm_ndarray
from ._core._cache_files import mark_used
from ._core._copy import astype, broadcast_view, copy_into
from ._core._device import coerced_kind, common_queue, default_queue, resolve_queue
from ._core._kernels import KernelCompileError
from ._core._layout import C_CONTIG, WRITABLE, broadcast_shapes
from ._core._scalars import as_scalar, scalar_value

__all__ = ["ElementwiseKernel", "RawKernel", "RawModule", "cxx_type", "parse_params",
           "Param", "register_kernel", "compile_error", "section", "UserFamily", "NoVec",
           "nary_kernels", "source_structs", "SOURCE_SCALAR_BYTES",
           "source_hash", "pack_scalars", "check_device_type", "bind_types", "dtype_of", "CALL",
           "NOT_VEC"]

# dtype -> the C++ type of its items in kernels (kernels/sycl/common.hpp)
_CXX = {"bool": "bool", "int8": "std::int8_t", "uint8": "std::uint8_t",
        "int16": "std::int16_t", "uint16": "std::uint16_t", "int32": "std::int32_t",
        "uint32": "std::uint32_t", "int64": "std::int64_t", "uint64": "std::uint64_t",
        "float16": "sycl::half", "float32": "float", "float64": "double",
        "complex64": "std::complex<float>", "complex128": "std::complex<double>"}
_IDENT = re.compile(r"^[A-Za-z_]\w*$")
_MAX_OPERANDS = 16   # kernels/sycl/geometry.hpp kMaxOperands
_PARAM_BYTES = 256   # kParamBytes


def cxx_type(dt):
    """The C++ type of items of dtype `dt` in kernels."""
    return _CXX[dt.name]


def _dtype_name(token):
    """The dtype a type token of a parameter list names, or None (a placeholder).
    One letter is always a placeholder, as in CuPy: NumPy reads letters as
    type codes ("N" is uint64, "I" uint32, "F" complex64), which made a
    kernel's "N n" a uint64 parameter."""
    if len(token) == 1:
        return None
    try:
        dt = np.dtype(token)
    except TypeError:
        return None
    return _dtypes.to_dtype(dt) if dt.name in _CXX else None


class Param:
    """One parameter of a kernel's parameter list: ``T x``, ``raw T x`` or
    ``float32 x``."""

    __slots__ = ("name", "type", "raw", "dtype")

    def __init__(self, name, type_, raw):
        self.name, self.type, self.raw = name, type_, raw
        self.dtype = _dtype_name(type_)   # None: a placeholder bound by the arguments

    def __repr__(self):
        return f"{'raw ' if self.raw else ''}{self.type} {self.name}"


def parse_params(text, what):
    """The parameters of a CuPy-style list ("T x, raw T y, float32 z"), or
    ValueError saying what is wrong."""
    if not isinstance(text, str):
        raise TypeError(f"{what}: parameters must be a string such as 'T x, T y'")
    params = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            if text.strip():
                raise ValueError(f"{what}: empty parameter in {text!r}")
            continue
        words = item.split()
        raw = words[0] == "raw"
        if raw:
            words = words[1:]
        if len(words) != 2 or not all(_IDENT.match(w) for w in words):
            raise ValueError(f"{what}: cannot parse parameter {item!r} (expected 'T name', "
                             "'raw T name' or 'float32 name')")
        params.append(Param(words[1], words[0], raw))
    names = [p.name for p in params]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"{what}: parameter name(s) used twice: {', '.join(sorted(dup))}")
    for p in params:
        if p.name in ("i", "_ind") or p.name.startswith("_uk"):
            raise ValueError(f"{what}: {p.name!r} is a reserved name")
    return params


def section(label, text):
    """`text` (user code) as a section of generated source: after a marker
    line that compile_error finds to tell which generated line is which
    line of the user's code. (The kernel compiler reports lines of the
    source it was given; it does not honour #line.)"""
    return f"// usmarray: <{label}> follows\n{text}\n"


_LOCATION = re.compile(r"^\s*[^\s:]+:(\d+):(\d+): (error|warning): (.*)$", re.M)


def compile_error(e, what, name, source, sections):
    """KernelCompileError `e` of a user kernel with generated `source`, its
    message pointing at the user's code: for each compiler error in one of
    `sections` ({label: text}, placed with section()), the section, line
    and the line's text."""
    log = str(e)
    lines = source.splitlines()
    starts = {}   # label -> line number (1-based) of the section's first line
    for k, ln in enumerate(lines):
        m = re.match(r"// usmarray: <(\w+)> follows$", ln)
        if m:
            starts[m.group(1)] = k + 2
    shown = []
    for m in _LOCATION.finditer(log):
        if m.group(3) != "error":
            continue
        at = int(m.group(1))
        for label, text in sections.items():
            first = starts.get(label)
            user = text.splitlines() or [""]
            if first is not None and first <= at < first + len(user):
                k = at - first
                shown.append(f"  {label}, line {k + 1}: {user[k].strip()}\n    {m.group(4)}")
                break
        else:
            shown.append(f"  generated source, line {at}: {m.group(4)}")
    head = f"{what} {name!r} does not compile"
    if shown:
        head += ":\n" + "\n".join(dict.fromkeys(shown))
    return KernelCompileError(f"{head}\n\ncompiler log:\n{log}")


SOURCE_SCALAR_BYTES = 64   # kernels/engine/reduce.cpp kSourceScalarBytes


def source_structs(item, ptrs, scalars, index, vload=None):
    """C++ of the items a reduction's first pass reads (kernels/sycl/reduction.hpp
    "sources"): `source`, the kernel's argument (kernels/engine/reduce.cpp
    Sources: the pointers, then the scalars' bytes), and `cursor`, the
    position the skeleton walks with (the pointers and the address of the
    bytes), so that the position it makes for each vector it loads is a few
    pointers, not a copy of the 64 bytes for the compiler to remove. (A
    fused sum((x - y) ** 2) of 1e7 float32 measured the same either way on
    a 2-core AMD VM, at 0.96-1.07 x a hand-written loop's time.)

    ptrs: [(C++ item type, pointer name)]; scalars: the bytes' name;
    index: (parameter name, body returning the item at that offset);
    vload: None or (template parameter name, return type, body)."""
    decl = "".join(f"  const {t} *{n};\n" for t, n in ptrs)
    step = "".join(f"    r.{n} += k;\n" for _, n in ptrs)
    k, get = index
    src = (f"struct cursor {{\n  using item = {item};\n{decl}  const unsigned char *{scalars};\n"
           "  cursor operator+(std::int64_t k) const {\n    cursor r = *this;\n" + step
           + "    return r;\n  }\n"
           + f"  {item} operator[](std::int64_t {k}) const {{\n{get}  }}\n")
    if vload:
        lp, rt, body = vload
        src += f"  template <int {lp}> {rt} vload() const {{\n{body}  }}\n"
    at = ", ".join([n for _, n in ptrs] + [scalars])
    src += (f"}};\nstruct source {{\n  using item = {item};\n{decl}"
            f"  alignas(16) unsigned char {scalars}[{SOURCE_SCALAR_BYTES}];\n"
            f"  cursor at() const {{ return cursor{{{at}}}; }}\n"
            "  cursor operator+(std::int64_t k) const { return at() + k; }\n"
            f"  {item} operator[](std::int64_t k) const {{ return at()[k]; }}\n")
    if vload:
        lp, rt, _ = vload
        src += f"  template <int {lp}> {rt} vload() const {{ return at().template vload<{lp}>(); }}\n"
    return src + "};\n"


def nary_kernels(prefix, ptrs, na, first_out, prologue, call, vec=None):
    """The kernels of the n-ary launcher (kernels/engine/nary.cpp) for one
    loop body: `<prefix>_contig`, `_strided<ND>` and, when `vec` is
    (C++ type of the operands, [(j, C++ type) of the outputs], whether the
    body takes clang vectors rather than sycl::vec), `_vec<1>`.

    `ptrs`: the kernels' pointer parameters (the `na` iterated operands
    p0, p1, ..., then raw ones), USM pointers by value (``kptr<const float> p0``,
    kernels/sycl/geometry.hpp says why); `prologue`: statements reading the scalar
    parameters from `prm`; `call(kind)`: the statement running the body for
    one item (kind "contig": item `i` of p_j; "strided": item `off[j]`;
    "vec": L items from `i`, inputs loaded as vectors, output j into o<j>)."""
    src = (
        f"USM_KERNEL(1) void {prefix}_contig({', '.join(ptrs)}, std::int64_t n, "
        "usm::Params prm) {\n"
        "  const std::int64_t i = usmk::linear_id();\n  if (i >= n) return;\n"
        + prologue + call("contig") + "}\n"
        + f"template <int ND> inline void {prefix}_walk(" + ", ".join(
            ptrs + ["const usm::Geometry<ND, usm::kMaxOperands> &g", "const usm::Params &prm"])
        + ") {\n"
        + f"  std::int64_t off[{na}];\n"
        + f"  if (!usmk::strided_offsets<ND, usm::kMaxOperands, 0, {na}>(g, off)) return;\n"
        + f"  const std::int64_t i = off[{first_out}];\n"
        + prologue + call("strided") + "}\n"
        + strided_kernels(prefix, ptrs))
    if vec:
        ct, outs, plain = vec
        src += (
            # (a template, so that a body vectors do not take fails only
            # when this kernel is asked for)
            f"template <int V> USM_SIMD_KERNEL void {prefix}_vec({', '.join(ptrs)}, "
            "std::int64_t n, usm::Params prm) {\n" + prologue
            + f"  constexpr int L = usm::simd_lanes(sizeof({ct}));\n"
            + f"  usmk::with_streaming<{ct}>(n, [&](auto st) {{\n"
            + "    usmk::simd_blocks<L>(n, [&](std::int64_t i) {\n"
            + "".join(f"      {'usmk::raw_vec' if plain else 'sycl::vec'}<{c}, L> o{j};\n"
                      for j, c in outs)
            + "    " + call("vec")
            + "".join(f"      usmk::store_vec<decltype(st)::value, {c}, L>("
                      + (f"o{j}" if plain else f"usmk::to_raw<{c}, L>(o{j})")
                      + f", p{j} + i);\n" for j, c in outs)
            + "    }, [&](std::int64_t i) {\n    " + call("contig")
            + "    });\n  });\n}\n")
    return src


def strided_kernels(prefix, ptrs):
    """The strided kernels `<prefix>_strided<ND>` of the n-ary launcher, one
    plain function per ND calling `<prefix>_walk<ND>` (kernels/engine/nary.cpp
    says why they are not a template)."""
    names = [p.rsplit(" ", 1)[1] for p in ptrs]
    out = []
    for nd in _kernels.STRIDED_VARIANTS:
        out.append(f"USM_KERNEL({min(nd, 3)}) void {prefix}_strided{nd}("
                   + ", ".join(ptrs + [f"usm::Geometry<{nd}, usm::kMaxOperands> g",
                                       "usm::Params prm"])
                   + f") {{\n  {prefix}_walk<{nd}>({', '.join(names + ['g', 'prm'])});\n}}\n")
    return "".join(out)


class UserFamily(_kernels.Family):
    """The kernels of one user kernel's source: a bundle of its own, not
    compiled by warm-up unless `warm` (usmarray's own elementwise kernels).
    `part_of(name)`: the label of the part of the bundle a first call of
    kernel `name` compiles (the kernels with that label); `operations`: the
    operation structs it owns (user reductions, whose kernels are the
    reduction skeleton's templates)."""

    def __init__(self, names, source, label, part_of, operations=(), warm=False):
        prefixes = () if operations else tuple(_kernels.split_name(n)[0] for n in names)
        super().__init__(prefixes, None, lambda a: label, None,
                         (lambda qi: (None,)) if warm else (lambda qi: ()))
        self.names, self._source, self._label, self._part_of = list(names), source, label, part_of
        self.text = _kernels.source_of(self.spec(None, None))   # what the compiler is given

    def spec(self, key, qi):
        return _kernels.BundleSpec(f"user-{self._label}", self._source, self.names)

    def part(self, name, spec, qi):
        if name not in self.names:   # (dropped: a lookup of what is no longer there)
            return "dropped", []
        label = self._part_of(name)
        return label, [n for n in spec.names if self._part_of(n) == label]

    def drop(self, names):
        """Kernels the bundle no longer provides (a vector-block variant that
        does not compile)."""
        self.names = [n for n in self.names if n not in names]


def _layout_of(name):
    # a first call compiles the kernel of its layout: contiguous, vector
    # blocks (apart, as they may not compile) or strided (every ND)
    tail = name.split("<")[0].rsplit("_", 1)[-1]
    return "strided" if tail.startswith("strided") else tail if tail in ("contig", "vec") else "all"


def warm_up(hook, *kernels):
    """Make usmarray's own kernels of user-kernel form (isclose's, the dot
    products', usmarray.special's, ...) part of ``usmarray warmup``: mark
    `kernels` warm and run ``hook(qi)`` first, which registers their
    variants for the device (``kernel.source``/``prepare`` on
    device_items)."""
    for k in kernels:
        k.warm = True
    _kernels.WARM_HOOKS.append(hook)


def device_items(qi, dtypes):
    """(dtype, a 1-item array of it) for each of `dtypes` the queue's device
    holds: the arguments a warm-up hook registers a kernel's variants with."""
    for d in dtypes:
        if _dtypes.device_dtype(d, qi) is d:
            yield d, empty_array((1,), d, qi, "device")


def register_kernel(names, source, label, part_of=_layout_of, operations=(), warm=False):
    """Make kernels `names` of `source` available to the resolver (they
    compile on first use, and in warm-up if `warm`); returns their UserFamily."""
    family = UserFamily(names, source, label, part_of, operations, warm)
    _kernels.register_family(family, operations)
    return family


def check_device_type(name, dt, qi):
    """TypeError for a dtype the device lacks (float64 without fp64, ...)."""
    try:
        _dtypes.check_device_support(dt, qi)
    except ValueError as e:
        raise TypeError(f"{name}: {e}") from None


def source_hash(*parts):
    """A short hash of the texts `parts` (names of generated kernels)."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\0")
    return h.hexdigest()[:12]


_INDEX = re.compile(r"\b(i|_ind)\b")
# C++ that the vector-block kernels take as it is, without calls (plain
# arithmetic on clang vectors) or with them (sycl::vec, for the sycl:: math)
CALL = re.compile(r"\w\s*\(")
# what sycl::vec and clang vectors compute otherwise than scalars
# (comparisons give -1 for true), or what they cannot compile
NOT_VEC = re.compile(r"[<>?!\[]|==|&&|\|\||\b(if|for|while|switch|return|goto)\b")
# C++'s preprocessing numbers: every literal (decimal, hex, octal, binary,
# integer or floating, with its suffix), not part of a name
_NUMBER = re.compile(r"(?<![\w.])\.?\d(?:[eEpP][+-]|[\w.'])*")
# type names: a cast or a constructor of another type than the items'
_TYPE_WORD = re.compile(r"\b(double|float|half|long|unsigned|signed|short|char|int|bool|size_t|"
                        r"ptrdiff_t|u?int(?:8|16|32|64)_t|complex|static_cast|bit_cast|"
                        # sizes and types of operands (a vector's, not an item's),
                        # limits and named constants (macros of another type than
                        # the items': LLONG_MAX, UINT_MAX, M_PI)
                        r"sizeof|alignof|decltype|numeric_limits|[A-Z][A-Z0-9]*_[A-Z0-9_]+)\b")


def _literal_safe(token, dt):
    """Whether the literal `token` has the vector's value and type where
    items of `dt` meet it (a vector converts a scalar operand to its items'
    type; scalar C++ converts the items to the literal's type if wider)."""
    t = token.replace("'", "").lower()
    hexa = t.startswith("0x")
    if ("." in t or "p" in t) if hexa else ("." in t or "e" in t):   # floating
        return dt.kind == "f" and (dt.itemsize == 8 or t.endswith("f"))
    if dt.kind == "f":
        return True   # (an integer literal becomes the float item's type either way)
    digits = t.rstrip("ulz")
    if digits != t:
        return False   # unsigned or long: the scalar code's arithmetic is
    try:
        v = int(digits, 0) if digits[:2] in ("0x", "0b") else int(digits, 8 if
                                                                   digits[:1] == "0" else 10)
    except ValueError:
        return False
    return v < (2 ** 31 if dt.itemsize == 4 else 2 ** 63)


def vector_safe(dt, scalar_dts, text):
    """Whether explicit vectors of `dt` compute the C++ `text` as the scalar
    code does: items of 4 or 8 bytes (smaller integers are promoted to int
    in scalar arithmetic, not in vectors), scalar operands of the items'
    type (a vector converts a scalar operand to its items' type), no type
    names (a cast to double would compute in double in the scalar code
    only), and no literal the scalar code would compute in a wider or
    unsigned type (a double literal with float32 items, a float one with
    integer items, 2u or 3000000000 with int32 items)."""
    if dt.itemsize < 4 or any(d != dt for d in scalar_dts) or _TYPE_WORD.search(text):
        return False
    return all(_literal_safe(m.group(0), dt) for m in _NUMBER.finditer(text))


def pack_scalars(values, start=8, limit=_PARAM_BYTES):
    """(bytes, [offset]) packing (dtype, value) pairs, each aligned to its
    item size, after `start` bytes (the n-ary kernels keep the loop's size
    in the first 8); ValueError past `limit` bytes."""
    out, offs = bytearray(start), []
    for dt, v in values:
        if isinstance(v, complex) and dt.kind != "c":
            raise TypeError(f"a complex scalar ({v!r}) for a parameter of type {dt.name}")
        out += b"\0" * (-len(out) % min(dt.itemsize, 16))
        offs.append(len(out))
        out += scalar_value(v, dt)
    if len(out) > limit:
        raise ValueError(f"the kernel's scalar arguments take {len(out)} bytes, more than "
                         f"{limit}")
    return out, offs


def bind_types(in_params, out_params, ins, outs, name):
    """{placeholder: dtype}: a placeholder takes the dtype of the first
    array argument it types (all such arrays must agree), else of the first
    Python or NumPy scalar it types (Python scalars: bool, int64, float64,
    complex128, as CuPy)."""
    types = {}
    for p, a in zip(in_params + out_params, list(ins) + list(outs)):
        if isinstance(a, usm_ndarray) and p.dtype is None:
            have = types.setdefault(p.type, a._dtype)
            if have != a._dtype:
                raise TypeError(f"{name}: type {p.type} is bound to both {have.name} and "
                                f"{a._dtype.name}")
    for p, a in zip(in_params, ins):
        if not isinstance(a, usm_ndarray) and p.dtype is None and p.type not in types:
            types[p.type] = _dtypes.to_dtype(a.dtype if isinstance(a, np.generic)
                                             else np.asarray(as_scalar(a)).dtype)
    return types


GENERAL_PATH = object()   # ElementwiseKernel._call_arrays: the call takes the general path


def call_key(qi, ins, outs):
    """What decides a call's types and kernel, as a hashable key (None when
    a scalar's type depends on more than its Python type: such calls
    resolve their types every time): the device's capabilities, and per
    argument its dtype code (arrays), dtype (NumPy scalars) or Python
    type (ints: whether they fit int64, which decides their dtype)."""
    key = [qi.caps]
    for a in ins:
        if isinstance(a, usm_ndarray):
            key.append(a._tc)
        elif type(a) in (bool, float, complex):
            key.append(type(a))
        elif type(a) is int:
            key.append((int, -2**63 <= a < 2**63))
        elif isinstance(a, np.generic):
            key.append(a.dtype)
        else:
            return None
    key.extend(o._tc for o in outs)
    return tuple(key)


def resolved_for_arrays(resolved, args):
    """(queue, entry of `resolved` under call_key) for arguments that are
    all arrays of one queue; (None, None) for any other arguments."""
    qi = args[0]._q if args and isinstance(args[0], usm_ndarray) else None
    if qi is None or any(not isinstance(a, usm_ndarray) or a._q is not qi for a in args):
        return None, None
    return qi, resolved.get(call_key(qi, args, ()))


def dtype_of(p, types, name):
    """The dtype of parameter `p` given the bound placeholders."""
    dt = p.dtype if p.dtype is not None else types.get(p.type)
    if dt is None:
        raise TypeError(f"{name}: cannot determine the type {p.type} of {p.name}: no argument "
                        "binds it")
    return dt


class NoVec:
    """User kernels whose vector-block kernel does not compile (the
    operation does not work on sycl::vec values): in memory, and as empty
    files in the kernel cache's `user-novec` directory so that later
    processes do not try again."""

    _known = set()

    @classmethod
    def _path(cls, prefix):
        if not _kernels.disk_cache_enabled():
            return None
        return os.path.join(_env.cache_dir(), "user-novec", prefix)

    @classmethod
    def known(cls, prefix):
        if prefix in cls._known:
            return True
        path = cls._path(prefix)
        if path and os.path.exists(path):
            cls._known.add(prefix)
            mark_used(path)
            return True
        return False

    @classmethod
    def add(cls, prefix):
        cls._known.add(prefix)
        path = cls._path(prefix)
        if path:
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                open(path, "w").close()
            except OSError:
                pass   # (a read-only cache: this process remembers it)


class ElementwiseKernel:
    """An elementwise kernel from C++ code, as ``cupy.ElementwiseKernel``.

    Parameters
    ----------
    in_params, out_params : str
        Parameter lists such as ``"T x, T y"``, ``"float32 a"`` or
        ``"raw T w"``. A type that is not a dtype name is a placeholder,
        bound to the dtype of the first array argument it types (or of a
        Python scalar, when no array binds it). Input arrays and scalars are
        read as values (``x``); outputs are references to the result's items
        (``z = ...``). ``raw`` arguments are pointers to the first item of a
        C-contiguous array, indexed by the kernel (``w[i]``).
    operation : str
        C++ statements run for each item: the parameters, ``i`` (the item's
        index in C order of the broadcast shape) and ``_ind.size()`` (the
        number of items) are in scope, and the sycl:: math functions.
    name : str
        Used in the kernel's name and messages.
    preamble : str
        C++ placed before the kernel (helper functions, constants).

    Notes
    -----
    Calling the kernel with the inputs (and optionally the outputs) runs it
    over their broadcast shape, or over ``size`` items when no argument is
    an array. Returns the output array (a tuple for several outputs).
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, **options):
        if not isinstance(name, str) or not _IDENT.match(name):
            raise ValueError(f"ElementwiseKernel: name must be a C identifier, got {name!r}")
        if not isinstance(operation, str) or not operation.strip():
            raise ValueError("ElementwiseKernel: operation must be C++ code")
        self.in_params = parse_params(in_params, "ElementwiseKernel in_params")
        self.out_params = parse_params(out_params, "ElementwiseKernel out_params")
        if not self.out_params:
            raise ValueError("ElementwiseKernel: at least one output parameter is needed")
        both = {p.name for p in self.in_params} & {p.name for p in self.out_params}
        if both:
            raise ValueError(f"ElementwiseKernel: {', '.join(sorted(both))} is both an input "
                             "and an output")
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.name, self.operation, self.preamble = name, operation, preamble
        self.no_return, self.return_tuple = no_return, return_tuple
        self._uses_index = bool(_INDEX.search(operation)) or any(
            p.raw for p in self.in_params + self.out_params)
        self._compiled = {}   # (types, array flags) -> (kernel prefix, source)
        self.warm = False     # (usmarray's own kernels: compiled by warm-up too)
        # call_key -> [types, input dtypes, output dtypes, _kernel's result]:
        # a call's type resolution, from its second call on
        self._resolved = {}

    # ------------------------------------------------------------ source
    def _source(self, prefix, dts_in, dts_out, scalar, offsets, types, vec):
        params = self.in_params + self.out_params
        dts = dts_in + dts_out
        complex_ = any(d.kind == "c" for d in dts + list(types.values()))
        typedefs = "".join(f"using {t} = {cxx_type(d)};\n" for t, d in types.items())
        # body(...): the user's operation on values and references; the
        # array operands' types are template parameters so that the
        # vector-block kernel can pass sycl::vec values
        # the vector-block kernel passes clang vectors when the operation is
        # plain arithmetic (no calls), else sycl::vec (for the sycl:: math)
        plain = not CALL.search(self.operation + self.preamble)
        targs, args, call_contig, call_strided, call_vec, unpack = [], [], [], [], [], []
        it_names, raw_names = [], []
        for k, (p, d) in enumerate(zip(params, dts)):
            ct = cxx_type(d)
            is_in = k < self.nin
            if p.raw:
                args.append(f"{'const ' if is_in else ''}{ct} *{p.name}")
                raw_names.append((p.name, ct, is_in))
                call = f"r_{p.name}"
                call_contig.append(call), call_strided.append(call), call_vec.append(call)
            elif is_in and scalar[k]:
                args.append(f"const {ct} {p.name}")
                unpack.append(f"  {ct} s_{p.name};\n"
                              f"  __builtin_memcpy(&s_{p.name}, prm.bytes + {offsets[k]}, "
                              f"sizeof(s_{p.name}));\n")
                call = f"s_{p.name}"
                call_contig.append(call), call_strided.append(call), call_vec.append(call)
            else:
                j = len(it_names)
                it_names.append((p.name, ct, is_in))
                targs.append(f"class A{j}")
                # inputs by value: an output may be the same memory (k(a, a))
                args.append(f"const A{j} {p.name}" if is_in else f"A{j} &{p.name}")
                call_contig.append(f"p{j}[i]")
                call_strided.append(f"p{j}[off[{j}]]")
                call_vec.append((f"usmk::load_raw<{ct}, L>(p{j} + i)" if plain else
                                 f"usmk::to_sycl<{ct}, L>(usmk::load_raw<{ct}, L>(p{j} + i))")
                                if is_in else f"o{j}")
        ptrs = [f"kptr<{'const ' if is_in else ''}{ct}> p{j}" for j, (_, ct, is_in) in
                enumerate(it_names)]
        ptrs += [f"kptr<{'const ' if is_in else ''}{ct}> r_{n}" for n, ct, is_in in raw_names]
        first_out = next(j for j, (_, _, is_in) in enumerate(it_names) if not is_in)
        na = len(it_names)
        prologue = ("  std::int64_t size_;\n  __builtin_memcpy(&size_, prm.bytes, 8);\n"
                    + "".join(unpack))
        tail = ["i", "{size_}"]
        calls = {"contig": call_contig, "strided": call_strided, "vec": call_vec}
        # (vector-block kernel: every array operand of one type, _vectorizable)
        outs = [(j, c) for j, (_, c, is_in) in enumerate(it_names) if not is_in]
        src = (
            ("#define USM_COMPLEX 1\n" if complex_ else "")
            + '#include "common.hpp"\n#include "math.hpp"\n'
            + (section("preamble", self.preamble) if self.preamble else "")
            + f"namespace {prefix}_ns {{\nusing namespace sycl;\n{typedefs}"
            + "struct ind_t { std::int64_t n; std::int64_t size() const { return n; } };\n"
            + f"template <{', '.join(targs)}>\n"
            + f"inline void body({', '.join(args + ['std::int64_t i', 'ind_t _ind'])}) {{\n"
            + section("operation", self.operation) + ";\n}\n} // namespace\n"
            + nary_kernels(prefix, ptrs, na, first_out, prologue,
                           lambda kind: f"  {prefix}_ns::body({', '.join(calls[kind] + tail)});\n",
                           (it_names[0][1], outs, plain) if vec else None))
        return src

    # dtypes whose sycl::vec arithmetic is the scalar arithmetic, lane by lane
    _VEC_TYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")

    def _vectorizable(self, dts, scalar):
        """Whether the vector-block kernel may run this kernel: an
        expression over operands of one dtype, without the index, raw
        arguments, comparisons or control flow. (It may still not compile:
        then the kernel runs without it, NoVec.)"""
        arrays = [d for d, s in zip(dts, scalar) if not s]
        return (not self._uses_index and len(set(arrays)) == 1 and not self._reads_outputs()
                and arrays[0].name in self._VEC_TYPES
                and not NOT_VEC.search(self.operation + self.preamble)
                and vector_safe(arrays[0], [d for d, s in zip(dts, scalar) if s],
                                self.operation + self.preamble))

    def _reads_outputs(self):
        """Whether the operation reads an output (``y += x``, ``y = y * 2``):
        the vector-block kernel's outputs start uninitialised, so only an
        operation that assigns them with ``=`` and never reads them may use it."""
        for p in self.out_params:
            for m in re.finditer(rf"\b{re.escape(p.name)}\b", self.operation):
                if not re.match(r"\s*=(?!=)", self.operation[m.end():]):
                    return True
        return False

    def _kernel(self, dts_in, dts_out, scalar, offsets, types):
        """(prefix, source text, whether it has a vector-block kernel)."""
        key = (tuple(dts_in), tuple(dts_out), tuple(scalar), tuple(offsets),
               tuple(sorted((t, d.name) for t, d in types.items())))
        k = self._compiled.get(key)
        if k is None:
            h = source_hash(repr(key), self.operation, self.preamble,
                      repr(self.in_params), repr(self.out_params))
            prefix = f"uk_{self.name}_{h}"
            vec = self._vectorizable(dts_in + dts_out, scalar) and not NoVec.known(prefix)
            source = self._source(prefix, dts_in, dts_out, scalar, offsets, types, vec)
            names = ([f"{prefix}_contig"] + [f"{prefix}_strided{nd}"
                                             for nd in _kernels.STRIDED_VARIANTS]
                     + ([f"{prefix}_vec<1>"] if vec else []))
            text = register_kernel(names, source, f"{self.name}-{h}", warm=self.warm).text
            k = self._compiled[key] = (prefix, text, vec)
        return k

    def _without_vec(self, prefix):
        """The vector-block kernel of `prefix` did not compile: never again."""
        NoVec.add(prefix)
        for key, (p, text, vec) in self._compiled.items():
            if p == prefix:
                self._compiled[key] = (p, text, False)
        self._resolved.clear()

    # ------------------------------------------------------------ call
    def __call__(self, *args, size=None, block_size=None):
        if size is not None:
            try:
                size = operator.index(size)
            except TypeError:
                raise TypeError(f"{self.name}: size must be an integer, got {size!r}") from None
        if size is None and len(args) == self.nin and not self._uses_index:
            r = self._call_arrays(args)
            if r is not GENERAL_PATH:
                return r
        if len(args) not in (self.nin, self.nin + self.nout):
            raise TypeError(f"{self.name}: takes {self.nin} inputs (and optionally "
                            f"{self.nout} outputs), got {len(args)} arguments")
        ins, outs = list(args[:self.nin]), list(args[self.nin:])
        for p, a in zip(self.in_params, ins):
            if not isinstance(a, usm_ndarray) and as_scalar(a) is None:
                raise TypeError(f"{self.name}: argument {p.name} must be a usm_ndarray or a "
                                f"scalar, got {type(a).__name__}")
            if p.raw and not isinstance(a, usm_ndarray):
                raise TypeError(f"{self.name}: raw argument {p.name} must be a usm_ndarray")
        for p, o in zip(self.out_params, outs):
            if not isinstance(o, usm_ndarray):
                raise TypeError(f"{self.name}: output {p.name} must be a usm_ndarray")
            if not o._flags & WRITABLE:
                raise ValueError(f"{self.name}: output {p.name} is read-only")
        arrays = [a for a in ins + outs if isinstance(a, usm_ndarray)]
        qi = common_queue(*arrays) if arrays else resolve_queue(None)
        key = call_key(qi, ins, outs)
        resolved = self._resolved.get(key) if key is not None else None
        if resolved is None:
            types = bind_types(self.in_params, self.out_params, ins, outs, self.name)
            dts_in = [dtype_of(p, types, self.name) for p in self.in_params]
            dts_out = [dtype_of(p, types, self.name) for p in self.out_params]
            for d in dts_in + dts_out + list(types.values()):
                check_device_type(self.name, d, qi)
            resolved = [types, dts_in, dts_out, None]
            if key is not None:
                self._resolved[key] = resolved
        types, dts_in, dts_out = resolved[:3]
        # the iteration's shape: every array that is not raw
        shapes = [a._shape for p, a in zip(self.in_params + self.out_params, ins + outs)
                  if isinstance(a, usm_ndarray) and not p.raw]
        if shapes:
            shape = shapes[0]
            if any(s != shape for s in shapes):
                shape = broadcast_shapes(*shapes)
            if size is not None and size != math.prod(shape):
                raise ValueError(f"{self.name}: size={size} does not match the arguments' shape "
                                 f"{shape}")
        elif size is not None:
            shape = (operator.index(size),)
            if shape[0] < 0:
                raise ValueError(f"{self.name}: size must not be negative, got {size}")
        else:
            raise ValueError(f"{self.name}: no array argument: give size=")
        for p, o in zip(self.out_params, outs):
            if not p.raw and o._shape != shape:
                raise ValueError(f"{self.name}: output {p.name} has shape {o._shape}, the "
                                 f"arguments broadcast to {shape}")
        kind = coerced_kind([a for a in ins if isinstance(a, usm_ndarray)] or arrays)
        # operands: inputs as arrays (cast to the declared type), scalars
        # into the parameter block, raw arrays contiguous
        scalar = [not isinstance(a, usm_ndarray) for a in ins] + [False] * self.nout
        it_in, raw, values = [], [], []
        for p, a, d in zip(self.in_params, ins, dts_in):
            if not isinstance(a, usm_ndarray):
                values.append((d, as_scalar(a)))
                continue
            if a._dtype is not d:
                a = astype(a, d)
            if p.raw:
                raw.append(a if a._flags & C_CONTIG else astype(a, d, order="C"))
            else:
                it_in.append(broadcast_view(a, shape))
        block, offs = pack_scalars(values)
        offsets = []
        it_scalar = iter(offs)
        for s in scalar:
            offsets.append(next(it_scalar) if s else 0)
        block[0:8] = struct.pack("<q", math.prod(shape))
        results, it_out, copy_back = [], [], []
        for k, (p, d) in enumerate(zip(self.out_params, dts_out)):
            o = outs[k] if outs else None
            if p.raw:
                if o is None:
                    o = empty_array(shape, d, qi, kind)
                    raw.append(o)
                elif o._dtype is d and o._flags & C_CONTIG:
                    raw.append(o)
                else:
                    # the kernel indexes a raw array's items in C order, of
                    # its declared type: a copy of those (it may read what it
                    # does not write), written back after
                    t = astype(o, d, order="C", copy=True)
                    raw.append(t)
                    copy_back.append((o, t))
                results.append(o)
                continue
            if o is None:
                o = empty_array(shape, d, qi, kind)
            target = o
            # the index `i` is read from the first output's offset: a
            # C-contiguous one (a given one that is not is written after)
            needs_c = self._uses_index and not it_out and not o._flags & C_CONTIG
            if o._dtype is not d or needs_c:
                # (holding o's values: a body may read its output, y = y + x)
                target = astype(o, d, order="C", copy=True)
                copy_back.append((o, target))
            it_out.append(target)
            results.append(o)
        if len(it_in) + len(it_out) > _MAX_OPERANDS:
            raise ValueError(f"{self.name}: at most {_MAX_OPERANDS} array arguments")
        if not it_out:
            raise ValueError(f"{self.name}: at least one output must not be raw")
        # (the offsets of the scalars follow from their dtypes: in the key)
        if resolved[3] is None:
            resolved[3] = self._kernel(dts_in, dts_out, scalar, offsets, types)
        prefix, source, vec = resolved[3]
        try:
            try:
                _engine.nary(qi.ref, qi.kc, prefix, it_in + it_out, len(it_in), raw,
                             bytes(block), vec)
            except KernelCompileError:
                if not vec:
                    raise
                self._without_vec(prefix)
                _engine.nary(qi.ref, qi.kc, prefix, it_in + it_out, len(it_in), raw,
                             bytes(block), False)
        except KernelCompileError as e:
            raise compile_error(e, "ElementwiseKernel", self.name, source,
                                {"operation": self.operation, "preamble": self.preamble}) from None
        for o, t in copy_back:
            copy_into(o, t)
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return results[0]
        return tuple(results)

    def _call_arrays(self, args):
        """The call of a kernel without the index or raw parameters on
        arrays of one queue only, with results allocated here and types
        resolved before (by the general path, __call__); GENERAL_PATH for
        every other call."""
        qi, resolved = resolved_for_arrays(self._resolved, args)
        if resolved is None or resolved[3] is None:
            return GENERAL_PATH
        _, dts_in, dts_out, (prefix, _, vec) = resolved
        shape = args[0]._shape
        if any(a._shape != shape for a in args):
            shape = broadcast_shapes(*[a._shape for a in args])
        ins = [broadcast_view(a if a._dtype is d else astype(a, d), shape)
               for a, d in zip(args, dts_in)]
        kind = coerced_kind(args)
        outs = [empty_array(shape, d, qi, kind) for d in dts_out]
        try:
            _engine.nary(qi.ref, qi.kc, prefix, ins + outs, len(ins), [],
                         struct.pack("<q", math.prod(shape)), vec)
        except KernelCompileError:
            return GENERAL_PATH   # (which drops the vector-block kernel, or reports the error)
        if self.no_return:
            return None
        return outs[0] if self.nout == 1 and not self.return_tuple else tuple(outs)

    def source(self, *args, size=None):
        """The C++ generated for these arguments (for debugging)."""
        ins, outs = list(args[:self.nin]), list(args[self.nin:])
        types = bind_types(self.in_params, self.out_params, ins, outs, self.name)
        dts_in = [dtype_of(p, types, self.name) for p in self.in_params]
        dts_out = [dtype_of(p, types, self.name) for p in self.out_params]
        scalar = [not isinstance(a, usm_ndarray) for a in ins] + [False] * self.nout
        values = [(d, as_scalar(a)) for a, d in zip(ins, dts_in) if not isinstance(a, usm_ndarray)]
        _, offs = pack_scalars(values)
        it = iter(offs)
        offsets = [next(it) if s else 0 for s in scalar]
        return self._kernel(dts_in, dts_out, scalar, offsets, types)[1]


class RawKernel:
    """A SYCL free-function kernel from source, as ``cupy.RawKernel``.

    Parameters
    ----------
    code : str
        C++ defining ``name`` as a free-function kernel (``USM_KERNEL(1)``
        for a 1-D nd_range, ``USM_KERNEL(2)`` or ``USM_KERNEL(3)``), with the helpers of
        kernels/sycl/common.hpp and math.hpp in scope (``usmk::linear_id()``,
        ``syclext::this_work_item::get_nd_item<1>()``, the sycl:: math).
    name : str
        The kernel function's name.

    Notes
    -----
    Calling ``kernel(global_size, local_size, args)`` launches an
    nd_range of ``global_size`` work-items (a size or a tuple of 1 to 3) in
    work-groups of ``local_size``, SYCL's form;
    ``kernel(grid=g, block=b, args=a)`` is CuPy's: ``g`` work-groups of
    ``b`` work-items per dimension. Arrays are passed as pointers to their
    first item (which must be C-contiguous), scalars as NumPy scalars of the
    declared type (``np.float32(2)``) or Python ints (int64) and floats
    (float64).
    """

    def __init__(self, code, name, options=(), *, _module=None):
        if not isinstance(name, str) or not _IDENT.match(name):
            raise ValueError(f"RawKernel: name must be a C identifier, got {name!r}")
        if not isinstance(code, str):
            raise TypeError("RawKernel: code must be a string of C++")
        self.code, self.name = code, name
        self._dims = _declared_dims(code, name)
        self._module = _module or RawModule(code=code, options=options, _names=(name,))

    def __call__(self, global_size=None, local_size=None, args=None, *, grid=None, block=None,
                 shared_mem=0, sycl_queue=None):
        cupy = grid is not None or block is not None
        if cupy and (global_size is not None or local_size is not None):
            raise TypeError("RawKernel: give global and local sizes, or grid= and block=, "
                            "not both")
        glob, loc = (grid, block) if cupy else (global_size, local_size)
        if glob is None or loc is None or args is None:
            raise TypeError("RawKernel: takes (global_size, local_size, args) or grid=, block=, "
                            "args=")
        try:   # (integers only: 1024.0 is a TypeError, as a shape)
            glob = tuple(map(operator.index, (glob,) if np.ndim(glob) == 0 else glob))
            loc = tuple(map(operator.index, (loc,) if np.ndim(loc) == 0 else loc))
        except TypeError:
            raise TypeError(f"RawKernel: sizes must be integers, got {glob!r} and {loc!r}") \
                from None
        if not 1 <= len(glob) <= 3 or len(glob) != len(loc):
            raise ValueError("RawKernel: the sizes must be 1 to 3 numbers each, of one length")
        if any(g <= 0 for g in glob) or any(b <= 0 for b in loc):
            raise ValueError("RawKernel: sizes must be positive")
        if cupy:
            glob = tuple(g * b for g, b in zip(glob, loc))
        elif any(g % b for g, b in zip(glob, loc)):
            raise ValueError(f"RawKernel: the global size {glob} is not a multiple of the local "
                             f"size {loc} (CuPy's grid and block: grid=, block=)")
        if self._dims is not None and self._dims != len(glob):
            raise ValueError(f"RawKernel: {self.name} is declared over a {self._dims}-dimensional "
                             f"nd-range, launched over {len(glob)} dimensions")
        if shared_mem:
            raise ValueError("RawKernel: shared_mem is not supported (declare local memory "
                             "with syclexp::work_group_static)")
        if not isinstance(args, (tuple, list)):
            raise TypeError("RawKernel: args must be a tuple")
        arrays = [a for a in args if isinstance(a, usm_ndarray)]
        qi = (common_queue(*arrays) if arrays else
              resolve_queue(sycl_queue) if sycl_queue is not None else default_queue())
        packed = []
        for k, a in enumerate(args):
            if isinstance(a, usm_ndarray):
                if not a._flags & C_CONTIG:
                    raise ValueError(f"RawKernel: array argument {k} is not C-contiguous")
                packed.append(a)
            elif isinstance(a, np.generic) and a.dtype.kind in "biufc":
                packed.append(a.tobytes())
            elif isinstance(a, bool):
                packed.append(np.bool_(a).tobytes())
            elif isinstance(a, int):
                packed.append(np.int64(a).tobytes())
            elif isinstance(a, float):
                packed.append(np.float64(a).tobytes())
            else:
                raise TypeError(f"RawKernel: argument {k} must be a usm_ndarray or a scalar, got "
                                f"{type(a).__name__}")
        prefix = self._module._prefix(qi)
        try:
            _engine.launch_raw(qi.ref, qi.kc, f"{prefix}::{self.name}", packed, glob, loc)
        except KernelCompileError as e:
            raise compile_error(e, "RawKernel", self.name, self._module._source,
                                {"code": self.code}) from None


def _declared_dims(code, name):
    """The d of the ``USM_KERNEL(d)`` (or ``nd_range_kernel<d>``) declaring
    kernel `name` in `code`, or None when the source does not say."""
    m = re.search(rf"(?:USM_KERNEL\s*\(\s*(\d)\s*\)|nd_range_kernel\s*<\s*(\d)\s*>)"
                  rf"[^;{{}}]*?\b{re.escape(name)}\s*\(", code)
    return int(m.group(1) or m.group(2)) if m else None


class RawModule:
    """Several kernels from one source, as ``cupy.RawModule``:
    ``RawModule(code=...).get_function(name)`` is a RawKernel. The source is
    compiled once, with all the kernels ``get_function`` asked for before
    the first launch (``name_expressions`` names them up front)."""

    def __init__(self, code=None, *, options=(), name_expressions=(), _names=()):
        if not isinstance(code, str):
            raise TypeError("RawModule: code must be a string of C++")
        self.code = code
        self._names = list(dict.fromkeys(list(name_expressions) + list(_names)))
        self._registered = {}   # frozen names -> prefix

    def get_function(self, name):
        if not isinstance(name, str) or not _IDENT.match(name):
            raise ValueError(f"RawModule: name must be a C identifier, got {name!r}")
        if not re.search(rf"\b{name}\s*\(", self.code):
            # (CuPy raises here too; registered, it broke every later launch of the module)
            raise ValueError(f"RawModule: the code defines no kernel {name!r}")
        if name not in self._names:
            self._names.append(name)
        return RawKernel(self.code, name, _module=self)

    def _prefix(self, qi):
        """The C++ namespace the module's code is compiled in (its kernels
        are `<namespace>::<name>`, so that two modules may name kernels
        alike), registering the module's kernels on first use."""
        names = tuple(self._names)
        prefix = self._registered.get(names)
        if prefix is None:
            h = source_hash(self.code, *names)
            prefix = f"rk_{h}"
            lines = self.code.splitlines()
            includes = "".join(ln + "\n" for ln in lines if ln.lstrip().startswith("#include"))
            body = "\n".join("" if ln.lstrip().startswith("#include") else ln for ln in lines)
            source = (("#define USM_COMPLEX 1\n" if "complex" in self.code else "")
                      + '#include "common.hpp"\n#include "math.hpp"\n' + includes
                      + f"namespace {prefix} {{\n" + section("code", body) + "}\n")
            self._source = register_kernel([f"{prefix}::{n}" for n in names], source,
                                           f"raw-{h}").text
            self._registered[names] = prefix
        return prefix

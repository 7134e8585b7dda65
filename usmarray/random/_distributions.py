"""The table of distributions the random kernels draw, their kernel
families, and the one launch every draw goes through.

A distribution reads the stream in one of four ways (``unit``):

* ``"bits"``: one 64-bit word per element, or one 32-bit half for 4-byte
  items (the raw stream, random, uniform): NumPy's order, bit for bit;
* ``"halves"``: one 32-bit half per element (integers with a range of at
  most 2^32: Lemire's method, a rejected draw retried from the element's
  sub-stream);
* ``"words"`` / ``"pairs"``: one word per element (integers of wider
  ranges, exponential; normal and lognormal take the words of a call in
  pairs, Box-Muller, starting at an even word);
* ``"element"``: one word position per element, whose sub-stream the
  element's rejection sampler draws from (gamma, beta, poisson, binomial,
  vonmises, zipf, logseries, hypergeometric).

So every element's value depends only on the key, the counter and its
position (kernels/sycl/philox.hpp).
"""

import struct
from typing import NamedTuple

from .._core import _dtypes, _engine, _kernels
from .._core._array import view
from .._core._dtypes import TYPE_NAMES

__all__ = ["DISTS", "draw", "bits_of"]


class Dist(NamedTuple):
    id: int          # kernels/sycl/random*.cpp D_* constants
    kernel: str      # "rng_fill" (random.cpp) or "rng_dist" (random_dist.cpp)
    unit: str        # how it reads the stream (module docstring)
    types: tuple     # item types of its kernels
    vector: tuple    # item types with a CPU vector-block variant (rng_vec, rng_dist_vec)


_FLOATS = ("f4", "f8")
# Bounded integers are drawn by their storage size: lo + x modulo 2^bits has
# the same bits in a signed (or bool) result as in the unsigned one, so
# draw() gives those kernels unsigned views and the integers' bundle
# compiles 8 kernels instead of 15.
_UINTS = ("u1", "u2", "u4", "u8")
_UNSIGNED = {1: _dtypes.uint8, 2: _dtypes.uint16, 4: _dtypes.uint32, 8: _dtypes.uint64}

DISTS = {
    "raw": Dist(0, "rng_fill", "bits", ("u4", "u8"), ("u4", "u8")),
    "random": Dist(1, "rng_fill", "bits", _FLOATS, _FLOATS),
    "uniform": Dist(2, "rng_fill", "bits", _FLOATS, _FLOATS),
    # (uint8/uint16 vectors for the bucket keys of permutations too)
    "int32": Dist(3, "rng_fill", "halves", _UINTS, _UINTS),
    "int64": Dist(4, "rng_fill", "words", ("u8",), ()),
    "normal": Dist(5, "rng_dist", "pairs", _FLOATS, _FLOATS),
    "exponential": Dist(6, "rng_dist", "words", _FLOATS, _FLOATS),
    "lognormal": Dist(7, "rng_dist", "pairs", _FLOATS, _FLOATS),
    "gamma": Dist(8, "rng_dist", "element", _FLOATS, ()),
    "beta": Dist(9, "rng_dist", "element", _FLOATS, ()),
    "poisson": Dist(10, "rng_dist", "element", ("i4", "i8"), ()),
    "binomial": Dist(11, "rng_dist", "element", ("i4", "i8"), ()),
    "vonmises": Dist(12, "rng_dist", "element", _FLOATS, ()),
    "zipf": Dist(13, "rng_dist", "element", ("i8",), ()),
    "logseries": Dist(14, "rng_dist", "element", ("i8",), ()),
    "hypergeometric": Dist(15, "rng_dist", "element", ("i8",), ()),
}
# (their parameters are int64, not the compute type: exact counts)
_INT_PARAMS = {"binomial": (True, False), "hypergeometric": (True, True)}
_BY_ID = {d.id: name for name, d in DISTS.items()}


# --------------------------------------------------------------- kernels
def _compute_type(t, qi):
    """What rng_dist computes in for items of type t."""
    if t in _FLOATS:
        return t
    return "f8" if qi.fp64 else "f4"


def _kernel_types(dist, qi):
    return [t for t in dist.types if t != "f8" or qi.fp64]


def _fill_names(name, qi):
    d = DISTS[name]
    names = [f"rng_fill<{d.id}, {t}>" for t in _kernel_types(d, qi)]
    if _kernels.simd_kernels(qi):
        names += [f"rng_vec<{d.id}, {t}>" for t in d.vector if t != "f8" or qi.fp64]
    return names


def _dist_names(name, qi):
    d = DISTS[name]
    names = [f"rng_dist<{d.id}, {t}, {_compute_type(t, qi)}>" for t in _kernel_types(d, qi)]
    if _kernels.simd_kernels(qi):
        names += [f"rng_dist_vec<{d.id}, {t}, {t}>" for t in d.vector if t != "f8" or qi.fp64]
    return names


# one bundle per distribution (all its item types and variants); a kernel
# holding Philox blocks compiles in ~0.2 s, 10 times an elementwise one
# (warm-up schedules the costliest groups first)
_kernels.register_family(_kernels.Family(
    ("rng_fill", "rng_vec"), "random.cpp", lambda a: _BY_ID[int(a[0])], _fill_names,
    lambda qi: [n for n, d in DISTS.items() if d.kernel == "rng_fill"], cost=10))
_kernels.register_family(_kernels.Family(
    ("rng_dist", "rng_dist_vec"), "random_dist.cpp", lambda a: _BY_ID[int(a[0])], _dist_names,
    lambda qi: [n for n, d in DISTS.items() if d.kernel == "rng_dist"], cost=10))
_kernels.register_family(_kernels.Family(
    ("rng_bounds", "rng_shuffle", "rng_sample"), "random.cpp",
    lambda a: "perm",
    lambda k, qi: ["rng_bounds<u1>", "rng_bounds<u2>", "rng_shuffle<i8>", "rng_sample<i8>"],
    lambda qi: ("perm",), cost=2))


# --------------------------------------------------------------- launches
def bits_of(value, tname):
    """A scalar parameter as the kernels take it: the bits of a float32 or
    float64 value, or an integer modulo 2^64."""
    if tname == "f8":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if tname == "f4":
        try:
            return struct.unpack("<I", struct.pack("<f", value))[0]
        except OverflowError:   # beyond float32: inf of its sign, as NumPy's cast
            return 0xFF800000 if value < 0 else 0x7F800000
    return int(value) & 0xFFFFFFFFFFFFFFFF


def draw(bg, name, out, a=0.0, b=0.0, pa=None, pb=None):
    """Fill the C-contiguous `out` with distribution `name` drawn from the
    bit generator `bg` (which advances past the draws). a, b: scalar
    parameters (Python numbers, converted to the compute type; binomial's
    `a`, the trials, an int64), pa, pb: per-element parameter arrays of the
    compute type (uint64 for the integers, int64 for binomial's trials and
    hypergeometric's two) of out's shape, or None."""
    d = DISTS[name]
    qi = out._q
    t = TYPE_NAMES[out._tc]
    if d.kernel == "rng_fill" and t not in d.types and out.dtype.kind in "bi":
        out = view(out, out._off, out._shape, out._strides, _UNSIGNED[out.dtype.itemsize])
        t = TYPE_NAMES[out._tc]
    ctc = _compute_type(t, qi) if d.kernel == "rng_dist" else (t if t in _FLOATS else "u8")
    n = out.size
    for arr in (pa, pb):
        if arr is not None and arr.shape != out.shape:
            raise ValueError(f"{name}: a parameter array of shape {arr.shape} for a result "
                             f"of shape {out.shape}")
    # (everything that can fail before the stream advances)
    ints = _INT_PARAMS.get(name, (False, False))
    ba, bb = (bits_of(v, "i8" if i else ctc) for v, i in zip((a, b), ints))
    unit = d.unit
    if unit == "bits":
        unit = "halves" if out.dtype.itemsize == 4 else "words"
    if unit == "halves":
        p, code = bg._reserve_halves(n), 1
    else:
        p, code = bg._reserve_words(n, pairs=unit == "pairs"), 2 if unit == "element" else 0
    _engine.random_fill(qi.ref, qi.kc, d.kernel, d.id, TYPE_NAMES.index(_compute_type(t, qi)),
                        code, out, p.key, p.ctr, p.first, p.lead, p.lead_bits, ba, bb, pa, pb)
    return ctc

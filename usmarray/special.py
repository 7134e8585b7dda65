"""NumPy's elementwise functions beyond the table (kernels/_elementwise_ops):
``sinc``, ``divmod``, ``modf``, ``isposinf``, ``isneginf`` and ``fix``, made
of the table's operations; ``frexp``, ``ldexp``, ``bitwise_count`` and ``i0``,
whose loops mix dtypes or whose element is a loop, as elementwise kernels
(user_kernels.ElementwiseKernel, compiled like a user's on first use)."""

import math

import numpy as np

from . import elementwise as ew
from ._core import _dtypes
from ._core._array import usm_ndarray
from ._core._copy import astype
from ._core._exceptions import DTypeError
from ._core._views import check_array
from .creation import asarray, empty
from .searching import where
from .user_kernels import ElementwiseKernel, device_items, warm_up

__all__ = ["sinc", "divmod", "modf", "frexp", "ldexp", "bitwise_count", "i0", "isposinf",
           "isneginf", "fix"]


def sinc(x):
    """``sin(pi x) / (pi x)``, 1 at 0, as ``numpy.sinc`` (integers in the
    default float type; at 0 NumPy's way: the quotient at pi x = eps)."""
    check_array(x, "sinc")
    y = ew.multiply(x, math.pi)
    eps = float(np.finfo(y.dtype).eps) if y.dtype.kind == "f" else 1e-20
    y = where(ew.not_equal(y, 0), y, eps)
    return ew.divide(ew.sin(y), y)


def divmod(x1, x2, /):
    """``(floor_divide(x1, x2), remainder(x1, x2))``, as ``numpy.divmod``."""
    return ew.floor_divide(x1, x2), ew.remainder(x1, x2)


def _float_loop(name, x):
    """`x` cast to the float type of NumPy's loop for it (int8 -> float16,
    int16 -> float32, int32 -> float64, as for sqrt); TypeError for complex."""
    check_array(x, name)
    if x.dtype.kind == "c":
        raise DTypeError(f"{name} does not support complex inputs (as in NumPy)")
    ins, _, _ = ew.OP["sqrt"].resolve((x.dtype,), x._q)
    return astype(x, ins[0], copy=False)


def modf(x, /):
    """(fractional part, integral part) of each element, both with x's sign,
    as ``numpy.modf`` (C's modf: an infinity's fractional part is a signed
    zero). Integer inputs compute in the float type NumPy picks (int8 ->
    float16, int32 -> float64)."""
    x = _float_loop("modf", x)
    ip = ew.trunc(x)
    fp = ew.copysign(where(ew.isinf(x), 0, ew.subtract(x, ip)), x)
    return fp, ip


# Kernels in F, float for float16 and float32 (so that devices without fp64
# run them), double for float64. Bit patterns, not sycl::frexp: the same
# integer steps on every device.
_FREXP = ElementwiseKernel("T x", "T m, int32 e", r"""
using F = std::conditional_t<sizeof(T) == 8, double, float>;
using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
constexpr int kMant = sizeof(T) == 8 ? 52 : 23;
constexpr U kExp = sizeof(T) == 8 ? 0x7ff : 0xff, kHalf = sizeof(T) == 8 ? 1022 : 126;
F v = static_cast<F>(x);
if (v == F(0) || !(v - v == F(0))) {   // zeros, infinities, NaNs: themselves, exponent 0
  m = x;
  e = 0;
} else {
  int adj = 0;
  U b = __builtin_bit_cast(U, v);
  if (((b >> kMant) & kExp) == 0) {   // subnormal: scaled into the normal range first
    adj = kMant + 2;
    v *= sizeof(T) == 8 ? F(18014398509481984.0) : F(33554432.0f);   // 2^54, 2^25
    b = __builtin_bit_cast(U, v);
  }
  e = static_cast<std::int32_t>((b >> kMant) & kExp) - static_cast<std::int32_t>(kHalf) - adj;
  m = static_cast<T>(__builtin_bit_cast(F, (b & ~(kExp << kMant)) | (kHalf << kMant)));
}
""", "usmarray_frexp")

# (exponents beyond +-4000 scale any finite float to 0 or inf alike)
_LDEXP = ElementwiseKernel("T x, N k", "T y", r"""
using F = std::conditional_t<sizeof(T) == 8, double, float>;
const std::int64_t s = static_cast<std::int64_t>(k);
const int c = s > 4000 ? 4000 : s < -4000 ? -4000 : static_cast<int>(s);
y = static_cast<T>(sycl::ldexp(static_cast<F>(x), c));
""", "usmarray_ldexp")

_BITWISE_COUNT = ElementwiseKernel("T x", "uint8 c", r"""
using U = std::make_unsigned_t<T>;
const U u = x < T(0) ? static_cast<U>(U(0) - static_cast<U>(x)) : static_cast<U>(x);
c = static_cast<std::uint8_t>(sycl::popcount(u));
""", "usmarray_bitwise_count")

# I0(x) = sum_k ((x/2)^2)^k / (k!)^2 up to |x| = 60 (k < 120), in
# double-double steps: q = (x/2)^2, each term's factor q / k^2 and the
# running sum carry their rounding errors, which plain steps let grow with k
# (11 ulp at x = 26, 1 now). Beyond, the asymptotic series e^x / sqrt(2 pi
# x) sum_k ((2k - 1)!!)^2 / (k! (8x)^k), whose terms fall below the type's
# epsilon by k = 16 at x = 30 (within 5 ulp: the prefactor's roundings).
# e^x overflows where NumPy's does (x > 88.7 in float32, 709.8 in float64;
# float16 computes in float32, finite up to 11.8 where NumPy's overflows
# above 11.1).
_I0 = ElementwiseKernel("T x", "T y", r"""
using F = std::conditional_t<sizeof(T) == 8, double, float>;
const F eps = sizeof(T) == 8 ? F(1.1102230246251565e-16) : F(5.9604645e-08f);
const F a = sycl::fabs(static_cast<F>(x));
F s = F(1);
if (!(a - a == F(0))) {   // NaN, and inf for +-inf (NumPy's gives NaN there)
  s = a;
} else if (a <= F(60)) {
  const F h = F(0.5) * a, qh = h * h, ql = sycl::fma(h, h, -qh);   // q = qh + ql
  F th = F(1), tl = F(0), sl = F(0);   // the term (th + tl), the sum's error sl
  for (int k = 1; k < 200; ++k) {
    const F d = F(k) * F(k);
    const F ch = qh / d, cl = (sycl::fma(-ch, d, qh) + ql) / d;   // q / d = ch + cl
    const F p = th * ch, pl = sycl::fma(th, ch, -p) + (th * cl + tl * ch);
    th = p + pl;
    tl = pl - (th - p);
    const F u = s + th, v = u - s;   // s + th = u + its error (two-sum)
    sl += ((s - (u - v)) + (th - v)) + tl;
    s = u;
    if (th <= s * eps) break;
  }
  s += sl;
} else {
  F t = F(1), sum = F(1);
  const F r = F(1) / (F(8) * a);
  for (int k = 1; k < 40; ++k) {
    const F f = F(2 * k - 1);
    t *= f * f * r / F(k);
    sum += t;
    if (t <= sum * eps) break;
  }
  // (past exp's range: inf, as NumPy's; 2 pi a itself overflows near the
  // largest floats, where inf / inf would be NaN)
  const F e = sycl::exp(a);
  s = sycl::isinf(e) ? e : e * sum / sycl::sqrt(F(6.283185307179586) * a);
}
y = static_cast<T>(s);
""", "usmarray_i0")


def _warm(qi):
    """Register this module's kernels for the device's types, so that
    ``usmarray warmup`` compiles them with the bundles (a first call then
    finds them on disk): per float type (and integer type for
    bitwise_count), ldexp with an array and with a scalar exponent."""
    exponent = empty((1,), dtype=_dtypes.int64, sycl_queue=qi.queue)
    for _, one in device_items(qi, _dtypes.REAL_FLOATING):
        for k in (_FREXP, _I0):
            k.source(one)
        _LDEXP.source(one, exponent)
        _LDEXP.source(one, 1)
    for _, one in device_items(qi, _dtypes.INTEGRAL):
        _BITWISE_COUNT.source(one)


warm_up(_warm, _FREXP, _LDEXP, _BITWISE_COUNT, _I0)


def frexp(x, /):
    """(mantissa, exponent) of each element, ``x = m * 2**e`` with ``0.5 <=
    |m| < 1`` (int32 exponents; zeros, infinities and NaNs give themselves
    and 0), as ``numpy.frexp``. Integer inputs compute in the float type
    NumPy picks (int8 -> float16, int16 -> float32, int32 -> float64)."""
    x = _float_loop("frexp", x)
    return _FREXP(x)


def _ldexp_exponent(n):
    """The exponent operand of ldexp: an integer usm_ndarray (bool and
    integers that cast safely to int64), or a Python/NumPy integer."""
    if isinstance(n, usm_ndarray):
        if n.dtype.kind not in "biu" or n.dtype == _dtypes.uint64:
            raise DTypeError(f"ldexp: the exponent must be an integer array (int64 or narrower), "
                             f"got {n.dtype}")
        # (int64 whatever the array's type: one kernel per float type)
        return astype(n, _dtypes.int64, copy=False)
    if isinstance(n, (bool, np.bool_)):
        return int(n)
    if not isinstance(n, (int, np.integer)):
        raise DTypeError(f"ldexp: the exponent must be an integer, got {type(n).__name__}")
    if isinstance(n, np.uint64):
        raise DTypeError("ldexp: the exponent must be an integer of int64 or narrower type")
    # (any exponent beyond +-4000 gives what 4000 gives: see _LDEXP)
    return max(-4001, min(4001, int(n)))


def ldexp(x1, x2, /):
    """``x1 * 2**x2``, exactly (rounded once where the result is subnormal),
    as ``numpy.ldexp``: x2 integer; x1 in the float type NumPy picks (int8 ->
    float16, int16 -> float32, int32 -> float64, a Python float -> float64).
    x1 may be a Python number when x2 is an array."""
    if not isinstance(x1, usm_ndarray):
        if not isinstance(x2, usm_ndarray):
            raise TypeError("ldexp: expected a usm_ndarray operand")
        if isinstance(x1, np.generic):
            x1 = asarray(x1, sycl_queue=x2.sycl_queue, usm_type=x2.usm_type)
        elif isinstance(x1, (bool, int, float)):
            # Python numbers are weak (NEP 50): ints take NumPy's first loop
            # (float16, where the device has it), floats the default float type
            qi = x2._q
            dt = qi.float if isinstance(x1, float) else \
                _dtypes.float16 if qi.fp16 else _dtypes.float32
            x1 = asarray(x1, dtype=dt, sycl_queue=x2.sycl_queue, usm_type=x2.usm_type)
        else:
            raise TypeError(f"ldexp: unsupported operand type {type(x1).__name__}")
    x1 = _float_loop("ldexp", x1)
    n = _ldexp_exponent(x2)
    return _LDEXP(x1, n)


def bitwise_count(x, /):
    """The number of 1 bits in the absolute value of each element (uint8),
    as ``numpy.bitwise_count``; integer and bool inputs."""
    check_array(x, "bitwise_count")
    if x.dtype.kind not in "biu":
        raise DTypeError(f"bitwise_count: expected an integer or bool array, got {x.dtype}")
    if x.dtype.kind == "b":
        x = astype(x, _dtypes.uint8)
    return _BITWISE_COUNT(x)


def i0(x):
    """The modified Bessel function of the first kind, order 0, of each
    element, as ``numpy.i0`` (float16/32/64 keep their type; integers and
    bools give the device's default float type). ``i0(+-inf)`` is inf
    (NumPy's gives NaN)."""
    check_array(x, "i0")
    if x.dtype.kind == "c":
        raise DTypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = astype(x, x._q.float)
    return _I0(x)


def _real_input(name, x):
    check_array(x, name)
    if x.dtype.kind == "c":
        raise DTypeError(f"{name}: not supported for {x.dtype} values because it would be "
                         "ambiguous (as in NumPy)")


def isposinf(x, out=None):
    """Whether each element is +inf (bool), as ``numpy.isposinf``; False for
    integers; complex inputs refused as NumPy does."""
    _real_input("isposinf", x)
    if x.dtype.kind != "f":
        return ew.isinf(x, out=out)
    return ew.logical_and(ew.isinf(x), ew.logical_not(ew.signbit(x)), out=out)


def isneginf(x, out=None):
    """Whether each element is -inf (bool), as ``numpy.isneginf``."""
    _real_input("isneginf", x)
    if x.dtype.kind != "f":
        return ew.isinf(x, out=out)
    return ew.logical_and(ew.isinf(x), ew.signbit(x), out=out)


def fix(x, out=None):
    """Each element rounded towards zero, as ``numpy.fix`` (integers and
    bools keep their values and dtype)."""
    _real_input("fix", x)
    return ew.trunc(x, out=out)


# (ufunc-like, as the table's functions: their arity)
divmod.nin, divmod.nout = 2, 2
modf.nin, modf.nout = 1, 2
frexp.nin, frexp.nout = 1, 2
ldexp.nin, ldexp.nout = 2, 1
bitwise_count.nin, bitwise_count.nout = 1, 1

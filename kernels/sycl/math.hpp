// Scalar math for elementwise kernels, over every array API type: the
// semantics of the array API standard (special cases of IEEE values and
// complex branch cuts), not whatever the C library does. sycl::half is
// computed in float.
#pragma once
#include <sycl/builtins.hpp>
#include "numeric.hpp"

namespace usmk {

// sycl::vec views of raw vectors (common.hpp), for the sycl:: builtins in the
// vector forms of elementwise operations (sycl/vector.hpp comes with
// builtins.hpp: only bundles that call builtins parse it)
template <typename T, int L> inline sycl::vec<T, L> to_sycl(const raw_vec<T, L> &r) {
  sycl::vec<T, L> v;
  __builtin_memcpy(&v, &r, sizeof(r));
  return v;
}
template <typename T, int L> inline raw_vec<T, L> to_raw(const sycl::vec<T, L> &v) {
  raw_vec<T, L> r;
  __builtin_memcpy(&r, &v, sizeof(r));
  return r;
}

// ------------------------------------------------------------ arithmetic
// (negation, squares, complex parts, min/max: numeric.hpp)
template <typename T> inline auto abs_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    return static_cast<R>(sycl::hypot(a.real(), a.imag()));
  } else if constexpr (is_float_v<T>) {
    return static_cast<T>(sycl::fabs(up(a)));
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(a < 0 ? static_cast<T>(-a) : a);
  } else {
    return a;
  }
}

template <typename T> inline T sign_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    if (a.real() == R(0) && a.imag() == R(0)) return T(0, 0);
    if (isnan_(a)) return T(qnan<R>(), qnan<R>());
    if (isinf_(a)) {
      // direction of the infinite component(s)
      R re = sycl::isinf(a.real()) ? sycl::copysign(R(1), a.real()) : R(0);
      R im = sycl::isinf(a.imag()) ? sycl::copysign(R(1), a.imag()) : R(0);
      R m = sycl::hypot(re, im);
      return T(re / m, im / m);
    }
    // scaled by the larger component: no overflow or subnormal loss in |z|
    R s = sycl::fmax(sycl::fabs(a.real()), sycl::fabs(a.imag()));
    R x = a.real() / s, y = a.imag() / s, m = sycl::hypot(x, y);
    return T(x / m, y / m);
  } else if constexpr (is_float_v<T>) {
    using C = calc_t<T>;
    C v = up(a);
    // +0 for both zeros, as NumPy (and the array API's "0") has it
    if (v == 0) return static_cast<T>(C(0));
    if (sycl::isnan(v)) return a;
    return static_cast<T>(sycl::copysign(C(1), v));
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(a > 0);
  } else {
    return static_cast<T>((a > 0) - (a < 0));
  }
}

template <typename T> inline T reciprocal_(T a) {
  if constexpr (is_complex_v<T>) return T(1) / a;
  else return static_cast<T>(calc_t<T>(1) / up(a));
}

// Rounding: integers are returned as they are.
#define USMK_ROUNDING(NAME, FN)                                                \
  template <typename T> inline T NAME(T a) {                                   \
    if constexpr (is_float_v<T>) return static_cast<T>(sycl::FN(up(a)));      \
    else return a;                                                             \
  }
USMK_ROUNDING(ceil_, ceil)
USMK_ROUNDING(floor_, floor)
USMK_ROUNDING(trunc_, trunc)
#undef USMK_ROUNDING

template <typename T> inline T round_(T a) {
  if constexpr (is_complex_v<T>) return T(sycl::rint(a.real()), sycl::rint(a.imag()));
  else if constexpr (is_float_v<T>) return static_cast<T>(sycl::rint(up(a)));
  else return a;
}

template <typename T> inline T divide_(T a, T b);   // (below; complex pow takes 1 / r)

// ------------------------------------------------------------ complex
// Complex elementary functions on (real, imaginary) components of type R
// (float for complex64, double for complex128): C99 Annex G special cases
// as the array API standard lists them, branch cuts by the sign of zero,
// and no overflow in intermediate results where the result is finite.
namespace cx {

template <typename R> using C = complex<R>;
template <typename R> constexpr R pi = R(3.14159265358979323846264338327950288);
template <typename R> constexpr R pi_2 = R(1.57079632679489661923132169163975144);
template <typename R> constexpr R pi_4 = R(0.785398163397448309615660845819875721);
template <typename R> constexpr R ln2 = R(0.693147180559945309417232121458176568);
// |z| above which z*z may overflow or 1 is negligible against z*z
template <typename R> constexpr R big = R(std::is_same_v<R, float> ? 0x1p13 : 0x1p28);
// exp(x) overflows above this (computed as exp(x/2)^2 instead)
template <typename R> constexpr R exp_big = R(std::is_same_v<R, float> ? 88 : 709);

template <typename R> inline R nan() { return std::numeric_limits<R>::quiet_NaN(); }
template <typename R> inline R infty() { return std::numeric_limits<R>::infinity(); }

// exp(x) * (c, s) * f without overflow of exp(x) where the product is
// finite; f (1 or 1/2) is applied last, so that a subnormal c or s next to a
// large exp(x) is not lost by halving it first
template <typename R> inline C<R> exp_scaled(R x, R c, R s, R f = R(1)) {
  if (x > exp_big<R>) {
    R h = sycl::exp(x / 2), hf = h * f;
    return C<R>(c * h * hf, s * h * hf);
  }
  R e = sycl::exp(x);
  return C<R>(e * c * f, e * s * f);
}

template <typename R> inline C<R> exp(R x, R y) {
  if (sycl::isnan(x)) return C<R>(x, y == 0 ? y : nan<R>());
  if (sycl::isinf(x)) {
    if (x > 0) {
      if (y == 0) return C<R>(x, y);
      if (!sycl::isfinite(y)) return C<R>(x, nan<R>());
      return C<R>(x * sycl::cos(y), x * sycl::sin(y));
    }
    if (!sycl::isfinite(y)) return C<R>(0, 0);
    return C<R>(R(0) * sycl::cos(y), R(0) * sycl::sin(y));
  }
  if (!sycl::isfinite(y)) return C<R>(nan<R>(), nan<R>());
  if (y == 0) return C<R>(sycl::exp(x), y);
  return exp_scaled(x, sycl::cos(y), sycl::sin(y));
}

template <typename R> inline C<R> expm1(R x, R y) {
  if (!sycl::isfinite(x) || !sycl::isfinite(y) || x > 1) {
    C<R> e = exp(x, y);
    return C<R>(e.real() - 1, e.imag());
  }
  if (y == 0) return C<R>(x == 0 ? R(0) : sycl::expm1(x), y);  // exp(+-0 + 0j) - 1 is +0
  // exp(x)cos(y) - 1 = expm1(x)cos(y) - 2 sin^2(y/2): no cancellation near 0
  R s = sycl::sin(y / 2);
  return C<R>(sycl::expm1(x) * sycl::cos(y) - 2 * s * s, sycl::exp(x) * sycl::sin(y));
}

// log|x + iy| for finite or infinite x, y (no NaN)
template <typename R> inline R log_abs(R x, R y) {
  R ax = sycl::fabs(x), ay = sycl::fabs(y);
  R m = sycl::fmax(ax, ay), n = sycl::fmin(ax, ay);
  if (sycl::isinf(m)) return m;
  if (m == 0) return -infty<R>();
  if (m >= R(0.5) && m <= R(2)) {
    // |z|^2 - 1 = (m - 1)(m + 1) + n^2, m - 1 exact here
    return sycl::log1p((m - 1) * (m + 1) + n * n) / 2;
  }
  R r = n / m;
  return sycl::log(m) + sycl::log1p(r * r) / 2;
}

template <typename R> inline C<R> log(R x, R y) {
  if (sycl::isnan(x) || sycl::isnan(y)) {
    bool i = sycl::isinf(x) || sycl::isinf(y);
    return C<R>(i ? infty<R>() : nan<R>(), nan<R>());
  }
  return C<R>(log_abs(x, y), sycl::atan2(y, x));
}

template <typename R> inline C<R> log1p(R x, R y) {
  if (!sycl::isfinite(x) || !sycl::isfinite(y) || sycl::fabs(x) > R(0.5) || sycl::fabs(y) > R(0.5))
    return log(1 + x, y);
  // log|1+z| = log1p(2x + x^2 + y^2) / 2, accurate for small z
  return C<R>(sycl::log1p(x * (2 + x) + y * y) / 2, sycl::atan2(y, 1 + x));
}

template <typename R> inline C<R> sqrt(R x, R y) {
  if (sycl::isinf(y)) return C<R>(infty<R>(), y);
  if (sycl::isnan(x)) return C<R>(x, nan<R>());
  if (sycl::isinf(x)) {
    if (x > 0) return C<R>(x, sycl::isnan(y) ? y : sycl::copysign(R(0), y));
    return C<R>(sycl::isnan(y) ? y : R(0), sycl::copysign(infty<R>(), y));
  }
  if (sycl::isnan(y)) return C<R>(y, y);
  if (x == 0 && y == 0) return C<R>(R(0), y);
  // scale away from overflow and from subnormals (by even powers of two)
  R m = sycl::fmax(sycl::fabs(x), sycl::fabs(y)), scale = 1;
  if (m > std::numeric_limits<R>::max() / 8) {
    x *= R(0.25); y *= R(0.25); scale = 2;
  } else if (m < std::numeric_limits<R>::min() * R(0x1p24)) {
    constexpr R up = R(std::is_same_v<R, float> ? 0x1p48 : 0x1p106);
    constexpr R down = R(std::is_same_v<R, float> ? 0x1p-24 : 0x1p-53);
    x *= up; y *= up; scale = down;
  }
  R t = sycl::sqrt((sycl::fabs(x) + sycl::hypot(x, y)) / 2);
  if (x >= 0) return C<R>(t * scale, y / (2 * t) * scale);
  return C<R>(sycl::fabs(y) / (2 * t) * scale, sycl::copysign(t, y) * scale);
}

template <typename R> inline C<R> sinh(R x, R y) {
  if (!sycl::isfinite(x) || !sycl::isfinite(y)) {
    if (sycl::isnan(x)) return C<R>(x, y == 0 ? y : nan<R>());
    if (sycl::isinf(x)) {
      if (y == 0) return C<R>(x, y);
      if (!sycl::isfinite(y)) return C<R>(x, nan<R>());
      return C<R>(x * sycl::cos(y), infty<R>() * sycl::sin(y));
    }
    // x finite, y infinite or NaN
    return C<R>(x == 0 ? x : nan<R>(), nan<R>());
  }
  if (y == 0) return C<R>(sycl::sinh(x), y);
  R c = sycl::cos(y), s = sycl::sin(y);
  if (sycl::fabs(x) > exp_big<R> - 1) {
    // sinh x ~ cosh x ~ sign(x) e^|x| / 2
    C<R> e = exp_scaled(sycl::fabs(x), c, s, R(0.5));
    return C<R>(sycl::copysign(R(1), x) * e.real(), e.imag());
  }
  return C<R>(sycl::sinh(x) * c, sycl::cosh(x) * s);
}

template <typename R> inline C<R> cosh(R x, R y) {
  if (!sycl::isfinite(x) || !sycl::isfinite(y)) {
    if (sycl::isnan(x)) return C<R>(x, y == 0 ? R(0) : nan<R>());
    if (sycl::isinf(x)) {
      if (y == 0) return C<R>(infty<R>(), sycl::copysign(R(1), x) * y);
      if (!sycl::isfinite(y)) return C<R>(infty<R>(), nan<R>());
      return C<R>(infty<R>() * sycl::cos(y), x * sycl::sin(y));
    }
    return C<R>(nan<R>(), x == 0 ? R(0) : nan<R>());
  }
  if (y == 0) return C<R>(sycl::cosh(x), (x == 0 ? x : sycl::copysign(R(1), x)) * y);
  R c = sycl::cos(y), s = sycl::sin(y);
  if (sycl::fabs(x) > exp_big<R> - 1) {
    C<R> e = exp_scaled(sycl::fabs(x), c, s, R(0.5));
    return C<R>(e.real(), sycl::copysign(R(1), x) * e.imag());
  }
  return C<R>(sycl::cosh(x) * c, sycl::sinh(x) * s);
}

template <typename R> inline C<R> tanh(R x, R y) {
  if (sycl::isnan(x)) return C<R>(x, y == 0 ? y : nan<R>());
  if (sycl::isinf(x)) return C<R>(sycl::copysign(R(1), x), sycl::copysign(R(0), y));
  if (!sycl::isfinite(y)) return C<R>(x == 0 ? x : nan<R>(), nan<R>());
  constexpr R near_one = R(std::is_same_v<R, float> ? 12 : 22);
  if (sycl::fabs(x) > near_one) {
    // tanh = sign(x) + i sin(2y) / (cosh(2x) + cos(2y)) ~ 4 sin y cos y e^(-2|x|)
    R e = sycl::exp(-2 * sycl::fabs(x));
    return C<R>(sycl::copysign(R(1), x), 4 * sycl::sin(y) * sycl::cos(y) * e);
  }
  // Kahan: t = tan y, b = 1 + t^2, s = sinh x, r = sqrt(1 + s^2)
  R t = sycl::tan(y), b = 1 + t * t, s = sycl::sinh(x), r = sycl::sqrt(1 + s * s);
  R d = 1 + b * s * s;
  return C<R>(b * r * s / d, t / d);
}

// Finite z only. Kahan's formulas ("Branch cuts for complex elementary
// functions"), from square roots of 1 - z and 1 + z; for |z| large,
// log(2z)-based asymptotics (1 is negligible against z^2).
template <typename R> inline C<R> asin_finite(R x, R y) {
  if (sycl::fmax(sycl::fabs(x), sycl::fabs(y)) > big<R>) {
    // asin z = -i asinh(iz); asinh w ~ sign(Re w) (ln 2 + log(sign(Re w) w))
    R wx = -y, wy = x;
    R s = (sycl::signbit(wx) ? R(-1) : R(1));
    C<R> l = log(s * wx, s * wy);
    R ar = s * (l.real() + ln2<R>), ai = s * l.imag();
    return C<R>(ai, -ar);
  }
  C<R> a = sqrt(1 - x, -y), b = sqrt(1 + x, y);
  R re = sycl::atan(x / (a.real() * b.real() - a.imag() * b.imag()));
  R im = sycl::asinh(a.real() * b.imag() - a.imag() * b.real());
  return C<R>(re, im);
}

template <typename R> inline C<R> acos_finite(R x, R y) {
  if (sycl::fmax(sycl::fabs(x), sycl::fabs(y)) > big<R>) {
    // acos z = -i acosh z (Im z >= +0), +i acosh z (sign bit of Im z set)
    C<R> l = log(x, y);
    R ar = l.real() + ln2<R>, ai = l.imag();
    return sycl::signbit(y) ? C<R>(-ai, ar) : C<R>(ai, -ar);
  }
  C<R> a = sqrt(1 - x, -y), b = sqrt(1 + x, y);
  R re = 2 * sycl::atan(a.real() / b.real());
  R im = sycl::asinh(b.real() * a.imag() - b.imag() * a.real());
  return C<R>(re, im);
}

template <typename R> inline C<R> acosh_finite(R x, R y) {
  if (sycl::fmax(sycl::fabs(x), sycl::fabs(y)) > big<R>) {
    C<R> l = log(x, y);
    return C<R>(l.real() + ln2<R>, l.imag());
  }
  C<R> a = sqrt(x - 1, y), b = sqrt(x + 1, y);
  R re = sycl::asinh(a.real() * b.real() + a.imag() * b.imag());
  R im = 2 * sycl::atan(a.imag() / b.real());
  return C<R>(re, im);
}

template <typename R> inline C<R> asinh(R x, R y) {
  if (!sycl::isfinite(x) || !sycl::isfinite(y)) {
    if (sycl::isinf(x)) {
      if (sycl::isnan(y)) return C<R>(x, y);
      return C<R>(x, sycl::isinf(y) ? sycl::copysign(pi_4<R>, y) : sycl::copysign(R(0), y));
    }
    if (sycl::isinf(y)) {
      if (sycl::isnan(x)) return C<R>(y, x);
      return C<R>(sycl::copysign(infty<R>(), x), sycl::copysign(pi_2<R>, y));
    }
    if (sycl::isnan(x)) return C<R>(x, y == 0 ? y : nan<R>());
    return C<R>(nan<R>(), nan<R>());
  }
  // asinh z = i asin(-iz)
  C<R> a = asin_finite(y, -x);
  return C<R>(-a.imag(), a.real());
}

template <typename R> inline C<R> asin(R x, R y) {
  // asin z = -i asinh(iz)
  C<R> a = asinh(-y, x);
  return C<R>(a.imag(), -a.real());
}

template <typename R> inline C<R> acos(R x, R y) {
  if (!sycl::isfinite(x) || !sycl::isfinite(y)) {
    if (sycl::isnan(x)) return C<R>(x, sycl::isinf(y) ? -y : nan<R>());
    if (sycl::isnan(y)) {
      if (sycl::isinf(x)) return C<R>(y, -infty<R>());
      return C<R>(x == 0 ? pi_2<R> : nan<R>(), nan<R>());
    }
    return C<R>(sycl::atan2(sycl::fabs(y), x), -sycl::copysign(infty<R>(), y));
  }
  return acos_finite(x, y);
}

template <typename R> inline C<R> acosh(R x, R y) {
  if (!sycl::isfinite(x) || !sycl::isfinite(y)) {
    if (sycl::isnan(x)) return C<R>(sycl::isinf(y) ? infty<R>() : x, nan<R>());
    if (sycl::isnan(y)) {
      if (sycl::isinf(x)) return C<R>(infty<R>(), y);
      return C<R>(nan<R>(), x == 0 ? pi_2<R> : nan<R>());
    }
    return C<R>(infty<R>(), sycl::atan2(y, x));
  }
  return acosh_finite(x, y);
}

template <typename R> inline C<R> atanh(R x, R y) {
  if (!sycl::isfinite(x) || !sycl::isfinite(y)) {
    if (sycl::isnan(x)) {
      if (sycl::isinf(y)) return C<R>(R(0), sycl::copysign(pi_2<R>, y));
      return C<R>(x, nan<R>());
    }
    if (sycl::isnan(y)) {
      if (sycl::isinf(x)) return C<R>(sycl::copysign(R(0), x), y);
      return C<R>(x == 0 ? x : nan<R>(), y);
    }
    return C<R>(sycl::copysign(R(0), x), sycl::copysign(pi_2<R>, y));
  }
  R ax = sycl::fabs(x), ay = sycl::fabs(y);
  if (sycl::fmax(ax, ay) > R(1) / std::numeric_limits<R>::epsilon()) {
    // atanh z ~ 1/z + i sign(y) pi/2
    R h = sycl::hypot(x, y);
    return C<R>(x / h / h, sycl::copysign(pi_2<R>, y));
  }
  // Re = log(|1+z|^2 / |1-z|^2) / 4 = log1p(4|x| / |1-|x|+iy|^2) / 4
  R h = sycl::hypot(1 - ax, y), q = 4 * ax / h / h;
  R re = (q > R(1) / std::numeric_limits<R>::epsilon() ? sycl::log(4 * ax) - 2 * sycl::log(h)
                                                       : sycl::log1p(q)) / 4;
  R im = sycl::atan2(2 * y, (1 - x) * (1 + x) - y * y) / 2;
  return C<R>(sycl::copysign(re, x), im);
}

template <typename R> inline C<R> atan(R x, R y) {
  // atan z = -i atanh(iz)
  C<R> a = atanh(-y, x);
  return C<R>(a.imag(), -a.real());
}

// sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz)
template <typename R> inline C<R> sin(R x, R y) {
  C<R> a = sinh(-y, x);
  return C<R>(a.imag(), -a.real());
}
template <typename R> inline C<R> cos(R x, R y) { return cosh(-y, x); }
template <typename R> inline C<R> tan(R x, R y) {
  C<R> a = tanh(-y, x);
  return C<R>(a.imag(), -a.real());
}

// 2 ** z = exp(z ln 2), as NumPy's
template <typename R> inline C<R> exp2(R x, R y) { return exp(x * ln2<R>, y * ln2<R>); }

// a ** b for finite a != 0 and finite b, as NumPy's npy_cpow: integer
// exponents below 100 in magnitude by repeated squaring (exact where the
// products are: (2j) ** 65 has no real part), others as exp(b log a) with
// the log above (no overflow of |a| near the largest values, full accuracy
// for subnormal ones, where std::pow's abs-and-log lost both)
template <typename R> inline C<R> pow(C<R> a, C<R> b) {
  const R br = b.real(), bi = b.imag();
  if (bi == 0 && br == sycl::trunc(br) && sycl::fabs(br) < 100) {
    int n = static_cast<int>(sycl::fabs(br));
    C<R> r(1, 0), p = a;
    for (;;) {
      if (n & 1) r = C<R>(r.real() * p.real() - r.imag() * p.imag(),
                          r.real() * p.imag() + r.imag() * p.real());
      n >>= 1;
      if (!n) break;
      p = C<R>(p.real() * p.real() - p.imag() * p.imag(), 2 * (p.real() * p.imag()));
    }
    return br < 0 ? divide_(C<R>(1, 0), r) : r;
  }
  const C<R> l = log(a.real(), a.imag());
  return exp(br * l.real() - bi * l.imag(), br * l.imag() + bi * l.real());
}

} // namespace cx

// ------------------------------------------------------------ transcendental
// Real functions through sycl builtins (half in float), complex ones through
// the cx:: functions above.
#define USMK_UNARY_MATH(NAME, FN)                                              \
  template <typename T> inline T NAME(T a) {                                   \
    if constexpr (is_complex_v<T>) return cx::FN(a.real(), a.imag());          \
    else return static_cast<T>(sycl::FN(up(a)));                               \
  }
USMK_UNARY_MATH(sin_, sin)
USMK_UNARY_MATH(cos_, cos)
USMK_UNARY_MATH(tan_, tan)
USMK_UNARY_MATH(asin_, asin)
USMK_UNARY_MATH(acos_, acos)
USMK_UNARY_MATH(atan_, atan)
USMK_UNARY_MATH(sinh_, sinh)
USMK_UNARY_MATH(cosh_, cosh)
USMK_UNARY_MATH(tanh_, tanh)
USMK_UNARY_MATH(asinh_, asinh)
USMK_UNARY_MATH(acosh_, acosh)
USMK_UNARY_MATH(atanh_, atanh)
USMK_UNARY_MATH(exp_, exp)
USMK_UNARY_MATH(expm1_, expm1)
USMK_UNARY_MATH(log_, log)
USMK_UNARY_MATH(log1p_, log1p)
USMK_UNARY_MATH(sqrt_, sqrt)
USMK_UNARY_MATH(exp2_, exp2)
#undef USMK_UNARY_MATH

#define USMK_REAL_MATH(NAME, FN)                                               \
  template <typename T> inline T NAME(T a) { return static_cast<T>(sycl::FN(up(a))); }
USMK_REAL_MATH(cbrt_, cbrt)
USMK_REAL_MATH(rsqrt_, rsqrt)
#undef USMK_REAL_MATH

template <typename T> inline T log2_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    T l = cx::log(a.real(), a.imag());
    const R inv_ln2 = R(1.4426950408889634073599246810018921);
    return T(l.real() * inv_ln2, l.imag() * inv_ln2);
  } else {
    return static_cast<T>(sycl::log2(up(a)));
  }
}

template <typename T> inline T log10_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    T l = cx::log(a.real(), a.imag());
    const R inv_ln10 = R(0.43429448190325182765112891891660508);
    return T(l.real() * inv_ln10, l.imag() * inv_ln10);
  } else {
    return static_cast<T>(sycl::log10(up(a)));
  }
}

template <typename T> inline auto angle_(T a) {
  if constexpr (is_complex_v<T>) return sycl::atan2(a.imag(), a.real());
  else return static_cast<T>(sycl::atan2(calc_t<T>(0), up(a)));
}

template <typename T> inline T proj_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    if (sycl::isinf(a.real()) || sycl::isinf(a.imag()))
      return T(inf<R>(), sycl::copysign(R(0), a.imag()));
    return a;
  } else {
    return a;
  }
}

// ------------------------------------------------------------ binary
template <typename T> inline T divide_(T a, T b) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (sycl::isfinite(ar) && sycl::isfinite(ai) && sycl::isfinite(br) && sycl::isfinite(bi) &&
        (br != 0 || bi != 0)) {
      // Smith's algorithm, NumPy's: no product overflows where the quotient
      // is finite ((ar br + ai bi) / |b|^2 overflowed from |a| ~ max / 1.5)
      if (sycl::fabs(br) >= sycl::fabs(bi)) {
        const R rat = bi / br, scl = R(1) / (br + bi * rat);
        return T((ar + ai * rat) * scl, (ai - ar * rat) * scl);
      }
      const R rat = br / bi, scl = R(1) / (bi + br * rat);
      return T((ar * rat + ai) * scl, (ai * rat - ar) * scl);
    }
    return a / b;   // (infinities, NaNs and division by zero: C99's rules)
  } else {
    return static_cast<T>(up(a) / up(b));
  }
}

// fmod(x, y) of floats, exact also where the OpenCL CPU runtime's is not: it
// gives y instead of 0 for exact multiples of y below about 8 times the
// smallest normal. So a tiny y is scaled up by s (exactly, a power of two):
// fmod(x, y s) leaves r with |r| < y s, small, and fmod(r s, y s) / s =
// fmod(r, y) = fmod(x, y), as y s is a multiple of y.
template <typename C> inline C fmod_exact(C x, C y) {
  constexpr bool f = std::is_same_v<C, float>;
  constexpr C tiny = C(f ? 0x1p-100 : 0x1p-900), s = C(f ? 0x1p64 : 0x1p128);
  if (sycl::fabs(y) < tiny && y != 0 && sycl::isfinite(x)) {
    const C ys = y * s;
    return sycl::fmod(sycl::fmod(x, ys) * s, ys) / s;
  }
  return sycl::fmod(x, y);
}

// Floor division: for floats floor(x / y) where x or y is not finite or y is
// 0 (the array API's special cases), else the quotient of Python's divmod
// (remainder has the sign of the divisor); for integers Python's, with
// division by zero giving 0 instead of a hardware trap.
template <typename T> inline T floor_divide_(T a, T b) {
  if constexpr (is_float_v<T>) {
    using C = calc_t<T>;
    C x = up(a), y = up(b);
    if (y == 0 || !sycl::isfinite(x) || !sycl::isfinite(y)) return static_cast<T>(sycl::floor(x / y));
    C mod = fmod_exact(x, y);
    C div = (x - mod) / y;
    if (mod != 0) {
      if ((y < 0) != (mod < 0)) div -= 1;
    }
    C fl;
    if (div != 0) {
      fl = sycl::floor(div);
      if (div - fl > C(0.5)) fl += 1;
    } else {
      fl = sycl::copysign(C(0), x / y);
    }
    return static_cast<T>(fl);
  } else if constexpr (std::is_same_v<T, bool>) {
    return static_cast<T>(b ? a : false);
  } else {
    if (b == 0) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return negative_(a);
      T q = static_cast<T>(a / b);
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    } else {
      return static_cast<T>(a / b);
    }
  }
}

// C's a % b of integers, and 0 where C leaves it undefined (b == 0,
// INT_MIN % -1), as NumPy gives: fmod's result and remainder's start.
template <typename T> inline T int_rem_(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(0);
  return static_cast<T>(a % b);
}

template <typename T> inline T remainder_(T a, T b) {
  if constexpr (is_float_v<T>) {
    using C = calc_t<T>;
    C x = up(a), y = up(b);
    if (y == 0) return static_cast<T>(sycl::fmod(x, y));
    if (sycl::isinf(y) && sycl::isfinite(x)) {
      if (x == 0) return static_cast<T>(sycl::copysign(C(0), y));
      return static_cast<T>((x > 0) == (y > 0) ? x : y);
    }
    C mod = fmod_exact(x, y);
    if (mod != 0) {
      if ((y < 0) != (mod < 0)) mod += y;
    } else {
      mod = sycl::copysign(C(0), y);
    }
    return static_cast<T>(mod);
  } else if constexpr (std::is_same_v<T, bool>) {
    return false;
  } else {
    T m = int_rem_(a, b);
    if constexpr (std::is_signed_v<T>)
      if (m != 0 && ((m < 0) != (b < 0))) m = static_cast<T>(m + b);
    return m;
  }
}

template <typename T> inline T pow_(T a, T b) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    if (b == T(0)) return T(1, 0);
    if (b == T(1)) return a;
    if (b.imag() == R(0) && b.real() == R(2)) return a * a;
#if USM_COMPLEX
    if (a != T(0) && sycl::isfinite(a.real()) && sycl::isfinite(a.imag()) &&
        sycl::isfinite(b.real()) && sycl::isfinite(b.imag()))
      return cx::pow(a, b);
    return std::pow(a, b);   // (zeros, infinities and NaNs: the C library's special cases)
#else
    return a;   // (a bundle without complex kernels never instantiates this)
#endif
  } else if constexpr (is_float_v<T>) {
    return static_cast<T>(sycl::pow(up(a), up(b)));
  } else if constexpr (std::is_same_v<T, bool>) {
    return a || !b;
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) {
        // integers to negative powers: only 1 and -1 have integer results
        if (a == 1) return T(1);
        if (a == -1) return (b & 1) ? T(-1) : T(1);
        return T(0);
      }
    }
    using U = std::make_unsigned_t<T>;
    U base = static_cast<U>(a), r = 1;
    U e = static_cast<U>(b);
    while (e) {
      if (e & 1) r = static_cast<U>(r * base);
      base = static_cast<U>(base * base);
      e >>= 1;
    }
    return static_cast<T>(r);
  }
}

#define USMK_REAL_BINARY(NAME, FN)                                             \
  template <typename T> inline T NAME(T a, T b) {                              \
    return static_cast<T>(sycl::FN(up(a), up(b)));                             \
  }
USMK_REAL_BINARY(atan2_, atan2)
USMK_REAL_BINARY(copysign_, copysign)
USMK_REAL_BINARY(hypot_, hypot)
#undef USMK_REAL_BINARY

template <typename T> inline T nextafter_(T a, T b) {
  if constexpr (std::is_same_v<T, sycl::half>) {
    // step the 16-bit representation
    float x = a, y = b;
    if (sycl::isnan(x) || sycl::isnan(y)) return sycl::half(x + y);
    if (x == y) return b;
    std::uint16_t bits = sycl::bit_cast<std::uint16_t>(a);
    if (x == 0) bits = static_cast<std::uint16_t>((y > 0 ? 0x0000 : 0x8000) | 1);
    else if ((x < y) == (x > 0)) ++bits;
    else --bits;
    return sycl::bit_cast<sycl::half>(bits);
  } else {
    if (a == b) return b;  // nextafter(+-0, -+0) is x2
    return sycl::nextafter(a, b);
  }
}

template <typename T> inline T logaddexp_(T a, T b) {
  using C = calc_t<T>;
  C x = up(a), y = up(b);
  if (sycl::isnan(x) || sycl::isnan(y)) return static_cast<T>(x + y);
  if (x == y) return static_cast<T>(x + C(0.6931471805599453094172321214581766));
  C m = sycl::fmax(x, y);
  if (sycl::isinf(m)) return static_cast<T>(m);
  return static_cast<T>(m + sycl::log1p(sycl::exp(-sycl::fabs(x - y))));
}

// ------------------------------------------------------------ NumPy's extras
template <typename T> inline T degrees_(T a) {
  using C = calc_t<T>;
  return static_cast<T>(up(a) * C(57.295779513082320876798154814105170));
}
template <typename T> inline T radians_(T a) {
  using C = calc_t<T>;
  return static_cast<T>(up(a) * C(0.017453292519943295769236907684886127));
}
// NumPy's spacing: the step to the next float away from zero, signed as x
// (-0 as +0), NaN for NaN and infinities; float16's (NumPy's half version)
// steps towards +inf whatever the sign, so it is never negative
template <typename T> inline T spacing_(T a) {
  using C = calc_t<T>;
  const C x = up(a);
  if (sycl::isinf(x) || sycl::isnan(x)) return static_cast<T>(qnan<C>());
  const bool down = !std::is_same_v<T, sycl::half> && x < 0;
  const T to = static_cast<T>(down ? -inf<C>() : inf<C>());
  return static_cast<T>(up(nextafter_(a, to)) - x);
}
// fmod: the remainder of truncated division, with x1's sign (C's fmod); for
// integers x1 % x2, 0 where x2 is 0 (and for INT_MIN % -1), as NumPy's
template <typename T> inline T fmod_(T a, T b) {
  if constexpr (is_float_v<T>) {
    return static_cast<T>(fmod_exact(up(a), up(b)));
  } else if constexpr (std::is_same_v<T, bool>) {
    return false;
  } else {
    return int_rem_(a, b);
  }
}
template <typename T> inline T heaviside_(T a, T b) {
  const auto x = up(a);
  if (sycl::isnan(x)) return a;
  if (x == 0) return b;
  return static_cast<T>(x < 0 ? 0 : 1);
}
// NumPy's npy_logaddexp2
template <typename T> inline T logaddexp2_(T a, T b) {
  using C = calc_t<T>;
  const C x = up(a), y = up(b);
  constexpr C kLog2e = C(1.442695040888963407359924681001892137);
  if (x == y) return static_cast<T>(x + 1);   // (infinities of one sign too)
  const C d = x - y;
  if (d > 0) return static_cast<T>(x + sycl::log1p(sycl::exp2(-d)) * kLog2e);
  if (d <= 0) return static_cast<T>(y + sycl::log1p(sycl::exp2(d)) * kLog2e);
  return static_cast<T>(d);   // NaN
}

} // namespace usmk

// Scalar math for elementwise kernels, over every array API type: the
// semantics of the array API standard (special cases of IEEE values and
// complex branch cuts), not whatever the C library does. sycl::half is
// computed in float.
#pragma once
#include <sycl/builtins.hpp>
#include <limits>
#include "common.hpp"

namespace usmk {

template <typename T> struct calc { using type = T; };
template <> struct calc<sycl::half> { using type = float; };
template <typename T> using calc_t = typename calc<T>::type;

template <typename T> inline calc_t<T> up(T v) { return static_cast<calc_t<T>>(v); }

template <typename T> constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T> inline T qnan() { return std::numeric_limits<T>::quiet_NaN(); }
template <typename T> inline T inf() { return std::numeric_limits<T>::infinity(); }

// ------------------------------------------------------------ classification
template <typename T> inline bool isnan_(T a) {
  if constexpr (is_complex_v<T>) return sycl::isnan(a.real()) || sycl::isnan(a.imag());
  else if constexpr (is_float_v<T>) return sycl::isnan(up(a));
  else return false;
}
template <typename T> inline bool isinf_(T a) {
  if constexpr (is_complex_v<T>) return sycl::isinf(a.real()) || sycl::isinf(a.imag());
  else if constexpr (is_float_v<T>) return sycl::isinf(up(a));
  else return false;
}
template <typename T> inline bool isfinite_(T a) {
  if constexpr (is_complex_v<T>) return sycl::isfinite(a.real()) && sycl::isfinite(a.imag());
  else if constexpr (is_float_v<T>) return sycl::isfinite(up(a));
  else return true;
}
template <typename T> inline bool signbit_(T a) {
  if constexpr (is_float_v<T>) return sycl::signbit(up(a));
  else if constexpr (std::is_signed_v<T>) return a < 0;
  else return false;
}

// ------------------------------------------------------------ arithmetic
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

template <typename T> inline T negative_(T a) {
  if constexpr (std::is_unsigned_v<T>) return static_cast<T>(T(0) - a);
  else return static_cast<T>(-a);
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
    R m = sycl::hypot(a.real(), a.imag());
    return T(a.real() / m, a.imag() / m);
  } else if constexpr (is_float_v<T>) {
    auto v = up(a);
    if (sycl::isnan(v)) return a;
    return static_cast<T>(v > 0 ? 1 : (v < 0 ? -1 : 0));
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(a > 0);
  } else {
    return static_cast<T>((a > 0) - (a < 0));
  }
}

template <typename T> inline T square_(T a) { return static_cast<T>(a * a); }

template <typename T> inline T reciprocal_(T a) {
  if constexpr (is_complex_v<T>) return T(1) / a;
  else return static_cast<T>(calc_t<T>(1) / up(a));
}

template <typename T> inline T conj_(T a) {
  if constexpr (is_complex_v<T>) return std::conj(a);
  else return a;
}
template <typename T> inline auto real_(T a) {
  if constexpr (is_complex_v<T>) return a.real();
  else return a;
}
template <typename T> inline auto imag_(T a) {
  if constexpr (is_complex_v<T>) return a.imag();
  else return T(0);
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

template <typename T> inline T invert_(T a) {
  if constexpr (std::is_same_v<T, bool>) return !a;
  else return static_cast<T>(~a);
}

// ------------------------------------------------------------ transcendental
// Real functions through sycl builtins (half in float), complex ones through
// std:: (the SYCL device library implements them with C99 Annex G semantics).
#define USMK_UNARY_MATH(NAME, FN)                                              \
  template <typename T> inline T NAME(T a) {                                   \
    if constexpr (is_complex_v<T>) return std::FN(a);                          \
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
USMK_UNARY_MATH(log_, log)
USMK_UNARY_MATH(sqrt_, sqrt)
#undef USMK_UNARY_MATH

#define USMK_REAL_MATH(NAME, FN)                                               \
  template <typename T> inline T NAME(T a) { return static_cast<T>(sycl::FN(up(a))); }
USMK_REAL_MATH(cbrt_, cbrt)
USMK_REAL_MATH(exp2_, exp2)
USMK_REAL_MATH(rsqrt_, rsqrt)
#undef USMK_REAL_MATH

template <typename T> inline T expm1_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    R x = a.real(), y = a.imag();
    if (!sycl::isfinite(x) || !sycl::isfinite(y)) return std::exp(a) - T(1);
    // exp(x)cos(y) - 1 = expm1(x)cos(y) - 2 sin^2(y/2): accurate near 0
    R s = sycl::sin(y / 2);
    return T(sycl::expm1(x) * sycl::cos(y) - 2 * s * s, sycl::exp(x) * sycl::sin(y));
  } else {
    return static_cast<T>(sycl::expm1(up(a)));
  }
}

template <typename T> inline T log1p_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    R x = a.real(), y = a.imag();
    if (!sycl::isfinite(x) || !sycl::isfinite(y) || sycl::fabs(x) > R(0.5) || sycl::fabs(y) > R(0.5))
      return std::log(T(1) + a);
    // log|1+z| = log1p(2x + x^2 + y^2) / 2, accurate for small z
    return T(sycl::log1p(x * (2 + x) + y * y) / 2, sycl::atan2(y, 1 + x));
  } else {
    return static_cast<T>(sycl::log1p(up(a)));
  }
}

template <typename T> inline T log2_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    T l = std::log(a);
    const R inv_ln2 = R(1.4426950408889634073599246810018921);
    return T(l.real() * inv_ln2, l.imag() * inv_ln2);
  } else {
    return static_cast<T>(sycl::log2(up(a)));
  }
}

template <typename T> inline T log10_(T a) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    T l = std::log(a);
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
  if constexpr (is_complex_v<T>) return a / b;
  else return static_cast<T>(up(a) / up(b));
}

// Floor division and remainder: NumPy's divmod for floats (remainder has
// the sign of the divisor), Python's for integers, with division by zero
// giving 0 instead of a hardware trap.
template <typename T> inline T floor_divide_(T a, T b) {
  if constexpr (is_float_v<T>) {
    using C = calc_t<T>;
    C x = up(a), y = up(b);
    if (y == 0) return static_cast<T>(x / y);
    if (sycl::isinf(y) && sycl::isfinite(x)) {
      // x / inf is 0 (or -0); floor of a tiny negative quotient is -1
      C q = x / y;
      if (x == 0 || (x > 0) == (y > 0)) return static_cast<T>(q == 0 ? sycl::copysign(C(0), q) : q);
      return static_cast<T>(C(-1));
    }
    C mod = sycl::fmod(x, y);
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

template <typename T> inline T remainder_(T a, T b) {
  if constexpr (is_float_v<T>) {
    using C = calc_t<T>;
    C x = up(a), y = up(b);
    if (y == 0) return static_cast<T>(sycl::fmod(x, y));
    if (sycl::isinf(y) && sycl::isfinite(x)) {
      if (x == 0 || (x > 0) == (y > 0)) return static_cast<T>(x);
      return static_cast<T>(y);
    }
    C mod = sycl::fmod(x, y);
    if (mod != 0) {
      if ((y < 0) != (mod < 0)) mod += y;
    } else {
      mod = sycl::copysign(C(0), y);
    }
    return static_cast<T>(mod);
  } else if constexpr (std::is_same_v<T, bool>) {
    return false;
  } else {
    if (b == 0) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
      T m = static_cast<T>(a % b);
      if (m != 0 && ((m < 0) != (b < 0))) m = static_cast<T>(m + b);
      return m;
    } else {
      return static_cast<T>(a % b);
    }
  }
}

template <typename T> inline T pow_(T a, T b) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    if (b == T(0)) return T(1, 0);
    if (b == T(1)) return a;
    if (b.imag() == R(0) && b.real() == R(2)) return a * a;
    return std::pow(a, b);
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

template <typename T> inline T maximum_(T a, T b) {
  if constexpr (is_float_v<T>) {
    if (isnan_(a)) return a;
    if (isnan_(b)) return b;
    return up(a) >= up(b) ? a : b;
  } else {
    return a >= b ? a : b;
  }
}
template <typename T> inline T minimum_(T a, T b) {
  if constexpr (is_float_v<T>) {
    if (isnan_(a)) return a;
    if (isnan_(b)) return b;
    return up(a) <= up(b) ? a : b;
  } else {
    return a <= b ? a : b;
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

template <typename T> inline T left_shift_(T a, T b) {
  constexpr T bits = static_cast<T>(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) return T(0);
  }
  if (b >= bits) return T(0);
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) << b);
}

template <typename T> inline T right_shift_(T a, T b) {
  constexpr T bits = static_cast<T>(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) {
    if (b < 0 || b >= bits) return a < 0 ? T(-1) : T(0);
  } else {
    if (b >= bits) return T(0);
  }
  return static_cast<T>(a >> b);
}

} // namespace usmk

// Scalar helpers of kernels that need no sycl:: math builtins: the types
// computations run in (half in float), classification (NaN, infinities,
// through clang's builtins), negation, squares, complex parts, bitwise
// inversion and shifts, ordered comparisons (complex numbers
// lexicographically), maximum/minimum with NaN propagating. math.hpp adds
// the functions that call sycl:: builtins (whose header is a third of a
// small bundle's compile time); elementwise operations and reductions that
// need only these include this header alone. usmarray/elementwise.py lists
// the names (NUMERIC_HELPERS) to choose the include by.
#pragma once
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
  if constexpr (is_complex_v<T>) return __builtin_isnan(a.real()) || __builtin_isnan(a.imag());
  else if constexpr (is_float_v<T>) return __builtin_isnan(up(a));
  else return false;
}
template <typename T> inline bool isinf_(T a) {
  if constexpr (is_complex_v<T>) return __builtin_isinf(a.real()) || __builtin_isinf(a.imag());
  else if constexpr (is_float_v<T>) return __builtin_isinf(up(a));
  else return false;
}
template <typename T> inline bool isfinite_(T a) {
  if constexpr (is_complex_v<T>) return __builtin_isfinite(a.real()) && __builtin_isfinite(a.imag());
  else if constexpr (is_float_v<T>) return __builtin_isfinite(up(a));
  else return true;
}
template <typename T> inline bool signbit_(T a) {
  if constexpr (is_float_v<T>) return __builtin_signbit(up(a));
  else if constexpr (std::is_signed_v<T>) return a < 0;
  else return false;
}

// ------------------------------------------------------------ arithmetic
template <typename T> inline T negative_(T a) {
  if constexpr (std::is_unsigned_v<T>) return static_cast<T>(T(0) - a);
  else return static_cast<T>(-a);
}

template <typename T> inline T square_(T a) {
  if constexpr (is_complex_v<T>) {
    // (x - y)(x + y) has no cancellation and does not overflow where x^2 - y^2
    // does not; + 0 makes its -0 the +0 of x*x - y*y. 2 (x y) is x y + y x,
    // NumPy's, exactly.
    using R = typename T::value_type;
    R x = a.real(), y = a.imag();
    return T((x - y) * (x + y) + R(0), 2 * (x * y));   // (2x overflows first)
  } else {
    return static_cast<T>(a * a);
  }
}

template <typename T> inline T conj_(T a) {
  if constexpr (is_complex_v<T>) return T(a.real(), -a.imag());
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

template <typename T> inline T invert_(T a) {
  if constexpr (std::is_same_v<T, bool>) return !a;
  else return static_cast<T>(~a);
}

// ------------------------------------------------------------ comparisons
// Ordered comparisons; complex numbers compare lexicographically (real part,
// then imaginary part) and a NaN in either part makes them false, as
// NumPy's and dpctl.tensor's (CLT, CLE, CGT, CGE of NumPy's loops).
template <typename T> inline bool less_(const T &a, const T &b) {
  if constexpr (is_complex_v<T>) {
    return (a.real() < b.real() && a.imag() == a.imag() && b.imag() == b.imag()) ||
           (a.real() == b.real() && a.imag() < b.imag());
  } else {
    return a < b;
  }
}
template <typename T> inline bool less_equal_(const T &a, const T &b) {
  if constexpr (is_complex_v<T>) {
    return (a.real() < b.real() && a.imag() == a.imag() && b.imag() == b.imag()) ||
           (a.real() == b.real() && a.imag() <= b.imag());
  } else {
    return a <= b;
  }
}
template <typename T> inline bool greater_(const T &a, const T &b) { return less_(b, a); }
template <typename T> inline bool greater_equal_(const T &a, const T &b) { return less_equal_(b, a); }

// maximum/minimum: a NaN (in either part, for complex) propagates, the first
// one winning; complex values by the lexicographic order above.
template <typename T> inline T maximum_(T a, T b) {
  if constexpr (is_complex_v<T>) {
    if (isnan_(a)) return a;
    if (isnan_(b)) return b;
    return greater_equal_(a, b) ? a : b;
  } else if constexpr (is_float_v<T>) {
    if (isnan_(a)) return a;
    if (isnan_(b)) return b;
    return up(a) >= up(b) ? a : b;
  } else {
    return a >= b ? a : b;
  }
}
template <typename T> inline T minimum_(T a, T b) {
  if constexpr (is_complex_v<T>) {
    if (isnan_(a)) return a;
    if (isnan_(b)) return b;
    return less_equal_(a, b) ? a : b;
  } else if constexpr (is_float_v<T>) {
    if (isnan_(a)) return a;
    if (isnan_(b)) return b;
    return up(a) <= up(b) ? a : b;
  } else {
    return a <= b ? a : b;
  }
}

// fmax/fmin (NumPy's): a NaN loses to a number, the first NaN of two wins;
// ties (+0 and -0) keep x1; complex values by NumPy's CGE/CLE (the real
// parts first, the imaginary parts where those are equal).
template <typename T> inline T fmax_(T a, T b) {
  if constexpr (is_complex_v<T>) {
    const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const bool ge = (ar > br && !__builtin_isnan(ai) && !__builtin_isnan(bi)) ||
                    (ar == br && ai >= bi);
    return (ge || __builtin_isnan(br) || __builtin_isnan(bi)) ? a : b;
  } else if constexpr (is_float_v<T>) {
    return (up(a) >= up(b) || isnan_(b)) ? a : b;
  } else {
    return a >= b ? a : b;
  }
}
template <typename T> inline T fmin_(T a, T b) {
  if constexpr (is_complex_v<T>) {
    const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const bool le = (ar < br && !__builtin_isnan(ai) && !__builtin_isnan(bi)) ||
                    (ar == br && ai <= bi);
    return (le || __builtin_isnan(br) || __builtin_isnan(bi)) ? a : b;
  } else if constexpr (is_float_v<T>) {
    return (up(a) <= up(b) || isnan_(b)) ? a : b;
  } else {
    return a <= b ? a : b;
  }
}

// gcd/lcm of integers as NumPy's (in the unsigned type, so that |INT_MIN|
// wraps as NumPy's does instead of overflowing): gcd non-negative; lcm is
// |a| / gcd * |b| modulo 2^bits of the type (a product past the type wraps,
// negative in a signed type, as NumPy's), 0 when gcd is 0.
template <typename T> inline std::make_unsigned_t<T> uabs_(T a) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed_v<T>) return a < 0 ? static_cast<U>(U(0) - U(a)) : U(a);
  else return a;
}
template <typename T> inline T gcd_(T a, T b) {
  auto x = uabs_(a), y = uabs_(b);
  while (y != 0) {
    const auto t = static_cast<decltype(x)>(x % y);
    x = y;
    y = t;
  }
  return static_cast<T>(x);
}
template <typename T> inline T lcm_(T a, T b) {
  using U = std::make_unsigned_t<T>;
  // (the product in unsigned int at least: uint8/uint16 operands would
  // promote to int, whose overflow is undefined)
  using P = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  const U x = uabs_(a), y = uabs_(b), g = static_cast<U>(gcd_(a, b));
  if (g == 0) return T(0);
  return static_cast<T>(static_cast<U>(P(x / g) * P(y)));
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

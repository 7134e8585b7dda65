// Common definitions for run-time compiled kernels: only the headers kernels
// need (the full <sycl/sycl.hpp> doubles the compile time), short type names
// used in kernel names, conversions with NumPy semantics, and strided
// indexing helpers.
#pragma once
#include <sycl/ext/oneapi/free_function_queries.hpp>
#include <sycl/ext/oneapi/experimental/free_function_traits.hpp>
#include <sycl/ext/oneapi/properties/properties.hpp>
#include <sycl/ext/oneapi/kernel_properties/properties.hpp>
#include <sycl/half_type.hpp>
#include <cstdint>
#include <type_traits>
#include "geometry.hpp"

namespace syclext = sycl::ext::oneapi;
namespace syclexp = sycl::ext::oneapi::experimental;

using b1 = bool;
using i1 = std::int8_t;
using u1 = std::uint8_t;
using i2 = std::int16_t;
using u2 = std::uint16_t;
using i4 = std::int32_t;
using u4 = std::uint32_t;
using i8 = std::int64_t;
using u8 = std::uint64_t;
using f2 = sycl::half;
using f4 = float;
using f8 = double;
// Complex types only where a bundle has complex kernels: the resolver
// defines USM_COMPLEX for those (usmarray/_core/_kernels.py). <complex>
// alone is most of a small bundle's compile time (it brings <sstream>);
// elsewhere usmk::complex is declared but never defined, which is all the
// complex branches of templates need to parse.
#if USM_COMPLEX
#include <complex>
namespace usmk { template <typename R> using complex = std::complex<R>; }
using c8 = std::complex<float>;
using c16 = std::complex<double>;
#else
namespace usmk { template <typename R> class complex; }
#endif
// 16 raw bytes: the carrier for moving complex128 (and any 16-byte item).
struct alignas(16) x16 { std::uint64_t lo, hi; };

using usm::Geometry;
// USM pointer parameters of kernels (usm::KernelPtr: by value; converts to
// T *). The sizeof makes the parameter's type complete where the kernel is
// instantiated: the kernel compiler crashes laying out a free-function
// kernel's parameter of a class template not instantiated yet (as with
// Geometry above).
template <typename T>
using kptr = std::enable_if_t<sizeof(usm::KernelPtr<T>) == sizeof(void *), usm::KernelPtr<T>>;
// Kernels with a Geometry<ND, NA> parameter are instantiated through
// registered_names; the kernel compiler needs the aggregate instantiated
// up front or it crashes, hence these explicit instantiations.
#define USM_GEOMETRY_FOR(NA)                                                   \
  template struct usm::Geometry<1, NA>;                                        \
  template struct usm::Geometry<2, NA>;                                        \
  template struct usm::Geometry<3, NA>;                                        \
  template struct usm::Geometry<4, NA>;                                        \
  template struct usm::Geometry<8, NA>;
USM_GEOMETRY_FOR(1)
USM_GEOMETRY_FOR(2)
USM_GEOMETRY_FOR(3)
USM_GEOMETRY_FOR(4)

#define USM_KERNEL(R) SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<R>))
// Vector-block kernels (see usmk::simd_blocks) run in work-groups of
// kSimdGroup work-items. The CPU compiler still builds a loop vectorised
// across work-items that such groups never enter; the narrowest sub-group
// (SIMD width 4) makes it the smallest, for compile time and binary size.
// Only CPU devices get these kernels (usmarray/_kernels.py: simd_kernels).
#define USM_SIMD_KERNEL                                                        \
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))             \
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::work_group_size<usm::kSimdGroup>)) \
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::sub_group_size<4>))

namespace usmk {

template <typename T> struct is_complex : std::false_type {};
template <typename T> struct is_complex<complex<T>> : std::true_type {};
template <typename T> constexpr bool is_complex_v = is_complex<T>::value;

template <typename T> struct real_of { using type = T; };
template <typename T> struct real_of<complex<T>> { using type = T; };

template <typename T>
constexpr bool is_float_v = std::is_floating_point_v<T> || std::is_same_v<T, sycl::half>;

// Float to integer the way NumPy does it on x86: through int64, so that
// negative values wrap into unsigned types and narrow types take the low bits.
template <typename D, typename S> inline D float_to_int(S v) {
  if constexpr (std::is_same_v<D, std::uint64_t>) {
    double d = static_cast<double>(v);
    return d < 0 ? static_cast<D>(static_cast<std::int64_t>(d)) : static_cast<D>(d);
  } else if constexpr (std::is_same_v<D, std::int64_t>) {
    return static_cast<D>(v);
  } else {
    return static_cast<D>(static_cast<std::int64_t>(v));
  }
}

// double -> half rounded once, as NumPy's: through float rounded to odd
// (an inexact float with its last bit set), which keeps what the second
// rounding needs (float has 13 more significand bits than half). Through a
// float rounded to nearest, values near half a half-ulp from a tie rounded
// twice (57 of 10^6 normal draws were 1 ulp off NumPy's astype).
inline sycl::half half_of(double v) {
  float f = static_cast<float>(v);
  const double af = f < 0 ? -static_cast<double>(f) : f, av = v < 0 ? -v : v;
  // (inexact and finite: NaN fails both af tests, infinities the second)
  if (static_cast<double>(f) != v && af <= 3.4028234663852886e38) {
    std::uint32_t b = __builtin_bit_cast(std::uint32_t, f);
    if (!(b & 1u)) b = af > av ? b - 1u : b + 1u;
    f = __builtin_bit_cast(float, b);
  }
  return sycl::half(f);
}

// Conversion between any two array API types with NumPy's astype semantics
// (complex -> real drops the imaginary part, anything -> bool is "!= 0").
template <typename D, typename S> inline D convert(const S &v) {
  if constexpr (std::is_same_v<D, S>) {
    return v;
  } else if constexpr (std::is_same_v<D, bool>) {
    if constexpr (is_complex_v<S>) return v.real() != 0 || v.imag() != 0;
    else return v != S(0);
  } else if constexpr (is_complex_v<D>) {
    using R = typename D::value_type;
    if constexpr (is_complex_v<S>) return D(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    else if constexpr (std::is_same_v<S, sycl::half>) return D(static_cast<R>(static_cast<float>(v)), R(0));
    else return D(static_cast<R>(v), R(0));
  } else if constexpr (is_complex_v<S>) {
    return convert<D>(v.real());
  } else if constexpr (std::is_same_v<D, sycl::half>) {
    if constexpr (std::is_same_v<S, double>) return half_of(v);
    else return sycl::half(static_cast<float>(v));
  } else if constexpr (std::is_same_v<S, sycl::half>) {
    return convert<D>(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<S>) {
    return float_to_int<D>(v);
  } else {
    return static_cast<D>(v);
  }
}

// Strided kernels run on an nd_range of rank R = min(ND, 3): the last
// collapsed dimension is the fastest-varying range dimension (so the CPU
// runtime vectorises along it), the one before it the next, and all outer
// dimensions are folded into range dimension 0. Returns false for padding
// work-items past the end of the last two dimensions (launches round both
// up to their work-group size).
// INNER (a bit per operand, 0: the general variant): operand a walks the
// last dimension with stride 1 if its bit is set, else with stride 0 (a
// broadcast column). Known strides let the compiler see consecutive
// work-items touch consecutive (or the same) elements and emit vector loads
// instead of gathers.
// N: the operands whose offsets are wanted (the first N of the NA a
// Geometry describes: user kernels get a Geometry of kMaxOperands).
template <int ND, int NA, int INNER = 0, int N = NA>
inline bool strided_offsets(const Geometry<ND, NA> &g, std::int64_t (&off)[N]) {
  static_assert(N <= NA, "more offsets than operands");
  constexpr int R = ND < 3 ? ND : 3;
  auto it = syclext::this_work_item::get_nd_item<R>();
  const std::int64_t j = it.get_global_id(R - 1);
  if (j >= g.shape[ND - 1]) return false;
#pragma unroll
  for (int a = 0; a < N; ++a)
    off[a] = INNER == 0 ? j * g.strides[a][ND - 1] : ((INNER >> a) & 1) ? j : 0;
  if constexpr (ND >= 2) {
    const std::int64_t i = it.get_global_id(R - 2);
    if (i >= g.shape[ND - 2]) return false;
#pragma unroll
    for (int a = 0; a < N; ++a) off[a] += i * g.strides[a][ND - 2];
  }
  if constexpr (ND >= 3) {
    std::int64_t o = it.get_global_id(0);
#pragma unroll
    for (int d = ND - 3; d >= 0; --d) {
      const std::int64_t k = o % g.shape[d];
      o /= g.shape[d];
#pragma unroll
      for (int a = 0; a < N; ++a) off[a] += k * g.strides[a][d];
    }
  }
  return true;
}

// the smaller of two values (sycl::min is the builtins header's)
template <typename T> inline T min_of(T a, T b) { return b < a ? b : a; }

inline std::int64_t linear_id() {
  return static_cast<std::int64_t>(syclext::this_work_item::get_nd_item<1>().get_global_id(0));
}

// ---------------------------------------------------------- vector blocks
// For devices that run a work-group's work-items as one SIMD loop (CPUs),
// the host launches vector-block kernels in work-groups smaller than any
// SIMD width, so each work-item's body runs as written: explicit vectors,
// stored with non-temporal stores. Those skip the read-for-ownership of the
// result's cache lines, a third of the memory traffic of y = f(x). (A store
// per work-item vectorised by the runtime loses the non-temporal hint.)
template <typename T, int L> using raw_vec = T __attribute__((ext_vector_type(L)));

// p needs only the item's alignment (inputs may be views at any offset).
template <typename T, int L> inline raw_vec<T, L> load_raw(const T *p) {
  raw_vec<T, L> r;
  __builtin_memcpy(&r, p, sizeof(r));
  return r;
}

// p must be aligned to the vector's size (the host checks the result's base).
template <typename T, int L> inline void stream_store(const raw_vec<T, L> &r, T *p) {
  __builtin_nontemporal_store(r, reinterpret_cast<raw_vec<T, L> *>(p));
}
// Whether a result of n items of T takes streaming stores (usm::kStreamBytes).
template <typename T> inline bool streams(std::int64_t n) {
  return n * static_cast<std::int64_t>(sizeof(T)) >= usm::kStreamBytes;
}
// f(std::true_type{}) when a result of n items of T streams, else
// f(std::false_type{}). The two loops must stay apart: with one loop and a
// branch around its store, the compiler merges the two stores into one and
// drops the streaming hint.
template <typename T, class F> inline void with_streaming(std::int64_t n, F &&f) {
  if (streams<T>(n)) f(std::true_type{});
  else f(std::false_type{});
}
// A result vector to p (aligned as for stream_store), streamed when S.
template <bool S, typename T, int L> inline void store_vec(const raw_vec<T, L> &r, T *p) {
  if constexpr (S) stream_store<T, L>(r, p);
  else *reinterpret_cast<raw_vec<T, L> *>(p) = r;
}

// A work-item's vectors from item `first` of n: vec_body(i) for each whole
// L-item vector from item i, item_body(j) for the items of a last partial one.
template <int L, class V, class S>
inline void simd_blocks_from(std::int64_t first, std::int64_t n, V &&vec_body, S &&item_body) {
  // (a loop, not unrolled: the same speed, a fraction of the compile time)
#pragma unroll 1
  for (int k = 0; k < usm::kSimdVectors; ++k) {
    const std::int64_t i = first + static_cast<std::int64_t>(k) * L;
    if (i + L <= n) {
      vec_body(i);
    } else {
      for (std::int64_t j = i; j < n; ++j) item_body(j);
      return;
    }
  }
}

// The same over n items laid out in order, kSimdVectors vectors per work-item.
template <int L, class V, class S> inline void simd_blocks(std::int64_t n, V &&vec_body, S &&item_body) {
  simd_blocks_from<L>(linear_id() * (usm::kSimdVectors * L), n, vec_body, item_body);
}

// a where mask m is set (all bits of a lane), else b. m: any mask of V's
// size (a compare of float64 vectors selecting int64 index vectors).
template <typename V, typename M = decltype(V() >= V())> inline V vselect(M m, V a, V b) {
  static_assert(sizeof(M) == sizeof(V), "a mask of the vector's size");
  const M ai = __builtin_bit_cast(M, a), bi = __builtin_bit_cast(M, b);
  return __builtin_bit_cast(V, (ai & m) | (bi & ~m));
}

// A vector of L items from p: consecutive ones (UNIT) or L copies of *p.
template <typename T, int L, bool UNIT> inline raw_vec<T, L> load_or_splat(const T *p) {
  if constexpr (UNIT) return load_raw<T, L>(p);
  else return raw_vec<T, L>(*p);
}

} // namespace usmk

// where(cond, x1, x2) (selection by a boolean condition) and gathers.
#include "order.hpp"
#include <sycl/atomic_ref.hpp>

template <typename T>
USM_KERNEL(1)
void where_contig(kptr<const bool> c, kptr<const T> a, kptr<const T> b, kptr<T> r, std::int64_t n) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) r[i] = c[i] ? a[i] : b[i];
}

// The same on CPU devices (see usmk::simd_blocks), condition and result
// unit-stride; bit k of INNER is set when x1 (k = 0) or x2 (k = 1) is
// unit-stride, clear when it is one item broadcast (a scalar). A selection
// of bytes, blended under a mask widened from the condition's bytes.
template <typename T, int INNER>
USM_SIMD_KERNEL
void where_vec(kptr<const bool> c, kptr<const T> a, kptr<const T> b, kptr<T> r, std::int64_t n) {
  constexpr int L = usm::simd_lanes(1);
  constexpr bool UA = INNER & 1, UB = INNER & 2;
  using V = usmk::raw_vec<T, L>;
  using M = decltype(V() >= V());
  const auto *cb = reinterpret_cast<const std::uint8_t *>(c.p);
  usmk::with_streaming<T>(n, [&](auto st) {
    usmk::simd_blocks<L>(
        n,
        [&](std::int64_t i) {
          const M m = __builtin_convertvector(usmk::load_raw<std::uint8_t, L>(cb + i) != 0, M);
          usmk::store_vec<decltype(st)::value, T, L>(
              usmk::vselect<V>(m, usmk::load_or_splat<T, L, UA>(a + (UA ? i : 0)),
                               usmk::load_or_splat<T, L, UB>(b + (UB ? i : 0))),
              r + i);
        },
        [&](std::int64_t i) { r[i] = c[i] ? a[UA ? i : 0] : b[UB ? i : 0]; });
  });
}

template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void where_strided(kptr<const bool> c, kptr<const T> a, kptr<const T> b, kptr<T> r, Geometry<ND, 4> g) {
  std::int64_t off[4];
  if (usmk::strided_offsets(g, off)) r[off[3]] = c[off[0]] ? a[off[1]] : b[off[2]];
}

// Index k along an axis of length n, counted from the end when negative
// (in place); whether it then lies in [0, n).
inline bool wrap_index(std::int64_t &k, std::int64_t n) {
  k += k < 0 ? n : 0;
  return static_cast<std::uint64_t>(k) < static_cast<std::uint64_t>(n);
}

// out[i] = x[i + k * sa] for k = idx[i]: the gathers of integer array
// indexing. idx, x and out are walked by one geometry; x's strides cover
// the dimensions that are not indexed. n == 0: idx holds element offsets
// (any sign; sa == 1), checked by the caller. n > 0: idx holds positions
// along one axis of x of length n (take_along_axis), negative ones from the
// end, and one outside [-n, n) sets *err and stores nothing.
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void take_strided(kptr<const std::int64_t> idx, kptr<const T> x, kptr<T> out, Geometry<ND, 3> g, std::int64_t n,
                  std::int64_t sa, kptr<std::int32_t> err) {
  std::int64_t off[3];
  if (!usmk::strided_offsets(g, off)) return;
  std::int64_t k = idx[off[0]];
  if (n && !wrap_index(k, n)) {
    *err = 1;
    return;
  }
  out[off[2]] = x[off[1] + k * sa];
}

// out[i] = (first ? base : acc[i]) + k * s for k = idx[i] (negative: from
// the end of an axis of length n): one term of the element offsets of
// x[i0, i1, ...], one launch per index array, summed in place (acc is out,
// or unread when first). An index outside [-n, n) sets *err to tag (the
// host names the axis) and leaves out unset. T: the 8-byte move type (the
// bundle of the item size the offsets share).
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void index_offsets(kptr<const std::int64_t> idx, kptr<const std::int64_t> acc, kptr<std::int64_t> out,
                   Geometry<ND, 3> g, std::int64_t n, std::int64_t s, std::int64_t base,
                   std::int32_t first, std::int32_t tag, kptr<std::int32_t> err) {
  static_assert(sizeof(T) == sizeof(std::int64_t), "offsets are int64");
  std::int64_t off[3];
  if (!usmk::strided_offsets(g, off)) return;
  std::int64_t k = idx[off[0]];
  if (!wrap_index(k, n)) {
    *err = tag;
    return;
  }
  out[off[2]] = (first ? base : acc[off[1]]) + k * s;
}

// out[j * inner + b] = x[k * s0 + b * si] for k = idx[j] (negative: from
// the end): take along one axis, one item per work-item (the runtime
// vectorises the gathers across work-items). An index outside [-n0, n0)
// sets *err and stores nothing.
template <typename T>
USM_KERNEL(1)
void gather(kptr<const T> x, kptr<const std::int64_t> idx, kptr<T> out, std::int64_t total, std::int64_t inner,
            std::int64_t n0, std::int64_t s0, std::int64_t si, kptr<std::int32_t> err) {
  const std::int64_t j = usmk::linear_id();
  if (j >= total) return;
  const std::int64_t a = inner == 1 ? j : j / inner, b = j - a * inner;
  std::int64_t k = idx[a];
  if (!wrap_index(k, n0)) {
    *err = 1;
    return;
  }
  out[j] = x[k * s0 + b * si];
}

// The same for inner == 1 on CPU devices: one work-item per block of
// kGatherBlock indices, scalar loads. Each load is a likely cache miss at
// an address read from idx; the misses overlap as far as the core's reorder
// window reaches, so the loop is kept short: no bounds checks (a first pass
// over the block's indices, vectorised and in the cache, checks them and
// says whether any is negative) and no software prefetch. The OpenCL CPU
// runtime turns a prefetch into a call of its own per item, and with both
// cores working that cost more than it hid: 1e6 random indices into 1e7
// float32 took 4.8-5.3 ms with a prefetch 64 indices ahead and 3.8-4.1 ms
// without (a C loop of either shape: 3.7-4.0 ms).
constexpr std::int64_t kGatherBlock = 4096;

// body(j, k) for j in [j0, e) and k = idx[j] (from the end when negative;
// any negative only if neg). The indices are in [-n0, n0).
template <class F>
inline void index_walk(const std::int64_t *idx, std::int64_t j0, std::int64_t e, std::int64_t n0,
                       bool neg, F &&body) {
  if (neg)
    for (std::int64_t j = j0; j < e; ++j) body(j, idx[j] + (idx[j] < 0 ? n0 : 0));
  else
    for (std::int64_t j = j0; j < e; ++j) body(j, idx[j]);
}

// The smallest and largest of idx[j0, e) and 0.
inline void index_range(const std::int64_t *idx, std::int64_t j0, std::int64_t e,
                        std::int64_t &lo, std::int64_t &hi) {
  lo = hi = 0;
  for (std::int64_t j = j0; j < e; ++j) {
    lo = idx[j] < lo ? idx[j] : lo;
    hi = idx[j] > hi ? idx[j] : hi;
  }
}

template <typename T>
USM_SIMD_KERNEL
void gather_vec(kptr<const T> x, kptr<const std::int64_t> idx, kptr<T> out, std::int64_t total,
                std::int64_t n0, std::int64_t s0, kptr<std::int32_t> err) {
  const std::int64_t j0 = usmk::linear_id() * kGatherBlock;
  if (j0 >= total) return;
  const std::int64_t e = total < j0 + kGatherBlock ? total : j0 + kGatherBlock;
  std::int64_t lo, hi;
  index_range(idx, j0, e, lo, hi);
  if (lo < -n0 || hi >= n0) {
    *err = 1;
    return;
  }
  index_walk(idx, j0, e, n0, lo < 0, [&](std::int64_t j, std::int64_t k) { out[j] = x[k * s0]; });
}

// x[k * s0] = v[j] for k = idx[j], inner == 1, on CPU devices: blocks as
// gather_vec (a store that misses waits in the store buffer, not in the
// reorder window, so its misses overlap further). CHECK: store nothing,
// only set *err for an index outside [-n0, n0) (the host checks before
// scattering).
template <typename T, int CHECK>
USM_SIMD_KERNEL
void scatter_vec(kptr<T> x, kptr<const std::int64_t> idx, kptr<const T> v, std::int64_t total, std::int64_t n0,
                 std::int64_t s0, kptr<std::int32_t> err) {
  const std::int64_t j0 = usmk::linear_id() * kGatherBlock;
  if (j0 >= total) return;
  const std::int64_t e = total < j0 + kGatherBlock ? total : j0 + kGatherBlock;
  std::int64_t lo, hi;
  index_range(idx, j0, e, lo, hi);
  if constexpr (CHECK) {
    if (lo < -n0 || hi >= n0) *err = 1;
  } else {
    index_walk(idx, j0, e, n0, lo < 0, [&](std::int64_t j, std::int64_t k) { x[k * s0] = v[j]; });
  }
}

// The same for inner > 1 on CPU devices: one work-item per (result row,
// chunk of kGatherRowChunk columns) copies a run of the row (a loop the
// compiler vectorises when si == 1), with no division per element.
constexpr std::int64_t kGatherRowChunk = 1024;
template <typename T>
USM_SIMD_KERNEL
void gather_rows_vec(kptr<const T> x, kptr<const std::int64_t> idx, kptr<T> out, std::int64_t m,
                     std::int64_t inner, std::int64_t n0, std::int64_t s0, std::int64_t si,
                     kptr<std::int32_t> err) {
  const std::int64_t chunks = (inner + kGatherRowChunk - 1) / kGatherRowChunk;
  const std::int64_t g = usmk::linear_id();
  if (g >= m * chunks) return;
  const std::int64_t a = g / chunks, lo = (g - a * chunks) * kGatherRowChunk;
  const std::int64_t hi = inner < lo + kGatherRowChunk ? inner : lo + kGatherRowChunk;
  std::int64_t k = idx[a];
  if (!wrap_index(k, n0)) {
    *err = 1;
    return;
  }
  const T *src = x + k * s0;
  T *dst = out + a * inner;
  if (si == 1)
    for (std::int64_t b = lo; b < hi; ++b) dst[b] = src[b];
  else
    for (std::int64_t b = lo; b < hi; ++b) dst[b] = src[b * si];
}

// x[k * s0 + b * si] = v[j * inner + b] for k = idx[j] (negative: from the
// end): the scatter of x[idx] = v along one axis (duplicate indices: one of
// the values lands). CHECK: store nothing, only set *err for an index
// outside [-n0, n0) (the host checks before scattering).
template <typename T, int CHECK>
USM_KERNEL(1)
void scatter(kptr<T> x, kptr<const std::int64_t> idx, kptr<const T> v, std::int64_t total, std::int64_t inner,
             std::int64_t n0, std::int64_t s0, std::int64_t si, kptr<std::int32_t> err) {
  const std::int64_t j = usmk::linear_id();
  if (j >= total) return;
  const std::int64_t a = inner == 1 ? j : j / inner, b = j - a * inner;
  std::int64_t k = idx[a];
  if constexpr (CHECK) {
    if (b == 0 && !wrap_index(k, n0)) *err = 1;
  } else {
    wrap_index(k, n0);   // (checked before)
    x[k * s0 + b * si] = v[j];
  }
}

// x[i + k * sa] = v[i] for k = idx[i]: the scatter of integer-array
// assignment, over the same geometry and with the same idx, n and sa as
// take_strided (duplicate positions: one of the values lands). With n > 0,
// check != 0 stores nothing and only sets *err for an index outside
// [-n, n); the host checks before it scatters.
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void put_strided(kptr<const std::int64_t> idx, kptr<T> x, kptr<const T> v, Geometry<ND, 3> g, std::int64_t n,
                 std::int64_t sa, std::int32_t check, kptr<std::int32_t> err) {
  std::int64_t off[3];
  if (!usmk::strided_offsets(g, off)) return;
  std::int64_t k = idx[off[0]];
  if (n) {
    const bool in = wrap_index(k, n);
    if (check) {
      if (!in) *err = 1;
      return;
    }
  }
  x[off[1] + k * sa] = v[off[2]];
}

// Items wider than 8 bytes (complex128, moved as x16) are stored in parts,
// so two work-items storing to one element (a repeated index) could leave
// parts of two values in it. Their scatters take two passes: each
// work-item claims its target (claims[c] = its id, the offset of its value;
// one of the claims lands), then only the claimants store. 32-bit claims:
// 64-bit atomics are optional on GPUs (the host refuses 2**32 values).
inline void claim(std::uint32_t *claims, std::int64_t c, std::int64_t id) {
  sycl::atomic_ref<std::uint32_t, sycl::memory_order::relaxed, sycl::memory_scope::device,
                   sycl::access::address_space::global_space>(claims[c])
      .store(static_cast<std::uint32_t>(id));
}

inline bool claimed(const std::uint32_t *claims, std::int64_t c, std::int64_t id) {
  return sycl::atomic_ref<std::uint32_t, sycl::memory_order::relaxed, sycl::memory_scope::device,
                          sycl::access::address_space::global_space>(
             const_cast<std::uint32_t &>(claims[c]))
             .load() == static_cast<std::uint32_t>(id);
}

// scatter (rows along axis 0) in two passes: store == 0 claims row k for
// index position a (launched over the m positions, inner 1), store != 0
// stores the items of the rows a claimed.
template <typename T>
USM_KERNEL(1)
void scatter_claimed(kptr<T> x, kptr<const std::int64_t> idx, kptr<const T> v, std::int64_t total,
                     std::int64_t inner, std::int64_t n0, std::int64_t s0, std::int64_t si,
                     kptr<std::uint32_t> claims, std::int32_t store) {
  const std::int64_t j = usmk::linear_id();
  if (j >= total) return;
  const std::int64_t a = inner == 1 ? j : j / inner, b = j - a * inner;
  std::int64_t k = idx[a];
  wrap_index(k, n0);   // (checked before)
  if (!store) claim(claims, k, a);
  else if (claimed(claims, k, a)) x[k * s0 + b * si] = v[j];
}

// put_strided in two passes, target element c counted from x0 (the start
// of x's memory), id the value's offset from v0 (the start of the values).
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void put_claimed(kptr<const std::int64_t> idx, kptr<T> x, kptr<const T> v, Geometry<ND, 3> g, std::int64_t n,
                 std::int64_t sa, kptr<const T> x0, kptr<const T> v0, kptr<std::uint32_t> claims,
                 std::int32_t store) {
  std::int64_t off[3];
  if (!usmk::strided_offsets(g, off)) return;
  std::int64_t k = idx[off[0]];
  if (n) wrap_index(k, n);   // (checked before)
  T *t = x + off[1] + k * sa;
  const T *s = v + off[2];
  const std::int64_t c = t - static_cast<const T *>(x0), id = s - static_cast<const T *>(v0);
  if (!store) claim(claims, c, id);
  else if (claimed(claims, c, id)) *t = *s;
}

// out[j] = insertion index of v[j] into the sorted s (left: before equal
// elements; right: after them), by binary search.
template <typename T, int RIGHT>
USM_KERNEL(1)
void search_sorted(kptr<const T> s, std::int64_t n, kptr<const T> v, kptr<std::int64_t> out, std::int64_t m) {
  const std::int64_t j = usmk::linear_id();
  if (j >= m) return;
  const T x = v[j];
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    const bool go_right = RIGHT ? !sorts_before(x, s[mid]) : sorts_before(s[mid], x);
    if (go_right) lo = mid + 1;
    else hi = mid;
  }
  out[j] = lo;
}

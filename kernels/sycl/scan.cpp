// Scans (cumulative_sum, cumulative_prod) and mask compaction (boolean-mask
// indexing, nonzero), as reduce-then-scan over tiles of a fixed size:
//   1. tile totals (reads the input once),
//   2. an inclusive scan of each row's tile totals (the same kernels on the
//      small totals array, from the engine),
//   3. each tile scanned from the total before it (reads the input again,
//      writes the output once).
// No tile waits for another (robust on devices without forward-progress
// guarantees between work-groups) and the fixed tiles make float results
// bit-identical run to run.
//
// Rows: row r of `rows` starts at (r / C) * sb + (r % C) * sc and steps by
// s (strides in elements, any sign), so one launch covers the rows of a
// matrix along either axis and any strided input. Column scans (the scanned
// axis is not the innermost of a C-ordered array) walk rows of the array
// contiguously instead: scan_cols.
#include "reduction.hpp"
#include <sycl/ext/oneapi/work_group_static.hpp>
#include <sycl/group_barrier.hpp>
#include <utility>

namespace usmk {

inline auto scan_item() { return syclext::this_work_item::get_nd_item<1>(); }

// First element of this work-item's kScanItems in generic tile t.
inline std::int64_t item_start(std::int64_t t) {
  return t * usm::kScanTile +
         static_cast<std::int64_t>(scan_item().get_local_id(0)) * usm::kScanItems;
}

// Exclusive scan of one value per work-item over a work-group of
// usm::kScanGroup work-items, in local memory `s` (any type and operation;
// a fixed combining order). `total` receives the group's total.
template <class Op, typename T>
inline T group_exclusive_scan(T *s, T v, T &total) {
  auto it = scan_item();
  auto g = it.get_group();
  const int lid = static_cast<int>(it.get_local_id(0));
  s[lid] = v;
  for (int off = 1; off < usm::kScanGroup; off <<= 1) {
    sycl::group_barrier(g);
    const T t = lid >= off ? Op::combine(s[lid - off], s[lid]) : s[lid];
    sycl::group_barrier(g);
    s[lid] = t;
  }
  sycl::group_barrier(g);
  total = s[usm::kScanGroup - 1];
  return lid > 0 ? s[lid - 1] : Op::template identity<T>();
}

// Loads of S as T (bool masks read as bytes).
template <typename S> using load_t = std::conditional_t<std::is_same_v<S, bool>, std::uint8_t, S>;

template <typename T, int L, typename S> inline raw_vec<T, L> load_as(const S *p) {
  using LS = load_t<S>;
  const raw_vec<LS, L> v = load_raw<LS, L>(reinterpret_cast<const LS *>(p));
  if constexpr (std::is_same_v<LS, T>) return v;
  else return __builtin_convertvector(v, raw_vec<T, L>);
}

template <int SH, typename V, std::size_t... I>
inline V shift_up(const V &v, const V &fill, std::index_sequence<I...>) {
  constexpr int L = sizeof...(I);
  return __builtin_shufflevector(v, fill, (int(I) >= SH ? int(I) - SH : L + int(I))...);
}
template <typename V, std::size_t... I> inline V splat_last(const V &v, std::index_sequence<I...>) {
  return __builtin_shufflevector(v, v, (int(I) * 0 + int(sizeof...(I)) - 1)...);
}

// Inclusive scan across the lanes of v (log2(L) shifted combines).
template <class Op, typename T, int L> inline raw_vec<T, L> lane_scan(raw_vec<T, L> v) {
  const raw_vec<T, L> id = Op::template identity<T>();
  using Seq = std::make_index_sequence<L>;
  v = Op::combine(shift_up<1>(v, id, Seq{}), v);
  v = Op::combine(shift_up<2>(v, id, Seq{}), v);
  if constexpr (L > 4) v = Op::combine(shift_up<4>(v, id, Seq{}), v);
  if constexpr (L > 8) v = Op::combine(shift_up<8>(v, id, Seq{}), v);
  return v;
}

} // namespace usmk

// Local memory for a work-group scan of T (raw storage: T need not be
// trivially constructible, e.g. std::complex).
template <typename T> struct alignas(T) scan_slot { unsigned char b[sizeof(T)]; };
#define USM_SCAN_LOCAL(T, name)                                                \
  static syclexp::work_group_static<scan_slot<T>[usm::kScanGroup]> name##_mem; \
  T *name = reinterpret_cast<T *>(&name##_mem[0])

#define USM_SCAN_ROW(p, r, C, b, c) ((p) + ((r) / (C)) * (b) + ((r) % (C)) * (c))

// tot[r * ntiles + t] = total of tile t of row r (generic: a work-group per tile).
template <class Op, typename S, typename T>
USM_KERNEL(1)
void scan_totals(kptr<const S> x, kptr<T> tot, std::int64_t rows, std::int64_t n, std::int64_t C,
                 std::int64_t xb, std::int64_t xc, std::int64_t xs, std::int64_t ntiles) {
  USM_SCAN_LOCAL(T, s);
  auto it = usmk::scan_item();
  const std::int64_t g = static_cast<std::int64_t>(it.get_group(0));
  const std::int64_t r = g / ntiles, t = g % ntiles;
  const S *row = USM_SCAN_ROW(x, r, C, xb, xc);
  const std::int64_t i0 = usmk::item_start(t);
  T acc = Op::template identity<T>();
  for (int k = 0; k < usm::kScanItems; ++k)
    if (i0 + k < n) acc = Op::combine(acc, usmk::convert<T>(row[(i0 + k) * xs]));
  T total;
  usmk::group_exclusive_scan<Op>(s, acc, total);
  if (it.get_local_id(0) == 0) tot[g] = total;
}

// y = inclusive scan of x along rows; `tot` holds the inclusive scan of each
// row's tile totals, or is null when rows are one tile.
template <class Op, typename S, typename T>
USM_KERNEL(1)
void scan_apply(kptr<const S> x, kptr<T> y, kptr<const T> tot, std::int64_t rows, std::int64_t n, std::int64_t C,
                std::int64_t xb, std::int64_t xc, std::int64_t xs, std::int64_t yb,
                std::int64_t yc, std::int64_t ys, std::int64_t ntiles) {
  USM_SCAN_LOCAL(T, s);
  auto it = usmk::scan_item();
  const std::int64_t g = static_cast<std::int64_t>(it.get_group(0));
  const std::int64_t r = g / ntiles, t = g % ntiles;
  const S *xr = USM_SCAN_ROW(x, r, C, xb, xc);
  T *yr = USM_SCAN_ROW(y, r, C, yb, yc);
  const std::int64_t i0 = usmk::item_start(t);
  T acc = Op::template identity<T>();
  for (int k = 0; k < usm::kScanItems; ++k)
    if (i0 + k < n) acc = Op::combine(acc, usmk::convert<T>(xr[(i0 + k) * xs]));
  T total;
  const T before = usmk::group_exclusive_scan<Op>(s, acc, total);
  T carry = t > 0 ? tot[g - 1] : Op::template identity<T>();
  if (it.get_local_id(0) > 0) carry = Op::combine(carry, before);
  for (int k = 0; k < usm::kScanItems; ++k) {
    if (i0 + k < n) {
      carry = Op::combine(carry, usmk::convert<T>(xr[(i0 + k) * xs]));
      yr[(i0 + k) * ys] = carry;
    }
  }
}

// Scans along the middle axis of (B, n, C): work-item j takes column
// (j / C, j % C) and walks it, so consecutive work-items read consecutive
// memory when C is the innermost axis (rows read contiguously). Sequential
// order: the same results as NumPy.
template <class Op, typename S, typename T>
USM_KERNEL(1)
void scan_cols(kptr<const S> x, kptr<T> y, std::int64_t B, std::int64_t n, std::int64_t C, std::int64_t xb,
               std::int64_t xn, std::int64_t xc, std::int64_t yb, std::int64_t yn,
               std::int64_t yc) {
  const std::int64_t j = usmk::linear_id();
  if (j >= B * C) return;
  const S *xr = USM_SCAN_ROW(x, j, C, xb, xc);
  T *yr = USM_SCAN_ROW(y, j, C, yb, yc);
  T acc = Op::template identity<T>();
  for (std::int64_t i = 0; i < n; ++i) {
    acc = Op::combine(acc, usmk::convert<T>(xr[i * xn]));
    yr[i * yn] = acc;
  }
}

// Column walks on CPU devices: a work-item takes L consecutive columns (unit
// column strides) of one outer slice and walks the rows with vectors (the
// same sequential order as scan_cols).
template <class Op, typename S, typename T>
USM_SIMD_KERNEL
void scan_cols_vec(kptr<const S> x, kptr<T> y, std::int64_t B, std::int64_t n, std::int64_t C,
                   std::int64_t xb, std::int64_t xn, std::int64_t yb, std::int64_t yn) {
  constexpr int L = usm::simd_lanes(sizeof(T));
  const std::int64_t nblk = (C + L - 1) / L;
  const std::int64_t j = usmk::linear_id();
  if (j >= B * nblk) return;
  const std::int64_t c0 = (j % nblk) * L;
  const S *xr = x + (j / nblk) * xb + c0;
  T *yr = y + (j / nblk) * yb + c0;
  if (c0 + L <= C) {
    usmk::raw_vec<T, L> acc = Op::template identity<T>();
    for (std::int64_t i = 0; i < n; ++i) {
      acc = Op::combine(acc, usmk::load_as<T, L>(xr + i * xn));
      __builtin_memcpy(yr + i * yn, &acc, sizeof(acc));
    }
  } else {
    for (std::int64_t c = 0; c < C - c0; ++c) {
      T acc = Op::template identity<T>();
      for (std::int64_t i = 0; i < n; ++i) {
        acc = Op::combine(acc, static_cast<T>(xr[i * xn + c]));
        yr[i * yn + c] = acc;
      }
    }
  }
}

// Vector-block variants (CPU devices): one work-item per tile of
// kScanVecTile elements of a row with unit strides, on clang vectors.
template <class Op, typename S, typename T>
USM_SIMD_KERNEL
void scan_totals_vec(kptr<const S> x, kptr<T> tot, std::int64_t rows, std::int64_t n, std::int64_t C,
                     std::int64_t xb, std::int64_t xc, std::int64_t ntiles) {
  constexpr int L = usm::simd_lanes(sizeof(T));
  const std::int64_t g = usmk::linear_id();
  if (g >= rows * ntiles) return;
  const std::int64_t r = g / ntiles, t = g % ntiles;
  const S *p = USM_SCAN_ROW(x, r, C, xb, xc) + t * usm::kScanVecTile;
  const std::int64_t m = usmk::min_of<std::int64_t>(usm::kScanVecTile, n - t * usm::kScanVecTile);
  // The tile's vectors in order, each reduced across its lanes (the last
  // lane of its scan), as scan_apply_vec walks them: every partial result
  // combines a contiguous run of items. (Accumulators per lane combined
  // every L-th item: for products of [2, 0.5, 2, 0.5, ...] one lane reached
  // inf and another 0, and the tile's total was NaN.)
  usmk::raw_vec<T, L> c = Op::template identity<T>();
  std::int64_t i = 0;
  for (; i + L <= m; i += L)
    c = Op::combine(c, usmk::splat_last(usmk::lane_scan<Op, T, L>(usmk::load_as<T, L>(p + i)),
                                        std::make_index_sequence<L>{}));
  T acc = c[0];
  for (; i < m; ++i) acc = Op::combine(acc, static_cast<T>(p[i]));
  tot[g] = acc;
}

template <class Op, typename S, typename T>
USM_SIMD_KERNEL
void scan_apply_vec(kptr<const S> x, kptr<T> y, kptr<const T> tot, std::int64_t rows, std::int64_t n,
                    std::int64_t C, std::int64_t xb, std::int64_t xc, std::int64_t yb,
                    std::int64_t yc, std::int64_t ntiles) {
  constexpr int L = usm::simd_lanes(sizeof(T));
  const std::int64_t g = usmk::linear_id();
  if (g >= rows * ntiles) return;
  const std::int64_t r = g / ntiles, t = g % ntiles;
  const S *p = USM_SCAN_ROW(x, r, C, xb, xc) + t * usm::kScanVecTile;
  T *q = USM_SCAN_ROW(y, r, C, yb, yc) + t * usm::kScanVecTile;
  const std::int64_t m = usmk::min_of<std::int64_t>(usm::kScanVecTile, n - t * usm::kScanVecTile);
  usmk::raw_vec<T, L> carry = t > 0 ? tot[g - 1] : Op::template identity<T>();
  // results larger than the caches go straight to memory (no read for
  // ownership of their lines) when the tile is aligned for it
  const bool stream = reinterpret_cast<std::uintptr_t>(q) % sizeof(carry) == 0 &&
                      usmk::streams<T>(rows * n);
  std::int64_t i = 0;
  for (; i + L <= m; i += L) {
    const usmk::raw_vec<T, L> v =
        Op::combine(carry, usmk::lane_scan<Op, T, L>(usmk::load_as<T, L>(p + i)));
    if (stream) usmk::stream_store<T, L>(v, q + i);
    else __builtin_memcpy(q + i, &v, sizeof(v));
    carry = usmk::splat_last(v, std::make_index_sequence<L>{});
  }
  T c = carry[0];
  for (; i < m; ++i) {
    c = Op::combine(c, static_cast<T>(p[i]));
    q[i] = c;
  }
}

// ------------------------------------------------------------ mask compaction
// cnt[t] = number of true elements in tile t of the mask m (n elements).
template <typename I>
USM_KERNEL(1)
void mask_count(kptr<const bool> m, kptr<I> cnt, std::int64_t n) {
  USM_SCAN_LOCAL(std::int64_t, s);
  auto it = usmk::scan_item();
  const std::int64_t t = static_cast<std::int64_t>(it.get_group(0));
  const std::int64_t i0 = usmk::item_start(t);
  std::int64_t c = 0;
  for (int k = 0; k < usm::kScanItems; ++k)
    if (i0 + k < n) c += m[i0 + k];
  std::int64_t total;
  usmk::group_exclusive_scan<usmk::red_sum>(s, c, total);
  if (it.get_local_id(0) == 0) cnt[t] = total;
}

template <typename I>
USM_SIMD_KERNEL
void mask_count_vec(kptr<const bool> m, kptr<I> cnt, std::int64_t n) {
  const std::int64_t t = usmk::linear_id();
  const std::int64_t i0 = t * usm::kScanVecTile;
  if (i0 >= n) return;
  const std::int64_t e = usmk::min_of<std::int64_t>(n, i0 + usm::kScanVecTile);
  const std::uint8_t *b = reinterpret_cast<const std::uint8_t *>(m.p);
  std::int64_t c = 0;
  std::int64_t i = i0;
  usmk::raw_vec<std::uint8_t, 64> acc = 0;
  // byte lanes count at most 255 trues before being flushed
  while (i + 64 <= e) {
    const std::int64_t stop = usmk::min_of<std::int64_t>(e - 63, i + 64 * 255);
    for (; i < stop; i += 64) acc += usmk::load_raw<std::uint8_t, 64>(b + i);
    using wide = usmk::raw_vec<std::uint16_t, 64>;
    const wide w = __builtin_convertvector(acc, wide);
    std::uint32_t sum = 0;
    for (int l = 0; l < 64; ++l) sum += w[l];
    c += sum;
    acc = 0;
  }
  for (; i < e; ++i) c += b[i];
  cnt[t] = c;
}

// cnt (ntiles + 1 entries): tile counts -> exclusive offsets, the total in
// cnt[ntiles]. One work-group.
template <typename I>
USM_KERNEL(1)
void mask_offsets(kptr<I> cnt, std::int64_t ntiles) {
  USM_SCAN_LOCAL(std::int64_t, s);
  auto it = usmk::scan_item();
  const std::int64_t lid = static_cast<std::int64_t>(it.get_local_id(0));
  const std::int64_t per = (ntiles + usm::kScanGroup - 1) / usm::kScanGroup;
  const std::int64_t a = usmk::min_of<std::int64_t>(ntiles, lid * per), b = usmk::min_of<std::int64_t>(ntiles, a + per);
  std::int64_t c = 0;
  for (std::int64_t i = a; i < b; ++i) c += cnt[i];
  std::int64_t total;
  std::int64_t run = usmk::group_exclusive_scan<usmk::red_sum>(s, c, total);
  for (std::int64_t i = a; i < b; ++i) {
    const std::int64_t v = cnt[i];
    cnt[i] = run;
    run += v;
  }
  if (lid == 0) cnt[ntiles] = total;
}

// out[k] = x[i * xs] for the k-th true element i of the mask (IDX: out[k] = i),
// from the tiles' exclusive offsets `off`: the generic tile of a work-group.
template <typename T, int IDX>
inline void compact_tile(const bool *m, const T *x, std::int64_t xs, T *out,
                         const std::int64_t *off, std::int64_t n, std::int64_t *s) {
  auto it = usmk::scan_item();
  const std::int64_t t = static_cast<std::int64_t>(it.get_group(0));
  const std::int64_t i0 = usmk::item_start(t);
  std::int64_t c = 0;
  for (int k = 0; k < usm::kScanItems; ++k)
    if (i0 + k < n) c += m[i0 + k];
  std::int64_t total;
  std::int64_t pos = off[t] + usmk::group_exclusive_scan<usmk::red_sum>(s, c, total);
  for (int k = 0; k < usm::kScanItems; ++k) {
    const std::int64_t i = i0 + k;
    if (i < n && m[i]) {
      if constexpr (IDX) out[pos] = static_cast<T>(i);
      else out[pos] = x[i * xs];
      ++pos;
    }
  }
}

// One work-item per tile (CPU devices): every element is stored at the next
// free slot and the slot advances on true elements (no branch on the mask);
// stores stop at the tile's end so they never reach the next tile's slots.
template <typename T, int IDX>
inline void compact_tile_vec(const bool *m, const T *x, std::int64_t xs, T *out,
                             const std::int64_t *off, std::int64_t n) {
  const std::int64_t t = usmk::linear_id();
  const std::int64_t i0 = t * usm::kScanVecTile;
  if (i0 >= n) return;
  const std::int64_t e = usmk::min_of<std::int64_t>(n, i0 + usm::kScanVecTile);
  const std::uint8_t *b = reinterpret_cast<const std::uint8_t *>(m);
  std::int64_t pos = off[t];
  const std::int64_t end = off[t + 1];
  for (std::int64_t i = i0; i < e && pos < end; ++i) {
    if constexpr (IDX) out[pos] = static_cast<T>(i);
    else out[pos] = x[i * xs];
    pos += b[i];
  }
}

// out = x[mask] (x 1-D, any stride)
template <typename T>
USM_KERNEL(1)
void mask_compact(kptr<const bool> m, kptr<const T> x, std::int64_t xs, kptr<T> out, kptr<const std::int64_t> off,
                  std::int64_t n) {
  USM_SCAN_LOCAL(std::int64_t, s);
  compact_tile<T, 0>(m, x, xs, out, off, n, s);
}

template <typename T>
USM_SIMD_KERNEL
void mask_compact_vec(kptr<const bool> m, kptr<const T> x, std::int64_t xs, kptr<T> out,
                      kptr<const std::int64_t> off, std::int64_t n) {
  compact_tile_vec<T, 0>(m, x, xs, out, off, n);
}

// out = indices of the true elements (nonzero)
template <typename I>
USM_KERNEL(1)
void mask_index(kptr<const bool> m, kptr<const I> x, std::int64_t xs, kptr<I> out, kptr<const std::int64_t> off,
                std::int64_t n) {
  USM_SCAN_LOCAL(std::int64_t, s);
  compact_tile<I, 1>(m, x, xs, out, off, n, s);
}

template <typename I>
USM_SIMD_KERNEL
void mask_index_vec(kptr<const bool> m, kptr<const I> x, std::int64_t xs, kptr<I> out,
                    kptr<const std::int64_t> off, std::int64_t n) {
  compact_tile_vec<I, 1>(m, x, xs, out, off, n);
}

// x[i * xs] = v[k] for the k-th true element i of the mask (x[mask] = v).
template <typename T>
USM_KERNEL(1)
void mask_expand(kptr<const bool> m, kptr<T> x, std::int64_t xs, kptr<const T> v, kptr<const std::int64_t> off,
                 std::int64_t n) {
  USM_SCAN_LOCAL(std::int64_t, s);
  auto it = usmk::scan_item();
  const std::int64_t t = static_cast<std::int64_t>(it.get_group(0));
  const std::int64_t i0 = usmk::item_start(t);
  std::int64_t c = 0;
  for (int k = 0; k < usm::kScanItems; ++k)
    if (i0 + k < n) c += m[i0 + k];
  std::int64_t total;
  std::int64_t pos = off[t] + usmk::group_exclusive_scan<usmk::red_sum>(s, c, total);
  for (int k = 0; k < usm::kScanItems; ++k) {
    const std::int64_t i = i0 + k;
    if (i < n && m[i]) x[i * xs] = v[pos++];
  }
}

template <typename T>
USM_SIMD_KERNEL
void mask_expand_vec(kptr<const bool> m, kptr<T> x, std::int64_t xs, kptr<const T> v, kptr<const std::int64_t> off,
                     std::int64_t n) {
  const std::int64_t t = usmk::linear_id();
  const std::int64_t i0 = t * usm::kScanVecTile;
  if (i0 >= n) return;
  const std::int64_t e = usmk::min_of<std::int64_t>(n, i0 + usm::kScanVecTile);
  std::int64_t pos = off[t];
  for (std::int64_t i = i0; i < e; ++i)
    if (m[i]) x[i * xs] = v[pos++];
}

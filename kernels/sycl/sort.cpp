// Stable sorts along the rows of contiguous (rows, n) buffers.
//
// LSD radix sort (real types): keys are read in their own type and mapped on
// the fly to unsigned integers whose order is the sort order (radix_key), one
// 8-bit digit per pass, least significant first. A pass is three launches:
//   radix_hist    a work-group per block of a row: the block's digit counts;
//   radix_scan    one work-group: exclusive scan of all counts, laid out
//                 (row, digit, block), so each (row, digit, block) gets the
//                 position its first key goes to (rows fall out of the
//                 layout: every row's counts add up to n);
//   radix_scatter each work-item takes a contiguous run of its block's keys,
//                 counts them per digit into its column of a work-group
//                 table, the columns are scanned in work-item order and
//                 every key goes to its block's position for its digit plus
//                 the keys of that digit before it: stable.
// radix_bits reduces OR and AND of all mapped keys first, so the host skips
// passes whose digit is the same in every key (small-range integers), and
// notes NaNs. Float keys without NaNs are mapped once in the CPU form: the
// first pass writes the mapped keys, the middle passes move them as they
// are, the last writes them back as floats (the mapping is a bijection
// there; sorts with NaNs map every key at each use, so that every NaN keeps
// its bits).
// Work-groups of one work-item with long runs are the CPU form (a serial
// counting sort per block, one core each); the same kernels in groups of
// kRadixGroup are the form for GPUs. The CPU form also has: radix_rows (a
// row per work-item), one pass by the leading digit then radix_segments
// (each segment sorted in the cache), and radix_split (one row split by a
// key most of its keys share); kernels/engine/sort.cpp picks among them.
//
// Sorting networks: rows of at most 32 keys (16 of 8 bytes), real types, below.
//
// Merge sort (longer rows where the radix sort is not used, complex types):
// the networks (insertion sort for complex types) sort chunks, then merge passes that double the sorted width. A merge pass
// places every element directly: its rank in its own run plus the number of
// elements of the other run that go before it (a binary search), so one
// work-item per element and no synchronisation.
// Keys may carry int64 indices (argsort). NaNs sort after every number.
#include "order.hpp"
#include <sycl/ext/oneapi/work_group_static.hpp>
#include <sycl/group_barrier.hpp>

#include <utility>

inline std::int64_t min64(std::int64_t a, std::int64_t b) { return a < b ? a : b; }

// The rows [lo, hi) of a kernel that takes whole rows per work-item: a
// contiguous run each (the hardware prefetchers follow it; rows a global
// range apart thrash the caches when that stride is a multiple of the page).
struct RowRun {
  std::int64_t lo, hi;
  explicit RowRun(std::int64_t rows) {
    auto it = syclext::this_work_item::get_nd_item<1>();
    const std::int64_t G = it.get_global_range(0), per = (rows + G - 1) / G;
    lo = min64(rows, static_cast<std::int64_t>(it.get_global_id(0)) * per);
    hi = min64(rows, lo + per);
  }
};

// ------------------------------------------------------------- radix sort
constexpr int kRadixBits = 8;
constexpr int kRadixDigits = 1 << kRadixBits;
constexpr int kRadixGroup = 32;   // largest work-group of the radix kernels
// bits of the prefixes of the table of buckets for skewed keys (lut_digit):
// 18, a 256 KB table that stays in a core's L2; with 16 the buckets of 2e6
// normal float64 were fewer and larger (segments 10.4-11.0 -> 9.0-9.2 ms)
constexpr int kLutBits = 18;
constexpr std::uint32_t kLutSize = 1u << kLutBits;

template <int S> struct uint_of;
template <> struct uint_of<1> { using type = std::uint8_t; };
template <> struct uint_of<2> { using type = std::uint16_t; };
template <> struct uint_of<4> { using type = std::uint32_t; };
template <> struct uint_of<8> { using type = std::uint64_t; };

// Unsigned image of a key whose order is the sort order: the sign bit of
// signed integers flipped; floats by sign and magnitude (negative ones
// complemented), every NaN the largest. ZEQ (argsort) maps -0.0 to +0.0 so
// that they stay in input order, as NumPy's stable argsort has them; sort
// puts -0.0 first (equal values, either order is sorted). Descending sorts
// complement the digits (dflip = 255): equal keys keep their order, NaNs
// come first.
template <typename T, int ZEQ>
inline typename uint_of<sizeof(T)>::type radix_key(const T &v) {
  using U = typename uint_of<sizeof(T)>::type;
  constexpr int B = 8 * sizeof(T);
  constexpr U sign = U(1) << (B - 1);
  U u;
  if constexpr (std::is_same_v<T, bool>) {
    u = v ? 1 : 0;
  } else {
    __builtin_memcpy(&u, &v, sizeof(T));
    if constexpr (usmk::is_float_v<T>) {
      // The radix passes map every key twice: no branches, and the tests
      // for NaN and zero compare floats (64-bit integer compares made f8
      // sorts on the CPU device twice as slow).
      U m = U(u ^ U(U(U(0) - U(u >> (B - 1))) | sign));   // negative: ~u, else u | sign
      if constexpr (ZEQ) m = v == T(0) ? sign : m;
      u = v != v ? U(~U(0)) : m;
    } else if constexpr (std::is_signed_v<T>) {
      u = U(u ^ sign);
    }
  }
  return u;
}

template <typename T, int ZEQ>
inline int radix_digit(const T &v, int shift, int dflip, std::uint64_t base = 0);

// The digit at `shift` of a mapped key u less `base` (the sort's smallest
// key, or 0), flipped by dflip.
template <typename U> inline int range_digit(U u, int shift, int dflip, std::uint64_t base) {
  return static_cast<int>((U(u - U(base)) >> shift) & (kRadixDigits - 1)) ^ dflip;
}

template <typename T, int ZEQ>
inline int radix_digit(const T &v, int shift, int dflip, std::uint64_t base) {
  return range_digit(radix_key<T, ZEQ>(v), shift, dflip, base);
}

// A float key's bits as they are, and its mapped image back to the float
// (for keys that are not NaNs, whose image is not reversible).
template <typename T> inline typename uint_of<sizeof(T)>::type key_bits(const T &v) {
  typename uint_of<sizeof(T)>::type u;
  __builtin_memcpy(&u, &v, sizeof(T));
  return u;
}
template <typename T> inline T unmap_key(typename uint_of<sizeof(T)>::type m) {
  using U = typename uint_of<sizeof(T)>::type;
  constexpr int B = 8 * sizeof(T);
  const U u = U(m ^ U(U(U(m >> (B - 1)) - U(1)) | U(U(1) << (B - 1))));
  T v;
  __builtin_memcpy(&v, &u, sizeof(T));
  return v;
}

// radix_key of L keys of 4 or 8 bytes at once (their bits u), in integer
// operations: float NaNs and zeros found by their bits. `nan` collects the
// lanes that held NaNs.
template <typename T, int ZEQ, int L, typename U = typename uint_of<sizeof(T)>::type>
inline usmk::raw_vec<U, L> radix_key_vec(usmk::raw_vec<U, L> u, usmk::raw_vec<U, L> &nan) {
  using V = usmk::raw_vec<U, L>;
  constexpr int B = 8 * sizeof(T);
  constexpr U sign = U(1) << (B - 1);
  if constexpr (usmk::is_float_v<T>) {
    constexpr U inf = sizeof(T) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull);
    const V mag = u & V(U(~sign));
    const auto is_nan = mag > V(inf);
    nan |= __builtin_bit_cast(V, is_nan);
    V m = u ^ ((V(U(0)) - (u >> (B - 1))) | V(sign));
    if constexpr (ZEQ) m = usmk::vselect<V>(mag == V(U(0)), V(sign), m);
    return usmk::vselect<V>(is_nan, V(U(~U(0))), m);
  } else if constexpr (std::is_signed_v<T>) {
    return u ^ V(sign);
  } else {
    return u;
  }
}

// OR and AND of the mapped keys, whether they have NaNs, their smallest and
// largest: bits[5g .. 5g + 4] per work-item g. And kRadixSample mapped keys
// per work-item, spread evenly over all n, at bits[5G + kRadixSample g]: the
// host's estimate of the leading digit's counts and its table of buckets for
// skewed leading digits (kernels/engine/sort.cpp).
// CPU form (work-groups of one): work-item g takes a contiguous chunk, in
// explicit vectors for 4- and 8-byte keys (the form vectorised across
// work-items ran at a tenth of a read's speed there). Generic form: each
// work-group a contiguous chunk, its work-items striding through it.
constexpr int kRadixSample = 16;
template <typename T, int ZEQ>
USM_KERNEL(1)
void radix_bits(kptr<const T> keys, std::int64_t n, kptr<std::uint64_t> bits) {
  using U = typename uint_of<sizeof(T)>::type;
  auto it = syclext::this_work_item::get_nd_item<1>();
  const std::int64_t g = it.get_global_id(0), G = it.get_global_range(0);
  for (int j = 0; j < kRadixSample; ++j) {
    const std::int64_t s = g * kRadixSample + j, S = G * kRadixSample;
    bits[5 * G + s] = radix_key<T, ZEQ>(keys[(n / S) * s + (n % S) * s / S]);
  }
  const std::int64_t L = it.get_local_range(0), groups = G / L;
  const std::int64_t chunk = (n + groups - 1) / groups, lo = it.get_group(0) * chunk;
  const std::int64_t hi = min64(n, lo + chunk);
  std::uint64_t o = 0, a = ~std::uint64_t(0), nan = 0, mn = ~std::uint64_t(0), mx = 0;
  std::int64_t i = lo + it.get_local_id(0);
  if constexpr (sizeof(T) >= 4 && !std::is_same_v<T, bool>) {
    if (L == 1) {
      constexpr int VL = usm::simd_lanes(sizeof(T));
      using V = usmk::raw_vec<U, VL>;
      V vo = V(U(0)), va = V(U(~U(0))), vn = V(U(0)), vmn = V(U(~U(0))), vmx = V(U(0));
#pragma unroll 1
      for (; i + VL <= hi; i += VL) {
        const V m = radix_key_vec<T, ZEQ, VL>(usmk::load_raw<U, VL>(reinterpret_cast<const U *>(&keys[i])), vn);
        vo |= m;
        va &= m;
        vmn = usmk::vselect<V>(m < vmn, m, vmn);
        vmx = usmk::vselect<V>(m > vmx, m, vmx);
      }
      for (int l = 0; l < VL; ++l) {
        o |= vo[l];
        a &= va[l];
        nan |= vn[l];
        mn = vmn[l] < mn ? vmn[l] : mn;
        mx = vmx[l] > mx ? vmx[l] : mx;
      }
      nan = nan != 0;
    }
  }
  for (; i < hi; i += L) {
    const T v = keys[i];
    const std::uint64_t u = radix_key<T, ZEQ>(v);
    o |= u;
    a &= u;
    mn = u < mn ? u : mn;
    mx = u > mx ? u : mx;
    if constexpr (usmk::is_float_v<T>) nan |= v != v;
  }
  bits[5 * g] = o;
  bits[5 * g + 1] = a;
  bits[5 * g + 2] = nan;
  bits[5 * g + 3] = mn;
  bits[5 * g + 4] = mx;
}

// The rows of a block of a work-group and each work-item's run of it:
// block b of row r holds items [r*n + b*W*items, ...) of its row.
struct RadixBlock {
  std::int64_t r, b, lo, hi;  // row, block in row, the work-item's run [lo, hi)
  int w, W;
};

inline RadixBlock radix_block(std::int64_t n, std::int64_t bpr, std::int64_t items) {
  auto it = syclext::this_work_item::get_nd_item<1>();
  RadixBlock k;
  const std::int64_t grp = it.get_group(0);
  k.w = static_cast<int>(it.get_local_id(0));
  k.W = static_cast<int>(it.get_local_range(0));
  k.r = grp / bpr;
  k.b = grp % bpr;
  const std::int64_t row_end = (k.r + 1) * n;
  const std::int64_t start = k.r * n + (k.b * k.W + k.w) * items;
  k.lo = min64(start, row_end);
  k.hi = min64(start + items, row_end);
  return k;
}

// The digit of a key by a lookup table of its kLutBits bits from `shift` (the
// CPU form's leading pass over skewed keys, kernels/engine/sort.cpp): a
// bucket that grows with the key.
template <typename T, int ZEQ>
inline int lut_digit(const T &v, int shift, int dflip, const std::uint8_t *lut, std::uint64_t base) {
  using U = typename uint_of<sizeof(T)>::type;
  return static_cast<int>(lut[(U(radix_key<T, ZEQ>(v) - U(base)) >> shift) & (kLutSize - 1)]) ^ dflip;
}

// The digits of kDigitChunk keys from `keys` (as read, not mapped), and
// their images when `img`, in explicit vectors: the CPU form's passes then
// only count or move (the per-key mapping, shifts and table lookups ran as
// scalar code, most of a pass's time).
constexpr int kDigitChunk = 256;
template <typename T, int ZEQ, bool LUT>
__attribute__((noinline)) void chunk_digits(const T *keys, int shift, int dflip, const std::uint8_t *lut, std::uint64_t base,
                         std::uint8_t *dig, typename uint_of<sizeof(T)>::type *img) {
  using U = typename uint_of<sizeof(T)>::type;
  constexpr int VL = usm::simd_lanes(sizeof(T));
  using V = usmk::raw_vec<U, VL>;
  V nan = V(U(0));
#pragma unroll 1
  for (int j = 0; j < kDigitChunk; j += VL) {
    const V m = radix_key_vec<T, ZEQ, VL>(usmk::load_raw<U, VL>(reinterpret_cast<const U *>(keys + j)), nan);
    if (img) __builtin_memcpy(img + j, &m, sizeof(V));
    const V r = (m - V(U(base))) >> V(U(shift));
    if constexpr (LUT) {
      for (int l = 0; l < VL; ++l) dig[j + l] = static_cast<std::uint8_t>(lut[r[l] & (kLutSize - 1)] ^ dflip);
    } else {
      const auto d = __builtin_convertvector((r & V(U(kRadixDigits - 1))) ^ V(U(dflip)),
                                             usmk::raw_vec<std::uint8_t, VL>);
      __builtin_memcpy(dig + j, &d, VL);
    }
  }
}

// Keys whose digits chunk_digits takes: 4 and 8 bytes.
template <typename T> constexpr bool kChunkDigits = sizeof(T) >= 4 && !std::is_same_v<T, bool>;

// Each work-item counts its run per digit into its column of `table`
// (digit-major: table[d * W + w]).
// CPU form: `mapped`, the keys hold mapped floats; `lut`, digits by lut_digit.
template <typename T, int ZEQ>
inline void radix_count(const T *keys, const RadixBlock &k, int shift, int dflip,
                        std::uint32_t *table, int mapped = 0, const std::uint8_t *lut = nullptr,
                        std::uint64_t base = 0) {
  if (k.W == 1) {   // the CPU form: a plain counting loop
    for (int d = 0; d < kRadixDigits; ++d) table[d] = 0;
    std::int64_t i = k.lo;
    if constexpr (kChunkDigits<T>) {
      if (!mapped) {
        std::uint8_t dig[kDigitChunk];
        const auto run = [&](auto by_lut) {
          for (; i + kDigitChunk <= k.hi; i += kDigitChunk) {
            chunk_digits<T, ZEQ, decltype(by_lut)::value>(keys + i, shift, dflip, lut, base, dig, nullptr);
            for (int j = 0; j < kDigitChunk; ++j) ++table[dig[j]];
          }
        };
        if (lut) run(std::true_type{});
        else run(std::false_type{});
      }
    }
    if constexpr (sizeof(T) >= 4) {
      if (lut) {
        for (; i < k.hi; ++i) ++table[lut_digit<T, ZEQ>(keys[i], shift, dflip, lut, base)];
        return;
      }
    }
    if constexpr (usmk::is_float_v<T>) {
      if (mapped) {
        for (; i < k.hi; ++i) ++table[range_digit(key_bits(keys[i]), shift, dflip, base)];
        return;
      }
    }
    for (; i < k.hi; ++i) ++table[radix_digit<T, ZEQ>(keys[i], shift, dflip, base)];
    return;
  }
  for (int d = 0; d < kRadixDigits; ++d) table[d * k.W + k.w] = 0;
  for (std::int64_t i = k.lo; i < k.hi; ++i)
    ++table[radix_digit<T, ZEQ>(keys[i], shift, dflip, base) * k.W + k.w];
}

// counts[(r * 256 + d) * bpr + b]: keys of digit d in block b of row r.
template <typename T, int ZEQ>
USM_KERNEL(1)
void radix_hist(kptr<const T> keys, std::int64_t n, std::int64_t bpr, std::int64_t items, int shift,
                int dflip, int mapped, kptr<const std::uint8_t> lut, std::uint64_t base,
                kptr<std::int64_t> counts) {
  auto it = syclext::this_work_item::get_nd_item<1>();
  auto grp = it.get_group();
  static syclexp::work_group_static<std::uint32_t[kRadixDigits * kRadixGroup]> loc;
  std::uint32_t *table = reinterpret_cast<std::uint32_t *>(&loc);
  const RadixBlock k = radix_block(n, bpr, items);
  radix_count<T, ZEQ>(keys, k, shift, dflip, table, mapped, lut, base);
  sycl::group_barrier(grp);
  for (int d = k.w; d < kRadixDigits; d += k.W) {
    std::int64_t s = 0;
    for (int v = 0; v < k.W; ++v) s += table[d * k.W + v];
    counts[(k.r * kRadixDigits + d) * bpr + k.b] = s;
  }
}

// In-place exclusive scan of counts[0, m) by one work-group (T: only names
// the bundle it belongs to).
template <typename T>
USM_KERNEL(1)
void radix_scan(kptr<std::int64_t> counts, std::int64_t m) {
  auto it = syclext::this_work_item::get_nd_item<1>();
  auto grp = it.get_group();
  static syclexp::work_group_static<std::int64_t[1024]> loc;
  std::int64_t *part = reinterpret_cast<std::int64_t *>(&loc);
  const std::int64_t w = it.get_local_id(0), W = it.get_local_range(0);
  const std::int64_t seg = (m + W - 1) / W;
  const std::int64_t lo = min64(m, w * seg), hi = min64(m, lo + seg);
  std::int64_t s = 0;
  for (std::int64_t i = lo; i < hi; ++i) s += counts[i];
  part[w] = s;
  sycl::group_barrier(grp);
  if (w == 0) {
    std::int64_t run = 0;
    for (std::int64_t v = 0; v < W; ++v) {
      const std::int64_t t = part[v];
      part[v] = run;
      run += t;
    }
  }
  sycl::group_barrier(grp);
  std::int64_t run = part[w];
  for (std::int64_t i = lo; i < hi; ++i) {
    const std::int64_t t = counts[i];
    counts[i] = run;
    run += t;
  }
}

// One pass: kin (and iin) to their places in kout (iout) by the digit at
// `shift`; offs is the scanned radix_hist of kin. The first pass has no iin:
// an item's index is its position in its row. CPU form: `mode` (float keys
// without NaNs), bit 0, kin holds mapped keys, bit 1, kout gets them; `lut`
// (kin as read, keys of 4 or 8 bytes), digits by lut_digit.
template <typename T, int IDX>
USM_KERNEL(1)
void radix_scatter(kptr<const T> kin, kptr<const std::int64_t> iin, kptr<T> kout, kptr<std::int64_t> iout,
                   std::int64_t n, std::int64_t bpr, std::int64_t items, int shift, int dflip,
                   int mode, kptr<const std::uint8_t> lut, std::uint64_t kbase,
                   kptr<const std::int64_t> offs) {
  auto it = syclext::this_work_item::get_nd_item<1>();
  auto grp = it.get_group();
  static syclexp::work_group_static<std::uint32_t[kRadixDigits * kRadixGroup]> loc;
  static syclexp::work_group_static<std::int64_t[kRadixDigits]> gloc;
  std::uint32_t *table = reinterpret_cast<std::uint32_t *>(&loc);
  std::int64_t *base = reinterpret_cast<std::int64_t *>(&gloc);
  const RadixBlock k = radix_block(n, bpr, items);
  if (k.W == 1) {   // the CPU form: offs are this work-item's positions already
    std::int64_t pos[kRadixDigits];
    for (int d = 0; d < kRadixDigits; ++d) pos[d] = offs[(k.r * kRadixDigits + d) * bpr + k.b];
    // (a loop per mode: no test per key)
    auto pass = [&](auto in_m, auto out_m, auto by_lut) {
      std::int64_t i = k.lo;
      // (8-byte keys by the table: per key, 15-20% faster than in chunks)
      // (the leading passes of sorts only, floats' writing images: others
      // keep the per-key loop, for the compile time)
      if constexpr (kChunkDigits<T> && !IDX && !decltype(in_m)::value &&
                    usmk::is_float_v<T> == decltype(out_m)::value &&
                    !(sizeof(T) == 8 && decltype(by_lut)::value)) {
        using U = typename uint_of<sizeof(T)>::type;
        constexpr bool OUT_M = decltype(out_m)::value;
        std::uint8_t dig[kDigitChunk];
        U img[OUT_M ? kDigitChunk : 1];
        for (; i + kDigitChunk <= k.hi; i += kDigitChunk) {
          chunk_digits<T, IDX, decltype(by_lut)::value>(&kin[i], shift, dflip, lut, kbase, dig,
                                                        OUT_M ? img : nullptr);
          for (int j = 0; j < kDigitChunk; ++j) {
            const std::int64_t p = pos[dig[j]]++;
            if constexpr (OUT_M) __builtin_memcpy(&kout[p], &img[j], sizeof(T));
            else kout[p] = kin[i + j];
            if constexpr (IDX) iout[p] = iin ? iin[i + j] : i + j - k.r * n;
          }
        }
      }
      for (; i < k.hi; ++i) {
        const T v = kin[i];
        const auto u = in_m ? key_bits(v) : radix_key<T, IDX>(v);
        const auto r = decltype(u)(u - decltype(u)(kbase));   // the key in the sort's range
        int d;
        if constexpr (decltype(by_lut)::value) d = static_cast<int>(lut[(r >> shift) & (kLutSize - 1)]) ^ dflip;
        else d = range_digit(u, shift, dflip, kbase);
        const std::int64_t p = pos[d]++;
        if constexpr (decltype(out_m)::value) {
          __builtin_memcpy(&kout[p], &u, sizeof(T));
        } else if constexpr (decltype(in_m)::value) {
          kout[p] = unmap_key<T>(u);
        } else {
          kout[p] = v;
        }
        if constexpr (IDX) iout[p] = iin ? iin[i] : i - k.r * n;
      }
    };
    using F = std::false_type;
    using Y = std::true_type;
    if constexpr (usmk::is_float_v<T> && !IDX) {
      if (mode == 1) return pass(Y{}, F{}, F{});
      if (mode == 2) return lut ? pass(F{}, Y{}, Y{}) : pass(F{}, Y{}, F{});
      if (mode == 3) return pass(Y{}, Y{}, F{});
    }
    if constexpr (sizeof(T) >= 4) {
      if (lut) return pass(F{}, F{}, Y{});
    }
    pass(F{}, F{}, F{});
    return;
  }
  radix_count<T, IDX>(kin, k, shift, dflip, table, 0, nullptr, kbase);
  sycl::group_barrier(grp);
  for (int d = k.w; d < kRadixDigits; d += k.W) {
    base[d] = offs[(k.r * kRadixDigits + d) * bpr + k.b];
    std::uint32_t run = 0;
    for (int v = 0; v < k.W; ++v) {
      const std::uint32_t t = table[d * k.W + v];
      table[d * k.W + v] = run;
      run += t;
    }
  }
  sycl::group_barrier(grp);
  for (std::int64_t i = k.lo; i < k.hi; ++i) {
    const T v = kin[i];
    const int d = radix_digit<T, IDX>(v, shift, dflip, kbase);
    const std::int64_t p = base[d] + table[d * k.W + k.w]++;
    kout[p] = v;
    if constexpr (IDX) iout[p] = iin ? iin[i] : i - k.r * n;
  }
}

// A key of a run as its digits see it (MAPPED: a float the pass wrote as
// its image, radix_scatter mode 2; else radix_key's image), and as written.
template <typename T, int IDX, bool MAPPED> inline typename uint_of<sizeof(T)>::type run_image(const T &v) {
  if constexpr (MAPPED) return key_bits(v);
  else return radix_key<T, IDX>(v);
}
template <typename T, bool MAPPED> inline T run_value(const T &v) {
  if constexpr (MAPPED) return unmap_key<T>(key_bits(v));
  else return v;
}

// One run of len keys a (and their indices ia; none: positions 0, 1, ...)
// sorted into keys (idx) by a serial LSD radix sort: every digit of the
// bytes in `bytes` counted in one read (a run's counts do not depend on its
// order), the passes whose digit every key shares skipped, the others
// ping-ponging between keys and tk (idx and ti) so that the last writes
// keys. `a` may be tk itself (the run's keys left there by an earlier pass).
// MAPPED: the keys are mapped floats (radix_key's images, radix_scatter
// mode 2), written back as floats by the last pass.
template <typename T, int IDX, bool MAPPED = false>
inline void radix_run(const T *a, const std::int64_t *ia, std::int64_t len, T *keys,
                      std::int64_t *idx, T *tk, std::int64_t *ti, std::uint32_t bytes, int dflip,
                      std::uint64_t base, bool find_base = false) {
  using U = typename uint_of<sizeof(T)>::type;
  constexpr int NP = static_cast<int>(sizeof(T));
  const auto digit = [dflip, &base](const T &v, int shift) {
    return range_digit(run_image<T, IDX, MAPPED>(v), shift, dflip, base);
  };
  const auto value = [](const T &v) { return run_value<T, MAPPED>(v); };
  std::uint32_t cnt[NP][kRadixDigits];
  const auto count = [&]() {
    for (int p = 0; p < NP; ++p)
      for (int d = 0; d < kRadixDigits; ++d) cnt[p][d] = 0;
    for (std::int64_t i = 0; i < len; ++i)
      for (int p = 0; p < NP; ++p)
        if ((bytes >> p) & 1u) ++cnt[p][digit(a[i], kRadixBits * p)];
  };
  count();
  if constexpr (NP > 1 && !MAPPED) {
    // `find_base`: keys of both signs near zero (top digits 0x7F and 0x80
    // only, the sign bits making every byte vary) are counted again less
    // the smallest, when those span fewer bytes (as radix_sort does)
    constexpr int top = NP - 1;
    bool straddle = find_base && cnt[top][0x7F] && cnt[top][0x80];
    for (int d = 0; d < kRadixDigits && straddle; ++d) straddle = !cnt[top][d] || d == 0x7F || d == 0x80;
    if (straddle) {
      U mn = U(~U(0)), mx = 0;
      for (std::int64_t i = 0; i < len; ++i) {
        const U u = radix_key<T, IDX>(a[i]);
        mn = u < mn ? u : mn;
        mx = u > mx ? u : mx;
      }
      const U range = U(mx - mn);
      int rb = 0;
      for (int p = 0; p < NP; ++p) rb = (range >> (8 * p)) & 0xff ? p + 1 : rb;
      if (rb < NP) {
        base = mn;
        bytes = (1u << rb) - 1;
        count();
      }
    }
  }
  std::uint32_t run_passes = 0;
  int P = 0;
  for (int p = 0; p < NP; ++p)
    if (((bytes >> p) & 1u) && cnt[p][digit(a[0], kRadixBits * p)] != static_cast<std::uint32_t>(len)) {
      run_passes |= 1u << p;
      ++P;
    }
  if (P == 0) {   // in order already
    for (std::int64_t i = 0; i < len; ++i) {
      keys[i] = value(a[i]);
      if constexpr (IDX) idx[i] = ia ? ia[i] : i;
    }
    return;
  }
  if (a == tk && P % 2 == 0) {
    // an even number of passes from tk, whose first would write where it
    // reads: the keys go to keys first
    for (std::int64_t i = 0; i < len; ++i) {
      keys[i] = a[i];
      if constexpr (IDX) idx[i] = ia ? ia[i] : i;
    }
    a = keys;
    ia = IDX ? idx : nullptr;
  }
  // one pass: by the digit at shift from a (ia) to b (ib); `last` writes values
  const auto pass = [&](int shift, std::uint32_t *c, T *b, std::int64_t *ib, auto last) {
    for (std::int64_t i = 0; i < len; ++i) {
      const T v = a[i];
      const std::uint32_t q = c[digit(v, shift)]++;
      if constexpr (decltype(last)::value) b[q] = value(v);
      else b[q] = v;
      if constexpr (IDX) ib[q] = ia ? ia[i] : i;
    }
  };
  int j = 0;
  for (int p = 0; p < NP; ++p) {
    if (!((run_passes >> p) & 1u)) continue;
    const bool last_parity = ((P - 1 - j) & 1) == 0;
    T *b = last_parity ? keys : tk;
    std::int64_t *ib = IDX ? (last_parity ? idx : ti) : nullptr;
    std::uint32_t acc = 0;
    for (int d = 0; d < kRadixDigits; ++d) {
      const std::uint32_t t = cnt[p][d];
      cnt[p][d] = acc;
      acc += t;
    }
    if (MAPPED && j == P - 1) pass(kRadixBits * p, cnt[p], b, ib, std::true_type{});
    else pass(kRadixBits * p, cnt[p], b, ib, std::false_type{});
    a = b;
    ia = ib;
    ++j;
  }
}

// A run of 4- or 8-byte keys a sorted into keys, tk a temporary (a may be
// tk or keys). Sort only (no indices). radix_segments' CPU form, on a
// segment of one leading digit: the run and its counts stay in the core's
// caches. One read finds the range of the keys' images (radix_key less
// `base`; mapped floats as unsigned integers, radix_segments); runs that
// vary in up to kLsdMaxPasses digits of kLsdBits take an LSD radix
// sort (radix_lsd_wide). Others (8-byte keys of wide ranges) take one MSD
// pass by the top digit of kMsdBits or fewer, to about half a key per bucket
// (runs of more than kMsdLevel keys first split by 8 bits, so that each part
// is that short), the few buckets of more than kInsertMax keys an LSD sort,
// then one insertion pass over the nearly sorted run: about four key moves
// per key instead of six (measured with g++ on the host as in the kernel:
// 20-30% faster for keys varying in 55-64 bits, slower below 48).
constexpr int kLsdBits = 12, kLsdMaxPasses = 3, kMsdBits = 14, kMsdLevel = 16384, kInsertMax = 32;

// The run's keys as radix_run_wide orders them: images less base, all bits
// flipped for descending sorts, less `low`.
template <typename T> struct WideImage {
  using U = typename uint_of<sizeof(T)>::type;
  U base, flip, low;
  U operator()(const T &v) const { return U(U(U(radix_key<T, 0>(v) - base) ^ flip) - low); }
};

template <typename U> inline int high_bits(U v) {
  return v == 0 ? 0 : 64 - __builtin_clzll(static_cast<unsigned long long>(v));
}

// The images of a run from its smallest key: digits from the top of the
// run's range spread over its keys (the bits that differ between keys
// would include those of a boundary the range crosses: a segment of the
// table's buckets spanning prefixes 0x1ff to 0x201 differs in ten bits
// of its prefix, and the top digits of most of its keys were alike).
// `bits`: those of the range.
template <typename T>
inline WideImage<T> wide_range(const T *a, std::int64_t len, const WideImage<T> &image, int &bits) {
  using U = typename uint_of<sizeof(T)>::type;
  U mn = U(~U(0)), mx = 0;
  for (std::int64_t i = 0; i < len; ++i) {
    const U u = image(a[i]);
    mn = u < mn ? u : mn;
    mx = u > mx ? u : mx;
  }
  bits = high_bits(U(mx - mn));
  return {image.base, image.flip, U(image.low + mn)};
}

// The widest digit of an LSD pass over len keys: at most kLsdBits, and
// fewer for short runs, whose counts would cost more than their keys.
inline int lsd_width(std::int64_t len) {
  int w = 4;
  while (w < kLsdBits && (std::int64_t(2) << w) <= len) ++w;
  return w;
}

// len keys from a to keys (nothing when they are the same).
template <typename T> inline void wide_copy(const T *a, std::int64_t len, T *keys) {
  if (a != keys)
    for (std::int64_t i = 0; i < len; ++i) keys[i] = a[i];
}

// LSD radix sort of a (len keys varying in the low `bits` bits of their
// images) into keys: P passes by digits of ceil(bits / P) bits, at most
// lsd_width(len), every digit counted in one more read when their counts fit,
// else each before its pass.
template <typename T>
__attribute__((noinline)) inline void radix_lsd_wide(const T *a, std::int64_t len, T *keys, T *tk, const WideImage<T> &image,
                           int bits) {
  using U = typename uint_of<sizeof(T)>::type;
  constexpr int kCounts = 2 << kLsdBits;
  if (bits == 0) return wide_copy<T>(a, len, keys);
  const int wmax = lsd_width(len), P = (bits + wmax - 1) / wmax, w = (bits + P - 1) / P;
  const U mask = (U(1) << w) - 1;
  const auto digit = [&](const T &v, int shift) { return static_cast<std::uint32_t>((image(v) >> shift) & mask); };
  // digit p's counts at cnt + p * 2^w when all fit, else at cnt
  const bool at_once = (std::uint32_t(P) << w) <= std::uint32_t(kCounts);
  std::uint32_t cnt[kCounts];
  const auto count = [&](int p0, int p1) {
    for (std::uint32_t d = 0; d < (std::uint32_t(p1 - p0) << w); ++d) cnt[d] = 0;
    for (std::int64_t i = 0; i < len; ++i)
      for (int p = p0; p < p1; ++p) ++cnt[(std::uint32_t(p - p0) << w) + digit(a[i], w * p)];
  };
  if (at_once) count(0, P);
  // the first pass must not write where it reads
  T *first_out = (P & 1) ? keys : tk;
  if (a == first_out) {
    T *other = a == keys ? tk : keys;
    wide_copy<T>(a, len, other);
    a = other;
  }
  for (int p = 0; p < P; ++p) {
    T *b = ((P - 1 - p) & 1) == 0 ? keys : tk;
    if (!at_once) count(p, p + 1);
    std::uint32_t *c = cnt + (at_once ? std::uint32_t(p) << w : 0), acc = 0;
    for (std::uint32_t d = 0; d <= std::uint32_t(mask); ++d) {
      const std::uint32_t t = c[d];
      c[d] = acc;
      acc += t;
    }
    const int shift = w * p;
    for (std::int64_t i = 0; i < len; ++i) b[c[digit(a[i], shift)]++] = a[i];
    a = b;
  }
}

// One MSD pass: a to out by the w bits of the images from `shift`; end[d]
// then is where bucket d ends.
template <typename T>
__attribute__((noinline)) inline void wide_msd_pass(const T *a, std::int64_t len, T *out, const WideImage<T> &image, int shift,
                          int w, std::uint32_t *end) {
  using U = typename uint_of<sizeof(T)>::type;
  const U mask = (U(1) << w) - 1;
  const auto digit = [&](const T &v) { return static_cast<std::uint32_t>((image(v) >> shift) & mask); };
  for (std::uint32_t d = 0; d <= std::uint32_t(mask); ++d) end[d] = 0;
  for (std::int64_t i = 0; i < len; ++i) ++end[digit(a[i])];
  std::uint32_t acc = 0;
  for (std::uint32_t d = 0; d <= std::uint32_t(mask); ++d) {
    const std::uint32_t t = end[d];
    end[d] = acc;
    acc += t;
  }
  for (std::int64_t i = 0; i < len; ++i) out[end[digit(a[i])]++] = a[i];
}

// A run of at most about kMsdLevel keys into keys (see radix_run_wide);
// `bits`: those that vary.
template <typename T>
__attribute__((noinline)) inline void radix_run_msd(const T *a, std::int64_t len, T *keys, T *tk, const WideImage<T> &image,
                          int bits) {
  using U = typename uint_of<sizeof(T)>::type;
  const int wmax = lsd_width(len);
  if (sizeof(T) < 8 || (bits + wmax - 1) / wmax <= kLsdMaxPasses || len <= 2 * kInsertMax)
    return radix_lsd_wide<T>(a, len, keys, tk, image, bits);
  if constexpr (sizeof(T) == 8) {   // (4-byte keys never get here)
    int w = 1;
    while (w < kMsdBits && (std::int64_t(1) << w) < 2 * len) ++w;
    std::uint32_t end[1 << kMsdBits];
    if (a == keys) {
      wide_copy<T>(a, len, tk);
      a = tk;
    }
    wide_msd_pass<T>(a, len, keys, image, bits - w, w, end);
    // buckets of many keys (sharing the digit and the bits above) sorted by
    // their images' lower bits; the insertion pass compares images
    std::int64_t lo = 0;
    for (std::uint32_t d = 0; d < (1u << w); ++d) {
      const std::int64_t hi = end[d];
      if (hi - lo > kInsertMax) {
        int b;
        const auto bimage = wide_range<T>(keys + lo, hi - lo, image, b);
        radix_lsd_wide<T>(keys + lo, hi - lo, keys + lo, tk + lo, bimage, b);
      }
      lo = hi;
    }
    for (std::int64_t i = 1; i < len; ++i) {
      const T v = keys[i];
      const U u = image(v);
      std::int64_t j = i;
      for (; j > 0 && image(keys[j - 1]) > u; --j) keys[j] = keys[j - 1];
      keys[j] = v;
    }
  }
}

// `lowbits`: the bits below a leading digit all keys share (no read for
// the range), or 0.
template <typename T>
__attribute__((noinline)) inline void radix_run_wide_all(const T *a, std::int64_t len, T *keys, T *tk, int dflip, std::uint64_t base,
                               int lowbits) {
  using U = typename uint_of<sizeof(T)>::type;
  const WideImage<T> whole{U(base), dflip ? U(~U(0)) : U(0), U(0)};
  int bits = lowbits;
  const auto image = lowbits ? whole : wide_range<T>(a, len, whole, bits);
  if (len <= kMsdLevel || sizeof(T) < 8 || bits <= kLsdBits * kLsdMaxPasses)
    return radix_run_msd<T>(a, len, keys, tk, image, bits);
  // long runs: split by the top 8 bits first
  std::uint32_t end[256];
  if (a == keys) {
    wide_copy<T>(a, len, tk);
    a = tk;
  }
  wide_msd_pass<T>(a, len, keys, image, bits - 8, 8, end);
  std::int64_t lo = 0;
  for (int d = 0; d < 256; ++d) {
    const std::int64_t hi = end[d];
    if (hi > lo) {
      int b;
      const auto part = wide_range<T>(keys + lo, hi - lo, image, b);
      radix_run_msd<T>(keys + lo, hi - lo, keys + lo, tk + lo, part, b);
    }
    lo = hi;
  }
}

// How many keys of src[lo, hi) come before `key` and are equal to it, by
// their images.
template <typename T, class I, typename U>
inline void count_by_key(const T *src, std::int64_t lo, std::int64_t hi, const I &image, U key,
                         std::int64_t &before, std::int64_t &same) {
  for (std::int64_t i = lo; i < hi; ++i) {
    const U u = image(src[i]);
    before += u < key;
    same += u == key;
  }
}

// The keys of src[lo, hi) in order: those before `key` to bout from bp on,
// its copies to sout from sp, the others to aout from ap. No branch per key:
// with keys of both kinds interleaved, branches mispredicted at every other
// key.
template <typename T, class I, typename U>
inline void move_by_key(const T *src, std::int64_t lo, std::int64_t hi, const I &image, U key, T *bout,
                        std::int64_t bp, T *sout, std::int64_t sp, T *aout, std::int64_t ap) {
  for (std::int64_t i = lo; i < hi; ++i) {
    const T v = src[i];
    const U u = image(v);
    const bool same = u == key, before = u < key;
    *(same ? &sout[sp] : before ? &bout[bp] : &aout[ap]) = v;
    sp += same;
    bp += before;
    ap += !same && !before;
  }
}

// A long run of which one key makes most (sampled: kDominantSample keys):
// the keys before it, its copies and those after it to their places in
// keys (one read to count, one to move), and the first and last parts
// sorted. Without such a key: radix_run_wide_all. (A segment of sparse
// data's zeros was sorted by every bit of its few other keys, on one core.)
constexpr int kDominantSample = 63;
template <typename T>
inline void radix_run_wide(const T *a, std::int64_t len, T *keys, T *tk, int dflip, std::uint64_t base,
                           int lowbits) {
  using U = typename uint_of<sizeof(T)>::type;
  const WideImage<T> whole{U(base), dflip ? U(~U(0)) : U(0), U(0)};
  if (len > kMsdLevel) {
    U key = 0;
    int most = 0;
    for (int x = 0; x < kDominantSample; ++x) {
      const U u = whole(a[len * x / kDominantSample]);
      int c = 0;
      for (int y = 0; y < kDominantSample; ++y) c += whole(a[len * y / kDominantSample]) == u;
      if (c > most) {
        most = c;
        key = u;
      }
    }
    if (2 * most > kDominantSample) {
      std::int64_t before = 0, same = 0;
      count_by_key(a, 0, len, whole, key, before, same);
      if (a == keys) {
        wide_copy<T>(a, len, tk);
        a = tk;
      }
      const std::int64_t after = before + same;
      move_by_key(a, 0, len, whole, key, keys, 0, keys, before, keys, after);
      if (before > 0) radix_run_wide_all<T>(keys, before, keys, tk, dflip, base, lowbits);
      if (len > after) radix_run_wide_all<T>(keys + after, len - after, keys + after, tk + after, dflip, base, lowbits);
      return;
    }
  }
  radix_run_wide_all<T>(a, len, keys, tk, dflip, base, lowbits);
}

// A row of 8-byte integers or float32 sorted (not argsorted) by
// radix_run_wide, as the segments are: integers as they are, floats as
// their images (mapped into tk, sorted as unsigned integers, mapped back).
// False, nothing written, for floats with NaNs, whose images do not map
// back. Not for int32 (its 32 bits take four passes either way: 1000 x 2000
// full-range keys 4.7 -> 6.7 ms) nor float64 (normal samples' images vary
// in most bits, unevenly: the top digit's buckets are a few large ones, and
// 200 x 6400 keys took 10.3 -> 14.7 ms; uniform ones gained 1.6x).
template <typename T>
constexpr bool row_wide_v = (sizeof(T) == 8 && !usmk::is_float_v<T>) || std::is_same_v<T, float>;
template <typename T>
inline bool radix_row_wide(const T *a, std::int64_t n, T *keys, T *tk, int dflip) {
  if constexpr (usmk::is_float_v<T>) {
    using U = typename uint_of<sizeof(T)>::type;
    U *tu = reinterpret_cast<U *>(tk), *ku = reinterpret_cast<U *>(keys);
    bool nan = false;
    for (std::int64_t i = 0; i < n; ++i) {
      nan |= a[i] != a[i];
      tu[i] = radix_key<T, 0>(a[i]);
    }
    if (nan) return false;
    radix_run_wide<U>(tu, n, ku, tu, dflip, 0, 0);
    for (std::int64_t i = 0; i < n; ++i) keys[i] = unmap_key<T>(ku[i]);
  } else {
    radix_run_wide<T>(a, n, keys, tk, dflip, 0, 0);
  }
  return true;
}

// CPU form for many rows, or for rows short enough for one core: work-item
// g of G sorts a run of rows of src (radix_run; sorts of 8-byte integers
// and float32 by wide digits, radix_row_wide), with the row's temporaries
// in tk (ti). One launch, no pass over all keys before it. Work-groups of
// one work-item: the compiler builds no loop vectorised across work-items,
// the body runs as written.
template <typename T, int IDX>
USM_KERNEL(1)
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::work_group_size<1>))
void radix_rows(kptr<const T> src, kptr<T> keys, kptr<std::int64_t> idx, kptr<T> tk, kptr<std::int64_t> ti,
                std::int64_t rows, std::int64_t n, int dflip) {
  const RowRun run(rows);
  for (std::int64_t r = run.lo; r < run.hi; ++r) {
    if constexpr (row_wide_v<T> && !IDX) {
      if (radix_row_wide<T>(src + r * n, n, keys + r * n, tk + r * n, dflip)) continue;
    }
    radix_run<T, IDX>(src + r * n, nullptr, n, keys + r * n, IDX ? idx + r * n : nullptr, tk + r * n,
                      IDX ? ti + r * n : nullptr, (1u << sizeof(T)) - 1, dflip, 0, true);
  }
}

// CPU form of long rows, after one pass by their most significant digit
// (kernels/engine/sort.cpp): the keys (and indices) sit in tk (ti) in
// segments of one leading digit, segment g starting at offs[g * bpr] (the
// scanned radix_hist of that pass; the last ends at N). Work-items take runs
// of segments and sort each by the digits of `bytes` (radix_run; sorts of
// 4- and 8-byte keys by digits of up to 12 bits, radix_run_wide): segments of a few
// thousand keys, sorted in the cache. `mapped`: float keys the pass wrote
// mapped (radix_scatter mode 2). `lowbits`: the bits below the leading
// digit (segments of one digit), 0 for segments of the table's buckets.
template <typename T, int IDX>
USM_KERNEL(1)
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::work_group_size<1>))
void radix_segments(kptr<T> tk, kptr<std::int64_t> ti, kptr<T> keys, kptr<std::int64_t> idx,
                    kptr<const std::int64_t> offs, std::int64_t bpr, std::int64_t nseg,
                    std::int64_t N, std::uint32_t bytes, int dflip, int mapped, std::uint64_t base,
                    int lowbits) {
  const RowRun run(nseg);
  for (std::int64_t g = run.lo; g < run.hi; ++g) {
    const std::int64_t lo = offs[g * bpr], hi = g + 1 < nseg ? offs[(g + 1) * bpr] : N;
    if (hi <= lo) continue;
    if constexpr (sizeof(T) >= 4 && !IDX) {
      // (sorts of 2e6 int32 / float32 keys: 15-25% faster than by bytes)
      if constexpr (usmk::is_float_v<T>) {
        if (mapped) {
          // the images sorted as unsigned integers, then mapped back: moved
          // as floats, they went through the vector registers (2e7 float64
          // keys: segments 50% slower than the same bits as int64). Floats
          // with NaNs (several rows: one row's NaNs are split off first,
          // kernels/engine/sort.cpp) go by bytes, below: radix_run_wide
          // compiled for the float type too took a second to compile.
          using U = typename uint_of<sizeof(T)>::type;
          U *ku = reinterpret_cast<U *>(&keys[0]);
          radix_run_wide<U>(reinterpret_cast<U *>(&tk[0]) + lo, hi - lo, ku + lo,
                            reinterpret_cast<U *>(&tk[0]) + lo, dflip, base, lowbits);
          for (std::int64_t i = lo; i < hi; ++i) keys[i] = unmap_key<T>(ku[i]);
          continue;
        }
      } else {
        radix_run_wide<T>(tk + lo, hi - lo, keys + lo, tk + lo, dflip, base, lowbits);
        continue;
      }
    }
    if constexpr (usmk::is_float_v<T> && !IDX) {
      if (mapped) {
        radix_run<T, IDX, true>(tk + lo, nullptr, hi - lo, keys + lo, nullptr, tk + lo, nullptr, bytes,
                                dflip, base);
        continue;
      }
    }
    radix_run<T, IDX>(tk + lo, IDX ? ti + lo : nullptr, hi - lo, keys + lo, IDX ? idx + lo : nullptr,
                      tk + lo, IDX ? ti + lo : nullptr, bytes, dflip, base);
  }
}

// A three-way split of a row by one key, for CPU-form sorts of 4- and
// 8-byte keys where that key makes most of the row (sparse data's zeros):
// the keys before it and after it to tmp, its copies to keys, in place, so
// that only the others are sorted (kernels/engine/sort.cpp). Work-item b
// takes the keys [b * items, (b + 1) * items). Phase 0 counts its keys
// before `key` and equal to it into pos[3b] and pos[3b + 1]; phase 1 moves
// them to the positions the host then wrote to pos[3b .. 3b + 2]. Keys and
// `key` are radix_key images less `base`, flipped for descending sorts.
template <typename T>
USM_KERNEL(1)
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::work_group_size<1>))
void radix_split(kptr<const T> src, std::int64_t n, std::int64_t items, std::uint64_t key, std::uint64_t base,
                 int dflip, int phase, kptr<std::int64_t> pos, kptr<T> tmp, kptr<T> keys) {
  using U = typename uint_of<sizeof(T)>::type;
  auto it = syclext::this_work_item::get_nd_item<1>();
  const std::int64_t b = it.get_group(0), lo = b * items, hi = min64(n, lo + items);
  const WideImage<T> image{U(base), dflip ? U(~U(0)) : U(0), U(0)};
  const U k = U(key);
  if (phase == 0) {
    std::int64_t before = 0, same = 0;
    count_by_key(&src[0], lo, hi, image, k, before, same);
    pos[3 * b] = before;
    pos[3 * b + 1] = same;
    return;
  }
  move_by_key(&src[0], lo, hi, image, k, &tmp[0], pos[3 * b], &keys[0], pos[3 * b + 1], &tmp[0], pos[3 * b + 2]);
}

// ------------------------------------------------------------- unique
// Groups of equal values in a sorted s[0, n): a group starts where the value
// changes (NaN != NaN: each NaN is its own group). Work-item j of B takes
// items [j * items, (j + 1) * items).
template <typename T> inline bool group_start(const T *s, std::int64_t i) {
  return i == 0 || s[i] != s[i - 1];
}

// offs[j] = group starts in block j; offs[B] = 0 (radix_scan then makes
// offs[j] the number of groups before block j and offs[B] their total).
template <typename T>
USM_KERNEL(1)
void unique_count(kptr<const T> s, std::int64_t n, std::int64_t items, std::int64_t B,
                  kptr<std::int64_t> offs) {
  const std::int64_t j = usmk::linear_id();
  if (j == 0) offs[B] = 0;
  if (j >= B) return;
  const std::int64_t lo = j * items, hi = min64(n, lo + items);
  std::int64_t c = 0;
  for (std::int64_t i = lo; i < hi; ++i) c += group_start<T>(s, i);
  offs[j] = c;
}

// vals[g] = the value of group g; pos[g] (when pos) = where it starts in s;
// INV: inv[order[i]] = the group of s[i].
template <typename T, int INV>
USM_KERNEL(1)
void unique_scatter(kptr<const T> s, std::int64_t n, std::int64_t items, std::int64_t B,
                    kptr<const std::int64_t> offs, kptr<T> vals, kptr<std::int64_t> pos,
                    kptr<const std::int64_t> order, kptr<std::int64_t> inv) {
  const std::int64_t j = usmk::linear_id();
  if (j >= B) return;
  const std::int64_t lo = j * items, hi = min64(n, lo + items);
  std::int64_t g = offs[j] - 1;
  for (std::int64_t i = lo; i < hi; ++i) {
    if (group_start<T>(s, i)) {
      ++g;
      vals[g] = s[i];
      if (pos) pos[g] = i;
    }
    if constexpr (INV) inv[order[i]] = g;
  }
}

// out[i] = (v[i] occurs in the sorted s[0, m)) != invert, m >= 1: a
// branch-free lower bound (the same steps for every item, so a CPU runtime
// vectorises it across work-items), then one comparison (NaN equals nothing).
template <typename T>
USM_KERNEL(1)
void isin_sorted(kptr<const T> s, std::int64_t m, kptr<const T> v, std::int64_t n, kptr<bool> out, int invert) {
  const std::int64_t i = usmk::linear_id();
  if (i >= n) return;
  const T x = v[i];
  const T *base = s;
  for (std::int64_t len = m; len > 1;) {
    const std::int64_t half = len / 2;
    base = sorts_before(base[half - 1], x) ? base + half : base;
    len -= half;
  }
  base += sorts_before(*base, x);
  out[i] = (base < s + m && *base == x) != (invert != 0);
}

// ------------------------------------------------------------- sorting networks
// The networks sort the bits U of keys of one size for every type of that
// size (one instantiation per size, not per type: they were a sixth of the
// compile time of all kernels), told by `kind` how the bits order.
enum : int { kKeyUnsigned = 0, kKeySigned = 1, kKeyFloat = 2 };

// The bits of +inf for the float type of U's size.
template <typename U> constexpr U inf_bits() {
  return sizeof(U) == 2 ? U(0x7C00) : sizeof(U) == 4 ? U(0x7F800000u) : U(0x7FF0000000000000ull);
}

// radix_key of a key of `kind` given as its bits (ZEQ: argsort of floats).
template <typename U> inline U image_of(U u, int kind, int zeq) {
  constexpr int B = 8 * sizeof(U);
  constexpr U sign = U(U(1) << (B - 1));
  if (kind == kKeySigned) return U(u ^ sign);
  if (kind != kKeyFloat || sizeof(U) == 1) return u;
  const U mag = U(u & U(~sign));
  U m = U(u ^ U(U(U(0) - U(u >> (B - 1))) | sign));
  if (zeq && mag == 0) m = sign;
  return mag > inf_bits<U>() ? U(~U(0)) : m;
}

// Rows of at most N (8, 16 or 32; 8-byte keys 8 or 16) keys: a work-item per row sorts them in
// registers with a bitonic network, branch-free compare-exchanges at
// indices fixed at compile time, so a CPU runtime vectorises it across
// work-items (rows) and a GPU runs a row per lane: one launch, each key read
// once and written once. The network compares (mapped key, position in the
// row): the mapped keys order as the radix sort's (NaNs last, -0.0 before
// +0.0 for sort, equal for argsort; complemented for descending sorts) and
// the positions make it stable. Rows shorter than N are padded with the
// largest pair; results are gathered from the row by position, so values
// (NaN payloads included) are written as read.
template <typename T, int ZEQ, bool Packed = (sizeof(T) <= 4)> struct NetKey {
  // key in the high bits, position in the low 8
  using type = std::uint64_t;
  static type make(const T &v, int i, int desc, int kind) {
    std::uint64_t u = image_of<T>(v, kind, ZEQ);
    if (desc) u = ~u & ((std::uint64_t(1) << (8 * sizeof(T))) - 1);
    return (u << 8) | std::uint64_t(i);
  }
  static type pad() { return ~std::uint64_t(0); }
  static int pos(const type &k) { return static_cast<int>(k & 255u); }
  static void cx(type &a, type &b) {
    const type lo = a < b ? a : b, hi = a < b ? b : a;
    a = lo;
    b = hi;
  }
};
template <typename T, int ZEQ> struct NetKey<T, ZEQ, false> {
  struct type {
    std::uint64_t u;
    std::uint32_t i;
  };
  static type make(const T &v, int i, int desc, int kind) {
    const std::uint64_t u = image_of<T>(v, kind, ZEQ);
    return {desc ? ~u : u, static_cast<std::uint32_t>(i)};
  }
  static type pad() { return {~std::uint64_t(0), ~std::uint32_t(0)}; }
  static int pos(const type &k) { return static_cast<int>(k.i); }
  static void cx(type &a, type &b) {
    const bool sw = (b.u < a.u) | ((b.u == a.u) & (b.i < a.i));
    const type lo = sw ? b : a, hi = sw ? a : b;
    a = lo;
    b = hi;
  }
};

template <typename T, int IDX, int N>
USM_KERNEL(1)
void sort_net(kptr<const T> src, kptr<T> keys, kptr<std::int64_t> idx, std::int64_t rows, std::int64_t n,
              int desc, int kind) {
  using NK = NetKey<T, IDX>;
  // work-item g sorts chunk c of row r (a row of n > N keys: the merge
  // passes take the sorted chunks on)
  const std::int64_t nch = (n + N - 1) / N, g = usmk::linear_id();
  if (g >= rows * nch) return;
  const std::int64_t r = g / nch, lo = (g % nch) * N, len = min64(N, n - lo);
  const T *row = src + r * n + lo;
  typename NK::type a[N];
#pragma unroll
  for (int j = 0; j < N; ++j) a[j] = j < len ? NK::make(row[j], j, desc, kind) : NK::pad();
#pragma unroll
  for (int k = 2; k <= N; k *= 2) {
#pragma unroll
    for (int j = k / 2; j > 0; j /= 2) {
#pragma unroll
      for (int i = 0; i < N; ++i) {
        const int l = i ^ j;
        if (l > i) {
          if ((i & k) == 0) NK::cx(a[i], a[l]);
          else NK::cx(a[l], a[i]);
        }
      }
    }
  }
#pragma unroll
  for (int j = 0; j < N; ++j) {
    if (j < len) {
      const int p = NK::pos(a[j]);
      keys[r * n + lo + j] = row[p];
      if constexpr (IDX) idx[r * n + lo + j] = lo + p;
    }
  }
}

// ------------------------------------------------------------- vector networks
// CPU devices (KernelCache.simd), argsort of rows of up to kVecNetMax keys
// (sorts take sort_cols, below): a work-item sorts a whole row with a
// bitonic network written in explicit 256-bit vectors, the way SIMD sort
// libraries do it: compare-exchanges between whole vectors where the
// partners are a vector apart or more, and within a vector (a shuffle, min,
// max and a blend with masks fixed at compile time) below that. The row is
// padded to a power of two with the largest key. Keys are the radix sort's
// unsigned images (radix_key, computed on whole vectors), compared with
// their positions: packed as image << 32 | position in one 64-bit lane for
// keys of up to 4 bytes, in two vectors for 8-byte keys; the positions make
// it stable. Every NaN maps to the largest image. (The runtime's own
// vectorisation, across work-items, needs a gather per key: this form loads
// and stores whole vectors of one row.)
constexpr int kVecNetMax = 1024;

template <typename T> struct VecNet {
  using UT = typename uint_of<sizeof(T)>::type;              // the key's image
  using U = std::uint64_t;                                   // (image, position) lanes
  static constexpr int W = 32 / static_cast<int>(sizeof(U));  // lanes
  using V = usmk::raw_vec<U, W>;
  using VT = usmk::raw_vec<UT, W>;
  using M = decltype(V() < V());  // lane masks
  // 8-byte keys: (image, position) in two vectors, compared in that order;
  // else one vector (the position in the low bits)
  static constexpr bool kPair = sizeof(T) == 8;
  struct Pair {
    V k, p;
  };
  using I = std::conditional_t<kPair, Pair, V>;
  static V select(const M &m, const V &a, const V &b) {  // m ? a : b
    return __builtin_bit_cast(V, (__builtin_bit_cast(M, a) & m) | (__builtin_bit_cast(M, b) & ~m));
  }
  // whether a sorts strictly before b, lane by lane
  static M before(const Pair &a, const Pair &b) {
    return (a.k < b.k) | ((a.k == b.k) & (a.p < b.p));
  }
  static constexpr int B = 8 * static_cast<int>(sizeof(T));
  static constexpr UT kSign = UT(UT(1) << (B - 1));

  // images of W keys (radix_key<T, 1> on a vector: -0.0 equal to +0.0)
  static VT image(const T *p, int kind) {
    VT u;
    __builtin_memcpy(&u, p, sizeof(VT));
    if (kind == kKeyFloat && sizeof(T) > 1) {
      const VT mag = u & VT(UT(~kSign));
      const VT isnan = (VT)(mag > VT(inf_bits<UT>()));
      VT k = u ^ ((VT)(VT(0) - (u >> (B - 1))) | VT(kSign));
      const VT z = (VT)(mag == VT(0));
      k = (k & ~z) | (VT(kSign) & z);
      return k | isnan;
    }
    if (kind == kKeySigned) return u ^ VT(kSign);
    return u;
  }

  static V min(const V &a, const V &b) { return __builtin_elementwise_min(a, b); }
  static V max(const V &a, const V &b) { return __builtin_elementwise_max(a, b); }

  // one in-vector stage: lane l meets lane l ^ J; it keeps the smaller
  // unless its pair sorts downwards (K: direction alternating every K lanes;
  // K = 0: the whole vector ascending if ASC)
  template <int J, int K, bool ASC, std::size_t... L>
  static I stage(const I &x, std::index_sequence<L...>) {
    if constexpr (kPair) {
      // a lane takes its partner's item when that one belongs there
      const Pair q{__builtin_shufflevector(x.k, x.k, static_cast<int>(L ^ J)...),
                   __builtin_shufflevector(x.p, x.p, static_cast<int>(L ^ J)...)};
      const M keep_min{((((L & J) == 0) == (K ? ((L & K) == 0) : ASC)) ? -1 : 0)...};
      const M take = (before(q, x) & keep_min) | (before(x, q) & ~keep_min);
      return Pair{select(take, q.k, x.k), select(take, q.p, x.p)};
    } else {
      const V p = __builtin_shufflevector(x, x, static_cast<int>(L ^ J)...);
      const V mn = min(x, p), mx = max(x, p);
      return __builtin_shufflevector(
          mn, mx,
          static_cast<int>((((L & J) == 0) == (K ? ((L & K) == 0) : ASC)) ? L : L + W)...);
    }
  }
  template <int J, int K, bool ASC> static I stage(const I &x) {
    return stage<J, K, ASC>(x, std::make_index_sequence<W>{});
  }
  // the merge stages J = W/2 .. 1 of a vector that sorts ASC
  template <bool ASC> static I merge(I x) {
    if constexpr (W == 8) x = stage<4, 0, ASC>(x);
    x = stage<2, 0, ASC>(x);
    return stage<1, 0, ASC>(x);
  }
  // the bitonic stages with K < W, and the K = W stage (alternating vectors)
  template <bool ASC> static I sort(I x) {
    x = stage<1, 2, true>(x);
    if constexpr (W == 8) {
      x = stage<2, 4, true>(x);
      x = stage<1, 4, true>(x);
    }
    return merge<ASC>(x);
  }

  // Blocks of BV vectors go through their stages in registers: a block
  // sorted whole (all stages with K <= BV * W, sorting ASC), or the stages
  // with J < BV * W of a later K (merging ASC). Only the stages with
  // partners a block apart or more go through memory.
  static constexpr int BV = 4;
  static void cx(I &a, I &b, bool asc) {
    I lo, hi;
    if constexpr (kPair) {
      const M m = before(b, a);
      lo = Pair{select(m, b.k, a.k), select(m, b.p, a.p)};
      hi = Pair{select(m, a.k, b.k), select(m, a.p, b.p)};
    } else {
      lo = min(a, b);
      hi = max(a, b);
    }
    a = asc ? lo : hi;
    b = asc ? hi : lo;
  }
  template <bool ASC> static void sort_block(I *v) {
    I r[BV];
#pragma unroll
    for (int a = 0; a < BV; ++a) r[a] = (a & 1) ? sort<false>(v[a]) : sort<true>(v[a]);
#pragma unroll
    for (int kv = 2; kv <= BV; kv *= 2) {
#pragma unroll
      for (int jv = kv / 2; jv >= 1; jv /= 2)
#pragma unroll
        for (int a = 0; a < BV; ++a)
          if (!(a & jv)) cx(r[a], r[a + jv], kv == BV ? ASC : (a & kv) == 0);
#pragma unroll
      for (int a = 0; a < BV; ++a) {
        const bool asc = kv == BV ? ASC : (a & kv) == 0;
        r[a] = asc ? merge<true>(r[a]) : merge<false>(r[a]);
      }
    }
#pragma unroll
    for (int a = 0; a < BV; ++a) v[a] = r[a];
  }
  template <bool ASC> static void merge_block(I *v) {
    I r[BV];
#pragma unroll
    for (int a = 0; a < BV; ++a) r[a] = v[a];
#pragma unroll
    for (int jv = BV / 2; jv >= 1; jv /= 2)
#pragma unroll
      for (int a = 0; a < BV; ++a)
        if (!(a & jv)) cx(r[a], r[a + jv], ASC);
#pragma unroll
    for (int a = 0; a < BV; ++a) v[a] = merge<ASC>(r[a]);
  }

  // v[0, P / W) sorted ascending, P a power of two >= BV * W
  static void network(I *v, int P) {
    const int NV = P / W;
    for (int b = 0; b < NV; b += 2 * BV) {
      sort_block<true>(v + b);
      sort_block<false>(v + b + BV);
    }
    for (int k = 2 * BV * W; k <= P; k *= 2) {
      for (int jv = k / (2 * W); jv >= BV; jv /= 2)
        for (int a = 0; a < NV; ++a)
          if (!(a & jv)) cx(v[a], v[a + jv], ((a * W) & k) == 0);
      for (int b = 0; b < NV; b += BV) {
        if (((b * W) & k) == 0) merge_block<true>(v + b);
        else merge_block<false>(v + b);
      }
    }
  }
};

// One row: its keys' images into v (padded to P keys), the network, the
// positions and their keys out.
template <typename T>
inline void sort_vec_row(const T *row, T *out, std::int64_t *oidx, std::int64_t n, int P,
                         bool desc, int kind) {
  using N = VecNet<T>;
  using U = typename N::U;
  using V = typename N::V;
  using I = typename N::I;
  using VT = typename N::VT;
  using UT = typename N::UT;
  constexpr int W = N::W;
  const int nv = static_cast<int>(n / W), tail = static_cast<int>(n % W);
  const VT dmask = desc ? VT(UT(~UT(0))) : VT(0);
  I v[kVecNetMax / W];
  T buf[W];
  V pos = V(0);  // positions in the row (in the low 32 bits of one vector)
  for (int l = 0; l < W; ++l) pos[l] = static_cast<U>(l);
  const auto lanes = [&](const T *p, int a) -> I {
    const V k = __builtin_convertvector(N::image(p, kind) ^ dmask, V);
    const V at = pos + V(static_cast<U>(a * W));
    if constexpr (N::kPair) return {k, at};
    else return (k << 32) | at;
  };
  const I largest = [] {
    if constexpr (N::kPair) return I{V(~U(0)), V(~U(0))};
    else return V(~U(0));
  }();
  for (int a = 0; a < nv; ++a) v[a] = lanes(row + a * W, a);
  if (tail) {  // the last keys, and the largest item past the row
    for (int l = 0; l < W; ++l) buf[l] = row[nv * W + (l < tail ? l : 0)];
    I x = lanes(buf, nv);
    for (int l = tail; l < W; ++l) {
      if constexpr (N::kPair) {
        x.k[l] = ~U(0);
        x.p[l] = ~U(0);
      } else {
        x[l] = ~U(0);
      }
    }
    v[nv] = x;
  }
  for (int a = nv + (tail ? 1 : 0); a < P / W; ++a) v[a] = largest;
  N::network(v, P);
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t q;
    if constexpr (N::kPair) q = static_cast<std::int64_t>(v[i / W].p[i % W]);
    else q = static_cast<std::int64_t>(v[i / W][i % W] & 0xFFFFFFFFu);
    oidx[i] = q;
    out[i] = row[q];
  }
}

template <typename T>
USM_KERNEL(1)
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::work_group_size<1>))
void sort_vec(kptr<const T> src, kptr<T> keys, kptr<std::int64_t> idx, std::int64_t rows, std::int64_t n,
              int desc, int kind) {
  constexpr int W = VecNet<T>::W;
  int P = VecNet<T>::BV * W;
  while (P < n) P *= 2;
  const RowRun run(rows);
  for (std::int64_t r = run.lo; r < run.hi; ++r)
    sort_vec_row<T>(src + r * n, keys + r * n, idx + r * n, n, P, desc != 0, kind);
}

// ------------------------------------------------------------- column networks
// CPU devices, sort (not argsort) of rows of up to kColNetMax keys: a
// work-item sorts R rows at once, one per lane of 64-byte vectors. Each
// row's keys are loaded as vectors, mapped to images (VecNet::image) and
// transposed in W x W blocks, so that vector w holds key w of the R rows;
// a sorting network then runs on whole vectors, every compare-exchange a
// min and a max with no shuffles (a row-wise network spends most of its
// work in shuffles within vectors: sort_vec). The network is a bitonic
// sort whose merges start by comparing mirror images, so every comparator
// puts its smaller key at the lower wire: the padding's largest images stay
// at the top. Blocks of 8 wires are sorted in registers as they are loaded,
// and the merges' layers run three at a time in registers (ColNet::network).
// Equal images are equal values, so the order of equal keys cannot show;
// NaNs map to the largest image and are written back from the row in row
// order (their bits kept), as sort_vec does.
constexpr int kColNetMax = 1024;

template <typename T> struct ColNet {
  using UT = typename uint_of<sizeof(T)>::type;  // the key's bits
  // the images' lanes: u32 for keys of up to 4 bytes, else u64
  using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  static constexpr int W = 32 / static_cast<int>(sizeof(U));  // lanes of a 32-byte vector: the transposed blocks
  using VT = usmk::raw_vec<UT, W>;
  static constexpr int R = 2 * W;  // rows per work-item step: lanes of a 64-byte vector
  using V = usmk::raw_vec<U, W>;
  using VB = usmk::raw_vec<U, R>;

  // Images (radix_key's order) computed in the lanes' width, which is wider
  // than the key for 1- and 2-byte keys (16-bit vector arithmetic made the
  // 2-byte kernel's compile 4x longer): below 2^B, so the padding's ~0 is
  // above every image. NaNs map to the largest, kMask. dmask: 0 or kMask.
  static constexpr int B = 8 * static_cast<int>(sizeof(T));
  static constexpr U kMask = U(UT(~UT(0))), kSign = U(U(1) << (B - 1));
  // zero-extension of the keys' bits by a shuffle with zeros (little-endian)
  template <std::size_t... L> static V widen(const VT &raw, std::index_sequence<L...>) {
    constexpr int K = static_cast<int>(sizeof(U) / sizeof(T));
    return __builtin_bit_cast(V, __builtin_shufflevector(raw, VT(0), static_cast<int>(L % K == 0 ? L / K : W)...));
  }
  static V image(const T *p, int kind, const V &dmask) {
    V u;
    if constexpr (sizeof(T) == sizeof(U)) {
      __builtin_memcpy(&u, p, sizeof(V));
    } else {
      VT raw;
      __builtin_memcpy(&raw, p, sizeof(VT));
      u = widen(raw, std::make_index_sequence<W * sizeof(U) / sizeof(T)>{});
    }
    if (kind == kKeyFloat && sizeof(T) > 1) {
      const V isnan = (V)((u & V(U(kSign - 1))) > V(U(inf_bits<UT>())));
      u = (u ^ (((V(0) - (u >> (B - 1))) & V(kMask)) | V(kSign))) | (isnan & V(kMask));
    } else if (kind == kKeySigned) {
      u ^= V(kSign);
    }
    return u ^ dmask;
  }
  // the keys of W images (NaN images give a NaN)
  static VT value(V k, int kind, const V &dmask) {
    k ^= dmask;
    if (kind == kKeyFloat) k ^= (k >> (B - 1)) - V(1) | V(kSign);
    else if (kind == kKeySigned) k ^= V(kSign);
    if constexpr (sizeof(T) == sizeof(U)) return k;
    else return narrow(k, std::make_index_sequence<W>{});
  }
  // the low bits of each lane (truncation by a shuffle, as widen)
  template <std::size_t... L> static VT narrow(const V &k, std::index_sequence<L...>) {
    constexpr int K = static_cast<int>(sizeof(U) / sizeof(T));
    using VW = usmk::raw_vec<UT, W * K>;
    const VW w = __builtin_bit_cast(VW, k);
    return __builtin_shufflevector(w, w, static_cast<int>(L * K)...);
  }
  template <std::size_t... L> static V iota(std::index_sequence<L...>) { return V{static_cast<U>(L)...}; }
  static V iota() { return iota(std::make_index_sequence<W>{}); }
  static void cx(VB &a, VB &b) {
    const VB lo = __builtin_elementwise_min(a, b);
    b = __builtin_elementwise_max(a, b);
    a = lo;
  }
  // x[0..8) sorted (an optimal 19-comparator network)
  static void sort8(VB *x) {
    cx(x[0], x[2]); cx(x[1], x[3]); cx(x[4], x[6]); cx(x[5], x[7]);
    cx(x[0], x[4]); cx(x[1], x[5]); cx(x[2], x[6]); cx(x[3], x[7]);
    cx(x[0], x[1]); cx(x[2], x[3]); cx(x[4], x[5]); cx(x[6], x[7]);
    cx(x[2], x[4]); cx(x[3], x[5]);
    cx(x[1], x[4]); cx(x[3], x[6]);
    cx(x[1], x[2]); cx(x[3], x[4]); cx(x[5], x[6]);
  }
  // one butterfly stage of a W x W transpose: rows a and a | D
  template <int D, std::size_t... L> static void stage(V &a, V &b, std::index_sequence<L...>) {
    const V na = __builtin_shufflevector(a, b, static_cast<int>((L & D) ? W + (L ^ D) : L)...);
    const V nb = __builtin_shufflevector(a, b, static_cast<int>((L & D) ? W + L : (L ^ D))...);
    a = na;
    b = nb;
  }
  template <int D> static void stages(V (&x)[W]) {
    if constexpr (D < W) {
#pragma unroll
      for (int a = 0; a < W; ++a)
        if (!(a & D)) stage<D>(x[a], x[a | D], std::make_index_sequence<W>{});
      stages<2 * D>(x);
    }
  }
  static void transpose(V (&x)[W]) { stages<1>(x); }
  template <std::size_t... L> static VB join(const V &lo, const V &hi, std::index_sequence<L...>) {
    return __builtin_shufflevector(lo, hi, static_cast<int>(L)...);
  }
  static VB join(const V &lo, const V &hi) { return join(lo, hi, std::make_index_sequence<R>{}); }
  template <int H, std::size_t... L> static V half(const VB &x, std::index_sequence<L...>) {
    return __builtin_shufflevector(x, x, static_cast<int>(L + H * W)...);
  }
  template <int H> static V half(const VB &x) { return half<H>(x, std::make_index_sequence<W>{}); }

  // The wires w[0, 2^NL) of v into x, and back.
  template <int NL> static void gather(const VB *v, const int (&w)[1 << NL], VB (&x)[1 << NL]) {
#pragma unroll
    for (int j = 0; j < (1 << NL); ++j) x[j] = v[w[j]];
  }
  template <int NL> static void scatter(VB *v, const int (&w)[1 << NL], const VB (&x)[1 << NL]) {
#pragma unroll
    for (int j = 0; j < (1 << NL); ++j) v[w[j]] = x[j];
  }
  // half-cleaners at distances D, D / 2, ..., 1 within each 2D-wire block
  // of x[0, X)
  template <int D, int X> static void cleaners(VB *x) {
    if constexpr (D >= 1) {
#pragma unroll
      for (int j = 0; j < X; ++j)
        if (!(j & D)) cx(x[j], x[j + D]);
      cleaners<D / 2, X>(x);
    }
  }
  // One pass of a merge of sorted runs of p wires: its first NL layers (the
  // mirror layer, then the half-cleaners p/2, p/4, ...) on 2^NL wires at a
  // time, half from each run, which those layers compare only among
  // themselves. Pairs of runs whose second is all padding are merged
  // already.
  template <int NL> static void mirror_pass(VB *v, int N, int p) {
    constexpr int M = 1 << (NL - 1);  // wires from each run
    const int g = p / M;
    for (int b = 0; b + p < N; b += 2 * p)
      for (int i = 0; i < g; ++i) {
        int w[2 * M];
        VB x[2 * M];
#pragma unroll
        for (int j = 0; j < M; ++j) {
          w[j] = b + i + j * g;
          w[M + j] = b + p + (g - 1 - i) + j * g;  // (its mirror is w[2M - 1 - j])
        }
        gather<NL>(v, w, x);
#pragma unroll
        for (int j = 0; j < M; ++j) cx(x[j], x[2 * M - 1 - j]);
        cleaners<M / 2, 2 * M>(x);
        scatter<NL>(v, w, x);
      }
  }
  // One pass of NL half-cleaner layers k, k/2, ... on 2^NL wires
  // k / 2^(NL-1) apart at a time (groups of padding only skipped).
  template <int NL> static void clean_pass(VB *v, int N, int k) {
    constexpr int M = 1 << NL;
    const int g = k / (M / 2);
    for (int b = 0; b < N; b += 2 * k)
      for (int i = 0; i < g && b + i < N; ++i) {
        int w[M];
        VB x[M];
#pragma unroll
        for (int j = 0; j < M; ++j) w[j] = b + i + j * g;
        gather<NL>(v, w, x);
        cleaners<M / 2, M>(x);
        scatter<NL>(v, w, x);
      }
  }

  // The mirror-bitonic network on v[0, N), N a multiple of 8 whose 8-wire
  // blocks are sorted; v has room for the padding up to the next power of
  // two. A merge of runs of p wires has log2(p) + 1 layers; they run three
  // at a time on 8 wires in registers (the last three within blocks of 8
  // wires, the first pass taking what is left over), so that v is read and
  // written about a third as often as by a pass per layer: 9 passes instead
  // of 14 at 100 keys, 19 instead of 35 at 1000 (sorts of 2000 x 1000 keys
  // 0.7-0.78x the time, 6000 x 300 0.84-0.91x, 20000 x 100 0.91-1.02x;
  // padding past N to the power of two costs comparators the pass per layer
  // dropped). Conditional loads and stores at the padding instead made the
  // passes slower than one per layer.
  static void network(VB *v, int N) {
    int P = 8;
    while (P < N) P *= 2;
    for (int i = N; i < P; ++i) v[i] = VB(~U(0));
    for (int p = 8, q = 3; p < N; p *= 2, ++q) {
      const int first = (q - 2) % 3 == 0 ? 3 : (q - 2) % 3;
      if (first == 1) mirror_pass<1>(v, N, p);
      else if (first == 2) mirror_pass<2>(v, N, p);
      else mirror_pass<3>(v, N, p);
      for (int k = p >> first; k >= 4; k >>= 3) clean_pass<3>(v, N, k);
    }
  }
};

// The W x W block of images at (rows r0.., wire c) as W vectors (lane: row),
// for a block past the rows' end: the keys there, then the largest image
// (keys read with the next row's where that is within the array). Out of
// line and rolled: once per group, and the key types' compile time.
template <typename T>
__attribute__((noinline)) void cols_tail(const T *src, std::int64_t rows, std::int64_t n,
                                         std::int64_t r0, int c, int kind,
                                         typename ColNet<T>::V (&t)[ColNet<T>::W],
                                         typename ColNet<T>::V dmask) {
  using C = ColNet<T>;
  using V = typename C::V;
  using U = typename C::U;
  constexpr int W = C::W;
  T buf[W];
  const int left = static_cast<int>(n) - c;
#pragma unroll 1
  for (int r = 0; r < W; ++r) {
    const std::int64_t row = min64(r0 + r, rows - 1);
    if (left <= 0) {
      t[r] = V(~U(0));
      continue;
    }
    const T *p = src + row * n + c;
    if (row * n + c + W > rows * n) {
      for (int l = 0; l < W; ++l) buf[l] = p[l < left ? l : 0];
      p = buf;
    }
    const V u = C::image(p, kind, dmask);
    const V keep = (V)(C::iota() < V(static_cast<U>(left)));
    t[r] = (u & keep) | ~keep;
  }
  C::transpose(t);
}

// The last, partial W keys of rows r0.. from the transposed block t.
template <typename T>
__attribute__((noinline)) void cols_store_tail(T *keys, std::int64_t rows, std::int64_t n,
                                               std::int64_t r0, int c, int kind,
                                               typename ColNet<T>::V (&t)[ColNet<T>::W],
                                               typename ColNet<T>::V dmask) {
  using C = ColNet<T>;
  using VT = typename C::VT;
  constexpr int W = C::W;
  T buf[W];
  C::transpose(t);
#pragma unroll 1
  for (int r = 0; r < W && r0 + r < rows; ++r) {
    const VT val = C::value(t[r], kind, dmask);
    __builtin_memcpy(buf, &val, sizeof(VT));
    for (int l = 0; l < n - c; ++l) keys[(r0 + r) * n + c + l] = buf[l];
  }
}

// Large sorts of rows of kStageMin to kStageMax keys copy each group's rows
// (contiguous in memory) into private memory and back as whole vectors,
// the way back with streaming stores: the loads and stores of the
// transposes touch 2W rows at once, and from and to memory they stall on
// misses the hardware prefetchers do not cover, and every store first
// reads its cache line. 20000 x 100 with a NumPy sort between calls (the
// caches holding its data): float32 1.9-2.5 -> 1.35-1.75 ms, int64 3.0-3.3
// -> 2.4-2.45 ms; with the data in the cache float32 the same, int64
// 0.75-0.8x. Longer rows' groups do not fit the L1 cache beside v (1000
// keys: 10-20% slower staged), shorter ones (10) spend more on the copies
// than they save, and small results are in the cache anyway.
constexpr int kStageMin = 32, kStageMax = 256;

// cnt items from `from` to `to`, whole 64-byte vectors first; streamed
// (non-temporal) when S and `to` is aligned for it.
template <bool S, typename T> inline void copy_run(const T *from, T *to, std::int64_t cnt) {
  constexpr int VL = 64 / static_cast<int>(sizeof(T));
  std::int64_t i = 0;
  if (S && (reinterpret_cast<std::uintptr_t>(to) & 63) == 0) {
#pragma unroll 1
    for (; i + VL <= cnt; i += VL) usmk::stream_store<T, VL>(usmk::load_raw<T, VL>(from + i), to + i);
  } else {
#pragma unroll 1
    for (; i + VL <= cnt; i += VL) {
      const auto x = usmk::load_raw<T, VL>(from + i);
      __builtin_memcpy(to + i, &x, sizeof(x));
    }
  }
  for (; i < cnt; ++i) to[i] = from[i];
}

template <typename T>
USM_KERNEL(1)
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::work_group_size<1>))
void sort_cols(kptr<const T> src, kptr<T> keys, std::int64_t rows, std::int64_t n, int desc,
               int kind) {
  using C = ColNet<T>;
  using U = typename C::U;
  using V = typename C::V;
  using VB = typename C::VB;
  using VT = typename C::VT;
  using UT = typename C::UT;
  constexpr int W = C::W, R = C::R;
  const int nn = static_cast<int>(n), N8 = (nn + 7) & ~7;
  const V dmask = desc ? V(C::kMask) : V(0);
  VB v[kColNetMax];
  T stage[R * kStageMax];
  const bool staged = n >= kStageMin && n <= kStageMax && usmk::streams<T>(rows * n);
  const RowRun run((rows + R - 1) / R);
  for (std::int64_t g = run.lo; g < run.hi; ++g) {
    const std::int64_t r0 = g * R, left = rows - r0;  // (left: rows from r0 on)
    if (staged) copy_run<false>(src + r0 * n, stage, min64(R, left) * n);
    // the rows of the group (the last group repeats the array's last row);
    // out: where the group's sorted rows go
    const T *in = staged ? stage : src + r0 * n;
    T *out = staged ? stage : keys + r0 * n;
    const std::int64_t have = staged ? min64(R, left) : left;  // rows readable from in
    const T *row[R];
#pragma unroll
    for (int r = 0; r < R; ++r) row[r] = in + min64(r, left - 1) * n;
    // load: blocks of 8 wires from W x W transposes of both halves of the
    // rows, each block sorted
    for (int c = 0; c < N8; c += 8) {
      VB x[8];
#pragma unroll
      for (int s = 0; s < 8; s += W) {
        V t[2][W];
        if (c + s + W <= nn) {
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            // (8 rows of keys of up to 4 bytes in a rolled loop: the 2-byte
            // kernel's compile 4.8 -> 3.4 s, speed the same)
            if constexpr (W == 8) {
#pragma unroll 1
              for (int r = 0; r < W; ++r) t[h][r] = C::image(row[h * W + r] + c + s, kind, dmask);
            } else {
#pragma unroll
              for (int r = 0; r < W; ++r) t[h][r] = C::image(row[h * W + r] + c + s, kind, dmask);
            }
            C::transpose(t[h]);
          }
        } else {
          cols_tail<T>(in, have, n, 0, c + s, kind, t[0], dmask);
          cols_tail<T>(in, have, n, W, c + s, kind, t[1], dmask);
        }
#pragma unroll
        for (int k = 0; k < W; ++k) x[s + k] = C::join(t[0][k], t[1][k]);
      }
      C::sort8(x);
#pragma unroll
      for (int i = 0; i < 8; ++i) v[c + i] = x[i];
    }
    C::network(v, N8);
    // store: the transposes back, the images' keys into the rows
    // (the two halves in a rolled loop: the 4-byte kernel's compile 1.95 ->
    // 1.65 s, speed the same)
    for (int c = 0; c < nn; c += W) {
#pragma unroll 1
      for (int h = 0; h < 2; ++h) {
        V t[W];
#pragma unroll
        for (int k = 0; k < W; ++k)
          t[k] = h ? C::template half<1>(v[c + k]) : C::template half<0>(v[c + k]);
        if (c + W > nn) {
          cols_store_tail<T>(out, left, n, h * W, c, kind, t, dmask);
          continue;
        }
        C::transpose(t);
#pragma unroll
        for (int r = 0; r < W; ++r) {
          if (h * W + r >= left) break;
          const VT val = C::value(t[r], kind, dmask);
          __builtin_memcpy(out + (h * W + r) * n + c, &val, sizeof(VT));
        }
      }
    }
    if (kind == kKeyFloat) {
      // rows with NaNs: their images (the largest) sort last, after every
      // number's (first, as 0, when descending); the NaNs as read, in row
      // order
      const VB last = v[desc ? 0 : nn - 1];
      const U nanimg = desc ? U(0) : C::kMask;
      for (int r = 0; r < R && r < left; ++r) {
        if (last[r] != nanimg) continue;
        const T *a = src + (r0 + r) * n;
        T *b = out + r * n;
        constexpr UT mag = UT(C::kSign - 1);
        std::int64_t cnt = 0;
        for (std::int64_t i = 0; i < n; ++i) cnt += (a[i] & mag) > inf_bits<UT>();
        std::int64_t o = desc ? 0 : n - cnt;
        for (std::int64_t i = 0; i < n; ++i)
          if ((a[i] & mag) > inf_bits<UT>()) b[o++] = a[i];
      }
    }
    if (staged) copy_run<true>(stage, keys + r0 * n, min64(R, left) * n);
  }
}

// ------------------------------------------------------------- merge sort
template <typename K>
inline bool before(const K &a, const K &b, int desc) {
  return desc ? sorts_before(b, a) : sorts_before(a, b);
}

template <typename K, int IDX>
USM_KERNEL(1)
void sort_chunks(kptr<K> keys, kptr<std::int64_t> idx, std::int64_t rows, std::int64_t n,
                 std::int64_t chunk, int desc) {
  const std::int64_t nch = (n + chunk - 1) / chunk;
  const std::int64_t g = usmk::linear_id();
  if (g >= rows * nch) return;
  const std::int64_t r = g / nch, c = g % nch;
  const std::int64_t lo = r * n + c * chunk, hi = r * n + min64(n, (c + 1) * chunk);
  if constexpr (IDX)   // the indices start as positions in the row
    for (std::int64_t i = lo; i < hi; ++i) idx[i] = i - r * n;
  for (std::int64_t i = lo + 1; i < hi; ++i) {
    const K k = keys[i];
    std::int64_t v = 0;
    if constexpr (IDX) v = idx[i];
    std::int64_t j = i;
    while (j > lo && before(k, keys[j - 1], desc)) {
      keys[j] = keys[j - 1];
      if constexpr (IDX) idx[j] = idx[j - 1];
      --j;
    }
    keys[j] = k;
    if constexpr (IDX) idx[j] = v;
  }
}

template <typename K, int IDX>
USM_KERNEL(1)
void merge_pass(kptr<const K> kin, kptr<const std::int64_t> iin, kptr<K> kout, kptr<std::int64_t> iout,
                std::int64_t rows, std::int64_t n, std::int64_t width, int desc) {
  const std::int64_t g = usmk::linear_id();
  if (g >= rows * n) return;
  const std::int64_t r = g / n, i = g % n;
  const std::int64_t start = (i / (2 * width)) * 2 * width;
  const std::int64_t mid = min64(n, start + width), end = min64(n, start + 2 * width);
  const K *row = kin + r * n;
  const K k = row[i];
  std::int64_t dest;
  if (i < mid) {
    // elements of the right run strictly before k
    std::int64_t lo = mid, hi = end;
    while (lo < hi) {
      const std::int64_t m = lo + (hi - lo) / 2;
      if (before(row[m], k, desc)) lo = m + 1;
      else hi = m;
    }
    dest = i + (lo - mid);
  } else {
    // elements of the left run not after k (equal ones stay first: stable)
    std::int64_t lo = start, hi = mid;
    while (lo < hi) {
      const std::int64_t m = lo + (hi - lo) / 2;
      if (!before(k, row[m], desc)) lo = m + 1;
      else hi = m;
    }
    dest = start + (i - mid) + (lo - start);
  }
  kout[r * n + dest] = k;
  if constexpr (IDX) iout[r * n + dest] = iin[g];
}

// Reduction kernels: one skeleton, instantiated per operation (an Op struct
// below) and type triple <T item, A accumulator/state, R result>.
//
// A reduction of a collapsed (outer o, reduced r) iteration reads each input
// item once: the reduced extent n is cut into nb blocks; each block yields
// one partial state, written to a small buffer (or, when nb == 1, straight
// to the result). The host then reduces the partials with the same kernels
// (T = A) until one value per output is left. The decomposition depends only
// on the shapes, never on timing, so results are bit-identical run to run.
//
// Variants:
//  * reduce_group (generic, GPUs): a work-group per block; work-items read
//    the block interleaved (consecutive work-items, consecutive items) and
//    combine in a tree in local memory. Any strides.
//  * reduce_cols (generic): outer stride 1, reduced stride not (the column
//    sums of a C-contiguous matrix): consecutive work-items take
//    consecutive columns over a block of rows, so every row is read
//    contiguously.
//  * reduce_rows_vec / reduce_cols_vec (CPU devices, usmk::simd_blocks
//    style): each work-item reduces a long contiguous block (or a block of
//    rows x a strip of columns) on clang vectors, in work-groups smaller than
//    the SIMD width so the body runs as written.
//    reduce_rows_vec also takes argmax/argmin (value and index vectors).
// Floats keep a tree-like order: within a work-item, chunks of vectors are
// summed in 4 independent accumulators and the chunk sums are merged
// pairwise (cascade); lanes, work-items and blocks are combined in trees.
#pragma once
#include <sycl/ext/oneapi/work_group_static.hpp>
#include <sycl/group_barrier.hpp>
#include "common.hpp"
#include "numeric.hpp"
// math.hpp (sycl:: builtins) only for logaddexp: the resolver defines
// USM_MATH for bundles with its kernels (usmarray/_core/_kernels.py)
#if USM_MATH
#include "math.hpp"
#endif

namespace usmk {

// Value and index of argmax/argmin's partial results.
template <typename T> struct vi {
  T v;
  std::int64_t i;
};
template <typename T> struct is_vi : std::false_type {};
template <typename T> struct is_vi<vi<T>> : std::true_type {};

// Vector forms (vcomb) exist for the types of raw_vec: not for half, complex
// or bool accumulators (all/any accumulate bytes: see vacc_t).

// What a first pass reads its items from: `kptr<const T>`, or an operation's
// own source (Op::source, a struct passed by value): the ReductionKernels
// and fused reductions of usmarray/user_reductions.py and fusion.py map
// several inputs, walked with the same strides, to one item. A source is
// used as a pointer: `src + k` (k items on) and `src[k]` (the item),
// `src.template vload<L>()` (L items as a raw_vec of
// vload_t<item>, for the vector-block kernels) and `P::item` (their type).
template <class Op, typename T, class = void> struct source_of { using type = kptr<const T>; };
template <class Op, typename T> struct source_of<Op, T, std::void_t<typename Op::source>> {
  using type = typename Op::source;
};
template <class Op, typename T> using src_t = typename source_of<Op, T>::type;

struct red_sum {
  template <typename A> static A identity() { return A(0); }
  template <typename A> static A combine(const A &a, const A &b) { return a + b; }
  template <typename V> static V vcomb(V a, V b) { return a + b; }
};
#if USM_MATH
// the scan of cumulative_logsumexp (real floating types; no vector form)
struct red_logaddexp {
  template <typename A> static A identity() { return -inf<calc_t<A>>(); }
  template <typename A> static A combine(const A &a, const A &b) { return logaddexp_(a, b); }
};
#endif
struct red_prod {
  template <typename A> static A identity() { return A(1); }
  template <typename A> static A combine(const A &a, const A &b) { return a * b; }
  template <typename V> static V vcomb(V a, V b) { return a * b; }
};
// The scans' sum and product (cumulative_sum, cumulative_prod): their first
// item is x[0] itself, as NumPy's. The sum starts from -0.0, the identity of
// IEEE addition (0.0 + -0.0 is +0.0: a run of negative zeros keeps its sign).
// A complex product cannot start from 1 + 0j ((inf + 0j) * (1 + 0j) is
// inf + nanj): its identity is (1, a NaN of a payload of its own), which
// combine passes over.
struct scan_sum : red_sum {
  template <typename A> static A identity() {
    if constexpr (is_complex_v<A>) return A(-0.0, -0.0);
    else if constexpr (is_float_v<A>) return A(-0.0);
    else return A(0);
  }
};
struct scan_prod : red_prod {
  template <typename R> static bool is_identity_part(const R &v) {
    if constexpr (sizeof(R) == 8) return __builtin_bit_cast(std::uint64_t, v) == 0x7ff80000600dULL;
    else return __builtin_bit_cast(std::uint32_t, v) == 0x7fc0600du;
  }
  template <typename A> static A identity() {
    if constexpr (is_complex_v<A>) {
      using R = typename A::value_type;
      if constexpr (sizeof(R) == 8) return A(1, __builtin_bit_cast(R, 0x7ff80000600dULL));
      else return A(1, __builtin_bit_cast(R, 0x7fc0600du));
    } else {
      return A(1);
    }
  }
  template <typename A> static A combine(const A &a, const A &b) {
    if constexpr (is_complex_v<A>) {
      if (a.real() == 1 && is_identity_part(a.imag())) return b;
      if (b.real() == 1 && is_identity_part(b.imag())) return a;
    }
    return a * b;
  }
};
// max/min of complex values: NumPy's lexicographic order (maximum_), from
// the identity (-inf, -inf) or (inf, inf)
struct red_max {
  template <typename A> static A identity() {
    if constexpr (is_complex_v<A>) return A(-inf<typename A::value_type>(), -inf<typename A::value_type>());
    else if constexpr (is_float_v<A>) return -inf<calc_t<A>>();
    else return std::numeric_limits<A>::lowest();
  }
  template <typename A> static A combine(const A &a, const A &b) { return maximum_(a, b); }
  // as maximum_: a NaN wins, else a >= b ? a : b
  template <typename V> static V vcomb(V a, V b) { return vselect<V>((a >= b) | (a != a), a, b); }
};
struct red_min {
  template <typename A> static A identity() {
    if constexpr (is_complex_v<A>) return A(inf<typename A::value_type>(), inf<typename A::value_type>());
    else if constexpr (is_float_v<A>) return inf<calc_t<A>>();
    else return std::numeric_limits<A>::max();
  }
  template <typename A> static A combine(const A &a, const A &b) { return minimum_(a, b); }
  template <typename V> static V vcomb(V a, V b) { return vselect<V>((a <= b) | (a != a), a, b); }
};
struct red_all {
  template <typename A> static A identity() { return true; }
  template <typename A> static A combine(const A &a, const A &b) { return a && b; }
  template <typename V> static V vcomb(V a, V b) { return a & b; }
};
// What an item contributes to a reduction (Op::items, see lift): its value
// (the default); 1 if it is non-zero (count_nonzero) or not NaN (nanmean's
// divisor); its value with a NaN taken as the identity (nansum, nanprod).
// The passes over partial states of the last three use plain operations
// (the host names them: kernels/engine/reduce.cpp).
enum class item_rule { value, nonzero, number, skip_nan };
template <class Op, class = void> struct items_of {
  static constexpr item_rule value = item_rule::value;
};
template <class Op> struct items_of<Op, std::void_t<decltype(Op::items)>> {
  static constexpr item_rule value = Op::items;
};

// count_nonzero: sums (x != 0)
struct red_count : red_sum {
  static constexpr item_rule items = item_rule::nonzero;
};
// the number of items that are not NaN
struct red_count_num : red_sum {
  static constexpr item_rule items = item_rule::number;
};
struct red_nansum : red_sum {
  static constexpr item_rule items = item_rule::skip_nan;
};
struct red_nanprod : red_prod {
  static constexpr item_rule items = item_rule::skip_nan;
};
// nanmax/nanmin (real floats): fmax/fmin, a NaN loses to any number; the
// identity is NaN, so an all-NaN selection gives NaN
template <bool MAX> struct red_fext {
  template <typename A> static A identity() { return A(qnan<calc_t<A>>()); }
  template <typename A> static A combine(const A &a, const A &b) {
    if (isnan_(b)) return a;
    return (MAX ? up(a) >= up(b) : up(a) <= up(b)) ? a : b;
  }
  template <typename V> static V vcomb(V a, V b) {
    return vselect<V>((MAX ? (a >= b) : (a <= b)) | (b != b), a, b);
  }
};
using red_fmax = red_fext<true>;
using red_fmin = red_fext<false>;

struct red_any {
  template <typename A> static A identity() { return false; }
  template <typename A> static A combine(const A &a, const A &b) { return a || b; }
  template <typename V> static V vcomb(V a, V b) { return a | b; }
};

// argmax/argmin: the extreme value, the smallest index among equal values;
// a NaN (in either part of a complex value) is more extreme than any
// number, so the first NaN wins (NumPy). Complex values compare
// lexicographically (real part, then imaginary part).
template <bool MAX> struct red_arg {
  template <typename A> static A identity() {
    using T = decltype(A::v);
    T v;
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      v = MAX ? T(-inf<R>(), -inf<R>()) : T(inf<R>(), inf<R>());
    } else if constexpr (is_float_v<T>) {
      v = MAX ? T(-inf<calc_t<T>>()) : T(inf<calc_t<T>>());
    } else {
      v = MAX ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
    return A{v, std::numeric_limits<std::int64_t>::max()};
  }
  template <typename T> static bool beats(const T &a, const T &b) {
    if constexpr (is_complex_v<T>) return MAX ? greater_(a, b) : less_(a, b);
    else return MAX ? up(a) > up(b) : up(a) < up(b);
  }
  template <typename A> static A combine(const A &a, const A &b) {
    using T = decltype(A::v);
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      const bool na = isnan_(a.v), nb = isnan_(b.v);
      if (na || nb) return na && (!nb || a.i < b.i) ? a : b;
    }
    if (beats(a.v, b.v)) return a;
    if (beats(b.v, a.v)) return b;
    return a.i < b.i ? a : b;
  }
};
using red_argmax = red_arg<true>;
using red_argmin = red_arg<false>;

// Item x (at reduced index r) as a state of type A.
template <class Op, typename A, typename T> inline A lift(const T &x, std::int64_t r) {
  constexpr item_rule I = items_of<Op>::value;
  if constexpr (I == item_rule::nonzero) return convert<bool>(x) ? A(1) : A(0);
  else if constexpr (I == item_rule::number) return isnan_(x) ? A(0) : A(1);
  else if constexpr (I == item_rule::skip_nan) return isnan_(x) ? Op::template identity<A>() : lift<red_sum, A>(x, r);
  else if constexpr (std::is_same_v<A, T>) return x;
  else if constexpr (is_vi<A>::value) return A{x, r};
  else return convert<A>(x);
}
// The result of a final state.
template <typename R, typename A> inline R finish(const A &a) {
  if constexpr (std::is_same_v<R, A>) return a;
  else if constexpr (is_vi<A>::value) return static_cast<R>(a.i);
  else return convert<R>(a);
}

// Accumulator vector element of A (bytes for all/any), load type of T.
template <typename A> using vacc_t = std::conditional_t<std::is_same_v<A, bool>, std::uint8_t, A>;
template <typename T> using vload_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

// L items (a vector of vload_t<T>) as an accumulator vector.
template <class Op, typename A, typename T, int L>
inline raw_vec<vacc_t<A>, L> vlift_items(const raw_vec<vload_t<T>, L> &v) {
  using VA = raw_vec<vacc_t<A>, L>;
  constexpr item_rule I = items_of<Op>::value;
  if constexpr (I == item_rule::nonzero) {
    if constexpr (std::is_same_v<T, bool>) return __builtin_convertvector(v, VA);
    else return __builtin_convertvector(v != vload_t<T>(0), VA) & vacc_t<A>(1);
  } else if constexpr (I == item_rule::number) {
    return __builtin_convertvector(v == v, VA) & vacc_t<A>(1);
  } else if constexpr (I == item_rule::skip_nan) {
    using VT = raw_vec<T, L>;
    const VT w = vselect<VT>(v != v, VT(T(Op::template identity<T>())), v);
    if constexpr (std::is_same_v<T, A>) return w;
    else return __builtin_convertvector(w, VA);
  } else if constexpr (std::is_same_v<A, bool>) {
    if constexpr (std::is_same_v<T, bool>) return v;
    else return __builtin_convertvector(v != vload_t<T>(0), VA) & vacc_t<A>(1);
  } else if constexpr (std::is_same_v<vload_t<T>, A>) {
    return v;
  } else {
    return __builtin_convertvector(v, VA);
  }
}

// L items from p, a pointer to T or a source (whose items are P::item), as
// an accumulator vector.
template <class Op, typename A, typename T, int L, class P> inline raw_vec<vacc_t<A>, L> vlift(const P &p) {
  if constexpr (std::is_pointer_v<P>)
    return vlift_items<Op, A, T, L>(load_raw<vload_t<T>, L>(reinterpret_cast<const vload_t<T> *>(p)));
  else
    return vlift_items<Op, A, typename P::item, L>(p.template vload<L>());
}

// Tree over a work-group's states; work-item 0 gets the result.
template <class Op, typename A> inline A group_tree(A acc) {
  constexpr int kMax = 256;
  auto it = syclext::this_work_item::get_nd_item<1>();
  auto g = it.get_group();
  const int l = static_cast<int>(it.get_local_id(0));
  const int W = static_cast<int>(it.get_local_range(0));
  // raw words: work_group_static needs a trivially constructible type
  static syclexp::work_group_static<std::uint64_t[kMax * ((sizeof(A) + 7) / 8)]> words;
  A *s = reinterpret_cast<A *>(&words);
  s[l] = acc;
  sycl::group_barrier(g);
  for (int w = W / 2; w > 0; w /= 2) {
    if (l < w) s[l] = Op::combine(s[l], s[l + w]);
    sycl::group_barrier(g);
  }
  return s[0];
}

} // namespace usmk

// out[o * nb + b] = reduce of x[o * s_o + r * s_r] over r in block b
// ([b * B, min(n, b * B + B))): one work-group (a power of two <= 256
// work-items) per (o, b).
template <class Op, typename T, typename A, typename R>
USM_KERNEL(1)
void reduce_group(usmk::src_t<Op, T> x, kptr<R> out, std::int64_t n, std::int64_t s_o, std::int64_t s_r,
                  std::int64_t B, std::int64_t nb) {
  auto it = syclext::this_work_item::get_nd_item<1>();
  const std::int64_t g = static_cast<std::int64_t>(it.get_group(0));
  const std::int64_t l = static_cast<std::int64_t>(it.get_local_id(0));
  const std::int64_t W = static_cast<std::int64_t>(it.get_local_range(0));
  const std::int64_t o = g / nb, b = g % nb;
  const std::int64_t lo = b * B, hi = lo + B < n ? lo + B : n;
  const auto row = x + o * s_o;
  A acc = Op::template identity<A>();
  for (std::int64_t r = lo + l; r < hi; r += W) acc = Op::combine(acc, usmk::lift<Op, A>(row[r * s_r], r));
  acc = usmk::group_tree<Op>(acc);
  if (l == 0) out[g] = usmk::finish<R>(acc);
}

// out[b * n_out + c] = reduce of x[c * s_o + r * s_r] over the rows r of
// block b (B rows): work-item i takes column i % n_out of block i / n_out.
// (Column sums have s_o == 1; CPU devices also reduce rows with it.)
template <class Op, typename T, typename A, typename R>
USM_KERNEL(1)
void reduce_cols(usmk::src_t<Op, T> x, kptr<R> out, std::int64_t n_out, std::int64_t n, std::int64_t s_o,
                 std::int64_t s_r, std::int64_t B, std::int64_t nb) {
  const std::int64_t i = usmk::linear_id();
  if (i >= n_out * nb) return;
  const std::int64_t c = i % n_out, b = i / n_out;
  const std::int64_t lo = b * B, hi = lo + B < n ? lo + B : n;
  A acc = Op::template identity<A>();
  // runs of 16 rows summed apart: shorter chains of float additions
  for (std::int64_t r0 = lo; r0 < hi; r0 += 16) {
    const std::int64_t r1 = r0 + 16 < hi ? r0 + 16 : hi;
    A run = usmk::lift<Op, A>(x[c * s_o + r0 * s_r], r0);
    for (std::int64_t r = r0 + 1; r < r1; ++r) run = Op::combine(run, usmk::lift<Op, A>(x[c * s_o + r * s_r], r));
    acc = Op::combine(acc, run);
  }
  out[i] = usmk::finish<R>(acc);
}

namespace usmk {

// The units [i * rpw, i * rpw + rpw) of work-item i, of the n_rows * nb
// units (block u % nb of row u / nb, B items a block): f(u, row, lo, hi).
template <typename F>
inline void each_unit(std::int64_t n_rows, std::int64_t n, std::int64_t B, std::int64_t nb,
                      std::int64_t rpw, F f) {
  const std::int64_t units = n_rows * nb, u0 = linear_id() * rpw;
  const std::int64_t u1 = u0 + rpw < units ? u0 + rpw : units;
#pragma unroll 1
  for (std::int64_t u = u0; u < u1; ++u) {
    // (no divisions for whole rows)
    const std::int64_t o = nb == 1 ? u : u / nb, b = nb == 1 ? 0 : u % nb;
    const std::int64_t lo = b * B, hi = lo + B < n ? lo + B : n;
    f(u, o, lo, hi);
  }
}

// Lanes of v combined in a tree, lane j with lane j + L/2 first (halves of
// the vector: no lane is stored and reloaded).
template <class Op, typename VT, int L> inline VT lane_tree(raw_vec<VT, L> v) {
  if constexpr (L == 2) {
    return Op::vcomb(v, raw_vec<VT, 2>{v[1], v[0]})[0];
  } else {
    using H = raw_vec<VT, L / 2>;
    H lo, hi;
    __builtin_memcpy(&lo, &v, sizeof(H));
    __builtin_memcpy(&hi, reinterpret_cast<const char *>(&v) + sizeof(H), sizeof(H));
    return lane_tree<Op>(Op::vcomb(lo, hi));
  }
}

// The state of p[lo, hi) (contiguous): chunks of 16 vectors in 4 chains,
// chunk results merged in a cascade, then lanes in a tree.
template <class Op, typename T, typename A, class P>
inline A reduce_block_vec(const P &p, std::int64_t lo, std::int64_t hi) {
  using VT = vacc_t<A>;
  constexpr int L = usm::simd_lanes(sizeof(VT) > sizeof(T) ? sizeof(VT) : sizeof(T));
  using V = raw_vec<VT, L>;
  const V id = V(VT(Op::template identity<A>()));
  // cascade: stack[k] holds the merged sums of 2^k chunks
  V stack[24];
  int top = 0;
  std::int64_t count = 0;
  std::int64_t r = lo;
  constexpr int CH = 16;
#pragma unroll 1
  for (; r + CH * L <= hi; r += CH * L) {
    V a0 = vlift<Op, A, T, L>(p + r), a1 = vlift<Op, A, T, L>(p + r + L);
    V a2 = vlift<Op, A, T, L>(p + r + 2 * L), a3 = vlift<Op, A, T, L>(p + r + 3 * L);
#pragma unroll
    for (int k = 4; k < CH; k += 4) {
      a0 = Op::vcomb(a0, vlift<Op, A, T, L>(p + r + k * L));
      a1 = Op::vcomb(a1, vlift<Op, A, T, L>(p + r + (k + 1) * L));
      a2 = Op::vcomb(a2, vlift<Op, A, T, L>(p + r + (k + 2) * L));
      a3 = Op::vcomb(a3, vlift<Op, A, T, L>(p + r + (k + 3) * L));
    }
    V c = Op::vcomb(Op::vcomb(a0, a1), Op::vcomb(a2, a3));
    for (std::int64_t m = count; m & 1; m >>= 1) c = Op::vcomb(stack[--top], c);
    stack[top++] = c;
    ++count;
  }
  A acc = Op::template identity<A>();
  if (r + L <= hi || top > 0) {
    V v = id;
    for (; r + L <= hi; r += L) v = Op::vcomb(v, vlift<Op, A, T, L>(p + r));
    while (top > 0) v = Op::vcomb(stack[--top], v);
    acc = static_cast<A>(lane_tree<Op>(v));
  }
  for (; r < hi; ++r) acc = Op::combine(acc, lift<Op, A>(p[r], r));
  return acc;
}

} // namespace usmk

// Vector-block variant of reduce_cols for unit column stride: work-item i
// takes rows [b * B, b * B + B) of a strip of up to CV vectors of columns
// (strip i % ns, block b = i / ns) and writes out[b * n_out + columns].
// A strip spans a whole row of up to 8 KB, so a work-item streams through
// contiguous memory (prefetchers follow it), adding into accumulators kept
// in private memory (L1). Rows are added in chains of at most kChain (the
// chain of float additions per column), each chain's sums then into the
// work-item's total: so B can be large and the partials few (64 blocks of
// 64 rows of a 4096 x 2048 column sum left 512 KB of partials that one
// work-item then read: 10% of the whole sum's time).
template <class Op, typename T, typename A, typename R>
USM_SIMD_KERNEL
void reduce_cols_vec(usmk::src_t<Op, T> x, kptr<R> out, std::int64_t n_out, std::int64_t n, std::int64_t s_r,
                     std::int64_t B, std::int64_t ns) {
  using VT = usmk::vacc_t<A>;
  constexpr int L = usm::simd_lanes(sizeof(VT) > sizeof(T) ? sizeof(VT) : sizeof(T));
  using V = usmk::raw_vec<VT, L>;
  constexpr int CV = 128;
  constexpr std::int64_t kChain = 128;
  const std::int64_t nb = (n + B - 1) / B;
  const std::int64_t i = usmk::linear_id();
  if (i >= ns * (nb ? nb : 1)) return;
  const std::int64_t s = i % ns, b = i / ns;
  const std::int64_t lo = b * B, hi = lo + B < n ? lo + B : n;
  const std::int64_t c0 = s * (CV * L);
  const std::int64_t cend = c0 + CV * L < n_out ? c0 + CV * L : n_out;
  const int nv = static_cast<int>((cend - c0) / L);  // whole vectors of the strip
  R *o = out + b * n_out;
  V tot[CV], acc[CV];
  if (lo >= hi) {
    const V id = V(VT(Op::template identity<A>()));
#pragma unroll 1
    for (int k = 0; k < nv; ++k) tot[k] = id;
  }
#pragma unroll 1
  for (std::int64_t r0 = lo; r0 < hi; r0 += kChain) {
    const std::int64_t r1 = r0 + kChain < hi ? r0 + kChain : hi;
    V *a = r0 == lo ? tot : acc;  // the first chain sums into the total itself
#pragma unroll 1
    for (int k = 0; k < nv; ++k) a[k] = usmk::vlift<Op, A, T, L>(x + r0 * s_r + c0 + k * L);
#pragma unroll 1
    for (std::int64_t r = r0 + 1; r < r1; ++r) {
      const auto row = x + r * s_r + c0;
#pragma unroll 4
      for (int k = 0; k < nv; ++k) a[k] = Op::vcomb(a[k], usmk::vlift<Op, A, T, L>(row + k * L));
    }
    if (r0 != lo) {
#pragma unroll 1
      for (int k = 0; k < nv; ++k) tot[k] = Op::vcomb(tot[k], acc[k]);
    }
  }
#pragma unroll 1
  for (int k = 0; k < nv; ++k) {
    VT lanes[L];
    __builtin_memcpy(lanes, &tot[k], sizeof(V));
#pragma unroll 1
    for (int j = 0; j < L; ++j) o[c0 + k * L + j] = usmk::finish<R>(static_cast<A>(lanes[j]));
  }
  // columns past the last whole vector (fewer than L): row by row too,
  // into scalar accumulators, so rows are still read contiguously
  const std::int64_t ct = c0 + nv * L;
  const int nt = static_cast<int>(cend - ct);
  if (nt > 0) {
    A t[L], u[L];
#pragma unroll 1
    for (int j = 0; j < nt; ++j) t[j] = Op::template identity<A>();
#pragma unroll 1
    for (std::int64_t r0 = lo; r0 < hi; r0 += kChain) {
      const std::int64_t r1 = r0 + kChain < hi ? r0 + kChain : hi;
#pragma unroll 1
      for (int j = 0; j < nt; ++j) u[j] = usmk::lift<Op, A>(x[r0 * s_r + ct + j], r0);
#pragma unroll 1
      for (std::int64_t r = r0 + 1; r < r1; ++r) {
        const auto row = x + r * s_r + ct;
#pragma unroll 1
        for (int j = 0; j < nt; ++j) u[j] = Op::combine(u[j], usmk::lift<Op, A>(row[j], r));
      }
#pragma unroll 1
      for (int j = 0; j < nt; ++j) t[j] = r0 == lo ? u[j] : Op::combine(t[j], u[j]);
    }
#pragma unroll 1
    for (int j = 0; j < nt; ++j) o[ct + j] = usmk::finish<R>(t[j]);
  }
}

namespace usmk {

// argmax/argmin of p[lo, hi) (contiguous), indices relative to p. Whole
// vectors go in chunks of C: each lane keeps the best extreme of the
// chunks so far and the first chunk that reached it, a compare and two
// selects a chunk (the chunk's extreme from plain compares: a NaN item is
// dropped). At the end the first chunk holding the overall extreme is read
// again for its first position (a later chunk only holds it again). NaNs:
// a flag per run of kArgRun chunks, ((v0 + v1) + (v2 + v3)) * 0 summed,
// NaN for NaNs, infinities and sums that overflow; a flagged run is
// searched for its first NaN, which wins. The one-pass form (a compare, a
// NaN compare, a select and an index blend per vector) ran more than
// twice the operations per vector: argmax of 1e7 float32 read from memory
// took 1.5x the time of benchmarks/floor.c's loop.
constexpr int kArgRun = 16;   // chunks: 256 vectors, 16 KB of float32
template <class Op, typename T, typename A>
inline A argreduce_block_vec(const T *p, std::int64_t lo, std::int64_t hi) {
  constexpr bool MAX = std::is_same_v<Op, red_argmax>;
  std::int64_t r = lo;
  T bv;
  std::int64_t bx = -1;  // no best yet
  if constexpr (sizeof(T) >= 4) {
    constexpr int L = usm::simd_lanes(sizeof(T)), C = 4;
    using V = raw_vec<T, L>;
    using IT = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;
    using VI = raw_vec<IT, L>;
    using M = decltype(V() > V());
    const auto ext = [](V a, V v) { return vselect<V>(MAX ? (v > a) : (v < a), v, a); };
    const T ident = Op::template identity<A>().v;
    V best = V(ident);
    VI first = VI(IT(0));  // chunk starts from lo (blocks are under 2^31 items)
    // a chunk's extreme m into the lanes' bests (c: its start)
    const auto take = [&](V m, std::int64_t c) {
      const M better = MAX ? (m > best) : (m < best);
      best = vselect<V>(better, m, best);
      first = vselect<VI>(better, VI(IT(c - lo)), first);
    };
    const std::int64_t vend = lo + (hi - lo) / L * L;  // end of the whole vectors
#pragma unroll 1
    while (r < vend) {
      const std::int64_t chunks = (vend - r) / (C * L);
      const std::int64_t e = chunks ? r + (chunks < kArgRun ? chunks : kArgRun) * (C * L) : vend;
      V f = V(T(0));
      if (chunks) {
#pragma unroll 1
        for (std::int64_t q = r; q < e; q += C * L) {
          const V v0 = load_raw<T, L>(p + q), v1 = load_raw<T, L>(p + q + L);
          const V v2 = load_raw<T, L>(p + q + 2 * L), v3 = load_raw<T, L>(p + q + 3 * L);
          take(ext(ext(v0, v1), ext(v2, v3)), q);
          if constexpr (is_float_v<T>) f += ((v0 + v1) + (v2 + v3)) * T(0);
        }
      } else {  // fewer than C vectors left: one chunk
        V m = V(ident);
#pragma unroll 1
        for (std::int64_t q = r; q < e; q += L) {
          const V v = load_raw<T, L>(p + q);
          m = ext(m, v);
          if constexpr (is_float_v<T>) f += v * T(0);
        }
        take(m, r);
      }
      if constexpr (is_float_v<T>) {
        if (__builtin_reduce_or(f != f) != 0)
          for (std::int64_t i = r; i < e; ++i)
            if (isnan_(p[i])) return A{p[i], i};
      }
      r = e;
    }
    if (vend > lo) {
      // (lane trees: LLVM's reductions of float vectors ran lane by lane)
      using Ext = std::conditional_t<MAX, red_max, red_min>;
      bv = lane_tree<Ext>(best);
      const VI none = VI(std::numeric_limits<IT>::max());
      const std::int64_t c0 = lo + lane_tree<red_min>(vselect<VI>(best == V(bv), first, none));
      const std::int64_t c1 = c0 + C * L < vend ? c0 + C * L : vend;
      VI pos, at = none;
#pragma unroll
      for (int j = 0; j < L; ++j) pos[j] = IT(j);
#pragma unroll
      for (int k = 0; k < C; ++k) {
        if (c0 + k * L < c1)
          at = __builtin_elementwise_min(
              at, vselect<VI>(load_raw<T, L>(p + c0 + k * L) == V(bv), pos, none));
        pos += IT(L);
      }
      bx = c0 + lane_tree<red_min>(at);
    }
  }
  if (bx < 0) {
    if (r == hi) return Op::template identity<A>();
    bv = p[r];
    bx = r++;
  }
  // the rest one by one, in registers and without branches (random data
  // mispredicts them): a strictly better value; the first NaN is tracked
  // apart, off the chain of compares through bv
  std::int64_t nan_at = -1;
  if constexpr (is_float_v<T>)
    if (isnan_(bv)) nan_at = bx;
  for (; r < hi; ++r) {
    const T v = p[r];
    const bool take = MAX ? up(v) > up(bv) : up(v) < up(bv);
    bv = take ? v : bv;
    bx = take ? r : bx;
    if constexpr (is_float_v<T>) nan_at = (isnan_(v) & (nan_at < 0)) ? r : nan_at;
  }
  if constexpr (is_float_v<T>)
    if (nan_at >= 0) return A{p[nan_at], nan_at};
  return A{bv, bx};
}

} // namespace usmk

// Vector-block variant of reduce_group for unit reduced stride: work-item
// i reduces units [i * rpw, i * rpw + rpw) of the n_rows * nb units, unit u
// being block u % nb of row u / nb; B is a multiple of 16 vectors. Short
// rows come rpw at a time (nb is then 1), so that a work-item's work
// outweighs what a CPU runtime spends per work-group.
template <class Op, typename T, typename A, typename R>
USM_SIMD_KERNEL
void reduce_rows_vec(usmk::src_t<Op, T> x, kptr<R> out, std::int64_t n_rows, std::int64_t n, std::int64_t s_o,
                     std::int64_t B, std::int64_t nb, std::int64_t rpw) {
  usmk::each_unit(n_rows, n, B, nb, rpw, [&](std::int64_t u, std::int64_t o, std::int64_t lo, std::int64_t hi) {
    if constexpr (usmk::is_vi<A>::value)
      out[u] = usmk::finish<R>(usmk::argreduce_block_vec<Op, T, A>(x + o * s_o, lo, hi));
    else
      out[u] = usmk::finish<R>(usmk::reduce_block_vec<Op, T, A>(x + o * s_o, lo, hi));
  });
}

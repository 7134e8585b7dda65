// Random kernels made of bits and arithmetic only (usmarray.random): the
// raw stream, random, uniform and bounded integers, their CPU vector-block
// variants, and the kernels behind permutations and sampling without
// replacement. Distributions that call math functions live in
// random_dist.cpp (they need math.hpp, a long compile for these).
//
// Results equal NumPy's Philox bit for bit where NumPy's algorithm reads a
// fixed number of draws per element (random, uniform, the raw stream,
// full-range integers): no FMA may fuse NumPy's separately rounded
// `low + range * u`.
#pragma clang fp contract(off)
#include "philox.hpp"

namespace usmk::rng {

// Distribution ids, shared with usmarray/random/_distributions.py.
enum : int { D_RAW = 0, D_RANDOM = 1, D_UNIFORM = 2, D_INT32 = 3, D_INT64 = 4 };

// Whether distribution D with items T draws 32-bit halves (else words).
template <int D, typename T> constexpr bool kHalves =
    D == D_INT32 || (D != D_INT64 && sizeof(T) == 4);

// An element from its draw: a word w (or a half h), `i` its index (for
// array parameters), `g` its unit's offset (for a rejected integer's
// sub-stream). a, b: uniform's low and range (T bits), the integers' low
// and range - 1 (uint64).
// A rejected integer's value, drawn from its sub-stream: out of line and
// the same for every item type, so a bundle compiles the sub-stream's
// Philox once instead of once per call site and type (the integers' bundle
// took 20 s with it inlined everywhere); the path is rare (probability
// below range / 2^32 or / 2^64 per element).
__attribute__((noinline)) inline u64 redraw32(const Pos &p, u64 g, u64 r) {
  Stream s = half_stream(p, g);
  return bounded32(s, r);
}
__attribute__((noinline)) inline u64 redraw64(const Pos &p, u64 g, u64 r) {
  Stream s = word_stream(p, g);
  return bounded64(s, r);
}

// The same redraw for the rejected lanes of 16 consecutive 32-bit draws
// (halves e .. e + 15 of the main stream; bit k of `bad` for half e + k)
// in the vector-block kernel: the sub-streams of 8 lanes at a time in one
// vector Philox, so that ranges rejecting often (2^32 mod r is up to r / 2)
// do not run a scalar Philox block per rejected element. x[k]: the value
// in [0, r) of each rejected lane, as redraw32 gives it. Out of line, for
// the compile time as above.
__attribute__((noinline)) inline void redraw32_lanes(const Pos &p, std::int64_t e, u32 bad,
                                                     u64 r, u64 t, u64 (&x)[16]) {
  const u64 k0 = p.k0 ^ kSub0, k1 = p.k1 ^ kSub1;
#pragma unroll 1
  for (int g8 = 0; g8 < 16; g8 += 8) {
    u32 pending = (bad >> g8) & 0xffu;
    if (!pending) continue;
    // Stream(..., g, 3, kUnitHalf) of each lane's half g
    V8 c[4];
    for (int k = 0; k < 8; ++k) {
      const u64 g = static_cast<u64>(e + g8 + k);
      u64 b[4];
      add_counter(p.base, g >> 3, b);
      c[0][k] = (b[0] << 3) | (g & 7);
      c[1][k] = (b[1] << 3) | (b[0] >> 61);
      c[2][k] = (b[2] << 3) | (b[1] >> 61);
      c[3][k] = kUnitHalf << 60;
    }
    while (pending) {
      V8 w[4] = {c[0], c[1], c[2], c[3]};
      philox10(w, k0, k1);
      c[3] += 1;
      // Stream::next32 takes the high half of each word, in order
      for (int j = 0; j < 4 && pending; ++j) {
        const V8 m = (w[j] >> 32) * r;
        for (int k = 0; k < 8; ++k)
          if (((pending >> k) & 1u) && (m[k] & 0xffffffffull) >= t) {
            x[g8 + k] = m[k] >> 32;
            pending &= ~(1u << k);
          }
      }
    }
  }
}

template <int D, typename T>
inline T from_draw(u64 w, std::int64_t i, u64 g, const Pos &p, u64 a, u64 b, const void *pa,
                   const void *pb) {
  if constexpr (D == D_RAW) {
    return static_cast<T>(w);
  } else if constexpr (D == D_RANDOM) {
    if constexpr (sizeof(T) == 4) return to_float(static_cast<u32>(w));
    else return to_double(w);
  } else if constexpr (D == D_UNIFORM) {
    const T lo = param<T>(pa, i, a), range = param<T>(pb, i, b);
    if constexpr (sizeof(T) == 4) return lo + range * to_float(static_cast<u32>(w));
    else return lo + range * to_double(w);
  } else {
    const u64 lo = param<u64>(pa, i, a), rm1 = param<u64>(pb, i, b);
    u64 x;
    if constexpr (D == D_INT32) {
      if (!lemire32(static_cast<u32>(w), rm1 + 1, x)) x = redraw32(p, g, rm1 + 1);
    } else if (rm1 == ~u64(0)) {
      x = w;  // the full 64-bit range: the word itself, as NumPy
    } else if (!lemire64(w, rm1 + 1, x)) {
      x = redraw64(p, g, rm1 + 1);
    }
    return static_cast<T>(lo + x);
  }
}

} // namespace usmk::rng

using namespace usmk::rng;

// Generic kernel: one work-item per block of the stream.
template <int D, typename T>
USM_KERNEL(1)
void rng_fill(USM_RNG_ARGS) {
  USM_RNG_POS;
  if constexpr (kHalves<D, T>) {
    for_halves(pos, n, [&](std::int64_t i, u32 h, u64 g) {
      out[i] = from_draw<D, T>(h, i, g, pos, a, b, pa, pb);
    });
  } else {
    for_words(pos, n, [&](std::int64_t i, const u64 (&w)[4], int k, u64 g) {
      out[i] = from_draw<D, T>(w[k], i, g, pos, a, b, pa, pb);
    });
  }
}

namespace usmk::rng {

// L elements of T from L draws (vectors of u64 words or u32 halves).
// `bad`: lanes of bounded integers whose draw was rejected (fixed up after).
template <int D, typename T, int L, typename U>
inline usmk::raw_vec<T, L> from_draws(usmk::raw_vec<U, L> x, u64 a, u64 b, u64 t,
                                      usmk::raw_vec<long long, L> &bad) {
  if constexpr (D == D_RAW) {
    return x;
  } else if constexpr (D == D_RANDOM || D == D_UNIFORM) {
    usmk::raw_vec<T, L> r;
    if constexpr (sizeof(T) == 4)
      r = __builtin_convertvector(x >> 8, usmk::raw_vec<T, L>) * (1.0f / 16777216.0f);
    else
      r = unit_f64(x);
    if constexpr (D == D_UNIFORM) r = from_bits<T>(a) + from_bits<T>(b) * r;
    return r;
  } else {  // D_INT32 on halves
    using W = usmk::raw_vec<u64, L>;
    if (b == 0xffffffffull)   // the full 32-bit range: the halves themselves
      return __builtin_convertvector(a + __builtin_convertvector(x, W), usmk::raw_vec<T, L>);
    // (both factors below 2^32: one 32x32-bit multiply per lane)
    const W m = __builtin_convertvector(x, W) * ((b + 1) & 0xffffffffull);
    bad = __builtin_convertvector((m & 0xffffffffull) < t, usmk::raw_vec<long long, L>);
    return __builtin_convertvector(a + (m >> 32), usmk::raw_vec<T, L>);
  }
}

} // namespace usmk::rng

// CPU vector-block variant (usmk::simd_blocks' conventions): the host
// launches it when the call starts at a block boundary (first == 0, no
// lead) with scalar parameters and an aligned result. A work-item computes
// 32 blocks at once (words_of_groups), then stores their elements as whole
// vectors, streamed past the caches for large results.
template <int D, typename T>
USM_SIMD_KERNEL
void rng_vec(USM_RNG_ARGS) {
  USM_RNG_POS;
  constexpr bool halves = kHalves<D, T>;
  constexpr int per_group = halves ? 64 : 32;   // elements per 8 blocks
  constexpr int L = halves ? 16 : 8;            // elements per vector
  // integers: 2^32 mod range, computed once (a draw is rejected below it)
  u64 t = 0;
  if constexpr (D == D_INT32) t = ((u64(1) << 32) - (b + 1)) % (b + 1);
  const std::int64_t q0 = usmk::linear_id() * kVecGroups;
  if (q0 * per_group >= n) return;
  u64 all[32 * kVecGroups];
  words_of_groups(pos, static_cast<u64>(q0), all);
  usmk::with_streaming<T>(n, [&](auto S) {
#pragma unroll 1
    for (int s = 0; s < kVecGroups; ++s) {
      const std::int64_t q = q0 + s, e0 = q * per_group;
      if (e0 >= n) return;
      const u64 *words = all + 32 * s;
      if (e0 + per_group > n) {  // the last, partial group: item by item
        for (int k = 0; e0 + k < n; ++k) {
          const u64 d = halves ? u64(reinterpret_cast<const u32 *>(words)[k]) : words[k];
          out[e0 + k] = from_draw<D, T>(d, e0 + k, static_cast<u64>(e0 + k), pos, a, b, pa, pb);
        }
        return;
      }
      using U = std::conditional_t<halves, u32, u64>;
      const U *draws = reinterpret_cast<const U *>(words);
#pragma unroll
      for (int v = 0; v < per_group / L; ++v) {
        usmk::raw_vec<long long, L> bad = {};
        const auto r = from_draws<D, T, L>(usmk::load_raw<U, L>(draws + v * L), a, b, t, bad);
        usmk::store_vec<decltype(S)::value, T, L>(r, out + e0 + v * L);
        if constexpr (D == D_INT32) {
          // rejected draws (probability below range / 2^32): sub-streams;
          // one test of the whole vector first, as lanes are rarely rejected
          if (__builtin_reduce_or(bad) == 0) continue;
          static_assert(L == 16, "the integers' vectors are 16 halves");
          u32 mask = 0;
          for (int k = 0; k < L; ++k) mask |= (bad[k] != 0 ? 1u : 0u) << k;
          u64 x[16];
          redraw32_lanes(pos, e0 + v * L, mask, b + 1, t, x);
          for (int k = 0; k < L; ++k)
            if ((mask >> k) & 1u) out[e0 + v * L + k] = static_cast<T>(a + x[k]);
        }
      }
    }
  });
}

// ------------------------------------------------------------ shuffles
// Permutations (Rao-Sandelius): every item got a random bucket and a
// stable sort grouped them (idx: positions within their row of L items,
// rows of `keys` sorted by bucket). bounds[r * B + k] = where bucket k of
// row r starts in the sorted order; bounds[rows * B] = rows * L.
template <typename K>
USM_KERNEL(1)
void rng_bounds(kptr<const K> keys, kptr<const std::int64_t> idx, std::int64_t rows, std::int64_t L,
                std::int64_t B, kptr<std::int64_t> bounds) {
  const std::int64_t j = usmk::linear_id();
  if (j >= rows * L) return;
  const std::int64_t r = j / L, p = j - r * L;
  const K *row = keys + r * L;
  const std::int64_t k = row[idx[j]];
  const std::int64_t prev = p ? static_cast<std::int64_t>(row[idx[j - 1]]) : -1;
  for (std::int64_t b = prev + 1; b <= k; ++b) bounds[r * B + b] = j;
  if (p == L - 1)
    for (std::int64_t b = k + 1; b < B; ++b) bounds[r * B + b] = j + 1;
  if (j == rows * L - 1) bounds[rows * B] = rows * L;
}

// Fisher-Yates shuffle of each segment idx[bounds[s] : bounds[s + 1]], one
// work-item per segment, drawing from the segment's sub-stream (the word
// `first + s` from the base names it).
template <typename I>
USM_KERNEL(1)
void rng_shuffle(kptr<I> idx, kptr<const std::int64_t> bounds, std::int64_t nseg, std::uint64_t k0,
                 std::uint64_t k1, std::uint64_t c0, std::uint64_t c1, std::uint64_t c2,
                 std::uint64_t c3, std::int64_t first) {
  const std::int64_t s = usmk::linear_id();
  if (s >= nseg) return;
  const u64 base[4] = {c0, c1, c2, c3};
  Stream st(k0, k1, base, static_cast<u64>(first + s), 2, kUnitSegment);
  const std::int64_t lo = bounds[s];
  for (std::int64_t i = bounds[s + 1] - 1; i > lo; --i) {
    const u64 r = static_cast<u64>(i - lo + 1);
    const std::int64_t j = lo + static_cast<std::int64_t>(r <= (u64(1) << 32) ? bounded32(st, r)
                                                                             : bounded64(st, r));
    const I t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
}

// Sampling without replacement: out[i] = P(i) for i < k, where P is a
// keyed pseudo-random permutation of [0, n): a balanced Feistel network of
// kFeistelRounds rounds on 2h bits (2^2h >= n, halves of h <= 32 bits),
// walked until it lands in [0, n) ("cycle walking": P restricted to [0, n)
// is a permutation of it, and from i < n the walk ends on i's cycle). The
// round keys are eight 32-bit words of the Philox stream (host-drawn); the
// round function is a 32-bit integer hash (multiply and xor-shift, full
// avalanche). Each item is computed alone: the values are distinct by
// construction, with no table, atomics or compaction.
constexpr int kFeistelRounds = 8;

inline std::uint32_t feistel_mix(std::uint32_t z) {
  z ^= z >> 16;
  z *= 0x7feb352dU;
  z ^= z >> 15;
  z *= 0x846ca68bU;
  z ^= z >> 16;
  return z;
}

template <typename I>
USM_KERNEL(1)
void rng_sample(kptr<I> out, std::int64_t k, u64 n, std::uint32_t h, u64 w0, u64 w1, u64 w2,
                u64 w3) {
  const std::int64_t i = usmk::linear_id();
  if (i >= k) return;
  const std::uint32_t keys[8] = {std::uint32_t(w0), std::uint32_t(w0 >> 32), std::uint32_t(w1),
                                 std::uint32_t(w1 >> 32), std::uint32_t(w2), std::uint32_t(w2 >> 32),
                                 std::uint32_t(w3), std::uint32_t(w3 >> 32)};
  const std::uint32_t mask = h >= 32 ? ~std::uint32_t(0) : (std::uint32_t(1) << h) - 1;
  u64 x = static_cast<u64>(i);
  do {
    std::uint32_t l = static_cast<std::uint32_t>(x >> h), r = static_cast<std::uint32_t>(x) & mask;
#pragma unroll
    for (int j = 0; j < kFeistelRounds; ++j) {
      const std::uint32_t t = l ^ (feistel_mix(r ^ keys[j]) & mask);
      l = r;
      r = t;
    }
    x = (static_cast<u64>(l) << h) | r;
  } while (x >= n);
  out[i] = static_cast<I>(x);
}

// Philox4x64-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC 2011), exactly as numpy.random.Philox computes it, and what the
// random kernels build on it (kernels/sycl/random.cpp, random_dist.cpp):
// positions in the stream, per-element sub-streams, bounded integers.
//
// The stream is a sequence of 64-bit words: word k of block c is lane k of
// philox(key, c). Kernels get the key, the counter of a base block and the
// offset of their first word (or 32-bit half) from it, so every element's
// bits depend only on (key, counter, position): not on work-group sizes,
// chunking or the device.
#pragma once
#include "common.hpp"

namespace usmk::rng {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kM0 = 0xD2E7470EE14C6C93ull, kM1 = 0xCA5A826395121157ull;  // multipliers
constexpr u64 kW0 = 0x9E3779B97F4A7C15ull, kW1 = 0xBB67AE8584CAA73Bull;  // key bumps
// Sub-streams (below) run Philox under the key xor these (the first 128
// bits of the fractional part of sqrt(2)), so they never meet the main
// stream of the same key.
constexpr u64 kSub0 = 0x6A09E667F3BCC908ull, kSub1 = 0xB2FB1366EA957D3Eull;

// The 128-bit product a * m as (high, low) from 32-bit halves: device
// compilers have no __int128, and CPU runtimes vectorise this form (V is
// u64 or a clang vector of u64).
template <typename V> inline V mulhilo(V a, u64 m, V &lo) {
  const V al = a & 0xffffffffull, ah = a >> 32;
  const u64 ml = m & 0xffffffffull, mh = m >> 32;
  const V p0 = al * ml, p1 = al * mh, p2 = ah * ml, p3 = ah * mh;
  const V t = p1 + (p0 >> 32);   // (2^32 - 1)^2 + 2^32 - 1 < 2^64: no carry
  const V s = t + p2;            // may carry out: 2^32 more in the high word
  lo = (s << 32) | (p0 & 0xffffffffull);
  const V hi = p3 + (s >> 32);
  if constexpr (std::is_same_v<V, u64>) return hi + (u64(s < t) << 32);
  else return hi + ((V)(s < t) & (u64(1) << 32));
}

// c = philox4x64_10(key, c): Random123's rounds, as NumPy's philox.h.
template <typename V> inline void philox_round(V (&c)[4], u64 k0, u64 k1) {
  V lo0, lo1;
  const V hi0 = mulhilo(c[0], kM0, lo0);
  const V hi1 = mulhilo(c[2], kM1, lo1);
  const V n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
  c[0] = n0;
  c[1] = lo1;
  c[2] = n2;
  c[3] = lo0;
}
// Loops, not ten unrolled rounds: philox10 is inlined into every kernel
// and every sub-stream draw, and unrolled it took 30% of the random
// bundles' compile time. The CPU vector-block kernels' form (32 blocks in
// vectors of 32 lanes, words_of_groups) is as fast with one round per
// iteration as with two, and compiles faster (random's bundle 0.95 ->
// 0.81 s).
// `rounds` rounds, the first of them under the keys (k0, k1).
template <typename V> inline void philox_rounds(V (&c)[4], u64 k0, u64 k1, int rounds) {
#pragma unroll 1
  for (int r = 0; r < rounds; ++r) {
    philox_round(c, k0, k1);
    k0 += kW0;
    k1 += kW1;
  }
}
template <typename V> inline void philox10(V (&c)[4], u64 k0, u64 k1) {
  philox_rounds(c, k0, k1, 10);
}

// c = base + d (256-bit counters, wrapping like NumPy's).
inline void add_counter(const u64 (&base)[4], u64 d, u64 (&c)[4]) {
  c[0] = base[0] + d;
  u64 carry = c[0] < d;
  c[1] = base[1] + carry;
  carry = carry & (c[1] == 0);
  c[2] = base[2] + carry;
  carry = carry & (c[2] == 0);
  c[3] = base[3] + carry;
}

// The four words of block base + d.
inline void block(u64 k0, u64 k1, const u64 (&base)[4], u64 d, u64 (&w)[4]) {
  add_counter(base, d, w);
  philox10(w, k0, k1);
}

// Unit kinds of sub-stream identities (bits 60-63 of their counter's last
// word), so that the sub-stream of word k and that of half k differ.
enum : u64 { kUnitWord = 0, kUnitHalf = 1, kUnitSegment = 2 };

// A private stream for one element (or one segment of a shuffle): what a
// rejection sampler draws its variable number of values from. Identified
// by the absolute position of the element's unit in the main stream
// (block * 4 + word, or block * 8 + half; taken modulo 2^192, which only
// counters 2^190 blocks apart share) and the unit's kind; its blocks run
// under the sub-key, so no element's draws overlap another's or the main
// stream's.
struct Stream {
  u64 k0, k1;
  u64 c[4];
  u64 buf[4];
  int pos;

  // unit `g` of the main stream counted from block `base` (`shift`: 2 for
  // words, 3 for halves)
  Stream(u64 key0, u64 key1, const u64 (&base)[4], u64 g, int shift, u64 kind)
      : k0(key0 ^ kSub0), k1(key1 ^ kSub1), pos(4) {
    u64 b[4];
    add_counter(base, g >> shift, b);
    const u64 lane = g & ((u64(1) << shift) - 1);
    c[0] = (b[0] << shift) | lane;
    c[1] = (b[1] << shift) | (b[0] >> (64 - shift));
    c[2] = (b[2] << shift) | (b[1] >> (64 - shift));
    c[3] = kind << 60;
  }
  u64 next() {
    if (pos == 4) {
      u64 w[4] = {c[0], c[1], c[2], c[3]};
      philox10(w, k0, k1);
      for (int k = 0; k < 4; ++k) buf[k] = w[k];
      ++c[3];
      pos = 0;
    }
    return buf[pos++];
  }
  u32 next32() { return static_cast<u32>(next() >> 32); }
};

// [0, 1) with 53 random bits (NumPy's next_double) and [0, 1) with 24
// (next_float, from a 32-bit half).
inline double to_double(u64 w) { return static_cast<double>(w >> 11) * (1.0 / 9007199254740992.0); }
inline float to_float(u32 h) { return static_cast<float>(h >> 8) * (1.0f / 16777216.0f); }
// (0, 1]: for logarithms.
inline double to_double_pos(u64 w) {
  return static_cast<double>((w >> 11) + 1) * (1.0 / 9007199254740992.0);
}
inline double uniform(Stream &s) { return to_double(s.next()); }

// (x >> 11) 2^-53 for L words x, exactly (NumPy's next_double) in integer
// and subtraction steps: 1 + (x >> 12) 2^-52 less 1 - b 2^-53, b = bit 11
// of x: the difference, (x >> 11) 2^-53, is a double, so the subtraction
// is exact. (Six operations; converting the 53-bit integer took nine.)
template <int L> inline usmk::raw_vec<double, L> unit_f64(usmk::raw_vec<u64, L> x) {
  using W = usmk::raw_vec<u64, L>;
  using D = usmk::raw_vec<double, L>;
  constexpr u64 kOne = 0x3ff0000000000000ull;  // 1.0's bits
  return __builtin_bit_cast(D, (x >> 12) | W(kOne)) - __builtin_bit_cast(D, W(kOne) - ((x >> 11) & 1));
}

// Lemire's bounded integers: x in [0, r) from a 32-bit draw h (r <= 2^32)
// or a 64-bit draw w (r < 2^64), exactly uniform: a draw is rejected when
// the low part of its product falls below 2^k mod r, which happens with
// probability below r / 2^k. Returns false for a rejected draw.
inline bool lemire32(u32 h, u64 r, u64 &x) {
  const u64 m = static_cast<u64>(h) * r;
  const u64 l = m & 0xffffffffull;
  if (l < r && l < ((u64(1) << 32) - r) % r) return false;
  x = m >> 32;
  return true;
}
inline bool lemire64(u64 w, u64 r, u64 &x) {
  u64 l;
  const u64 hi = mulhilo(w, r, l);
  if (l < r && l < (0 - r) % r) return false;
  x = hi;
  return true;
}
// The same drawing from a sub-stream until a draw is accepted.
inline u64 bounded32(Stream &s, u64 r) {
  u64 x;
  while (!lemire32(s.next32(), r, x)) {}
  return x;
}
inline u64 bounded64(Stream &s, u64 r) {
  u64 x;
  while (!lemire64(s.next(), r, x)) {}
  return x;
}


// ------------------------------------------------------------ launches
// The arguments every random kernel takes: the key, the base block's
// counter, the offset of the first unit (word or half) from the base
// block, and for 32-bit draws a `lead` element taken from `lead_bits` (the
// high half NumPy's Philox keeps from an earlier 32-bit draw).
struct Pos {
  u64 k0, k1;
  u64 base[4];
  std::int64_t first;
  u32 lead, lead_bits;
};

// A work-item of the CPU vector-block kernels takes kVecGroups groups of 8
// consecutive blocks (32 blocks: 128 words).
constexpr int kVecGroups = 4;
using V8 = usmk::raw_vec<u64, 8>;

// The words of the kVecGroups groups from group q on (blocks 8q .. 8q + 31
// from the base), in stream order: group s's 32 words at out + 32 s.
// All four groups' rounds run at once, in vectors of 32 lanes. The
// multiplications of one group wait on its previous round's, and the other
// groups' fill those cycles: one group at a time (8 lanes), random(10**7)
// took 5.2 ms for float32 and 11.3 ms for float64, now 3.9-4.2 and 8.4-8.8
// (3.3-3.45 and 7.0-7.2 with the first two rounds' shortcuts, below).
inline void words_of_groups(const Pos &p, u64 q, u64 (&out)[32 * kVecGroups]) {
  constexpr int B = 8 * kVecGroups;   // blocks
  using VB = usmk::raw_vec<u64, B>;
  VB j;
#pragma unroll
  for (int k = 0; k < B; ++k) j[k] = u64(k);
  VB c[4];
  if (p.base[0] <= ~u64(0) - (8 * q + (B - 1))) {
    // no carry out of word 0: words 1-3 are the same in every lane, so the
    // first round's second product and the second round's first are scalars,
    // and its first product is (base + 8 q) M0 + j M0, a sum of 128-bit numbers
    // (the second a constant)
    u64 slo1, slo0, clo;
    const u64 shi1 = mulhilo(p.base[2], kM1, slo1);
    const u64 chi = mulhilo(p.base[0] + 8 * q, kM0, clo);
    VB jlo;
    const VB jhi = mulhilo(j, kM0, jlo);
    const VB lo0 = clo + jlo;
    const VB hi0 = chi + jhi + ((VB)(lo0 < jlo) & 1);
    const u64 s0 = shi1 ^ p.base[1] ^ p.k0;   // round 1's c[0], c[1] = slo1
    const VB v2 = hi0 ^ p.base[3] ^ p.k1;     // round 1's c[2], c[3] = lo0
    const u64 shi0 = mulhilo(s0, kM0, slo0);
    VB lo1;
    const VB hi1 = mulhilo(v2, kM1, lo1);
    c[0] = hi1 ^ slo1 ^ (p.k0 + kW0);
    c[1] = lo1;
    c[2] = shi0 ^ lo0 ^ (p.k1 + kW1);
    c[3] = slo0;
    philox_rounds(c, p.k0 + 2 * kW0, p.k1 + 2 * kW1, 8);
  } else {
    const VB d = j + 8 * q;
    c[0] = p.base[0] + d;
    VB carry = (VB)(c[0] < d) & 1;
    c[1] = p.base[1] + carry;
    carry = carry & ((VB)(c[1] == 0) & 1);
    c[2] = p.base[2] + carry;
    carry = carry & ((VB)(c[2] == 0) & 1);
    c[3] = p.base[3] + carry;
    philox10(c, p.k0, p.k1);
  }
  // lane j of c[k] is word k of block j: interleave into 4 j + k, a group
  // of 8 blocks at a time
  using V16 = usmk::raw_vec<u64, 16>;
#pragma unroll
  for (int g = 0; g < kVecGroups; ++g) {
    V8 h[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
#pragma unroll
      for (int j = 0; j < 8; ++j) h[k][j] = c[k][8 * g + j];
    const V16 lo = __builtin_shufflevector(h[0], h[1], 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6,
                                           14, 7, 15);
    const V16 hi = __builtin_shufflevector(h[2], h[3], 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6,
                                           14, 7, 15);
    const usmk::raw_vec<u64, 32> all = __builtin_shufflevector(
        lo, hi, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23, 8, 9, 24, 25, 10, 11, 26,
        27, 12, 13, 28, 29, 14, 15, 30, 31);
    __builtin_memcpy(out + 32 * g, &all, sizeof(all));
  }
}

// Generic kernels, one work-item per block: f(i, w, k, g) for the elements
// i whose word is lane k of the block w, g its unit's offset from the base.
template <class F> inline void for_words(const Pos &p, std::int64_t n, F &&f) {
  const std::int64_t blk = usmk::linear_id();
  const std::int64_t lo = 4 * blk - p.first;
  if (lo >= n || lo + 4 <= 0) return;
  u64 w[4];
  block(p.k0, p.k1, p.base, static_cast<u64>(blk), w);
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const std::int64_t i = lo + k;
    if (i >= 0 && i < n) f(i, w, k, static_cast<u64>(4 * blk + k));
  }
}

// The same over 32-bit halves (low half of a word first, as NumPy's
// next_uint32): f(i, h, g) with g the half's offset from the base (the lead
// element, if any, gets g = ~0: its sub-stream is the lead's own).
template <class F> inline void for_halves(const Pos &p, std::int64_t n, F &&f) {
  const std::int64_t blk = usmk::linear_id();
  if (blk == 0 && p.lead && n > 0) f(std::int64_t(0), p.lead_bits, ~u64(0));
  const std::int64_t lo = 8 * blk - p.first + p.lead;
  if (lo >= n || lo + 8 <= p.lead) return;
  u64 w[4];
  block(p.k0, p.k1, p.base, static_cast<u64>(blk), w);
#pragma unroll
  for (int h = 0; h < 8; ++h) {
    const std::int64_t i = lo + h;
    if (i >= p.lead && i < n)
      f(i, static_cast<u32>(w[h >> 1] >> (32 * (h & 1))), static_cast<u64>(8 * blk + h));
  }
}

// One work-item per element (distributions drawing from sub-streams):
// f(i, g) with g = the element's word offset from the base.
template <class F> inline void for_elements(const Pos &p, std::int64_t n, F &&f) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) f(i, static_cast<u64>(p.first + i));
}

// The sub-stream of a unit (see Stream).
inline Stream word_stream(const Pos &p, u64 g) { return Stream(p.k0, p.k1, p.base, g, 2, kUnitWord); }
inline Stream half_stream(const Pos &p, u64 g) {
  // the lead element: its own kind, at the call's first half
  if (g == ~u64(0)) return Stream(p.k0, p.k1, p.base, static_cast<u64>(p.first), 3, 3);
  return Stream(p.k0, p.k1, p.base, g, 3, kUnitHalf);
}

// A parameter of type P (the compute type of a distribution, or u64 for
// integers): per element from an array of P, or the scalar passed as bits
// (so that kernels computing in float take no double argument).
template <typename P> inline P from_bits(u64 v) {
  if constexpr (sizeof(P) == 4) return __builtin_bit_cast(P, static_cast<u32>(v));
  else return __builtin_bit_cast(P, v);
}
template <typename P> inline P param(const void *arr, std::int64_t i, u64 bits) {
  return arr ? static_cast<const P *>(arr)[i] : from_bits<P>(bits);
}

} // namespace usmk::rng

// The argument list of every random kernel (random.cpp, random_dist.cpp);
// kernels/engine/random.cpp sets them in this order.
#define USM_RNG_ARGS                                                           \
  kptr<T> out, std::int64_t n, std::uint64_t k0, std::uint64_t k1, std::uint64_t c0, \
      std::uint64_t c1, std::uint64_t c2, std::uint64_t c3, std::int64_t first, \
      std::uint32_t lead, std::uint32_t lead_bits, std::uint64_t a,           \
      std::uint64_t b, kptr<const void> pa, kptr<const void> pb
#define USM_RNG_POS                                                            \
  const usmk::rng::Pos pos{k0, k1, {c0, c1, c2, c3}, first, lead, lead_bits}

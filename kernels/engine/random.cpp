// Launches of the random kernels (kernels/sycl/random.cpp, random_dist.cpp;
// usmarray/random decides what to draw): one entry point fills an array
// from a position of a Philox stream, three more serve permutations and
// sampling without replacement.
#include "engine.hpp"

#include <array>

#include <nanobind/stl/array.h>

namespace usm {

namespace {

// Groups of 8 blocks per work-item of rng_vec (kernels/sycl/philox.hpp kVecGroups).
constexpr int64_t kRngVecGroups = 4;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A contiguous array of `n` items of type `tc` in q's context, or nullptr for None.
Allocation *param_array(sycl::queue &q, nb::handle h, const ArrayRef &out, int tc, ArrayRef &p,
                        const char *what) {
  if (h.is_none()) return nullptr;
  read_array(h, p);
  check_operand(q, p, out, what);
  if (!p.is_c_contiguous() || p.tc != tc)
    throw nb::value_error((std::string("random_fill: ") + what +
                           " must be contiguous, of the output's shape and the parameter type")
                              .c_str());
  return p.alloc;
}

// kernels/sycl/random_dist.cpp D_BINOMIAL, D_HYPERGEOMETRIC
constexpr int kDistBinomial = 11, kDistHypergeometric = 15;

} // namespace

// out = a distribution drawn from the stream of `key` at `first` units
// (words: unit 0, halves: 1; unit 2: one word per element, the element's
// sub-stream) from the block `ctr`, `lead` elements first from lead_bits.
// kernel "rng_fill" (types of `out`) or "rng_dist" (computing in `ctc`);
// a, b: the parameters as bits, pa, pb: per-element parameters or None.
Event random_fill(std::uintptr_t qref, KernelCache &kc, const std::string &kernel, int dist,
                  int ctc, int unit, nb::handle out_h, std::array<uint64_t, 2> key,
                  std::array<uint64_t, 4> ctr, int64_t first, uint32_t lead, uint32_t lead_bits,
                  uint64_t a, uint64_t b, nb::handle pa_h, nb::handle pb_h) {
  if (kernel != "rng_fill" && kernel != "rng_dist")
    throw nb::value_error("random_fill: kernel must be 'rng_fill' or 'rng_dist'");
  if (dist < 0 || dist > 63 || unit < 0 || unit > 2 || lead > 1 || first < 0 ||
      first >= (unit == 1 ? 8 : 4) || (lead && unit != 1))
    throw nb::value_error("random_fill: bad distribution, unit or stream position");
  if (kernel == "rng_dist" && ctc != TC_F4 && ctc != TC_F8)
    throw nb::value_error("random_fill: the compute type must be float32 or float64");
  ArrayRef out, pa, pb;
  read_array(out_h, out);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, out, out, "the output");
  if (!out.is_c_contiguous()) throw nb::value_error("random_fill: the output must be contiguous");
  const int ptc = kernel == "rng_dist" ? ctc : (out.tc == TC_F4 || out.tc == TC_F8 ? out.tc : TC_U8);
  // (binomial's first parameter, the trials, is an int64: exact past 2^53;
  // both of hypergeometric's, the kinds' sizes and the sample)
  const bool counts = kernel == "rng_dist" && (dist == kDistBinomial || dist == kDistHypergeometric);
  const int ptc_a = counts ? TC_I8 : ptc;
  const int ptc_b = kernel == "rng_dist" && dist == kDistHypergeometric ? TC_I8 : ptc;
  Allocation *apa = param_array(q, pa_h, out, ptc_a, pa, "the first parameter array");
  Allocation *apb = param_array(q, pb_h, out, ptc_b, pb, "the second parameter array");
  const int64_t n = out.size();
  if (n == 0) return Event{};
  const std::string T = kTypeName[out.tc];
  const std::string D = std::to_string(dist);
  char *ptr = out.data();
  const void *ppa = apa ? static_cast<const void *>(pa.data()) : nullptr;
  const void *ppb = apb ? static_cast<const void *>(pb.data()) : nullptr;
  sycl::nd_range<1> range{{1}, {1}};
  const sycl::kernel *kv = nullptr;
  // the vector-block variant: calls starting at a block boundary with
  // scalar parameters
  // (kernels/sycl/random.cpp: rng_vec; random_dist.cpp: rng_dist_vec for
  // the distributions reading one word per element)
  if (first == 0 && lead == 0 && !apa && !apb) {
    if (kernel == "rng_fill")
      kv = simd_variant(kc, "rng_vec<" + D + ", " + T + ">", ptr);
    else if (unit == 0)
      kv = simd_variant(kc, "rng_dist_vec<" + D + ", " + T + ", " + kTypeName[ctc] + ">", ptr);
  }
  std::optional<sycl::kernel> k;
  if (kv) {
    range = vector_items(ceil_div(ceil_div(n, unit == 1 ? 64 : 32), kRngVecGroups));
    k = *kv;
  } else {
    const int64_t items = unit == 0 ? ceil_div(first + n, 4)
                          : unit == 1 ? ceil_div(first + n - lead, 8) + (first + n - lead <= 0)
                                      : n;
    range = linear_range(items, kc.wg_size);
    k = kernel == "rng_fill" ? kc.get("rng_fill<" + D + ", " + T + ">")
                             : kc.get("rng_dist<" + D + ", " + T + ", " + kTypeName[ctc] + ">");
  }
  return Event{submit(q, {out.alloc, apa, apb}, [&](auto &h) {
    set_args(h, ptr, n, key[0], key[1], ctr[0], ctr[1], ctr[2], ctr[3], first, lead, lead_bits, a,
               b, ppa, ppb);
    h.parallel_for(range, *k);
  })};
}

// bounds of the buckets of rows of `keys` (uint8 or uint16: 256 or 65536
// buckets) grouped by the stable sort `idx` (rng_bounds).
Event random_bounds(std::uintptr_t qref, KernelCache &kc, nb::handle keys_h, nb::handle idx_h,
                    nb::handle bounds_h) {
  ArrayRef keys, idx, bounds;
  read_array(keys_h, keys);
  read_array(idx_h, idx);
  read_array(bounds_h, bounds);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, keys, keys, "the keys");
  check_operand(q, idx, keys, "the sorted positions");
  check_operand(q, bounds, bounds, "the bounds");
  if ((keys.tc != TC_U1 && keys.tc != TC_U2) || keys.nd != 2 || !keys.is_c_contiguous() ||
      idx.tc != TC_I8 || !idx.is_c_contiguous() || bounds.tc != TC_I8 ||
      !bounds.is_c_contiguous())
    throw nb::value_error("random_bounds: expected contiguous (rows, L) uint8/uint16 keys, int64 "
                          "positions and int64 bounds");
  const int64_t rows = keys.shape[0], L = keys.shape[1], B = keys.tc == TC_U1 ? 256 : 65536;
  if (bounds.size() != rows * B + 1) throw nb::value_error("random_bounds: bounds need rows * B + 1 items");
  if (rows * L == 0) return Event{};
  sycl::kernel k = kc.get(std::string("rng_bounds<") + kTypeName[keys.tc] + ">");
  const void *pk = keys.data(), *pi = idx.data();
  void *pb = bounds.data();
  return Event{submit(q, {keys.alloc, idx.alloc, bounds.alloc}, [&](auto &h) {
    set_args(h, pk, pi, rows, L, B, pb);
    h.parallel_for(linear_range(rows * L, kc.wg_size), k);
  })};
}

// Fisher-Yates shuffles of the segments idx[bounds[s] : bounds[s + 1]]
// (int64 idx; bounds from random_bounds or evenly spaced rows), segment s
// drawing from the sub-stream of word first + s from block ctr.
Event random_shuffle(std::uintptr_t qref, KernelCache &kc, nb::handle idx_h, nb::handle bounds_h,
                     std::array<uint64_t, 2> key, std::array<uint64_t, 4> ctr, int64_t first) {
  ArrayRef idx, bounds;
  read_array(idx_h, idx);
  read_array(bounds_h, bounds);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, idx, idx, "the positions");
  check_operand(q, bounds, bounds, "the bounds");
  if (idx.tc != TC_I8 || !idx.is_c_contiguous() || bounds.tc != TC_I8 || bounds.nd != 1 ||
      !bounds.is_c_contiguous() || bounds.shape[0] < 1 || first < 0 || first >= 4)
    throw nb::value_error("random_shuffle: expected contiguous int64 positions and bounds");
  const int64_t nseg = bounds.shape[0] - 1;
  if (nseg == 0 || idx.size() == 0) return Event{};
  sycl::kernel k = kc.get("rng_shuffle<i8>");
  void *pi = idx.data();
  const void *pb = bounds.data();
  return Event{submit(q, {idx.alloc, bounds.alloc}, [&](auto &h) {
    set_args(h, pi, pb, nseg, key[0], key[1], ctr[0], ctr[1], ctr[2], ctr[3], first);
    h.parallel_for(linear_range(nseg, kc.wg_size), k);
  })};
}

// out (contiguous int64, k items) = the first k values of a keyed
// pseudo-random permutation of [0, n) (kernels/sycl/random.cpp: rng_sample),
// from the eight 32-bit round keys in `words` (host-drawn stream words).
Event random_sample(std::uintptr_t qref, KernelCache &kc, nb::handle out_h, uint64_t n,
                    std::array<uint64_t, 4> words) {
  ArrayRef out;
  read_array(out_h, out);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, out, out, "the result");
  const int64_t k = out.size();
  if (out.tc != TC_I8 || !out.is_c_contiguous() || n == 0 || static_cast<uint64_t>(k) > n)
    throw nb::value_error("random_sample: expected a contiguous int64 result of at most n items");
  if (k == 0) return Event{};
  // halves of h bits: the smallest even width holding n - 1 (at least 2)
  uint32_t bits = 0;
  while (bits < 64 && ((n - 1) >> bits) != 0) ++bits;
  const uint32_t h = std::max<uint32_t>(1, (bits + 1) / 2);
  sycl::kernel kern = kc.get("rng_sample<i8>");
  void *po = out.data();
  return Event{submit(q, {out.alloc}, [&](auto &hd) {
    set_args(hd, po, k, n, h, words[0], words[1], words[2], words[3]);
    hd.parallel_for(linear_range(k, kc.wg_size), kern);
  })};
}

} // namespace usm

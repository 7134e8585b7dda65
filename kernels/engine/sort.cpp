// Stable sorts along the rows of contiguous buffers (kernels/sycl/sort.cpp):
// Python lays out the keys (and argsort's indices) with the sorted axis
// last; here the radix passes (real types, rows of kRadixMinRow items or
// more) or the chunk sort and merge passes run, ping-ponging through pooled
// temporaries.
#include "engine.hpp"

#include <algorithm>
#include <cstring>

namespace usm {

// The rows of src sorted into k (and ix), by the algorithm for their length.
Ev sort_rows(sycl::queue &q, KernelCache &kc, const ArrayRef &sr, const ArrayRef &k, const ArrayRef *ix,
             int64_t rows, int64_t n, bool desc);

namespace {
constexpr int64_t kSortChunk = 16;
constexpr int64_t kRadixMinRow = 256;  // shorter rows: merge sort (fewer launches)
constexpr int kRadixDigits = 256;      // kernels/sycl/sort.cpp
constexpr int64_t kRadixGroup = 32;    // work-items per group of the generic form
constexpr int64_t kRadixItems = 64;    // keys per work-item of the generic form
constexpr int64_t kRadixCpuBlocks = 64;   // blocks of the CPU form (one work-item each)
constexpr int64_t kRadixCpuMinBlock = 4096;
constexpr int64_t kRadixCpuMinRows = 8;      // this many rows: a work-item per row
constexpr int64_t kRadixCpuMaxRowLength = int64_t(1) << 24;
// CPU devices: one row up to this long goes to radix_sort (any longer, to
// radix_sort too, after the networks and merges are ruled out)
constexpr int64_t kRadixCpuOneRow = int64_t(1) << 18;
// ... and there to one work-item (radix_rows, one launch) up to this many
// keys, to the leading pass and the segments on every core above: measured
// (docs/algorithms.md) where the two cross, by key size, sort or argsort.
// The same for a few rows (2 to kRadixCpuMinRows - 1), a work-item each.
// 1- and 2-byte keys sort in one or two passes of radix_rows: one core up
// to 2^18 keys. (Set before the segments: 2^18 for every key.)
int64_t one_row_max(int64_t itemsize, bool with_idx) {
  if (itemsize <= 2) return kRadixCpuOneRow;
  if (itemsize == 4) return int64_t(1) << 15;
  return with_idx ? int64_t(1) << 14 : int64_t(1) << 13;
}
// shorter rows: networks and merges (at 40 keys half radix_rows's time, at 100 twice)
constexpr int64_t kRadixCpuMinRowLength = 64;
// CPU devices: sort of rows of 2 to kColNetMax keys by sort_cols (measured
// against sort_vec and the scalar networks: 1.2-5x faster from 2 keys to
// 1000, every key size; docs/algorithms.md), argsort of rows above the networks' widths up to
// kVecNetMax keys by sort_vec
constexpr int64_t kColNetMax = 1024, kVecNetMax = 1024;  // kernels/sycl/sort.cpp
constexpr int64_t kRadixSample = 16;   // sampled keys per work-item of radix_bits
constexpr int kLutBits = 18;           // kernels/sycl/sort.cpp
constexpr uint32_t kLutSize = 1u << kLutBits;
// When the leading pass tries buckets by a table instead (measured, 2e6 and
// 2e7 keys): a segment of more than 1/8 of the row, or of more than this
// many 8-byte keys (512 KB: past the cache). Larger segments of 4-byte keys
// sorted faster than the table's buckets, whose lower bytes often take a
// pass where nearly every key has one digit (a chain of counter updates).
constexpr int64_t kRadixCpuSegment = int64_t(1) << 16;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// lut[p] for the kLutBits-bit prefixes p (bits [shift, shift + kLutBits) of a mapped
// key less `base`): the bucket of keys with that prefix, the number of splitters below
// it, where splitter k of 255 is the prefix of the sample's key of rank
// k * S / 256. The buckets grow with the key, so a pass by them keeps the
// sort order, and each holds about S / 256 of the sampled keys (all keys of
// one prefix share a bucket).
void build_bucket_table(const uint64_t *sample, int64_t S, uint64_t base, int shift, uint8_t *lut) {
  std::vector<uint64_t> v(sample, sample + S);
  for (uint64_t &x : v) x -= base;   // the keys as the kernels see them (base: radix_sort)
  std::sort(v.begin(), v.end());
  uint32_t split[255];
  for (int k = 0; k < 255; ++k)
    split[k] = static_cast<uint32_t>((v[static_cast<size_t>((k + 1) * S / 256)] >> shift) & (kLutSize - 1));
  // prefixes (split[k - 1], split[k]] get k (up to split[0]: 0; past split[254]: 255),
  // a run at a time (a loop over the 2^18 prefixes took 0.1 ms of a 0.22 ms sort of 10^4 keys)
  uint32_t from = 0;
  for (int k = 0; k <= 255; ++k) {
    const uint32_t to = k < 255 ? split[k] + 1 : kLutSize;
    if (to > from) {
      std::memset(lut + from, k, to - from);
      from = to;
    }
  }
}

// Kernels that take whole rows per work-item (radix_rows, sort_vec, sort_cols): groups
// of one, at most 256 of them, each a contiguous run of rows (RowRun).
sycl::nd_range<1> rows_range(int64_t rows) {
  return sycl::nd_range<1>{{static_cast<size_t>(std::min<int64_t>(rows, 256))}, {1}};
}

// Indices 0..n-1 in every row of idx (the chunk sort with chunks of one).
Ev iota_rows(sycl::queue &q, KernelCache &kc, const ArrayRef &k, const ArrayRef &ix,
                      int64_t rows, int64_t n) {
  const sycl::kernel &chunks = kc.get("sort_chunks<" + std::string(kTypeName[k.tc]) + ", 1>");
  char *kp = k.data(), *ip = ix.data();
  const int64_t one = 1;
  const int zero = 0;
  return submit(q, {k.alloc, ix.alloc}, [&](auto &h) {
    set_args(h, kp, ip, rows, n, one, zero);
    h.parallel_for(linear_range(rows * n, kc.wg_size), chunks);
  });
}

Ev copy_bytes(sycl::queue &q, char *dst, Allocation *da, const char *src, Allocation *sa,
                       size_t nbytes) {
  return enqueue(q, {da, sa}, [&](const std::vector<sycl::event> &deps) {
    return q.memcpy(dst, src, nbytes, deps);
  });
}

// How often the most common of the S sampled keys occurs; `key` gets it.
int64_t most_common(const uint64_t *sample, int64_t S, uint64_t &key) {
  std::vector<uint64_t> v(sample, sample + S);
  std::sort(v.begin(), v.end());
  int64_t most = 0;
  for (int64_t j = 0, r = 1; j < S; ++j, ++r) {
    if (j + 1 == S || v[j + 1] != v[j]) {
      if (r > most) {
        most = r;
        key = v[j];
      }
      r = 0;
    }
  }
  return most;
}

// The part [lo, lo + m) of a one-row buffer as a (1, m) row.
ArrayRef row_part(const ArrayRef &a, Allocation *alloc, int64_t off, int64_t m) {
  ArrayRef r = a;
  r.alloc = alloc;
  r.off = off;
  r.nd = 2;
  r.shape[0] = 1;
  r.shape[1] = m;
  r.strides[0] = m;
  r.strides[1] = 1;
  return r;
}

// One row of n keys split by `key` (the image less base that most keys
// have, as radix_bits samples them) by radix_split: the keys before and
// after it to tmp (n keys), its copies to their places in keys; then the
// keys before it and after it sorted into keys (sort_rows: any algorithm,
// even this split again for another key).
Ev split_sort(sycl::queue &q, KernelCache &kc, const ArrayRef &sr, const ArrayRef &k, int64_t n, bool desc,
              uint64_t key, uint64_t base, Allocation *tmp) {
  const sycl::kernel &split = kc.get("radix_split<" + std::string(kTypeName[k.tc]) + ">");
  const int64_t B = std::min<int64_t>(256, std::max<int64_t>(1, n / 16384)), items = ceil_div(n, B);
  std::unique_ptr<Allocation> pos(allocate(q, static_cast<size_t>(3 * B * 8), KIND_SHARED));
  const int dflip = desc ? 1 : 0;
  const uint64_t flip = desc ? ~uint64_t(0) : 0;
  if (k.itemsize == 4) key = (key ^ flip) & 0xFFFFFFFFu;
  else key ^= flip;
  const char *sp = sr.data();
  char *kp = k.data(), *tp = static_cast<char *>(tmp->ptr);
  void *pp = pos->ptr;
  auto launch = [&](int phase) {
    return submit(q, {sr.alloc, k.alloc, tmp, pos.get()}, [&](auto &h) {
      set_args(h, sp, n, items, key, base, dflip, phase, pp, tp, kp);
      h.parallel_for(sycl::nd_range<1>{{static_cast<size_t>(B)}, {1}}, split);
    });
  };
  launch(0);
  pos->wait();
  int64_t *pv = static_cast<int64_t *>(pos->ptr);
  int64_t before = 0, same = 0;
  for (int64_t b = 0; b < B; ++b) {
    before += pv[3 * b];
    same += pv[3 * b + 1];
  }
  int64_t pb = 0, ps = before, pa = before + same;
  for (int64_t b = 0; b < B; ++b) {
    const int64_t nb = std::min(n, (b + 1) * items) - std::min(n, b * items);
    const int64_t lt = pv[3 * b], eq = pv[3 * b + 1];
    pv[3 * b] = pb;
    pv[3 * b + 1] = ps;
    pv[3 * b + 2] = pa;
    pb += lt;
    ps += eq;
    pa += nb - lt - eq;
  }
  Ev e = launch(1);
  const int64_t after = before + same;
  for (auto [lo, m] : {std::pair<int64_t, int64_t>{0, before}, {after, n - after}}) {
    if (m == 1) e = copy_bytes(q, kp + lo * k.itemsize, k.alloc, tp + lo * k.itemsize, tmp, k.itemsize);
    else if (m > 1)
      e = sort_rows(q, kc, row_part(k, tmp, lo, m), row_part(k, k.alloc, k.off + lo, m), nullptr, 1, m, desc);
  }
  return e;
}

// LSD radix sort of the (rows, n) src into keys (and idx), n >= 2; see
// kernels/sycl/sort.cpp. The first pass reads src, the passes alternate
// between keys and a temporary so that the last one writes keys.
Ev radix_sort(sycl::queue &q, KernelCache &kc, const ArrayRef &sr, const ArrayRef &k,
                       const ArrayRef *ix, int64_t rows, int64_t n, bool desc) {
  const bool with_idx = ix != nullptr;
  const int64_t N = rows * n, isz = k.itemsize;
  const std::string t = kTypeName[k.tc];
  const std::string targs = t + (with_idx ? ", 1>" : ", 0>");
  // the digits of argsort differ from sort's only for floats (-0.0 is +0.0)
  const bool is_float = k.tc == TC_F2 || k.tc == TC_F4 || k.tc == TC_F8;
  const std::string zargs = t + (with_idx && is_float ? ", 1>" : ", 0>");
  const int dflip = desc ? 0xff : 0;
  char *sp = sr.data(), *kp = k.data(), *ip = with_idx ? ix->data() : nullptr;
  Allocation *sa = sr.alloc, *ka = k.alloc, *ia = with_idx ? ix->alloc : k.alloc;

  std::unique_ptr<Allocation> kt(allocate(q, static_cast<size_t>(N * isz), KIND_DEVICE));
  std::unique_ptr<Allocation> it(with_idx ? allocate(q, static_cast<size_t>(N * 8), KIND_DEVICE)
                                          : nullptr);
  Allocation *ita = with_idx ? it.get() : kt.get();
  char *tkp = static_cast<char *>(kt->ptr);
  char *tip = with_idx ? static_cast<char *>(it->ptr) : nullptr;
  if (kc.simd && n <= kRadixCpuMaxRowLength &&
      (rows >= kRadixCpuMinRows || n <= one_row_max(isz, with_idx))) {
    // CPU, many rows or short ones: a work-item sorts a row through all
    // passes (skipping those whose digit every key of the row has), one launch
    const sycl::kernel &kr = kc.get("radix_rows<" + targs);
    return submit(q, {sa, ka, ia, kt.get(), ita}, [&](auto &h) {
      set_args(h, static_cast<const char *>(sp), kp, ip, tkp, tip, rows, n, dflip);
      h.parallel_for(rows_range(rows), kr);
    });
  }
  // Which bits differ between keys: passes over the others change nothing.
  const int64_t G = std::min<int64_t>(256, static_cast<int64_t>(pow2_at_least(ceil_div(N, 4096))));
  std::unique_ptr<Allocation> bits(
      allocate(q, static_cast<size_t>(G * (5 + kRadixSample) * 8), KIND_SHARED));
  {
    const sycl::kernel &kb = kc.get("radix_bits<" + zargs);
    void *bp = bits->ptr;
    size_t L = 1;   // a power of two dividing G (CPU: 1, kernels/sycl/sort.cpp)
    while (!kc.simd && static_cast<int64_t>(2 * L) <= std::min<int64_t>(G, 64) && 2 * L <= kc.wg_size)
      L *= 2;
    submit(q, {sa, bits.get()}, [&](auto &h) {
      set_args(h, static_cast<const char *>(sp), N, bp);
      h.parallel_for(sycl::nd_range<1>{{static_cast<size_t>(G)}, {L}}, kb);
    });
    bits->wait();
  }
  const uint64_t *sample = static_cast<const uint64_t *>(bits->ptr) + 5 * G;
  const int64_t NS = G * kRadixSample;   // sampled keys
  uint64_t o = 0, a = ~uint64_t(0), nan = 0, kmin = ~uint64_t(0), kmax = 0;
  const uint64_t *bv = static_cast<const uint64_t *>(bits->ptr);
  for (int64_t g = 0; g < G; ++g) {
    o |= bv[5 * g];
    a &= bv[5 * g + 1];
    nan |= bv[5 * g + 2];
    kmin = std::min(kmin, bv[5 * g + 3]);
    kmax = std::max(kmax, bv[5 * g + 4]);
  }
  uint64_t vary = o ^ a;
  // Digits of the keys less the smallest (`base`; the kernels subtract it
  // from each mapped key) when those span fewer bytes than the bits that
  // vary: signed integers of both signs near zero, whose sign bits made
  // every byte vary (int64 in [-1000, 1000): two passes instead of eight).
  uint64_t base = 0;
  {
    const uint64_t range = kmax - kmin;
    int rbytes = 0, vbytes = 0;
    while (rbytes < 8 && (range >> (8 * rbytes)) != 0) ++rbytes;
    for (int b = 0; b < isz; ++b) vbytes += ((vary >> (8 * b)) & 0xff) != 0;
    if (kmin <= kmax && rbytes < vbytes) {
      base = kmin;
      vary = range == 0 ? 0 : ~uint64_t(0) >> __builtin_clzll(range);
    }
  }
  std::vector<int> shifts;
  for (int s = 0; s < 8 * isz; s += 8)
    if ((vary >> s) & 0xff) shifts.push_back(s);
  if (shifts.empty()) {   // all keys equal: in order already
    Ev e = copy_bytes(q, kp, ka, sp, sa, static_cast<size_t>(N * isz));
    if (with_idx) e = iota_rows(q, kc, k, *ix, rows, n);
    return e;
  }
  // CPU sorts of 4- and 8-byte keys: the sample's most common key. One row
  // of which it makes 30% of the sample or more (about the share whose sort
  // costs the split's two passes): split by it (radix_split), the others
  // sorted on
  uint64_t key = 0;
  const int64_t most = kc.simd && !with_idx && isz >= 4 ? most_common(sample, NS, key) : 0;
  if (kc.simd && rows == 1 && !with_idx && isz >= 4) {
    if (10 * most > 3 * NS) return split_sort(q, kc, sr, k, n, desc, key - base, base, kt.get());
    // floats with NaNs: the NaNs split off (their image is the largest), so
    // that the numbers sort as mapped floats (radix_segments)
    if (is_float && nan) {
      const uint64_t top_image = isz == 4 ? 0xFFFFFFFFu : ~uint64_t(0);
      return split_sort(q, kc, sr, k, n, desc, top_image - base, base, kt.get());
    }
  }

  int64_t W, items, bpr;
  if (kc.simd) {   // CPU: a serial counting sort per block, blocks spread over the cores
    W = 1;
    bpr = std::max<int64_t>(1, std::min(ceil_div(kRadixCpuBlocks, rows), n / kRadixCpuMinBlock));
    items = ceil_div(n, bpr);
  } else {
    W = std::min<int64_t>(kRadixGroup, static_cast<int64_t>(kc.wg_size));
    items = std::min(kRadixItems, ceil_div(n, W));
    bpr = ceil_div(n, W * items);
  }
  const int64_t blocks = rows * bpr, m = blocks * kRadixDigits;
  // (the CPU form reads the counts of the leading digit on the host, below)
  std::unique_ptr<Allocation> counts(
      allocate(q, static_cast<size_t>(m * 8), kc.simd ? KIND_SHARED : KIND_DEVICE));
  void *cp = counts->ptr;
  const sycl::kernel &hist = kc.get("radix_hist<" + zargs);
  const sycl::kernel &scan = kc.get("radix_scan<" + t + ">");
  const sycl::kernel &scatter = kc.get("radix_scatter<" + targs);
  const sycl::nd_range<1> grid{{static_cast<size_t>(blocks * W)}, {static_cast<size_t>(W)}};
  const size_t S = std::min<size_t>(std::min<size_t>(kc.wg_size, 256),
                                    pow2_at_least(ceil_div(m, 64)));
  Ev e;
  const int P = static_cast<int>(shifts.size());
  if (kc.simd && P >= 2) {
    // CPU, long rows: one pass by the leading digit (the 8 bits down from the
    // highest that varies), then each segment of one leading digit sorted by
    // the lower bytes in the cache, a work-item each (radix_segments): two
    // passes over memory instead of one per byte. Not when a segment would
    // hold more than a row's share of two work-items per compute unit (one
    // core would sort it alone while the others wait): the bytes then go
    // through memory as below, after this pass's histogram.
    int top = 8 * static_cast<int>(isz) - 1;
    while (!((vary >> top) & 1u)) --top;
    int lead = std::max(0, top - 7);
    const uint64_t low = lead == 0 ? 0 : vary & ((uint64_t(1) << lead) - 1);
    uint32_t bytes = 0;
    for (int b = 0; b < isz; ++b)
      if ((low >> (8 * b)) & 0xff) bytes |= 1u << b;
    const int64_t cus = q.get_device().get_info<sycl::info::device::max_compute_units>();
    const int64_t share = std::max<int64_t>(4, 2 * cus);
    std::unique_ptr<Allocation> lut;
    const void *lp = nullptr;
    // the counts of the leading pass; its largest segment
    auto leading_hist = [&]() {
      submit(q, {sa, counts.get(), lut ? lut.get() : counts.get()}, [&](auto &h) {
        set_args(h, static_cast<const char *>(sp), n, bpr, items, lead, dflip, 0, lp, base, cp);
        h.parallel_for(grid, hist);
      });
      counts->wait();
      const int64_t *cv = static_cast<const int64_t *>(cp);
      int64_t largest = 0;
      for (int64_t g = 0; g < rows * kRadixDigits; ++g) {
        int64_t c = 0;
        for (int64_t b = 0; b < bpr; ++b) c += cv[g * bpr + b];
        largest = std::max(largest, c);
      }
      return largest;
    };
    // the largest segment of the leading digit as the sample sees it
    int64_t sampled[kRadixDigits] = {}, in_digit = 0;
    for (int64_t j = 0; j < NS; ++j)
      in_digit = std::max(in_digit, ++sampled[((sample[j] - base) >> lead) & 0xff]);
    const int64_t expect = in_digit * n / NS;
    if ((expect * 8 > n || (isz == 8 && expect > kRadixCpuSegment)) && isz >= 4 && top >= kLutBits - 1) {
      // Skewed (floats of a few exponents, of both signs): buckets of the
      // kLutBits bits down from the highest that varies, by a table made from
      // radix_bits's sample (lut_digit in kernels/sycl/sort.cpp), so that
      // each of the 256 holds about as many sampled keys; the segments then
      // sort by every byte that varies.
      lead = top - (kLutBits - 1);
      lut.reset(allocate(q, kLutSize, KIND_SHARED));
      // written on the host: after the block's last use (a pooled block may
      // still be the table of a sort running on another queue or thread)
      lut->wait();
      lp = lut->ptr;
      build_bucket_table(sample, NS, base, lead, static_cast<uint8_t *>(lut->ptr));
      bytes = 0;
      for (int b = 0; b < isz; ++b)
        if ((vary >> (8 * b)) & 0xff) bytes |= 1u << b;
    }
    const int64_t largest = leading_hist();
    // A segment over a core's share goes to the passes over memory, unless
    // one key makes most of it (sparse data's zeros, a clipped bound):
    // radix_run_wide then places that key's copies and sorts the rest, and
    // a segment of only that key is a copy.
    const bool dominant = most * 2 * n >= largest * NS;   // half of the largest segment or more
    // (radix_run counts in 32 bits)
    if ((largest * share <= n || dominant) && largest < (int64_t(1) << 31)) {
      submit(q, {counts.get()}, [&](auto &h) {
        set_args(h, cp, m);
        h.parallel_for(sycl::nd_range<1>{{S}, {S}}, scan);
      });
      // float sorts without NaNs: the pass writes the keys mapped (as map_once below)
      const int mapped = is_float && !with_idx && !nan ? 1 : 0;
      submit(q, {sa, kt.get(), ita, counts.get(), lut ? lut.get() : counts.get()}, [&](auto &h) {
        set_args(h, static_cast<const char *>(sp), static_cast<const char *>(nullptr), tkp, tip, n,
                 bpr, items, lead, dflip, mapped << 1, lp, base, static_cast<const void *>(cp));
        h.parallel_for(grid, scatter);
      });
      const sycl::kernel &segs = kc.get("radix_segments<" + targs);
      const int64_t nseg = rows * kRadixDigits;
      return submit(q, {ka, ia, kt.get(), ita, counts.get()}, [&](auto &h) {
        set_args(h, tkp, tip, kp, ip, static_cast<const void *>(cp), bpr, nseg, N, bytes, dflip, mapped,
                 base, lut ? 0 : lead);
        h.parallel_for(sycl::nd_range<1>{{static_cast<size_t>(nseg)}, {1}}, segs);
      });
    }
  }
  // float sorts without NaNs on the CPU: keys mapped once (kernels/sycl/sort.cpp)
  const bool map_once = kc.simd && is_float && !with_idx && !nan && P >= 2;
  const char *ks = sp, *is = nullptr;   // the first pass: src, indices implicit
  for (int j = 0; j < P; ++j) {
    const int shift = shifts[j];
    const bool last_parity = ((P - 1 - j) & 1) == 0;
    char *kd = last_parity ? kp : tkp, *id = last_parity ? ip : tip;
    const int in_mapped = map_once && j > 0, out_mapped = map_once && j < P - 1;
    const int mode = in_mapped | (out_mapped << 1);
    submit(q, {sa, ka, kt.get(), counts.get()}, [&](auto &h) {
      set_args(h, ks, n, bpr, items, shift, dflip, in_mapped, static_cast<const void *>(nullptr), base,
               cp);
      h.parallel_for(grid, hist);
    });
    submit(q, {counts.get()}, [&](auto &h) {
      set_args(h, cp, m);
      h.parallel_for(sycl::nd_range<1>{{S}, {S}}, scan);
    });
    e = submit(q, {sa, ka, ia, kt.get(), ita, counts.get()}, [&](auto &h) {
      set_args(h, ks, is, kd, id, n, bpr, items, shift, dflip, mode, static_cast<const void *>(nullptr),
               base, static_cast<const void *>(cp));
      h.parallel_for(grid, scatter);
    });
    ks = kd;
    is = id;
  }
  return e;
}
}  // namespace

// The networks sort the bits of keys of one size for every type of that size
// (kernels/sycl/sort.cpp): their unsigned type's name, and how the bits order.
std::string net_type(const ArrayRef &k) { return "u" + std::to_string(k.itemsize); }
int key_kind(int tc) {
  if (tc == TC_F2 || tc == TC_F4 || tc == TC_F8) return 2;
  if (tc == TC_I1 || tc == TC_I2 || tc == TC_I4 || tc == TC_I8) return 1;
  return 0;
}

// The rows of src sorted in chunks of N keys (all of a row when n <= N) into
// keys (and idx): sorting networks, a work-item per chunk.
Ev sort_net(sycl::queue &q, KernelCache &kc, const ArrayRef &sr, const ArrayRef &k,
                     const ArrayRef *ix, int64_t rows, int64_t n, bool desc, int64_t N) {
  const sycl::kernel &net = kc.get("sort_net<" + net_type(k) + (ix ? ", 1, " : ", 0, ") +
                                   std::to_string(N) + ">");
  const char *sp = sr.data();
  char *kp = k.data(), *ip = ix ? ix->data() : nullptr;
  const int idesc = desc ? 1 : 0, kind = key_kind(k.tc);
  return submit(q, {sr.alloc, k.alloc, ix ? ix->alloc : nullptr}, [&](auto &h) {
    set_args(h, sp, kp, ip, rows, n, idesc, kind);
    h.parallel_for(linear_range(rows * ceil_div(n, N), kc.wg_size), net);
  });
}

// The rows of src argsorted into keys and idx on CPU devices: a work-item
// per row through a network in explicit vectors (n <= kVecNetMax).
Ev sort_vec(sycl::queue &q, KernelCache &kc, const ArrayRef &sr, const ArrayRef &k,
                     const ArrayRef &ix, int64_t rows, int64_t n, bool desc) {
  const sycl::kernel &kv = kc.get("sort_vec<" + net_type(k) + ">");
  const char *sp = sr.data();
  char *kp = k.data(), *ip = ix.data();
  const int idesc = desc ? 1 : 0, kind = key_kind(k.tc);
  return submit(q, {sr.alloc, k.alloc, ix.alloc}, [&](auto &h) {
    set_args(h, sp, kp, ip, rows, n, idesc, kind);
    h.parallel_for(rows_range(rows), kv);
  });
}

// The rows of src sorted into keys on CPU devices (sort, not argsort): R rows
// per step of a work-item, a network on vectors holding a key of each
// (2 <= n <= kColNetMax).
Ev sort_cols(sycl::queue &q, KernelCache &kc, const ArrayRef &sr, const ArrayRef &k, int64_t rows,
             int64_t n, bool desc) {
  const sycl::kernel &kcol = kc.get("sort_cols<" + net_type(k) + ">");
  const char *sp = sr.data();
  char *kp = k.data();
  const int idesc = desc ? 1 : 0, kind = key_kind(k.tc);
  const int64_t R = k.itemsize == 8 ? 8 : 16;  // kernels/sycl/sort.cpp: ColNet::R
  return submit(q, {sr.alloc, k.alloc}, [&](auto &h) {
    set_args(h, sp, kp, rows, n, idesc, kind);
    h.parallel_for(rows_range(ceil_div(rows, R)), kcol);
  });
}

// keys = src (rows, n) sorted along rows; idx (int64, same shape; None for
// sort) = the positions in the row they came from. src is not changed.
Event sort(std::uintptr_t qref, KernelCache &kc, nb::handle src_h, nb::handle keys_h,
           nb::handle idx_h, bool desc) {
  ArrayRef sr, k, ix;
  read_array(src_h, sr);
  read_array(keys_h, k);
  const bool with_idx = !idx_h.is_none();
  if (with_idx) read_array(idx_h, ix);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, k, k, "the keys");
  check_operand(q, sr, k, "the source");
  if (with_idx) check_operand(q, ix, k, "the indices");
  if (k.nd != 2 || !k.is_c_contiguous() || !sr.is_c_contiguous() || sr.tc != k.tc ||
      overlaps(sr, k) || (with_idx && (ix.tc != TC_I8 || !ix.is_c_contiguous())))
    throw nb::value_error("sort: expected contiguous (rows, n) source and keys of one type "
                          "and int64 indices");
  const int64_t rows = k.shape[0], n = k.shape[1];
  if (rows == 0 || n == 0) return Event{};
  return Event{sort_rows(q, kc, sr, k, with_idx ? &ix : nullptr, rows, n, desc)};
}

Ev sort_rows(sycl::queue &q, KernelCache &kc, const ArrayRef &sr, const ArrayRef &k, const ArrayRef *ixp,
             int64_t rows, int64_t n, bool desc) {
  const bool with_idx = ixp != nullptr;
  const ArrayRef &ix = with_idx ? *ixp : k;
  // rows up to net_max keys: a sorting network per row, one launch
  // (kernels/sycl/sort.cpp). 8-byte keys compare as (key, position) pairs,
  // not one packed integer: their 32-wide networks took 4x the compile time
  // of the rest of the bundle.
  const bool real = k.tc != TC_C8 && k.tc != TC_C16;
  const int64_t net_max = k.itemsize <= 4 ? 32 : 16;
  // CPU, one row up to 2^18 keys: radix_sort, which sorts the shorter ones
  // with radix_rows, one work-item (as fast as sort_cols up to 300 keys and
  // twice as fast at 1000; a first call compiles it in 0.8 s, sort_cols in
  // 1.8, and sort_vec for argsorts)
  if (real && kc.simd && rows == 1 && n >= 2 && n <= kRadixCpuOneRow)
    return radix_sort(q, kc, sr, k, with_idx ? &ix : nullptr, rows, n, desc);
  if (real && kc.simd && !with_idx && n >= 2 && n <= kColNetMax)
    return sort_cols(q, kc, sr, k, rows, n, desc);
  if (real && kc.simd && with_idx && n > net_max && n <= kVecNetMax)
    return sort_vec(q, kc, sr, k, ix, rows, n, desc);
  if (real && n <= net_max)
    return sort_net(q, kc, sr, k, with_idx ? &ix : nullptr, rows, n, desc, n <= 8 ? 8 : n <= 16 ? 16 : 32);
  if (n >= 2 && k.tc != TC_C8 && k.tc != TC_C16 &&
      (n >= kRadixMinRow || (kc.simd && rows >= kRadixCpuMinRows && n >= kRadixCpuMinRowLength)))
    return radix_sort(q, kc, sr, k, with_idx ? &ix : nullptr, rows, n, desc);
  // merge sort: chunks sorted by the networks (complex keys: by insertion, in
  // place in keys, where the chunk sort sets the indices up), then merges
  const std::string targs = std::string(kTypeName[k.tc]) + (with_idx ? ", 1>" : ", 0>");
  const int idesc = desc ? 1 : 0;
  char *kp = k.data(), *ip = with_idx ? ix.data() : nullptr;
  Allocation *ka = k.alloc, *ia = with_idx ? ix.alloc : k.alloc;
  const int64_t chunk = real ? net_max : kSortChunk;
  Ev e;
  if (real) {
    e = sort_net(q, kc, sr, k, with_idx ? &ix : nullptr, rows, n, desc, chunk);
  } else {
    copy_bytes(q, k.data(), k.alloc, sr.data(), sr.alloc, static_cast<size_t>(rows * n * k.itemsize));
    const int64_t nch = (n + chunk - 1) / chunk;
    const sycl::kernel &chunks = kc.get("sort_chunks<" + targs);
    e = submit(q, {ka, ia}, [&](auto &h) {
      set_args(h, kp, ip, rows, n, chunk, idesc);
      h.parallel_for(linear_range(rows * nch, kc.wg_size), chunks);
    });
  }
  if (n <= chunk) return e;
  const size_t kbytes = static_cast<size_t>(rows * n * k.itemsize);
  const size_t ibytes = with_idx ? static_cast<size_t>(rows * n * 8) : 0;
  std::unique_ptr<Allocation> kt(allocate(q, kbytes, KIND_DEVICE));
  std::unique_ptr<Allocation> it(with_idx ? allocate(q, ibytes, KIND_DEVICE) : nullptr);
  Allocation *ita = with_idx ? it.get() : kt.get();
  char *bufk[2] = {kp, static_cast<char *>(kt->ptr)};
  char *bufi[2] = {ip, with_idx ? static_cast<char *>(it->ptr) : nullptr};
  const sycl::kernel &merge = kc.get("merge_pass<" + targs);
  int src = 0;
  for (int64_t width = chunk; width < n; width *= 2) {
    char *ks = bufk[src], *is = bufi[src], *kd = bufk[1 - src], *id = bufi[1 - src];
    e = submit(q, {ka, ia, kt.get(), ita}, [&](auto &h) {
      set_args(h, ks, is, kd, id, rows, n, width, idesc);
      h.parallel_for(linear_range(rows * n, kc.wg_size), merge);
    });
    src = 1 - src;
  }
  if (src == 1) {  // the result is in the temporaries: copy it home
    e = copy_bytes(q, kp, ka, bufk[1], kt.get(), kbytes);
    if (with_idx) e = copy_bytes(q, ip, ia, bufi[1], ita, ibytes);
  }
  return e;
}

} // namespace usm

namespace usm {

namespace {
// 1-D contiguous operand of type code tc (-1: any) in q's context.
void read_vector(sycl::queue &q, nb::handle h, ArrayRef &a, int tc, const char *what) {
  read_array(h, a);
  check_operand(q, a, a, what);
  if (a.nd != 1 || !a.is_c_contiguous() || (tc >= 0 && a.tc != tc))
    throw nb::value_error((std::string("unique: expected a contiguous vector as ") + what).c_str());
}

sycl::nd_range<1> unique_range(KernelCache &kc, int64_t B) {
  // CPU: one work-item per group, each scanning its run as written
  return kc.simd ? sycl::nd_range<1>{{static_cast<size_t>(B)}, {1}} : linear_range(B, kc.wg_size);
}
}  // namespace

// Groups of equal values of the sorted vector s (at least one item): counts
// group starts per block of s into offs (B + 1 int64, B = offs.size - 1
// blocks), scans them and returns the number of groups (the one host wait).
int64_t unique_count(std::uintptr_t qref, KernelCache &kc, nb::handle s_h, nb::handle offs_h) {
  sycl::queue &q = queue_from_ref(qref);
  ArrayRef s, o;
  read_vector(q, s_h, s, -1, "the sorted values");
  read_vector(q, offs_h, o, TC_I8, "the block offsets");
  const int64_t n = s.shape[0], B = o.shape[0] - 1;
  if (n < 1 || B < 1 || B > n) throw nb::value_error("unique_count: need 1 <= blocks <= n");
  const std::string t = kTypeName[s.tc];
  const int64_t items = ceil_div(n, B);
  char *sp = s.data(), *op = o.data();
  const sycl::kernel &kcount = kc.get("unique_count<" + t + ">");
  const sycl::kernel &scan = kc.get("radix_scan<" + t + ">");
  submit(q, {s.alloc, o.alloc}, [&](auto &h) {
    set_args(h, static_cast<const char *>(sp), n, items, B, op);
    h.parallel_for(unique_range(kc, B), kcount);
  });
  const int64_t m = B + 1;
  const size_t S = std::min<size_t>(std::min<size_t>(kc.wg_size, 256), pow2_at_least(ceil_div(m, 64)));
  submit(q, {o.alloc}, [&](auto &h) {
    set_args(h, op, m);
    h.parallel_for(sycl::nd_range<1>{{S}, {S}}, scan);
  });
  int64_t total = 0;   // (on the host where it can: host_transfer)
  host_transfer(q, *o.alloc, (op + B * 8) - static_cast<char *>(o.alloc->ptr), &total, 8, true);
  return total;
}

// After unique_count: vals[g] = value of group g, pos[g] = its first index in
// s (pos may be None), and with order/inv: inv[order[i]] = group of s[i].
Event unique_scatter(std::uintptr_t qref, KernelCache &kc, nb::handle s_h, nb::handle offs_h,
                     nb::handle vals_h, nb::handle pos_h, nb::handle order_h, nb::handle inv_h) {
  sycl::queue &q = queue_from_ref(qref);
  ArrayRef s, o, v, p, od, iv;
  read_vector(q, s_h, s, -1, "the sorted values");
  read_vector(q, offs_h, o, TC_I8, "the block offsets");
  read_vector(q, vals_h, v, s.tc, "the values");
  const bool with_pos = !pos_h.is_none(), with_inv = !inv_h.is_none();
  if (with_pos) read_vector(q, pos_h, p, TC_I8, "the positions");
  if (with_inv) {
    read_vector(q, order_h, od, TC_I8, "the order");
    read_vector(q, inv_h, iv, TC_I8, "the inverse");
    if (od.shape[0] != s.shape[0] || iv.shape[0] != s.shape[0])
      throw nb::value_error("unique_scatter: order and inverse need the length of s");
  }
  const int64_t n = s.shape[0], B = o.shape[0] - 1;
  if (n < 1 || B < 1 || B > n) throw nb::value_error("unique_scatter: need 1 <= blocks <= n");
  if (with_pos && p.shape[0] != v.shape[0])
    throw nb::value_error("unique_scatter: positions and values differ in length");
  const int64_t items = ceil_div(n, B);
  const sycl::kernel &k =
      kc.get("unique_scatter<" + std::string(kTypeName[s.tc]) + (with_inv ? ", 1>" : ", 0>"));
  char *sp = s.data(), *op = o.data(), *vp = v.data();
  char *pp = with_pos ? p.data() : nullptr;
  char *odp = with_inv ? od.data() : nullptr, *ivp = with_inv ? iv.data() : nullptr;
  Allocation *pa = with_pos ? p.alloc : v.alloc;
  Allocation *oda = with_inv ? od.alloc : v.alloc, *iva = with_inv ? iv.alloc : v.alloc;
  return Event{submit(q, {s.alloc, o.alloc, v.alloc, pa, oda, iva}, [&](auto &h) {
    set_args(h, static_cast<const char *>(sp), n, items, B, static_cast<const char *>(op), vp, pp,
               static_cast<const char *>(odp), ivp);
    h.parallel_for(unique_range(kc, B), k);
  })};
}

} // namespace usm

namespace usm {

// out = whether each item of v occurs in the sorted vector s (negated with
// invert); v and out contiguous of one shape, s non-empty.
Event isin_sorted(std::uintptr_t qref, KernelCache &kc, nb::handle s_h, nb::handle v_h,
                  nb::handle out_h, bool invert) {
  sycl::queue &q = queue_from_ref(qref);
  ArrayRef s, v, o;
  read_vector(q, s_h, s, -1, "the sorted values");
  read_array(v_h, v);
  read_array(out_h, o);
  check_operand(q, v, o, "the values");
  check_operand(q, o, o, "the result");
  if (v.tc != s.tc || o.tc != TC_BOOL || !v.is_c_contiguous() || !o.is_c_contiguous() ||
      s.shape[0] < 1)
    throw nb::value_error("isin: expected contiguous values of the sorted vector's type and a "
                          "contiguous bool result");
  const int64_t n = o.size(), m = s.shape[0];
  if (n == 0) return Event{};
  const sycl::kernel &k = kc.get("isin_sorted<" + std::string(kTypeName[s.tc]) + ">");
  char *sp = s.data(), *vp = v.data(), *op = o.data();
  const int inv = invert ? 1 : 0;
  return Event{submit(q, {s.alloc, v.alloc, o.alloc}, [&](auto &h) {
    set_args(h, static_cast<const char *>(sp), m, static_cast<const char *>(vp), n, op, inv);
    h.parallel_for(linear_range(n, kc.wg_size), k);
  })};
}

} // namespace usm

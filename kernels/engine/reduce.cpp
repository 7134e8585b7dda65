// Reductions over trailing axes. Python permutes the reduced axes to the
// end and allocates a contiguous output; here the outer and the reduced
// dimensions are each collapsed to one (through a contiguous copy when they
// do not collapse), a first pass reads every input item once and writes one
// partial state per block, and small passes reduce the partials
// (kernels/sycl/reduction.hpp). A reduction whose rows fit one block is one
// launch.
#include "engine.hpp"

#include <cstring>
#include <optional>

namespace usm {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Items a vector-block work-item takes at least: one core reduces 32768
// float32 items in a few µs, less than a second launch over partials or
// than handing blocks to another core costs (float32 sum/max/argmax of 1e4
// items: 16 µs with 4096 a work-item, two launches; 11 µs with one).
constexpr int64_t kMinPer = 32768;


// Work-items (vector-block) or work-groups (generic) a first pass aims for:
// enough to balance the compute units, few enough that partials stay small.
int64_t target_blocks(const KernelCache &kc) {
  // (a device query per call costs as much as a small reduction's launch)
  static std::unordered_map<sycl::device, int64_t> known;
  auto it = known.find(kc.dev);
  if (it == known.end())
    it = known.emplace(kc.dev, kc.dev.get_info<sycl::info::device::max_compute_units>()).first;
  const int64_t cu = it->second;
  return std::max<int64_t>(cu * 128, 256);
}


// The source of items of a first pass whose operation maps several inputs
// (usmk::src_t in kernels/sycl/reduction.hpp): a pointer per input, then
// the operation's scalars. The kernel's struct has the same layout
// (usmarray/user_kernels.py generates it).
constexpr int kMaxSources = 8;
constexpr int kSourceScalarBytes = 64;
template <int N> struct Sources {
  char *p[N];
  alignas(16) unsigned char s[kSourceScalarBytes];
};

// Sets kernel argument 0 to the sources `p` (with `scalars`).
template <int N, class H>
void set_sources_n(H &h, const std::vector<char *> &p, const std::string &scalars) {
  Sources<N> src{};
  for (int i = 0; i < N; ++i) src.p[i] = p[i];
  std::memcpy(src.s, scalars.data(), scalars.size());
  set_arg(h, 0, src);
}
template <class H> void set_sources(H &h, const std::vector<char *> &p, const std::string &scalars) {
  switch (p.size()) {
  case 1: return set_sources_n<1>(h, p, scalars);
  case 2: return set_sources_n<2>(h, p, scalars);
  case 3: return set_sources_n<3>(h, p, scalars);
  case 4: return set_sources_n<4>(h, p, scalars);
  case 5: return set_sources_n<5>(h, p, scalars);
  case 6: return set_sources_n<6>(h, p, scalars);
  case 7: return set_sources_n<7>(h, p, scalars);
  default: return set_sources_n<8>(h, p, scalars);
  }
}

} // namespace

// out = reduce(x) over x's last `nred` dimensions with operation `op`
// (a usmk:: struct) over the items and `comb` over partial states (count
// and nansum sum their partials), states of type `acc` (a kernel type name)
// of `acc_size` bytes. `indexed`: argmax/argmin (one reduced dimension,
// whose order must be kept: the states carry indices).
// `sources`: the operation reads its items from a source (Op::source):
// x and `inputs` (of x's shape and strides) and the `scalars` bytes.
// `result`: the kernels' result type, when not out's (a struct of its size
// whose construction from a state finishes it: ReductionKernel's
// post_map_expr).
Event reduce(std::uintptr_t qref, KernelCache &kc, const std::string &op, const std::string &comb,
             nb::handle x_h, int nred, nb::handle out_h, const std::string &acc, int acc_size,
             bool indexed, const std::vector<nb::handle> &inputs, std::optional<nb::bytes> scalars,
             const std::string &result) {
  ArrayRef x, r;
  read_array(x_h, x);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  const bool sources = scalars.has_value();
  // (on the stack, as nary.cpp's operands: 1 KB views)
  ArrayRef more[kMaxSources - 1];
  const size_t nmore = inputs.size();
  if (sources) {
    if (nmore + 1 > kMaxSources)
      throw nb::value_error("reduce: at most 8 inputs");
    if (scalars->size() > kSourceScalarBytes)
      throw nb::value_error("reduce: scalars take more than 64 bytes");
    for (size_t i = 0; i < nmore; ++i) {
      read_array(inputs[i], more[i]);
      if (more[i].nd != x.nd || !(more[i].alloc->ctx == q.get_context()))
        throw nb::value_error("reduce: inputs differ in rank or SYCL context");
      for (int d = 0; d < x.nd; ++d)
        if (more[i].shape[d] != x.shape[d] || (x.shape[d] > 1 && more[i].strides[d] != x.strides[d]))
          throw nb::value_error("reduce: inputs must have the first input's shape and strides");
    }
  } else if (!inputs.empty()) {
    throw nb::value_error("reduce: several inputs need an operation with a source");
  }
  const int nout = x.nd - nred;
  if (nred < 0 || nout != r.nd) throw nb::value_error("reduce: output rank mismatch");
  if (indexed && nred != 1) throw nb::value_error("reduce: an indexed reduction takes one axis");
  for (int i = 0; i < nout; ++i)
    if (x.shape[i] != r.shape[i]) throw nb::value_error("reduce: output shape mismatch");
  if (!r.is_c_contiguous()) throw nb::value_error("reduce: output must be contiguous");
  if (!(x.alloc->ctx == q.get_context()) || !(r.alloc->ctx == q.get_context()))
    throw nb::value_error("reduce: operands are bound to another SYCL context");
  if (acc_size <= 0 || acc_size > 64) throw nb::value_error("reduce: bad accumulator size");
  int64_t n_out = 1, n_red = 1;
  for (int i = 0; i < nout; ++i) n_out *= x.shape[i];
  for (int i = nout; i < x.nd; ++i) n_red *= x.shape[i];
  if (n_out == 0) return Event{};

  // Collapse (outer: x and out) and (reduced: x) separately. The output is
  // fresh and walks forwards; reduced dimensions walked backwards are
  // reversed (the order of a reduction's items does not matter), except for
  // indexed reductions.
  const int64_t *so[2] = {x.strides, r.strides};
  Iteration ito;
  collapse(nout, x.shape, 2, so, 1, ito);
  int64_t s_o = 0, s_r = 0, off = 0;
  bool ok = ito.nd <= 1 && (ito.nd < 1 || ito.offset[0] == 0);
  if (ok && ito.nd == 1) s_o = ito.strides[0][0];
  if (indexed) {
    s_r = x.strides[nout];
  } else if (n_red > 0) {
    Iteration itr;
    const int64_t *sr[1] = {x.strides + nout};
    collapse(nred, x.shape + nout, 1, sr, 0, itr);
    ok = ok && itr.nd <= 1;
    if (ok && itr.nd == 1) s_r = itr.strides[0][0];
    off = itr.offset[0];
  }
  std::unique_ptr<Allocation> xcopy;
  std::vector<std::unique_ptr<Allocation>> copies;
  char *src = x.data() + off * x.itemsize;
  // the first pass's sources, and every allocation it reads
  std::vector<char *> srcs{src};
  std::vector<Allocation *> reads{x.alloc};
  for (size_t i = 0; i < nmore; ++i) {
    srcs.push_back(more[i].data() + off * more[i].itemsize);
    reads.push_back(more[i].alloc);
  }
  if (!ok && n_red > 0) {
    xcopy.reset(allocate(q, static_cast<size_t>(n_out * n_red * x.itemsize), KIND_DEVICE));
    ArrayRef t;
    copy_to_contiguous(q, kc, x, t, xcopy.get());
    src = srcs[0] = t.data();
    reads[0] = xcopy.get();
    for (size_t i = 0; i < nmore; ++i) {
      copies.emplace_back(allocate(q, static_cast<size_t>(n_out * n_red * more[i].itemsize),
                                   KIND_DEVICE));
      copy_to_contiguous(q, kc, more[i], t, copies.back().get());
      srcs[i + 1] = t.data();
      reads[i + 1] = copies.back().get();
    }
    s_o = n_red;
    s_r = 1;
  }
  const std::string scalar_bytes = sources ? std::string(scalars->c_str(), scalars->size()) : "";
  if (n_out == 1) s_o = 0;
  if (n_red <= 1) s_r = 1;

  const std::string T = kTypeName[x.tc], R = result.empty() ? kTypeName[r.tc] : result;
  const std::string sig_first = op + ", " + T + ", " + acc + ", ";
  const std::string sig_comb = comb + ", " + acc + ", " + acc + ", ";
  const int64_t target = target_blocks(kc);
  size_t wg = 1;
  while (wg * 2 <= std::min<size_t>(kc.wg_size, 256)) wg *= 2;
  // column sums: outer unit stride, reduced not
  const bool cols = s_o == 1 && s_r != 1 && n_out > 1;

  Allocation *cur_alloc = xcopy ? xcopy.get() : x.alloc;
  std::unique_ptr<Allocation> part, prev;
  Ev e;
  bool first = true;
  int64_t n = n_red;
  for (;;) {
    const std::string &sig = first ? sig_first : sig_comb;
    int64_t nb, B;
    const sycl::kernel *k = nullptr;
    sycl::nd_range<1> range{{1}, {1}};
    bool vec = false;
    int64_t ns = 0, rpw = 1;
    // A CPU device without a vector-block kernel for the types (complex,
    // float16, passes over partial states) takes the column kernel, one
    // work-item per (output, block) and no barriers: a CPU runs a
    // work-group's tree slowly.
    // (k: the first pass's vector-block row kernel, when it applies)
    if (!cols && kc.simd && first && s_r == 1) k = kc.find("reduce_rows_vec<" + sig + R + ">");
    const bool use_cols = cols || (kc.simd && k == nullptr);
    if (use_cols) {
      // first pass: column strips x row blocks; later passes: generic
      const int64_t itm = std::max<int64_t>(std::max<int64_t>(acc_size, x.itemsize), 1);
      const int64_t strip = 128 * std::min<int64_t>(16, 64 / itm);  // kernel: CV * L
      if (first && kc.simd && s_o == 1) k = kc.find("reduce_cols_vec<" + sig + R + ">");
      vec = k != nullptr;
      const int64_t units = vec ? (ns = ceil_div(n_out, strip)) : ceil_div(n_out, 64);
      // vector blocks: about 4 per compute unit in all (the kernel adds
      // chains of 128 rows, so a block may be long; work-groups of
      // kSimdGroup blocks run on one core), each of 32 rows or more: few
      // partials for the next pass
      nb = vec ? std::min(std::max<int64_t>(target / 32 / units, 1), std::max<int64_t>(ceil_div(n, 32), 1))
               : std::min(std::max<int64_t>(target / units, 1), std::max<int64_t>(ceil_div(n, 512), 1));
      // up to 1 MB per strip: one pass on one core (measured: 128 x 2048
      // float32 45 us, against 60 us in two passes on two cores)
      if (vec && n * std::min(n_out, strip) * itm <= (int64_t(1) << 20)) nb = 1;
      B = std::max<int64_t>(ceil_div(n, nb), 1);
      nb = std::max<int64_t>(ceil_div(n, B), 1);
      if (vec && nb > 1) k = kc.find("reduce_cols_vec<" + sig + acc + ">");
      if (vec) range = vector_items(ns * nb);
    } else {
      vec = k != nullptr;
      if (vec) {
        // long contiguous blocks, a multiple of 16 vectors
        const int64_t per = std::max<int64_t>(kMinPer, ceil_div(n * n_out, target));
        nb = std::max<int64_t>(ceil_div(n, std::min<int64_t>(per, int64_t(1) << 30)), 1);
        B = std::max<int64_t>(ceil_div(ceil_div(n, nb), 256) * 256, 256);
        nb = std::max<int64_t>(ceil_div(n, B), 1);
        if (nb > 1) k = kc.find("reduce_rows_vec<" + sig + acc + ">");
        // short rows: about `per` items per work-item, whole rows each
        rpw = nb == 1 ? std::max<int64_t>(per / std::max<int64_t>(n, 1), 1) : 1;
        range = vector_items(ceil_div(n_out * nb, rpw));
      } else {
        while (wg > 1 && static_cast<int64_t>(wg / 2) >= n) wg /= 2;
        // 32 items per work-item at least; partials few enough for one more pass
        const int64_t per = std::max<int64_t>(int64_t(wg) * 32, ceil_div(n * n_out, target * wg) * wg);
        nb = std::max<int64_t>(ceil_div(n, per), 1);
        B = std::max<int64_t>(ceil_div(ceil_div(n, nb), int64_t(wg)) * int64_t(wg), 1);
        nb = std::max<int64_t>(ceil_div(n, B), 1);
      }
    }
    if (vec && !k) throw std::runtime_error("reduce: vector-block kernel missing for " + sig);
    const bool last = nb == 1;
    char *dst;
    Allocation *dst_alloc;
    if (last) {
      dst = r.data();
      dst_alloc = r.alloc;
    } else {
      prev = std::move(part);
      part.reset(allocate(q, static_cast<size_t>(n_out * nb * acc_size), KIND_DEVICE));
      dst = static_cast<char *>(part->ptr);
      dst_alloc = part.get();
    }
    const std::string tail = (last ? R : acc) + ">";
    // the kernel's arguments: the items (a pointer, or the first pass's
    // sources), then `rest`
    const bool from_sources = first && sources;
    auto args = [&](auto &h, auto... rest) {
      if (from_sources) {
        set_sources(h, srcs, scalar_bytes);
        int i = 1;
        (set_arg(h, i++, rest), ...);
      } else {
        set_args(h, src, rest...);
      }
    };
    std::vector<Allocation *> touched = from_sources ? reads : std::vector<Allocation *>{cur_alloc};
    touched.push_back(dst_alloc);
    if (use_cols) {
      if (vec) {
        e = submit(q, touched, [&](auto &h) {
          args(h, dst, n_out, n, s_r, B, ns);
          h.parallel_for(range, *k);
        });
      } else {
        const sycl::kernel &kk = kc.get("reduce_cols<" + sig + tail);
        e = submit(q, touched, [&](auto &h) {
          args(h, dst, n_out, n, s_o, s_r, B, nb);
          // groups small enough to spread few work-items over the compute units
          size_t g = 1;
          while (g * 2 <= kc.wg_size && static_cast<int64_t>(g * 2) * 16 <= n_out * nb) g *= 2;
          h.parallel_for(linear_range(n_out * nb, g), kk);
        });
      }
    } else if (vec) {
      e = submit(q, touched, [&](auto &h) {
        args(h, dst, n_out, n, s_o, B, nb, rpw);
        h.parallel_for(range, *k);
      });
    } else {
      const sycl::kernel &kk = kc.get("reduce_group<" + sig + tail);
      const size_t groups = static_cast<size_t>(n_out * nb);
      e = submit(q, touched, [&](auto &h) {
        args(h, dst, n, s_o, s_r, B, nb);
        h.parallel_for(sycl::nd_range<1>{{groups * wg}, {wg}}, kk);
      });
    }
    if (last) break;
    // partials: rows of nb states (or nb rows of n_out states for cols)
    src = dst;
    cur_alloc = dst_alloc;
    n = nb;
    if (use_cols) {
      s_o = 1;
      s_r = n_out;
    } else {
      s_o = n_out == 1 ? 0 : nb;
      s_r = 1;
    }
    first = false;
  }
  return Event{e};
}

} // namespace usm

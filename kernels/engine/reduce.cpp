// Reductions over trailing axes. Python permutes the reduced
// axes to the end and allocates a contiguous output; here the outer and the
// reduced dimensions are each collapsed to one (through a contiguous copy
// when they do not collapse) and reduced in passes (kernels/sycl/reduction.hpp).
#include "engine.hpp"

namespace usm {


namespace {

size_t parallelism(const KernelCache &kc) {
  size_t cu = kc.dev.get_info<sycl::info::device::max_compute_units>();
  return std::min<size_t>(std::max<size_t>(cu * 1024, 4096), size_t(1) << 20);
}

} // namespace

// out = reduce(x) over x's last `nred` dimensions; A = accumulator type code.
Event reduce(std::uintptr_t qref, KernelCache &kc, const std::string &op, nb::handle x_h, int nred,
             nb::handle out_h, int atc) {
  ArrayRef x, r;
  read_array(x_h, x);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  const int nout = x.nd - nred;
  if (nred < 0 || nout != r.nd) throw nb::value_error("reduce: output rank mismatch");
  for (int i = 0; i < nout; ++i)
    if (x.shape[i] != r.shape[i]) throw nb::value_error("reduce: output shape mismatch");
  if (!r.is_c_contiguous()) throw nb::value_error("reduce: output must be contiguous");
  if (!(x.alloc->ctx == q.get_context()) || !(r.alloc->ctx == q.get_context()))
    throw nb::value_error("reduce: operands are bound to another SYCL context");
  if (atc < 0 || atc >= TC_COUNT) throw nb::value_error("reduce: bad accumulator type");
  int64_t n_out = 1, n_red = 1;
  for (int i = 0; i < nout; ++i) n_out *= x.shape[i];
  for (int i = nout; i < x.nd; ++i) n_red *= x.shape[i];
  if (n_out == 0) return Event{};

  // Collapse (outer: x and out) and (reduced: x) separately.
  const int64_t *so[2] = {x.strides, r.strides};
  Iteration ito, itr;
  collapse(nout, x.shape, 2, so, 1, ito);
  const int64_t *sr[1] = {x.strides + nout};
  collapse(nred, x.shape + nout, 1, sr, 0, itr);
  std::unique_ptr<Allocation> xcopy;
  char *src = x.data();
  int64_t s_o = 0, s_r = 0;
  // (the output is fresh and walks forwards, so only reduced dimensions can
  // have been reversed: the reduction order does not matter)
  bool ok = n_red == 0 || (ito.nd == 1 && itr.nd == 1 && ito.offset[0] == 0);
  if (ok && n_red > 0) {
    s_o = ito.shape[0] > 1 ? ito.strides[0][0] : 0;
    s_r = itr.shape[0] > 1 ? itr.strides[0][0] : 0;
    src += itr.offset[0] * x.itemsize;
  } else if (n_red > 0) {
    xcopy.reset(allocate(q, static_cast<size_t>(n_out * n_red * x.itemsize), KIND_DEVICE));
    ArrayRef t;
    copy_to_contiguous(q, kc, x, t, xcopy.get());
    src = t.data();
    s_o = n_red;
    s_r = 1;
  }
  const size_t P = parallelism(kc);
  const std::string base = "reduce_pass<" + op + ", ";
  const std::string A = kTypeName[atc];
  std::string T = kTypeName[x.tc];
  Allocation *cur_alloc = xcopy ? xcopy.get() : x.alloc;
  std::unique_ptr<Allocation> part, prev;
  int64_t n = n_red;
  sycl::event e;
  for (;;) {
    int64_t W = std::min<int64_t>(std::max<int64_t>(1, static_cast<int64_t>(P) / n_out), n / 32);
    if (W < 1) W = 1;
    const bool last = W == 1;
    char *dst;
    Allocation *dst_alloc;
    if (last) {
      dst = r.data();
      dst_alloc = r.alloc;
    } else {
      prev = std::move(part);
      part.reset(allocate(q, static_cast<size_t>(n_out * W * kItemSize[atc]), KIND_DEVICE));
      dst = static_cast<char *>(part->ptr);
      dst_alloc = part.get();
    }
    sycl::kernel k = kc.get(base + T + ", " + A + ", " + (last ? kTypeName[r.tc] : A.c_str()) + ">");
    const int32_t cols_fast = (s_r != 1 && s_o == 1) ? 1 : 0;
    const int64_t total = n_out * W;
    e = submit(q, {cur_alloc, dst_alloc}, [&](sycl::handler &h) {
      h.set_args(src, dst, n_out, n, s_o, s_r, W, cols_fast);
      h.parallel_for(linear_range(total, kc.wg_size), k);
    });
    if (last) break;
    src = dst;
    cur_alloc = dst_alloc;
    T = A;
    n = W;
    s_o = W;
    s_r = 1;
  }
  return Event{e};
}

} // namespace usm

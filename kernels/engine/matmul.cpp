// Batched integer and bool matrix products (kernels/sycl/matmul.cpp). Python broadcasts,
// promotes and lays out the operands: a (Ba, n, k) and x (Bx, k, m), each
// contiguous with Ba, Bx in {1, B}; out (B, n, m) contiguous.
#include "engine.hpp"

namespace usm {

Event matmul(std::uintptr_t qref, KernelCache &kc, nb::handle a_h, nb::handle x_h,
             nb::handle out_h) {
  ArrayRef a, x, r;
  read_array(a_h, a);
  read_array(x_h, x);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, a, a, "the first matrix");
  check_operand(q, x, x, "the second matrix");
  check_operand(q, r, r, "the output");
  if (a.nd != 3 || x.nd != 3 || r.nd != 3 || a.tc != x.tc || a.tc != r.tc ||
      !a.is_c_contiguous() || !x.is_c_contiguous() || !r.is_c_contiguous())
    throw nb::value_error("matmul: expected contiguous 3-d operands of one type");
  const int64_t B = r.shape[0], n = r.shape[1], m = r.shape[2], k = a.shape[2];
  if (a.shape[1] != n || x.shape[1] != k || x.shape[2] != m ||
      (a.shape[0] != 1 && a.shape[0] != B) || (x.shape[0] != 1 && x.shape[0] != B))
    throw nb::value_error("matmul: operand shapes do not match");
  if (B == 0 || n == 0 || m == 0) return Event{};
  const int64_t sa = a.shape[0] == 1 ? 0 : n * k, sx = x.shape[0] == 1 ? 0 : k * m;
  const sycl::kernel &kern = kc.get(std::string("matmul_tiled<") + kTypeName[a.tc] + ">");
  // each work-item computes kRows rows of one column (kernels/sycl/matmul.cpp)
  constexpr int64_t kRows = 4;
  const int64_t tiles = (n + kRows - 1) / kRows;
  const size_t L = std::min<size_t>(kc.wg_size, pow2_at_least(m));
  const size_t T = std::max<size_t>(1, std::min<size_t>(kc.wg_size / L, pow2_at_least(tiles)));
  char *ap = a.data(), *xp = x.data(), *rp = r.data();
  return Event{submit(q, {a.alloc, x.alloc, r.alloc}, [&](auto &h) {
    set_args(h, ap, xp, rp, n, k, m, sa, sx);
    h.parallel_for(sycl::nd_range<3>{{static_cast<size_t>(B), round_up(static_cast<size_t>(tiles), T),
                                      round_up(static_cast<size_t>(m), L)},
                                     {1, T, L}},
                   kern);
  })};
}

} // namespace usm

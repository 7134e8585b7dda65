// Elementwise operations: one entry point per arity. Python resolves the
// loop (the kernel signature "op_add, f4, f4, f4"), broadcasts and allocates
// the output; here the operands are validated, the iteration collapsed and
// one of the variants launched: contiguous, scalar operand, strided.
#include "engine.hpp"

namespace usm {


namespace {

// An input sharing memory with the output other than element for element
// (x[1:] += x[:-1]) would read values the kernel already overwrote: such
// inputs are read from a contiguous copy.
struct Staged {
  std::unique_ptr<Allocation> tmp;
};

void stage_if_overlapping(sycl::queue &q, KernelCache &kc, ArrayRef &x, const ArrayRef &out,
                          Staged &st) {
  if (!overlaps(x, out) || same_view(x, out)) return;
  st.tmp.reset(allocate(q, static_cast<size_t>(x.size() * x.itemsize), KIND_DEVICE));
  ArrayRef t;
  copy_to_contiguous(q, kc, x, t, st.tmp.get());
  x = t;
}

} // namespace

Event unary(std::uintptr_t qref, KernelCache &kc, const std::string &sig, nb::handle x_h,
            nb::handle out_h) {
  ArrayRef x, r;
  read_array(x_h, x);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, x, r, "the input");
  check_operand(q, r, r, "the output");
  Staged st;
  stage_if_overlapping(q, kc, x, r, st);
  const int64_t *strides[2] = {x.strides, r.strides};
  Iteration it;
  collapse(r.nd, r.shape, 2, strides, 1, it);
  if (it.nd < 0) return Event{};
  char *const ptrs[2] = {x.data() + it.offset[0] * x.itemsize, r.data() + it.offset[1] * r.itemsize};
  const int64_t isz[2] = {x.itemsize, r.itemsize};
  if (it.contiguous()) {
    const int64_t n = it.size();
    const sycl::kernel *kv = simd_variant(kc, "unary_vec<" + sig + ">", ptrs[1]);
    const sycl::kernel &k = kv ? *kv : kc.get("unary_contig<" + sig + ">");
    return Event{submit(q, {x.alloc, r.alloc}, [&](auto &h) {
      set_args(h, ptrs[0], ptrs[1], n);
      h.parallel_for(kv ? simd_range(n, r.itemsize) : linear_range(n, kc.wg_size), k);
    })};
  }
  return Event{launch_strided<2>(q, kc, "unary_strided<" + sig, "unary_inner<" + sig, it, ptrs, isz,
                                 {x.alloc, r.alloc})};
}

Event binary(std::uintptr_t qref, KernelCache &kc, const std::string &sig, nb::handle a_h,
             nb::handle b_h, nb::handle out_h) {
  ArrayRef a, b, r;
  read_array(a_h, a);
  read_array(b_h, b);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, a, r, "the first operand");
  check_operand(q, b, r, "the second operand");
  check_operand(q, r, r, "the output");
  Staged sa, sb;
  stage_if_overlapping(q, kc, a, r, sa);
  stage_if_overlapping(q, kc, b, r, sb);
  const int64_t *strides[3] = {a.strides, b.strides, r.strides};
  Iteration it;
  collapse(r.nd, r.shape, 3, strides, 2, it);
  if (it.nd < 0) return Event{};
  char *const ptrs[3] = {a.data() + it.offset[0] * a.itemsize, b.data() + it.offset[1] * b.itemsize,
                         r.data() + it.offset[2] * r.itemsize};
  const int64_t isz[3] = {a.itemsize, b.itemsize, r.itemsize};
  if (it.contiguous()) {
    const int64_t n = it.size();
    const sycl::kernel *kv = simd_variant(kc, "binary_vec<" + sig + ">", ptrs[2]);
    const sycl::kernel &k = kv ? *kv : kc.get("binary_contig<" + sig + ">");
    return Event{submit(q, {a.alloc, b.alloc, r.alloc}, [&](auto &h) {
      set_args(h, ptrs[0], ptrs[1], ptrs[2], n);
      h.parallel_for(kv ? simd_range(n, r.itemsize) : linear_range(n, kc.wg_size), k);
    })};
  }
  // Rows of a matrix and a row or a column, result rows aligned: the
  // vector-block variant (streaming stores), where the loop has one.
  if (it.nd == 2 && it.strides[2][1] == 1 &&
      (it.strides[2][0] * r.itemsize) % kSimdBytes == 0 &&
      (it.strides[0][1] == 0 || it.strides[0][1] == 1) &&
      (it.strides[1][1] == 0 || it.strides[1][1] == 1) &&
      (it.strides[0][1] == 1 || it.strides[1][1] == 1)) {
    const int inner = static_cast<int>(it.strides[0][1] + 2 * it.strides[1][1]);
    const sycl::kernel *kv = simd_variant(
        kc, "binary_rows_vec<" + sig + ", " + std::to_string(inner) + ">", ptrs[2]);
    if (kv) {
      const Geometry<2, 3> g = geometry_of<2, 3>(it);
      return Event{submit(q, {a.alloc, b.alloc, r.alloc}, [&](auto &h) {
        set_args(h, ptrs[0], ptrs[1], ptrs[2], g);
        h.parallel_for(simd_range(it.shape[1], r.itemsize, it.shape[0]), *kv);
      })};
    }
  }
  // Rows with one input constant along each (a column broadcast, or a 0-d
  // operand): its own variant, as a gather there would halve the speed.
  const int last = it.nd - 1;
  if (it.nd <= 2 && it.strides[2][last] == 1 &&
      ((it.strides[0][last] == 0) != (it.strides[1][last] == 0)) &&
      (it.strides[0][last] == 1 || it.strides[1][last] == 1)) {
    const int which = it.strides[0][last] == 0 ? 0 : 1;
    const sycl::kernel &k = kc.get("binary_bcast<" + sig + ", 2, " + std::to_string(which) + ">");
    return Event{launch_nd<2, 3>(q, k, it, 0, ptrs, {a.alloc, b.alloc, r.alloc}, kc.wg_size)};
  }
  return Event{launch_strided<3>(q, kc, "binary_strided<" + sig, "binary_inner<" + sig, it, ptrs,
                                 isz, {a.alloc, b.alloc, r.alloc})};
}

namespace {
// The bytes of a scalar kernel argument of the operand's type.
template <size_t N> struct Raw {
  alignas(N >= 8 ? 8 : N) unsigned char b[N];
};

template <size_t N>
Ev scalar_launch(sycl::queue &q, const sycl::kernel &k, const char *value, char *arr,
                          char *out, bool left, int64_t n, Allocation *aa, Allocation *ra,
                          const sycl::nd_range<1> &range) {
  Raw<N> v;
  std::memcpy(v.b, value, N);
  return submit(q, {aa, ra}, [&](auto &h) {
    if (left) set_args(h, v, arr, out, n);
    else set_args(h, arr, v, out, n);
    h.parallel_for(range, k);
  });
}
} // namespace

// out = op(x, value) (left=false) or op(value, x) (left=true) for contiguous
// x and out; value holds one item of the loop's scalar operand type.
Event binary_scalar(std::uintptr_t qref, KernelCache &kc, const std::string &sig, nb::handle x_h,
                    nb::bytes value, bool left, nb::handle out_h) {
  ArrayRef x, r;
  read_array(x_h, x);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, x, r, "the array operand");
  check_operand(q, r, r, "the output");
  if (overlaps(x, r) && !same_view(x, r))
    throw nb::value_error("binary_scalar: the output overlaps the input");
  const int64_t *strides[2] = {x.strides, r.strides};
  Iteration it;
  collapse(r.nd, r.shape, 2, strides, 1, it);
  if (it.nd < 0) return Event{};
  if (!it.contiguous())
    throw nb::value_error("binary_scalar needs operands contiguous in the same order");
  const int64_t n = it.size();
  char *xp = x.data() + it.offset[0] * x.itemsize, *rp = r.data() + it.offset[1] * r.itemsize;
  const std::string name = std::string(left ? "binary_scalar_l" : "binary_scalar_r");
  const sycl::kernel *kv = simd_variant(kc, name + "_vec<" + sig + ">", rp);
  const sycl::kernel &k = kv ? *kv : kc.get(name + "<" + sig + ">");
  const sycl::nd_range<1> range = kv ? simd_range(n, r.itemsize) : linear_range(n, kc.wg_size);
  const char *v = value.c_str();
  switch (value.size()) {
  case 1: return Event{scalar_launch<1>(q, k, v, xp, rp, left, n, x.alloc, r.alloc, range)};
  case 2: return Event{scalar_launch<2>(q, k, v, xp, rp, left, n, x.alloc, r.alloc, range)};
  case 4: return Event{scalar_launch<4>(q, k, v, xp, rp, left, n, x.alloc, r.alloc, range)};
  case 8: return Event{scalar_launch<8>(q, k, v, xp, rp, left, n, x.alloc, r.alloc, range)};
  case 16: return Event{scalar_launch<16>(q, k, v, xp, rp, left, n, x.alloc, r.alloc, range)};
  }
  throw nb::value_error("scalar operand must have 1, 2, 4, 8 or 16 bytes");
}

} // namespace usm

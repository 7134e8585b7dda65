// Selection: where() and the gathers of integer array indexing.
#include "engine.hpp"

#include <algorithm>
#include <functional>

namespace usm {

// out = where(c, a, b) for operands broadcast to out's shape; a, b and out
// have one dtype (only bytes move).
Event where(std::uintptr_t qref, KernelCache &kc, nb::handle c_h, nb::handle a_h, nb::handle b_h,
            nb::handle out_h) {
  ArrayRef c, a, b, r;
  read_array(c_h, c);
  read_array(a_h, a);
  read_array(b_h, b);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  for (const ArrayRef *x : {&c, &a, &b, &r}) check_operand(q, *x, r, "a where() operand");
  if (c.tc != TC_BOOL || a.itemsize != r.itemsize || b.itemsize != r.itemsize)
    throw nb::value_error("where: condition must be bool and values of the output's dtype");
  const int64_t *strides[4] = {c.strides, a.strides, b.strides, r.strides};
  Iteration it;
  collapse(r.nd, r.shape, 4, strides, 3, it);
  if (it.nd < 0) return Event{};
  char *const ptrs[4] = {c.data() + it.offset[0] * c.itemsize, a.data() + it.offset[1] * a.itemsize,
                         b.data() + it.offset[2] * b.itemsize, r.data() + it.offset[3] * r.itemsize};
  const int64_t isz[4] = {c.itemsize, a.itemsize, b.itemsize, r.itemsize};
  const std::string T = move_type_name(static_cast<int>(r.itemsize));
  // One dimension, condition and result unit-stride, each value operand
  // unit-stride or one broadcast item (where(c, 0.0, x)): the vector-block
  // variant on CPU devices.
  if (it.nd == 1 && it.strides[0][0] == 1 && it.strides[3][0] == 1 && r.itemsize <= 8 &&
      (it.strides[1][0] | 1) == 1 && (it.strides[2][0] | 1) == 1) {
    const int64_t n = it.size();
    const int inner = static_cast<int>(it.strides[1][0] + 2 * it.strides[2][0]);
    if (const sycl::kernel *kv =
            simd_variant(kc, "where_vec<" + T + ", " + std::to_string(inner) + ">", ptrs[3]))
      return Event{submit(q, {c.alloc, a.alloc, b.alloc, r.alloc}, [&](auto &h) {
        set_args(h, ptrs[0], ptrs[1], ptrs[2], ptrs[3], n);
        h.parallel_for(simd_range(n, 1), *kv);
      })};
  }
  if (it.contiguous()) {
    const int64_t n = it.size();
    sycl::kernel k = kc.get("where_contig<" + T + ">");
    return Event{submit(q, {c.alloc, a.alloc, b.alloc, r.alloc}, [&](auto &h) {
      set_args(h, ptrs[0], ptrs[1], ptrs[2], ptrs[3], n);
      h.parallel_for(linear_range(n, kc.wg_size), k);
    })};
  }
  return Event{launch_strided<4>(q, kc, "where_strided<" + T, it, ptrs, isz,
                                 {c.alloc, a.alloc, b.alloc, r.alloc})};
}

// A device flag the index kernels set for an index out of bounds: zeroed on
// creation, read back (one host wait) by raise_if_set.
class BoundsFlag {
 public:
  explicit BoundsFlag(sycl::queue &q) : q_(q), a_(allocate(q, sizeof(int32_t), KIND_DEVICE)) {
    int32_t *p = ptr();
    enqueue(q_, {a_.get()}, [&](const std::vector<sycl::event> &deps) {
      return q_.memset(p, 0, sizeof(int32_t), deps);
    });
  }
  int32_t *ptr() const { return static_cast<int32_t *>(a_->ptr); }
  Allocation *alloc() const { return a_.get(); }
  // IndexError when a kernel set the flag (`what` names its value).
  void raise_if_set(const std::function<std::string(int32_t)> &what = nullptr) {
    int32_t flag = 0;   // (on the host where it can: host_transfer)
    host_transfer(q_, *a_, 0, &flag, sizeof(int32_t), true);
    if (flag)
      throw nb::index_error(what ? what(flag).c_str()
                                 : "an index is out of bounds for the indexed axis");
  }

 private:
  sycl::queue &q_;
  std::unique_ptr<Allocation> a_;
};

namespace {

// Work-items of gather_vec/scatter_vec over n indices: one per block of
// kGatherBlock (kernels/sycl/where.cpp).
sycl::nd_range<1> index_block_range(int64_t n) {
  constexpr int64_t kBlock = 4096;
  return vector_items((n + kBlock - 1) / kBlock);
}

// The gather (take) and the scatter (put) of integer-array indexing walk the
// same geometry: indices i (int64, broadcast over the gathered dimensions),
// x (zero strides there) and y (the gathered values), all of y's shape.
// `extra` follow the kernel's Geometry argument; `flag` (or nullptr) is the
// allocation of a BoundsFlag the kernel writes.
template <class... Extra>
Event indexed(std::uintptr_t qref, KernelCache &kc, const char *kernel, nb::handle i_h,
              nb::handle x_h, nb::handle y_h, Allocation *flag, Extra... extra) {
  ArrayRef o, x, y;
  read_array(i_h, o);
  read_array(x_h, x);
  read_array(y_h, y);
  sycl::queue &q = queue_from_ref(qref);
  for (const ArrayRef *a : {&o, &x, &y}) check_operand(q, *a, y, "an indexing operand");
  if (o.tc != TC_I8 || x.itemsize != y.itemsize)
    throw nb::value_error("indexing: indices must be int64, x and the values of one item size");
  const int64_t *strides[3] = {o.strides, x.strides, y.strides};
  Iteration it;
  collapse(y.nd, y.shape, 3, strides, 2, it);
  if (it.nd < 0) return Event{};
  char *const ptrs[3] = {o.data() + it.offset[0] * o.itemsize, x.data() + it.offset[1] * x.itemsize,
                         y.data() + it.offset[2] * y.itemsize};
  const int64_t isz[3] = {o.itemsize, x.itemsize, y.itemsize};
  return Event{launch_strided<3>(q, kc,
                                 std::string(kernel) + "<" +
                                     move_type_name(static_cast<int>(y.itemsize)),
                                 it, ptrs, isz, {o.alloc, x.alloc, y.alloc, flag}, extra...)};
}

// Claims of the two-pass scatters of items wider than 8 bytes
// (kernels/sycl/where.cpp: claim): one 32-bit word per target, unset (every
// word read was written by the claim pass).
constexpr int64_t kClaimItem = 8;   // wider items take the two passes
std::unique_ptr<Allocation> claim_words(sycl::queue &q, int64_t targets, int64_t ids) {
  if (ids > (int64_t(1) << 32))
    throw nb::value_error("a scatter of 2**32 or more items wider than 8 bytes (complex128) is "
                          "not supported");
  return std::unique_ptr<Allocation>(
      allocate(q, static_cast<size_t>(std::max<int64_t>(targets, 1) * 4), KIND_DEVICE));
}

void check_axis(int64_t n, int64_t sa) {
  if (n < 0 || (n == 0 && sa != 1))
    throw nb::value_error("indexing: n must be > 0 (positions along an axis) or 0 (offsets, sa 1)");
}

} // namespace

// out[i] = x[i + k * sa], k = idx[i]: element offsets (n == 0, sa == 1;
// checked by the caller; asynchronous) or positions along an axis of
// length n (negative ones from the end; waits for the device: an index
// outside [-n, n) raises IndexError).
Event take(std::uintptr_t qref, KernelCache &kc, nb::handle idx_h, nb::handle x_h,
           nb::handle out_h, int64_t n, int64_t sa) {
  check_axis(n, sa);
  if (n == 0)
    return indexed(qref, kc, "take_strided", idx_h, x_h, out_h, nullptr, n, sa,
                   static_cast<int32_t *>(nullptr));
  BoundsFlag err(queue_from_ref(qref));
  indexed(qref, kc, "take_strided", idx_h, x_h, out_h, err.alloc(), n, sa, err.ptr());
  err.raise_if_set();
  return Event{};
}

// x[i + k * sa] = v[i] (integer-array assignment), idx, n and sa as for
// take. With n > 0 the indices are checked on the device first (one wait),
// and nothing is stored when one is out of bounds.
Event put(std::uintptr_t qref, KernelCache &kc, nb::handle idx_h, nb::handle x_h,
          nb::handle v_h, int64_t n, int64_t sa) {
  check_axis(n, sa);
  if (n > 0) {
    BoundsFlag err(queue_from_ref(qref));
    indexed(qref, kc, "put_strided", idx_h, x_h, v_h, err.alloc(), n, sa, int32_t(1),
            err.ptr());
    err.raise_if_set();
  }
  ArrayRef x, v;
  read_array(x_h, x);
  read_array(v_h, v);
  if (x.itemsize <= kClaimItem)
    return indexed(qref, kc, "put_strided", idx_h, x_h, v_h, nullptr, n, sa, int32_t(0),
                   static_cast<int32_t *>(nullptr));
  // targets counted from the start of x's memory, ids from the lowest value
  int64_t lo, hi;
  v.extent(lo, hi);
  char *x0 = static_cast<char *>(x.alloc->ptr), *v0 = static_cast<char *>(v.alloc->ptr) + lo;
  std::unique_ptr<Allocation> claims = claim_words(
      queue_from_ref(qref), static_cast<int64_t>(x.alloc->nbytes) / x.itemsize, (hi - lo) / v.itemsize);
  auto *cp = static_cast<uint32_t *>(claims->ptr);
  for (int32_t pass = 0; pass < 2; ++pass)
    indexed(qref, kc, "put_claimed", idx_h, x_h, v_h, claims.get(), n, sa, x0, v0, cp, pass);
  return Event{};
}

// out = base + sum over k of idx[k] * strides[k], the element offsets of
// x[i0, i1, ...]: idx[k] (int64, of out's shape) holds positions along an
// axis of length lengths[k] (negative ones from the end), axes[k] names it
// in the error. One launch per index array, then one wait: an index
// outside its axis raises IndexError.
void index_offsets(std::uintptr_t qref, KernelCache &kc, std::vector<nb::handle> idx,
                   std::vector<int64_t> lengths, std::vector<int64_t> strides,
                   std::vector<int64_t> axes, int64_t base, nb::handle out_h) {
  const size_t k = idx.size();
  if (!k || lengths.size() != k || strides.size() != k || axes.size() != k)
    throw nb::value_error("index_offsets: one length, stride and axis per index array");
  for (int64_t n : lengths)
    if (n < 0) throw nb::value_error("index_offsets: negative axis length");
  BoundsFlag err(queue_from_ref(qref));
  for (size_t j = 0; j < k; ++j)
    indexed(qref, kc, "index_offsets", idx[j], out_h, out_h, err.alloc(), lengths[j], strides[j],
            base, int32_t(j == 0), static_cast<int32_t>(j + 1), err.ptr());
  err.raise_if_set([&](int32_t tag) {
    const size_t j = static_cast<size_t>(tag - 1) < k ? static_cast<size_t>(tag - 1) : 0;
    return "an index is out of bounds for axis " + std::to_string(axes[j]) + " with size " +
           std::to_string(lengths[j]);
  });
}

// out = insertion indices of v into the sorted 1-D s (all contiguous, s and v
// of one type).
Event search_sorted(std::uintptr_t qref, KernelCache &kc, nb::handle s_h, nb::handle v_h,
                    nb::handle out_h, bool right) {
  ArrayRef s, v, r;
  read_array(s_h, s);
  read_array(v_h, v);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, s, s, "the sorted array");
  check_operand(q, v, r, "the values");
  check_operand(q, r, r, "the output");
  if (s.nd != 1 || s.tc != v.tc || r.tc != TC_I8 || !s.is_c_contiguous() ||
      !v.is_c_contiguous() || !r.is_c_contiguous())
    throw nb::value_error("search_sorted: expected contiguous operands of one type");
  const int64_t n = s.size(), m = r.size();
  if (m == 0) return Event{};
  const sycl::kernel &k = kc.get(std::string("search_sorted<") + kTypeName[s.tc] +
                                 (right ? ", 1>" : ", 0>"));
  char *sp = s.data(), *vp = v.data(), *rp = r.data();
  return Event{submit(q, {s.alloc, v.alloc, r.alloc}, [&](auto &h) {
    set_args(h, sp, n, vp, rp, m);
    h.parallel_for(linear_range(m, kc.wg_size), k);
  })};
}

// out (m, inner) = x (n0, inner) taken at idx (m int64 indices along axis 0,
// negative ones from the end); out and idx contiguous. Waits for the device:
// an index out of bounds raises IndexError (nothing is stored for it).
void gather(std::uintptr_t qref, KernelCache &kc, nb::handle x_h, nb::handle idx_h,
            nb::handle out_h) {
  ArrayRef x, idx, r;
  read_array(x_h, x);
  read_array(idx_h, idx);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, x, x, "the array");
  check_operand(q, idx, idx, "the indices");
  check_operand(q, r, r, "the result");
  if (x.nd != 2 || idx.nd != 1 || r.nd != 2 || idx.tc != TC_I8 || !idx.is_c_contiguous() ||
      !r.is_c_contiguous() || r.shape[0] != idx.shape[0] || r.shape[1] != x.shape[1] ||
      x.itemsize != r.itemsize)
    throw nb::value_error("gather: expected x (n0, inner), int64 indices, out (m, inner)");
  const int64_t m = r.shape[0], inner = r.shape[1], n0 = x.shape[0];
  const int64_t total = m * inner;
  if (total == 0) return;
  if (n0 == 0) throw nb::index_error("index out of bounds for an axis of size 0");
  const int64_t s0 = x.strides[0], si = x.strides[1];
  BoundsFlag err(q);
  int32_t *ep = err.ptr();
  const std::string T = move_type_name(static_cast<int>(x.itemsize));
  // CPU devices: blocks of indices (inner == 1) or runs of rows (inner > 1)
  const sycl::kernel *kv = kc.simd && inner == 1 ? kc.find("gather_vec<" + T + ">") : nullptr;
  const sycl::kernel *kr = kc.simd && inner > 1 ? kc.find("gather_rows_vec<" + T + ">") : nullptr;
  const sycl::kernel &k = kv ? *kv : kr ? *kr : kc.get("gather<" + T + ">");
  char *xp = x.data(), *ip = idx.data(), *rp = r.data();
  submit(q, {x.alloc, idx.alloc, r.alloc, err.alloc()}, [&](auto &h) {
    if (kr) {
      constexpr int64_t kChunk = 1024;  // kGatherRowChunk in kernels/sycl/where.cpp
      set_args(h, xp, ip, rp, m, inner, n0, s0, si, ep);
      h.parallel_for(vector_items(m * ((inner + kChunk - 1) / kChunk)), k);
    } else if (kv) {
      set_args(h, xp, ip, rp, total, n0, s0, ep);
      h.parallel_for(index_block_range(total), k);
    } else {
      set_args(h, xp, ip, rp, total, inner, n0, s0, si, ep);
      h.parallel_for(linear_range(total, kc.wg_size), k);
    }
  });
  err.raise_if_set();
}

// x (n0, inner) at idx (m int64 indices along axis 0, negative ones from
// the end) = v (m, inner); idx and v contiguous. Waits for the device once:
// the indices are checked before anything is stored (IndexError).
void scatter(std::uintptr_t qref, KernelCache &kc, nb::handle x_h, nb::handle idx_h,
             nb::handle v_h) {
  ArrayRef x, idx, v;
  read_array(x_h, x);
  read_array(idx_h, idx);
  read_array(v_h, v);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, x, x, "the array");
  check_operand(q, idx, idx, "the indices");
  check_operand(q, v, v, "the values");
  if (x.nd != 2 || idx.nd != 1 || v.nd != 2 || idx.tc != TC_I8 || !idx.is_c_contiguous() ||
      !v.is_c_contiguous() || v.shape[0] != idx.shape[0] || v.shape[1] != x.shape[1] ||
      x.itemsize != v.itemsize || overlaps(x, v) || overlaps(x, idx))
    throw nb::value_error("scatter: expected x (n0, inner), int64 indices, values (m, inner)");
  const int64_t m = v.shape[0], inner = v.shape[1], n0 = x.shape[0];
  const int64_t total = m * inner;
  if (total == 0) return;
  if (n0 == 0) throw nb::index_error("index out of bounds for an axis of size 0");
  const int64_t s0 = x.strides[0], si = x.strides[1];
  BoundsFlag err(q);
  int32_t *ep = err.ptr();
  const std::string T = move_type_name(static_cast<int>(x.itemsize));
  char *xp = x.data(), *ip = idx.data(), *vp = v.data();
  // CPU devices, inner == 1: blocks of indices (a vectorised check pass:
  // kernels/sycl/where.cpp)
  const sycl::kernel *kv[2] = {nullptr, nullptr};
  if (kc.simd && inner == 1)
    for (int c = 0; c < 2; ++c) kv[c] = kc.find("scatter_vec<" + T + ", " + std::to_string(c) + ">");
  const sycl::kernel &kcheck = kv[1] ? *kv[1] : kc.get("scatter<" + T + ", 1>");
  submit(q, {idx.alloc, err.alloc()}, [&](auto &h) {
    if (kv[1]) {
      set_args(h, xp, ip, vp, total, n0, s0, ep);
      h.parallel_for(index_block_range(total), kcheck);
    } else {
      set_args(h, xp, ip, vp, m, int64_t(1), n0, s0, si, ep);
      h.parallel_for(linear_range(m, kc.wg_size), kcheck);
    }
  });
  err.raise_if_set();
  if (x.itemsize > kClaimItem) {
    std::unique_ptr<Allocation> claims = claim_words(q, n0, m);
    auto *cp = static_cast<uint32_t *>(claims->ptr);
    const sycl::kernel &kc2 = kc.get("scatter_claimed<" + T + ">");
    for (int32_t pass = 0; pass < 2; ++pass)
      submit(q, {x.alloc, idx.alloc, v.alloc, claims.get()}, [&](auto &h) {
        set_args(h, xp, ip, vp, pass ? total : m, pass ? inner : int64_t(1), n0, s0, si, cp, pass);
        h.parallel_for(linear_range(pass ? total : m, kc.wg_size), kc2);
      });
    return;
  }
  const sycl::kernel &k = kv[0] ? *kv[0] : kc.get("scatter<" + T + ", 0>");
  submit(q, {x.alloc, idx.alloc, v.alloc}, [&](auto &h) {
    if (kv[0]) {
      set_args(h, xp, ip, vp, total, n0, s0, ep);
      h.parallel_for(index_block_range(total), k);
    } else {
      set_args(h, xp, ip, vp, total, inner, n0, s0, si, ep);
      h.parallel_for(linear_range(total, kc.wg_size), k);
    }
  });
}

} // namespace usm

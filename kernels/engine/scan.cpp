// Scans and mask compaction (kernels/sycl/scan.cpp): reduce-then-scan over
// fixed tiles. Python makes the result and passes (B, n, C) views; here the
// layout picks column walks or tiled rows, and the device picks generic or
// vector-block kernels.
#include "engine.hpp"

namespace usm {

namespace {

// Column walks (scan_cols) need enough columns to keep the device busy;
// below that a long axis runs as tiled rows.
constexpr int64_t kColsMin = 256;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

struct Rows {
  char *x, *y;
  int64_t rows, n, C, xb, xc, xs, yb, yc, ys;
};

// y = inclusive scan of x along each row; x and y may be the same memory
// (the totals arrays are scanned in place).
Ev scan_rows(sycl::queue &q, KernelCache &kc, const std::string &op, int xtc, int ytc,
                      const Rows &a, Allocation *xa, Allocation *ya) {
  const std::string targs = op + ", " + kTypeName[xtc] + ", " + kTypeName[ytc] + ">";
  const sycl::kernel *vt = nullptr, *va = nullptr;
  if (kc.simd && a.xs == 1 && a.ys == 1) {
    vt = kc.find("scan_totals_vec<" + targs);
    va = kc.find("scan_apply_vec<" + targs);
  }
  const bool vec = vt && va;
  const int64_t tile = vec ? kScanVecTile : kScanTile;
  const int64_t ntiles = ceil_div(a.n, tile);
  const int64_t groups = a.rows * ntiles;
  auto range = [&]() {
    return vec ? vector_items(groups)
               : sycl::nd_range<1>{{static_cast<size_t>(groups * kScanGroup)},
                                   {size_t(kScanGroup)}};
  };
  std::unique_ptr<Allocation> tot;
  char *tp = nullptr;
  if (ntiles > 1) {
    const int64_t isz = kItemSize[ytc];
    tot.reset(allocate(q, static_cast<size_t>(groups * isz), KIND_DEVICE));
    tp = static_cast<char *>(tot->ptr);
    const sycl::kernel &k = vec ? *vt : kc.get("scan_totals<" + targs);
    submit(q, {xa, tot.get()}, [&](auto &h) {
      if (vec) set_args(h, a.x, tp, a.rows, a.n, a.C, a.xb, a.xc, ntiles);
      else set_args(h, a.x, tp, a.rows, a.n, a.C, a.xb, a.xc, a.xs, ntiles);
      h.parallel_for(range(), k);
    });
    const Rows t{tp, tp, a.rows, ntiles, 1, ntiles, 0, 1, ntiles, 0, 1};
    scan_rows(q, kc, op, ytc, ytc, t, tot.get(), tot.get());
  }
  const sycl::kernel &k = vec ? *va : kc.get("scan_apply<" + targs);
  // tot returns to the pool carrying this last event
  return submit(q, {xa, ya, tot.get()}, [&](auto &h) {
    if (vec) set_args(h, a.x, a.y, tp, a.rows, a.n, a.C, a.xb, a.xc, a.yb, a.yc, ntiles);
    else set_args(h, a.x, a.y, tp, a.rows, a.n, a.C, a.xb, a.xc, a.xs, a.yb, a.yc, a.ys, ntiles);
    h.parallel_for(range(), k);
  });
}

} // namespace

// y = inclusive scan of x along axis 1, both (B, n, C) of one shape; y's
// dtype is the accumulator (x's items are converted); `op` a
// kernels/sycl/reduction.hpp operation struct.
Event scan(std::uintptr_t qref, KernelCache &kc, const std::string &op, nb::handle x_h,
           nb::handle y_h) {
  ArrayRef x, y;
  read_array(x_h, x);
  read_array(y_h, y);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, x, y, "the scanned array");
  check_operand(q, y, y, "the scan's result");
  if (x.nd != 3) throw nb::value_error("scan: expected (B, n, C) views");
  if (overlaps(x, y) && !same_view(x, y))
    throw nb::value_error("scan: the result overlaps the input");
  const int64_t B = x.shape[0], n = x.shape[1], C = x.shape[2];
  if (B == 0 || n == 0 || C == 0) return Event{};
  const int64_t *xs = x.strides, *ys = y.strides;
  if (C > 1 && (B * C >= kColsMin || n <= kColsMin)) {
    const std::string targs = op + ", " + kTypeName[x.tc] + ", " + kTypeName[y.tc] + ">";
    char *xp = x.data(), *yp = y.data();
    const sycl::kernel *kv =
        kc.simd && xs[2] == 1 && ys[2] == 1 ? kc.find("scan_cols_vec<" + targs) : nullptr;
    if (kv) {
      const int64_t L = simd_lanes(static_cast<int>(kItemSize[y.tc]));
      const int64_t items = B * ceil_div(C, L);
      return Event{submit(q, {x.alloc, y.alloc}, [&](auto &h) {
        set_args(h, xp, yp, B, n, C, xs[0], xs[1], ys[0], ys[1]);
        h.parallel_for(vector_items(items), *kv);
      })};
    }
    const sycl::kernel &k = kc.get("scan_cols<" + targs);
    return Event{submit(q, {x.alloc, y.alloc}, [&](auto &h) {
      set_args(h, xp, yp, B, n, C, xs[0], xs[1], xs[2], ys[0], ys[1], ys[2]);
      h.parallel_for(linear_range(B * C, kc.wg_size), k);
    })};
  }
  const Rows a{x.data(), y.data(), B * C, n, C, xs[0], xs[2], xs[1], ys[0], ys[2], ys[1]};
  return Event{scan_rows(q, kc, op, x.tc, y.tc, a, x.alloc, y.alloc)};
}

namespace {

bool mask_vec(KernelCache &kc) { return kc.simd && kc.find("mask_count_vec<i8>") != nullptr; }

int64_t mask_tile(KernelCache &kc) { return mask_vec(kc) ? kScanVecTile : kScanTile; }

sycl::nd_range<1> mask_range(KernelCache &kc, int64_t ntiles) {
  if (mask_vec(kc)) return vector_items(ntiles);
  return {{static_cast<size_t>(ntiles * kScanGroup)}, {size_t(kScanGroup)}};
}

void check_mask(sycl::queue &q, const ArrayRef &m, const ArrayRef &off, int64_t &ntiles) {
  check_operand(q, m, m, "the mask");
  check_operand(q, off, off, "the mask offsets");
  if (m.tc != TC_BOOL || m.nd != 1 || (m.shape[0] > 1 && m.strides[0] != 1) || off.tc != TC_I8 ||
      off.nd != 1 || !off.is_c_contiguous())
    throw nb::value_error("mask: expected a contiguous 1-D bool mask and int64 offsets");
  ntiles = ceil_div(m.shape[0], kScanTile);  // the generic tiles: the most there are
  if (off.shape[0] < ntiles + 1) throw nb::value_error("mask: offsets array too short");
}

} // namespace

// Tile offsets of the true elements of the 1-D mask m into `off` (at least
// ceil(n / kScanTile) + 1 entries); returns the number of true elements (a
// host wait: the count sizes the result).
int64_t mask_count(std::uintptr_t qref, KernelCache &kc, nb::handle m_h, nb::handle off_h) {
  ArrayRef m, off;
  read_array(m_h, m);
  read_array(off_h, off);
  sycl::queue &q = queue_from_ref(qref);
  int64_t ntiles;
  check_mask(q, m, off, ntiles);
  const int64_t n = m.shape[0];
  if (n == 0) return 0;
  ntiles = ceil_div(n, mask_tile(kc));
  char *mp = m.data(), *op = off.data();
  const sycl::kernel &kcount = kc.get(mask_vec(kc) ? "mask_count_vec<i8>" : "mask_count<i8>");
  submit(q, {m.alloc, off.alloc}, [&](auto &h) {
    set_args(h, mp, op, n);
    h.parallel_for(mask_range(kc, ntiles), kcount);
  });
  const sycl::kernel &koff = kc.get("mask_offsets<i8>");
  submit(q, {off.alloc}, [&](auto &h) {
    set_args(h, op, ntiles);
    h.parallel_for(sycl::nd_range<1>{{size_t(kScanGroup)}, {size_t(kScanGroup)}}, koff);
  });
  // the total, read on the host where it can (a copy command and its wait
  // cost 15-20 us of a 10-item x[mask])
  int64_t total = 0;
  host_transfer(qref, *off.alloc, (op + ntiles * sizeof(int64_t)) - static_cast<char *>(off.alloc->ptr),
                reinterpret_cast<std::uintptr_t>(&total), sizeof(int64_t), true);
  return total;
}

// out[k] = x[i] for the k-th true element i of m (indices: out[k] = i, int64, x unused),
// from mask_count's offsets. x is 1-D (any stride) of m's length, out
// contiguous with the count's length.
Event mask_compact(std::uintptr_t qref, KernelCache &kc, nb::handle m_h, nb::handle x_h,
                   nb::handle off_h, nb::handle out_h, bool idx) {
  ArrayRef m, off, x, r;
  read_array(m_h, m);
  read_array(off_h, off);
  read_array(out_h, r);
  sycl::queue &q = queue_from_ref(qref);
  int64_t ntiles;
  check_mask(q, m, off, ntiles);
  check_operand(q, r, r, "the result");
  if (!idx) {
    read_array(x_h, x);
    check_operand(q, x, m, "the masked array");
    if (x.itemsize != r.itemsize) throw nb::value_error("mask_compact: item sizes differ");
  } else if (r.tc != TC_I8) {
    throw nb::value_error("mask_compact: indices are int64");
  }
  if (r.nd != 1 || !r.is_c_contiguous()) throw nb::value_error("mask_compact: bad result");
  const int64_t n = m.shape[0];
  if (n == 0 || r.shape[0] == 0) return Event{};
  ntiles = ceil_div(n, mask_tile(kc));
  const std::string name = idx ? "mask_index" : "mask_compact";
  const std::string T = idx ? "i8" : move_type_name(static_cast<int>(r.itemsize));
  const sycl::kernel &k = kc.get(name + (mask_vec(kc) ? "_vec<" : "<") + T + ">");
  char *mp = m.data(), *op = off.data(), *rp = r.data();
  char *xp = idx ? rp : x.data();
  const int64_t xs = idx ? 0 : x.strides[0];
  Allocation *xa = idx ? r.alloc : x.alloc;
  return Event{submit(q, {m.alloc, off.alloc, xa, r.alloc}, [&](auto &h) {
    set_args(h, mp, xp, xs, rp, op, n);
    h.parallel_for(mask_range(kc, ntiles), k);
  })};
}

// x[i] = v[k] for the k-th true element i of m (x[mask] = v), from
// mask_count's offsets. x 1-D (any stride) of m's length, v contiguous.
Event mask_expand(std::uintptr_t qref, KernelCache &kc, nb::handle m_h, nb::handle x_h,
                  nb::handle off_h, nb::handle v_h) {
  ArrayRef m, off, x, v;
  read_array(m_h, m);
  read_array(off_h, off);
  read_array(x_h, x);
  read_array(v_h, v);
  sycl::queue &q = queue_from_ref(qref);
  int64_t ntiles;
  check_mask(q, m, off, ntiles);
  check_operand(q, x, m, "the masked array");
  check_operand(q, v, v, "the values");
  if (x.itemsize != v.itemsize || v.nd != 1 || !v.is_c_contiguous() || overlaps(x, v))
    throw nb::value_error("mask_expand: expected contiguous values of x's item size");
  const int64_t n = m.shape[0];
  if (n == 0 || v.shape[0] == 0) return Event{};
  ntiles = ceil_div(n, mask_tile(kc));
  const std::string T = move_type_name(static_cast<int>(x.itemsize));
  const sycl::kernel &k =
      kc.get(std::string(mask_vec(kc) ? "mask_expand_vec<" : "mask_expand<") + T + ">");
  char *mp = m.data(), *op = off.data(), *xp = x.data(), *vp = v.data();
  const int64_t xs = x.strides[0];
  return Event{submit(q, {m.alloc, off.alloc, x.alloc, v.alloc}, [&](auto &h) {
    set_args(h, mp, xp, xs, vp, op, n);
    h.parallel_for(mask_range(kc, ntiles), k);
  })};
}

} // namespace usm

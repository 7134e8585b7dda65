// In-place inclusive scans along rows (kernels/sycl/scan.cpp). Python makes
// the buffer (the input cast and laid out with the scanned axis last) and
// keeps the result's layout; here only the chunked passes are launched.
#include "engine.hpp"

namespace usm {

namespace {

// Elements one work-item scans sequentially: long enough that the totals
// pass is small, short enough to give every compute unit work on 10^5+ rows.
constexpr int64_t kChunk = 512;

sycl::event scan_rows(sycl::queue &q, KernelCache &kc, const std::string &ty, int64_t itemsize,
                      char *p, Allocation *alloc, int64_t rows, int64_t n, int64_t ld) {
  const sycl::kernel &apply = kc.get("scan_apply<" + ty + ">");
  if (n <= kChunk) {
    char *none = nullptr;
    const int64_t one = 1;
    return submit(q, {alloc}, [&](sycl::handler &h) {
      h.set_args(p, none, rows, n, ld, n, one);
      h.parallel_for(linear_range(rows, kc.wg_size), apply);
    });
  }
  const int64_t nch = (n + kChunk - 1) / kChunk;
  std::unique_ptr<Allocation> tot(
      allocate(q, static_cast<size_t>(rows * nch * itemsize), KIND_DEVICE));
  char *tp = static_cast<char *>(tot->ptr);
  const sycl::kernel &totals = kc.get("scan_totals<" + ty + ">");
  const int64_t chunk = kChunk;
  submit(q, {alloc, tot.get()}, [&](sycl::handler &h) {
    h.set_args(p, tp, rows, n, ld, chunk, nch);
    h.parallel_for(linear_range(rows * nch, kc.wg_size), totals);
  });
  scan_rows(q, kc, ty, itemsize, tp, tot.get(), rows, nch, nch);
  // tot returns to the pool carrying this last event
  return submit(q, {alloc, tot.get()}, [&](sycl::handler &h) {
    h.set_args(p, tp, rows, n, ld, chunk, nch);
    h.parallel_for(linear_range(rows * nch, kc.wg_size), apply);
  });
}

} // namespace

// x (rows, n) with unit stride along rows and row stride ld >= n, scanned in
// place with `op` (a kernels/sycl/reduction.hpp operation struct).
Event scan(std::uintptr_t qref, KernelCache &kc, const std::string &op, nb::handle x_h) {
  ArrayRef x;
  read_array(x_h, x);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, x, x, "the scanned array");
  if (x.nd != 2 || (x.shape[1] > 1 && x.strides[1] != 1) ||
      (x.shape[0] > 1 && x.strides[0] < x.shape[1]))
    throw nb::value_error("scan: expected rows with unit stride");
  const int64_t rows = x.shape[0], n = x.shape[1];
  if (rows == 0 || n == 0) return Event{};
  const int64_t ld = rows > 1 ? x.strides[0] : n;
  return Event{scan_rows(q, kc, op + ", " + kTypeName[x.tc], x.itemsize, x.data(), x.alloc,
                         rows, n, ld)};
}

} // namespace usm

// Stable sorts along the rows of contiguous buffers (kernels/sycl/sort.cpp):
// Python lays out the keys (and argsort's indices) with the sorted axis
// last; here the chunk sort and the merge passes run, ping-ponging through
// pooled temporaries.
#include "engine.hpp"

namespace usm {

namespace {
constexpr int64_t kSortChunk = 16;
}

// keys (rows, n) sorted in place along rows; idx (int64, same shape) moved
// along with them when not None.
Event sort(std::uintptr_t qref, KernelCache &kc, nb::handle keys_h, nb::handle idx_h, bool desc) {
  ArrayRef k, ix;
  read_array(keys_h, k);
  const bool with_idx = !idx_h.is_none();
  if (with_idx) read_array(idx_h, ix);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, k, k, "the keys");
  if (with_idx) check_operand(q, ix, k, "the indices");
  if (k.nd != 2 || !k.is_c_contiguous() || (with_idx && (ix.tc != TC_I8 || !ix.is_c_contiguous())))
    throw nb::value_error("sort: expected contiguous (rows, n) keys and int64 indices");
  const int64_t rows = k.shape[0], n = k.shape[1];
  if (rows == 0 || n <= 1) return Event{};
  const std::string targs = std::string(kTypeName[k.tc]) + (desc ? ", 1" : ", 0") +
                            (with_idx ? ", 1>" : ", 0>");
  char *kp = k.data(), *ip = with_idx ? ix.data() : nullptr;
  Allocation *ka = k.alloc, *ia = with_idx ? ix.alloc : k.alloc;
  const int64_t chunk = kSortChunk, nch = (n + chunk - 1) / chunk;
  const sycl::kernel &chunks = kc.get("sort_chunks<" + targs);
  sycl::event e = submit(q, {ka, ia}, [&](sycl::handler &h) {
    h.set_args(kp, ip, rows, n, chunk);
    h.parallel_for(linear_range(rows * nch, kc.wg_size), chunks);
  });
  if (n <= chunk) return Event{e};
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
    e = submit(q, {ka, ia, kt.get(), ita}, [&](sycl::handler &h) {
      h.set_args(ks, is, kd, id, rows, n, width);
      h.parallel_for(linear_range(rows * n, kc.wg_size), merge);
    });
    src = 1 - src;
  }
  if (src == 1) {  // the result is in the temporaries: copy it home
    e = submit(q, {ka, ia, kt.get(), ita}, [&](sycl::handler &h) {
      h.memcpy(kp, bufk[1], kbytes);
    });
    if (with_idx)
      e = submit(q, {ka, ia, kt.get(), ita}, [&](sycl::handler &h) {
        h.memcpy(ip, bufi[1], ibytes);
      });
  }
  return Event{e};
}

} // namespace usm

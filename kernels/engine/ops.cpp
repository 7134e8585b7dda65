// Operations of the foundation: copy-and-cast between arrays, fills,
// sequences, triangular masks, host transfers. Each validates its operands,
// collapses the iteration and picks memcpy/fill, a contiguous kernel or a
// strided kernel.
#include "engine.hpp"

#include <cstring>

#include <nanobind/stl/complex.h>

#include <complex>

namespace usm {

namespace {

struct alignas(16) X16 {
  uint64_t lo, hi;
};

std::string tname(int tc) { return kTypeName[tc]; }

Ev copy_impl(sycl::queue &q, KernelCache &kc, const ArrayRef &s, const ArrayRef &d);

// Copies `s` into fresh contiguous device memory first: used when source
// and destination overlap in a way a single pass would corrupt.
Ev copy_through_temporary(sycl::queue &q, KernelCache &kc, const ArrayRef &s,
                                   const ArrayRef &d) {
  std::unique_ptr<Allocation> tmp(allocate(q, static_cast<size_t>(s.size() * s.itemsize),
                                           KIND_DEVICE));
  ArrayRef t;
  copy_to_contiguous(q, kc, s, t, tmp.get());
  return copy_impl(q, kc, t, d);  // tmp returns to the pool carrying this event
}

// Small copies between idle blocks the host can address go through a memcpy
// on the host: no command to submit (~0.1 us against ~4 us for a queued
// memcpy), which is what x[i]'s 0-d copy and one-item assignments cost.
// "Idle": the last command on each block completed, so no command touches
// the bytes while the host copies them (a later one is ordered after the
// copy by running later); no event is recorded.
constexpr int64_t kHostCopyBytes = 4096;

bool copy_on_host(const Allocation &s, const Allocation &d, int64_t nbytes) {
  return nbytes <= kHostCopyBytes && s.host_addressable() && d.host_addressable() &&
         !s.last->pending() && !d.last->pending();
}

// A copy of two dimensions in which one operand's fastest-moving dimension
// is the other one's slowest (x.T into C order): the tiled kernel
// (kernels/sycl/transpose.cpp) keeps the strided operand's lines in cache.
// Both dimensions of a tile's length at least, else the plain kernel.
constexpr int64_t kTile = 16;

bool transposing(const Iteration &it) {
  if (it.nd != 2 || it.shape[0] < kTile || it.shape[1] < kTile) return false;
  auto mag = [](int64_t v) { return v < 0 ? -v : v; };
  const bool s_rows = mag(it.strides[0][0]) < mag(it.strides[0][1]);
  const bool d_rows = mag(it.strides[1][0]) < mag(it.strides[1][1]);
  return s_rows != d_rows;
}

Ev move_tiled(sycl::queue &q, KernelCache &kc, const std::string &mt, const Iteration &it,
              char *const (&ptrs)[2], std::initializer_list<Allocation *> touched) {
  // dimension 1 (the work-group's fastest) is the destination's faster one
  auto mag = [](int64_t v) { return v < 0 ? -v : v; };
  const bool swap = mag(it.strides[1][0]) < mag(it.strides[1][1]);
  const int a = swap ? 1 : 0, b = swap ? 0 : 1;
  const int64_t n0 = it.shape[a], n1 = it.shape[b];
  const sycl::kernel &k = kc.get("move_tiled<" + mt + ">");
  // 16 x 16 tiles, a GPU's sub-group along each row; on CPU devices
  // (KernelCache::simd) 8 x 8 ones: 4000^2 float32 12 ms against 17 ms for
  // 16 x 16 and 32 x 32, float64 18 against 29 ms (4 x 4: 20 ms)
  const size_t t = kc.simd ? kTile / 2 : kTile;
  const auto up = [t](int64_t n) { return (static_cast<size_t>(n) + t - 1) / t * t; };
  return submit(q, touched, [&](auto &h) {
    set_args(h, ptrs[0], ptrs[1], n0, n1, it.strides[0][a], it.strides[0][b], it.strides[1][a],
             it.strides[1][b]);
    h.parallel_for(sycl::nd_range<2>{{up(n0), up(n1)}, {t, t}}, k);
  });
}

Ev copy_impl(sycl::queue &q, KernelCache &kc, const ArrayRef &s, const ArrayRef &d) {
  if (overlaps(s, d)) {
    if (same_view(s, d) && s.tc == d.tc) return Ev();
    return copy_through_temporary(q, kc, s, d);
  }
  const int64_t *strides[2] = {s.strides, d.strides};
  Iteration it;
  collapse(d.nd, d.shape, 2, strides, /*primary=*/1, it);
  if (it.nd < 0) return Ev();
  char *const ptrs[2] = {s.data() + it.offset[0] * s.itemsize, d.data() + it.offset[1] * d.itemsize};
  const int64_t isz[2] = {s.itemsize, d.itemsize};
  const int64_t n = it.size();
  const bool same_type = s.tc == d.tc;
  if (same_type && it.contiguous()) {
    if (copy_on_host(*s.alloc, *d.alloc, n * s.itemsize)) {
      std::memcpy(ptrs[1], ptrs[0], static_cast<size_t>(n * s.itemsize));
      return Ev();
    }
    return enqueue(q, {s.alloc, d.alloc}, [&](const std::vector<sycl::event> &deps) {
      return q.memcpy(ptrs[1], ptrs[0], n * s.itemsize, deps);
    });
  }
  if (same_type) {
    const std::string mt = move_type_name(static_cast<int>(s.itemsize));
    if (transposing(it)) return move_tiled(q, kc, mt, it, ptrs, {s.alloc, d.alloc});
    return launch_strided<2>(q, kc, "move_strided<" + mt, "move_inner<" + mt, it, ptrs, isz,
                             {s.alloc, d.alloc});
  }
  const std::string types = tname(s.tc) + ", " + tname(d.tc);
  if (it.contiguous()) {
    if (const sycl::kernel *kv = simd_variant(kc, "cast_vec<" + types + ">", ptrs[1])) {
      return submit(q, {s.alloc, d.alloc}, [&](auto &h) {
        set_args(h, ptrs[0], ptrs[1], n);
        h.parallel_for(simd_range(n, std::min(s.itemsize, d.itemsize)), *kv);
      });
    }
    sycl::kernel k = kc.get("cast_contig<" + types + ">");
    return submit(q, {s.alloc, d.alloc}, [&](auto &h) {
      set_args(h, ptrs[0], ptrs[1], n);
      h.parallel_for(linear_range(n, kc.wg_size), k);
    });
  }
  return launch_strided<2>(q, kc, "cast_strided<" + types, it, ptrs, isz, {s.alloc, d.alloc});
}

template <typename T>
Ev fill_typed(sycl::queue &q, KernelCache &kc, const ArrayRef &d, const Iteration &it,
                       char *ptr, T value) {
  const int64_t n = it.size();
  if (it.contiguous()) {
    bool zero = true;
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&value);
    for (size_t i = 0; i < sizeof(T); ++i) zero &= b[i] == 0;
    if (zero)
      return enqueue(q, {d.alloc}, [&](const std::vector<sycl::event> &deps) {
        return q.memset(ptr, 0, n * sizeof(T), deps);
      });
    // (a kernel rather than queue::fill: the runtime's pattern fill is
    // several times slower than a store per work-item on some devices)
    sycl::kernel k = kc.get(std::string("fill_contig<") + move_type_name(d.itemsize) + ">");
    return submit(q, {d.alloc}, [&](auto &h) {
      set_args(h, ptr, n, value);
      h.parallel_for(linear_range(n, kc.wg_size), k);
    });
  }
  char *const ptrs[1] = {ptr};
  const int64_t isz[1] = {d.itemsize};
  return launch_strided<1>(q, kc, std::string("fill_strided<") + move_type_name(d.itemsize), it,
                           ptrs, isz, {d.alloc}, value);
}

} // namespace

// t = s copied, C-contiguous, into `tmp` (at least s.size() items).
Ev copy_to_contiguous(sycl::queue &q, KernelCache &kc, const ArrayRef &s, ArrayRef &t,
                               Allocation *tmp) {
  t = s;
  t.alloc = tmp;
  t.off = 0;
  int64_t st = 1;
  for (int i = s.nd - 1; i >= 0; --i) {
    t.strides[i] = st;
    st *= s.shape[i];
  }
  return copy_impl(q, kc, s, t);
}

sycl::nd_range<1> linear_range(int64_t n, size_t wg) {
  size_t L = std::min(wg, pow2_at_least(std::max<int64_t>(n, 1)));
  return sycl::nd_range<1>{{round_up(static_cast<size_t>(std::max<int64_t>(n, 1)), L)}, {L}};
}

const sycl::kernel *simd_variant(KernelCache &kc, const std::string &name, const void *out) {
  if (!kc.simd || reinterpret_cast<uintptr_t>(out) % kSimdBytes != 0) return nullptr;
  return kc.find(name);
}

sycl::nd_range<1> vector_items(int64_t items) {
  return sycl::nd_range<1>{{round_up(static_cast<size_t>(std::max<int64_t>(items, 1)), kSimdGroup)},
                           {size_t(kSimdGroup)}};
}

sycl::nd_range<1> simd_range(int64_t n, int64_t min_itemsize, int64_t rows) {
  const int64_t per_item = int64_t(kSimdVectors) * simd_lanes(static_cast<int>(min_itemsize));
  return vector_items(rows * ((n + per_item - 1) / per_item));
}

Event copy_array(std::uintptr_t qref, KernelCache &kc, nb::handle src, nb::handle dst) {
  ArrayRef s, d;
  read_array(src, s);
  read_array(dst, d);
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, s, d, "the source");
  check_operand(q, d, d, "the destination");
  return Event{copy_impl(q, kc, s, d)};
}

Event fill_array(std::uintptr_t qref, KernelCache &kc, nb::handle dst, nb::bytes value) {
  ArrayRef d;
  read_array(dst, d);
  if (static_cast<int64_t>(value.size()) != d.itemsize)
    throw nb::value_error("fill value size does not match the item size");
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, d, d, "the destination");
  const int64_t *strides[1] = {d.strides};
  Iteration it;
  collapse(d.nd, d.shape, 1, strides, 0, it);
  if (it.nd < 0) return Event{};
  char *ptr = d.data() + it.offset[0] * d.itemsize;
  const char *v = value.c_str();
  auto as = [&](auto t) {
    std::memcpy(&t, v, sizeof(t));
    return fill_typed(q, kc, d, it, ptr, t);
  };
  switch (d.itemsize) {
  case 1: return Event{as(uint8_t{})};
  case 2: return Event{as(uint16_t{})};
  case 4: return Event{as(uint32_t{})};
  case 8: return Event{as(uint64_t{})};
  default: return Event{as(X16{})};
  }
}

// dst[i] = start + i * step, computed in the type `ctc`, for a contiguous dst.
Event sequence(std::uintptr_t qref, KernelCache &kc, nb::handle dst, nb::handle start,
               nb::handle step, int ctc) {
  ArrayRef d;
  read_array(dst, d);
  if (!d.is_c_contiguous()) throw nb::value_error("sequence needs a contiguous destination");
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, d, d, "the destination");
  const int64_t n = d.size();
  if (n == 0) return Event{};
  sycl::kernel k = kc.get("sequence<" + tname(d.tc) + ", " + tname(ctc) + ">");
  char *ptr = d.data();
  auto go = [&](auto a, auto b) {
    return Event{submit(q, {d.alloc}, [&](auto &h) {
      set_args(h, ptr, a, b, n);
      h.parallel_for(linear_range(n, kc.wg_size), k);
    })};
  };
  switch (ctc) {
  case TC_I8: return go(nb::cast<int64_t>(start), nb::cast<int64_t>(step));
  case TC_U8: return go(nb::cast<uint64_t>(start), nb::cast<uint64_t>(step));
  case TC_F4: return go(nb::cast<float>(start), nb::cast<float>(step));
  case TC_F8: return go(nb::cast<double>(start), nb::cast<double>(step));
  case TC_C8: return go(nb::cast<std::complex<float>>(start), nb::cast<std::complex<float>>(step));
  case TC_C16:
    return go(nb::cast<std::complex<double>>(start), nb::cast<std::complex<double>>(step));
  }
  throw nb::value_error("unsupported sequence compute type");
}

// dst = tril(src, k) (upper=false) or triu(src, k) over the last two axes.
Event triangle(std::uintptr_t qref, KernelCache &kc, nb::handle src, nb::handle dst, int64_t k,
               bool upper) {
  ArrayRef s, d;
  read_array(src, s);
  read_array(dst, d);
  if (s.tc != d.tc) throw nb::value_error("triangle needs equal dtypes");
  if (d.nd < 2) throw nb::value_error("triangle needs at least two dimensions");
  sycl::queue &q = queue_from_ref(qref);
  check_operand(q, s, d, "the source");
  check_operand(q, d, d, "the destination");
  if (overlaps(s, d) && !same_view(s, d))
    throw nb::value_error("triangle source and destination overlap");
  const int64_t *strides[2] = {s.strides, d.strides};
  Iteration it;
  collapse(d.nd, d.shape, 2, strides, 1, it, /*keep_last=*/2);
  if (it.nd < 0) return Event{};
  char *const ptrs[2] = {s.data() + it.offset[0] * s.itemsize, d.data() + it.offset[1] * d.itemsize};
  const int64_t isz[2] = {s.itemsize, d.itemsize};
  return Event{launch_strided<2>(q, kc, std::string("tri<") + move_type_name(d.itemsize), it, ptrs,
                                 isz, {s.alloc, d.alloc}, k, static_cast<int32_t>(upper))};
}

// Host transfers of a byte range [lo, lo + n) of an allocation. They wait:
// the host buffer belongs to the caller (often a NumPy array) and must not
// be read or changed after we return while a copy is still under way.
namespace {
void check_transfer(const Allocation &a, int64_t lo, int64_t n) {
  if (lo < 0 || n < 0 || static_cast<size_t>(lo + n) > a.nbytes)
    throw nb::value_error("host transfer outside the allocation");
}

// Memory the host can read (host and shared USM; all USM of a CPU device,
// which lives in host memory): wait for its last use and copy on the host,
// without a copy command and its wait (~15 us for a few bytes). False, and
// nothing done, for other memory.
bool transfer_on_host(Allocation &a, int64_t lo, void *h, int64_t n, bool to_host) {
  if (!(a.kind == KIND_HOST || a.kind == KIND_SHARED || a.dev.is_cpu())) return false;
  a.wait();
  char *dev = static_cast<char *>(a.ptr) + lo;
  if (to_host) std::memcpy(h, dev, static_cast<size_t>(n));
  else std::memcpy(dev, h, static_cast<size_t>(n));
  return true;
}

// The same by a copy command on q, and its wait.
void transfer_by_copy(sycl::queue &q, Allocation &a, int64_t lo, void *h, int64_t n, bool to_host) {
  char *dev = static_cast<char *>(a.ptr) + lo;
  Ev e = enqueue(q, {&a}, [&](const std::vector<sycl::event> &deps) {
    return to_host ? q.memcpy(h, dev, static_cast<size_t>(n), deps)
                   : q.memcpy(dev, h, static_cast<size_t>(n), deps);
  });
  {
    nb::gil_scoped_release rel;
    host_wait(e);
  }
  collect_deferred();
}
} // namespace

void host_transfer(std::uintptr_t qref, Allocation &a, int64_t lo, std::uintptr_t host, int64_t n,
                   bool to_host) {
  check_transfer(a, lo, n);
  void *h = reinterpret_cast<void *>(host);
  // (the queue only for a copy command: its lookup is a cost of every read)
  if (n > 0 && !transfer_on_host(a, lo, h, n, to_host))
    transfer_by_copy(queue_from_ref(qref), a, lo, h, n, to_host);
}

void host_transfer(sycl::queue &q, Allocation &a, int64_t lo, void *h, int64_t n, bool to_host) {
  check_transfer(a, lo, n);
  if (n > 0 && !transfer_on_host(a, lo, h, n, to_host)) transfer_by_copy(q, a, lo, h, n, to_host);
}

} // namespace usm

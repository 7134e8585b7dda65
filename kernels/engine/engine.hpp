// The compiled engine of usmarray: USM allocations and their pool, ordering of
// work by events, the run-time kernel compiler front end, and the launch
// helper every operation goes through. Python decides dtypes, shapes and
// placement; this layer validates, picks the fast path and submits.
#pragma once

#include <chrono>
#include <sycl/sycl.hpp>
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sycl/geometry.hpp"

namespace usm {
namespace nb = nanobind;

// ---------------------------------------------------------------- dtypes
// Type codes shared with usmarray/_dtypes.py (the order is the contract).
enum TypeCode : int {
  TC_BOOL = 0, TC_I1, TC_U1, TC_I2, TC_U2, TC_I4, TC_U4, TC_I8, TC_U8,
  TC_F2, TC_F4, TC_F8, TC_C8, TC_C16, TC_COUNT
};
extern const int kItemSize[TC_COUNT];
extern const char *const kTypeName[TC_COUNT];
// Name of the type that moves items of `itemsize` bytes unchanged.
const char *move_type_name(int itemsize);

enum UsmKind : int { KIND_UNKNOWN = 0, KIND_DEVICE = 1, KIND_SHARED = 2, KIND_HOST = 3 };

constexpr int kMaxDims = 64;

// ---------------------------------------------------------------- events
// Ordering state of one memory region: the last submitted command that
// touched it. Every later command touching it depends on that event unless
// both run on the same in-order queue. Allocations viewing the same memory
// (an array re-imported through SUAI or usm_data, two wrappers of one
// dpctl.memory object) share one LastUse.
struct LastUse {
  std::optional<sycl::event> event;
  std::optional<sycl::queue> queue;
  bool in_order = false;
  bool pending() const;
};

// Block until `e` completed. Every host wait goes through this (without the
// GIL): the OpenCL CPU runtime deadlocks when several threads block in it at
// once on out-of-order queues (memory.cpp).
void host_wait(const sycl::event &e);
// The same, polling for up to `spin` before it blocks (for commands the
// waiting thread cannot help to run).
void host_wait(const sycl::event &e, std::chrono::microseconds spin);

// ---------------------------------------------------------------- memory
struct Allocation {
  void *ptr = nullptr;
  size_t nbytes = 0;      // bytes addressable from ptr
  size_t capacity = 0;    // pool block size; 0 for memory owned by someone else
  int kind = KIND_UNKNOWN;
  sycl::context ctx;
  sycl::device dev;
  nb::object owner;       // foreign owner kept alive while we use its memory
  std::shared_ptr<LastUse> last;

  Allocation(void *p, size_t n, size_t cap, int k, const sycl::context &c,
             const sycl::device &d, std::shared_ptr<LastUse> l)
      : ptr(p), nbytes(n), capacity(cap), kind(k), ctx(c), dev(d), last(std::move(l)) {}
  ~Allocation();
  Allocation(const Allocation &) = delete;
  Allocation &operator=(const Allocation &) = delete;

  void wait();  // host wait for the last use (releases the GIL)
  // Whether the host can read and write the memory: host and shared USM,
  // and every USM block of a CPU device (which lives in host memory).
  bool host_addressable() const {
    if (host_addr < 0) host_addr = (kind == KIND_HOST || kind == KIND_SHARED || dev.is_cpu()) ? 1 : 0;
    return host_addr != 0;
  }

private:
  mutable int host_addr = -1;   // host_addressable(), computed on first use
};

// Allocate `nbytes` of USM of `kind` for the queue's device and context,
// reusing a pooled block when one of the right size class is free.
Allocation *allocate(sycl::queue &q, size_t nbytes, int kind);
// Wrap memory owned by `owner` (a dpctl.memory object, a DLPack capsule
// holder, any SUAI exporter); `owner` is released only after the last
// command using the memory completed.
Allocation *wrap_foreign(void *ptr, size_t nbytes, int kind, const sycl::context &ctx,
                         const sycl::device &dev, nb::object owner);

struct PoolStats {
  size_t cached_bytes, cached_blocks, in_use_bytes, in_use_blocks, deferred, deferred_bytes, limit;
};
PoolStats pool_stats();
void pool_set_limit(size_t limit);
void pool_free_cached();   // frees every cached block (waiting for pending work)
void collect_deferred();   // releases what completed commands no longer need (cheap scan)
void collect_deferred_all();  // the same, looking at every entry
// Host wait for every command on memory usmarray knows (arrays on any
// queue, pooled blocks, the deferred list), then release the deferred list.
void synchronize_all();
// Block until every command submitted to q so far completed (deadlock-safe q.wait()).
void queue_wait(sycl::queue &q);
void engine_shutdown();    // at interpreter exit: wait for everything, free all
bool engine_is_shut_down();

// ---------------------------------------------------------------- arrays
// The fields of a usm_ndarray that operations need, read from its slots.
struct ArrayRef {
  Allocation *alloc;
  int64_t off;  // elements from alloc->ptr to element zero
  int nd;
  int tc;
  int64_t itemsize;
  int64_t shape[kMaxDims];
  int64_t strides[kMaxDims];
  char *data() const { return static_cast<char *>(alloc->ptr) + off * itemsize; }
  int64_t size() const;
  bool is_c_contiguous() const;
  // byte range [lo, hi) touched by the view, relative to alloc->ptr
  void extent(int64_t &lo, int64_t &hi) const;
};
void read_array(nb::handle arr, ArrayRef &out);
// Do the memory ranges two views touch overlap?
bool overlaps(const ArrayRef &a, const ArrayRef &b);
// Same first element, item size and strides (element-for-element aliasing).
bool same_view(const ArrayRef &a, const ArrayRef &b);
// ValueError unless `x` has `out`'s shape and lives in the queue's context.
void check_operand(sycl::queue &q, const ArrayRef &x, const ArrayRef &out, const char *what);
sycl::queue &queue_from_ref(std::uintptr_t qref);

// ---------------------------------------------------------------- iteration
// Shape and strides of NA operands after removing size-1 dimensions,
// reversing dimensions all operands walk backwards, ordering dimensions by
// the primary operand's strides and merging dimensions that are contiguous
// in every operand. `offset` receives the element offset each operand's
// pointer must move by (from reversed dimensions).
struct Iteration {
  int na = 0;
  int nd = 0;         // 0 for a single element; -1 when the iteration is empty
  int64_t shape[kMaxDims];
  int64_t strides[kMaxOperands][kMaxDims];
  int64_t offset[kMaxOperands] = {};
  bool contiguous() const;  // one dimension, unit stride everywhere
  int64_t size() const;
};
// keep_last: number of trailing dimensions that must stay as they are
// (kernels that need the row/column index of a matrix).
void collapse(int nd, const int64_t *shape, int na, const int64_t *const *strides,
              int primary, Iteration &it, int keep_last = 0);

// ---------------------------------------------------------------- kernels
struct BinaryAdapter;
struct LoadedProgram;
struct KernelCache {
  // A kernel of a loaded binary not created yet: creating all kernels of a
  // bundle up front would cost more than loading it.
  struct Lazy {
    std::shared_ptr<LoadedProgram> program;  // the native program holding it
    std::string raw_name;
  };
  sycl::context ctx;
  sycl::device dev;
  std::unordered_map<std::string, sycl::kernel> kernels;
  std::unordered_map<std::string, Lazy> lazy;
  nb::object resolver;  // callable(name): compiles/loads the bundle holding `name`
  size_t wg_size;
  // Launch vector-block variants (usmk::simd_blocks) where bundles have them:
  // on devices that run work-groups as SIMD loops, i.e. CPUs.
  bool simd;
  std::unordered_set<std::string> absent;  // names find() looked for in vain
  // Reads and reloads native binaries of the backend (binary_cache.hpp), or
  // nullptr: the resolver then relies on the SYCL runtime's cache.
  const BinaryAdapter *adapter;

  KernelCache(const sycl::context &c, const sycl::device &d, nb::object r);
  const sycl::kernel &get(const std::string &name);
  // The kernel, or nullptr when its bundle does not provide it.
  const sycl::kernel *find(const std::string &name);
  bool has(const std::string &name) const { return kernels.count(name) || lazy.count(name); }
};
// Create a kernel registered lazily (jit.cpp).
bool materialize(KernelCache &kc, const std::string &name);

// ---------------------------------------------------------------- launches
// The one place commands are submitted: adds the dependencies the touched
// allocations need and records the new event as their last use.
// (`touched` is an initializer list, or a vector when the count varies.)
template <class Touched, class CGF> sycl::event submit(sycl::queue &q, const Touched &touched, CGF &&cgf);
template <class CGF>
sycl::event submit(sycl::queue &q, std::initializer_list<Allocation *> touched, CGF &&cgf);
template <class F>
sycl::event enqueue(sycl::queue &q, std::initializer_list<Allocation *> touched, F &&enqueue);

// Kernel arguments of usmarray's kernels: USM pointers go by value
// (usm::KernelPtr, kernels/sycl/geometry.hpp, says why), everything else
// as it is. (RawKernels declare their own parameters: nary.cpp sets theirs.)
template <class T> inline auto kernel_arg(const T &v) {
  if constexpr (std::is_pointer_v<T>) return KernelPtr<const void>{v};
  else if constexpr (std::is_null_pointer_v<T>) return KernelPtr<const void>{nullptr};
  else return v;
}
template <class... A> inline void set_args(sycl::handler &h, const A &...a) {
  h.set_args(kernel_arg(a)...);
}
template <class A> inline void set_arg(sycl::handler &h, int i, const A &a) {
  h.set_arg(i, kernel_arg(a));
}

void add_dependencies(sycl::queue &q, Allocation *const *touched, size_t n,
                      std::vector<sycl::event> &deps);
void record_use(sycl::queue &q, Allocation *const *touched, size_t n, const sycl::event &e);

// `enqueue(deps)` submits one command depending on `deps` and returns its
// event: queue shortcuts (q.memcpy(dst, src, n, deps)) are cheaper than a
// command group for copies and fills.
template <class Touched, class F>
sycl::event enqueue_touching(sycl::queue &q, const Touched &touched, F &&enqueue) {
  thread_local std::vector<sycl::event> deps;
  deps.clear();
  add_dependencies(q, std::data(touched), std::size(touched), deps);
  sycl::event e = enqueue(static_cast<const std::vector<sycl::event> &>(deps));
  record_use(q, std::data(touched), std::size(touched), e);
  return e;
}
template <class F>
sycl::event enqueue(sycl::queue &q, std::initializer_list<Allocation *> touched, F &&enqueue) {
  return enqueue_touching(q, touched, enqueue);
}

template <class Touched, class CGF> sycl::event submit(sycl::queue &q, const Touched &touched, CGF &&cgf) {
  return enqueue_touching(q, touched, [&](const std::vector<sycl::event> &deps) {
    return q.submit([&](sycl::handler &h) {
      if (!deps.empty()) h.depends_on(deps);
      cgf(h);
    });
  });
}
template <class CGF>
sycl::event submit(sycl::queue &q, std::initializer_list<Allocation *> touched, CGF &&cgf) {
  return submit<std::initializer_list<Allocation *>>(q, touched, cgf);
}

// Launch `<base>, ND>` on a collapsed iteration: picks the smallest strided
// variant that holds it, pads, builds the Geometry and the nd_range; splits
// iterations with more dimensions than any variant into several launches.
// `ptrs` are the operands' element-zero pointers (after it.offset applied).
// `extra` are appended after the Geometry argument.
template <int NA, class... Extra>
sycl::event launch_strided(sycl::queue &q, KernelCache &kc, const std::string &base,
                           const Iteration &it, char *const (&ptrs)[NA],
                           const int64_t (&itemsizes)[NA],
                           std::initializer_list<Allocation *> touched, Extra... extra);
// The same, preferring `<inner>, ND>` (a kernel assuming unit stride in the
// last dimension) when every operand has it.
template <int NA, class... Extra>
sycl::event launch_strided(sycl::queue &q, KernelCache &kc, const std::string &base,
                           const std::string &inner, const Iteration &it,
                           char *const (&ptrs)[NA], const int64_t (&itemsizes)[NA],
                           std::initializer_list<Allocation *> touched, Extra... extra);

// t = s copied into `tmp` (at least s.size() items), C-contiguous.
sycl::event copy_to_contiguous(sycl::queue &q, KernelCache &kc, const ArrayRef &s, ArrayRef &t,
                               Allocation *tmp);

// 1-D launch over n items of a contiguous kernel taking (ptrs..., n, extra...).
sycl::nd_range<1> linear_range(int64_t n, size_t wg);

// The vector-block variant `name` of a contiguous kernel writing to `out`,
// when the cache uses such variants, `out` is aligned for its vector stores
// and the bundle has it; else nullptr.
const sycl::kernel *simd_variant(KernelCache &kc, const std::string &name, const void *out);
// `items` work-items (at least one) of a vector-block kernel, in work-groups
// of kSimdGroup, below any SIMD width, so the body runs as written.
sycl::nd_range<1> vector_items(int64_t items);
// Range of a vector-block kernel over `rows` rows of n items whose narrowest
// operand has min_itemsize bytes.
sycl::nd_range<1> simd_range(int64_t n, int64_t min_itemsize, int64_t rows = 1);

// Python-visible event handle.
struct Event {
  sycl::event ev;
  void wait();
  bool complete() const;
};

} // namespace usm

#include "launch_impl.hpp"

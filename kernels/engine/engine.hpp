// The compiled engine of usmarray: USM allocations and their pool, ordering of
// work by events, the run-time kernel compiler front end, and the launch
// helper every operation goes through. Python decides dtypes, shapes and
// placement; this layer validates, picks the fast path and submits.
#pragma once

#include <atomic>
#include <chrono>
#include <cstring>
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
// The event of a submitted command: the SYCL runtime's, or the OpenCL event
// itself (a retained cl_event) for kernels launched on the OpenCL queue
// underneath a SYCL queue (launch.cpp). Empty: nothing to wait for.
class Ev {
 public:
  Ev() = default;
  Ev(const sycl::event &e) : sycl_(e) {}
  // Takes over the caller's reference to an OpenCL event (`brief`: of a
  // small launch, which waits first poll for: host_wait).
  static Ev adopt_native(void *cl_event, bool brief = false);
  Ev(const Ev &o) : sycl_(o.sycl_), native_(o.native_) {
    if (native_) native_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  Ev(Ev &&o) noexcept : sycl_(std::move(o.sycl_)), native_(o.native_) { o.native_ = nullptr; }
  Ev &operator=(const Ev &o) {
    Ev t(o);
    swap(t);
    return *this;
  }
  Ev &operator=(Ev &&o) noexcept {
    Ev t(std::move(o));
    swap(t);
    return *this;
  }
  ~Ev() {
    if (native_ && native_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) release(native_);
  }
  void swap(Ev &o) noexcept {
    std::swap(sycl_, o.sycl_);
    std::swap(native_, o.native_);
  }
  bool empty() const { return !sycl_ && !native_; }
  bool brief() const { return native_ && native_->brief; }
  // the cl_event, when launched natively
  void *native() const { return native_ ? native_->event : nullptr; }
  const sycl::event *sycl_event() const { return sycl_ ? &*sycl_ : nullptr; }
  bool complete() const;
  void wait_and_throw() const;  // (host_wait is the deadlock-safe wait)
  // For commands submitted through SYCL that must follow this one (a native
  // event becomes a SYCL event of `ctx`: several microseconds, so only
  // where a dependency is needed).
  sycl::event to_sycl(const sycl::context &ctx) const;
  bool operator==(const Ev &o) const;

 private:
  // One OpenCL reference shared by the copies (the engine copies an event
  // into the last use of every allocation a command touches; the OpenCL
  // runtime's retain and release cost more than a counter).
  struct Native {
    std::atomic<int> refs;
    void *event;
    bool brief;
  };
  static void release(Native *n);
  std::optional<sycl::event> sycl_;
  Native *native_ = nullptr;
};

// Ordering state of one memory region: the last submitted command that
// touched it. Every later command touching it depends on that event unless
// both run on the same in-order queue. Allocations viewing the same memory
// (an array re-imported through SUAI or usm_data, two wrappers of one
// dpctl.memory object) share one LastUse.
struct LastUse {
  std::optional<Ev> event;
  std::optional<sycl::queue> queue;
  bool in_order = false;
  bool pending() const;
};

// Block until `e` completed. Every host wait goes through this (without the
// GIL): the OpenCL CPU runtime deadlocks when several threads block in it at
// once on out-of-order queues (memory.cpp).
void host_wait(const Ev &e);
// The same, polling for up to `spin` before it blocks (for commands the
// waiting thread cannot help to run).
void host_wait(const Ev &e, std::chrono::microseconds spin);

// ---------------------------------------------------------------- memory
struct Allocation {
  void *ptr = nullptr;
  size_t nbytes = 0;      // bytes addressable from ptr
  size_t capacity = 0;    // pool block size; 0 for memory owned by someone else
  size_t shift = 0;       // bytes from the pool block's start to ptr
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
// Bytes [lo, lo + n) of an allocation to (to_host) or from host memory, after
// its last use: on the host where it can reach the memory, else a copy
// command and its wait (ops.cpp).
void host_transfer(std::uintptr_t qref, Allocation &a, int64_t lo, std::uintptr_t host, int64_t n,
                   bool to_host);
void host_transfer(sycl::queue &q, Allocation &a, int64_t lo, void *host, int64_t n, bool to_host);
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
// A command group that only launches a kernel (`cgf(h)` sets its arguments
// with set_args/set_arg and calls h.parallel_for, for any handler type h)
// goes to the OpenCL queue underneath an OpenCL SYCL queue (launch.cpp):
// the SYCL runtime's submission costs as much again as OpenCL's.
template <class Touched, class CGF> Ev submit(sycl::queue &q, const Touched &touched, CGF &&cgf);
template <class CGF>
Ev submit(sycl::queue &q, std::initializer_list<Allocation *> touched, CGF &&cgf);
template <class F>
Ev enqueue(sycl::queue &q, std::initializer_list<Allocation *> touched, F &&enqueue);

// Kernel arguments of usmarray's kernels: USM pointers go by value
// (usm::KernelPtr, kernels/sycl/geometry.hpp, says why), everything else
// as it is. (RawKernels declare their own parameters: nary.cpp sets theirs.)
template <class T> inline auto kernel_arg(const T &v) {
  if constexpr (std::is_pointer_v<T>) return KernelPtr<const void>{v};
  else if constexpr (std::is_null_pointer_v<T>) return KernelPtr<const void>{nullptr};
  else return v;
}

// A kernel launch recorded instead of submitted: its arguments' bytes, the
// kernel and its nd_range (in OpenCL's order: dimension 0 varies fastest).
struct Launch {
  static constexpr int kMaxArgs = 32;
  static constexpr size_t kBytes = 2048;
  const sycl::kernel *kernel = nullptr;
  unsigned dims = 0;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  int nargs = 0;
  bool overflow = false;  // more arguments or bytes than recorded: launch through SYCL
  uint16_t off[kMaxArgs] = {}, size[kMaxArgs] = {};
  size_t used = 0;
  alignas(16) unsigned char data[kBytes];

  template <class T> void arg(int i, const T &v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const size_t at = (used + 15) & ~size_t(15);
    if (i < 0 || i >= kMaxArgs || at + sizeof(T) > kBytes) {
      overflow = true;
      return;
    }
    std::memcpy(data + at, &v, sizeof(T));
    off[i] = static_cast<uint16_t>(at);
    size[i] = static_cast<uint16_t>(sizeof(T));
    used = at + sizeof(T);
    if (i + 1 > nargs) nargs = i + 1;
  }
  template <int D> void parallel_for(const sycl::nd_range<D> &r, const sycl::kernel &k) {
    kernel = &k;
    dims = D;
    for (int d = 0; d < D; ++d) {
      global[d] = r.get_global_range()[D - 1 - d];
      local[d] = r.get_local_range()[D - 1 - d];
    }
  }
};

template <class... A> inline void set_args(sycl::handler &h, const A &...a) {
  h.set_args(kernel_arg(a)...);
}
template <class A> inline void set_arg(sycl::handler &h, int i, const A &a) {
  h.set_arg(i, kernel_arg(a));
}
template <class... A> inline void set_args(Launch &l, const A &...a) {
  int i = 0;
  (l.arg(i++, kernel_arg(a)), ...);
}
template <class A> inline void set_arg(Launch &l, int i, const A &a) { l.arg(i, kernel_arg(a)); }

// `through_sycl`: the command is submitted through the SYCL runtime.
void add_dependencies(sycl::queue &q, Allocation *const *touched, size_t n, std::vector<Ev> &deps,
                      bool through_sycl);
void record_use(sycl::queue &q, Allocation *const *touched, size_t n, const Ev &e);

// The OpenCL queue underneath `q` when kernels are launched on it (an
// OpenCL backend, USMARRAY_NATIVE_LAUNCH not 0), else nullptr.
void *native_queue(const sycl::queue &q);
// Launches `l` on the OpenCL queue `cq` (native_queue(q)) after the
// touched allocations' last uses and records it as their last use; empty
// when the kernel cannot be launched so (its arguments differ from what
// the OpenCL kernel has: the caller submits it through SYCL).
std::optional<Ev> launch_native(void *cq, sycl::queue &q, Allocation *const *touched, size_t n,
                                const Launch &l);
// After launch_native declined `k` (the caller submitted it through SYCL):
// `e` is that submission's event (empty: it threw).
void runtime_launched(const sycl::kernel &k, const Ev &e);

// `enqueue(deps)` submits one command depending on `deps` and returns its
// event: queue shortcuts (q.memcpy(dst, src, n, deps)) are cheaper than a
// command group for copies and fills.
template <class Touched, class F>
Ev enqueue_touching(sycl::queue &q, const Touched &touched, F &&enqueue) {
  thread_local std::vector<Ev> deps;
  thread_local std::vector<sycl::event> sdeps;
  deps.clear();
  sdeps.clear();
  add_dependencies(q, std::data(touched), std::size(touched), deps, true);
  if (!deps.empty()) {
    const sycl::context ctx = q.get_context();
    for (const Ev &d : deps) sdeps.push_back(d.to_sycl(ctx));
  }
  Ev e(enqueue(static_cast<const std::vector<sycl::event> &>(sdeps)));
  deps.clear();  // (no events held between commands: none left at exit)
  sdeps.clear();
  record_use(q, std::data(touched), std::size(touched), e);
  return e;
}
template <class F>
Ev enqueue(sycl::queue &q, std::initializer_list<Allocation *> touched, F &&enqueue) {
  return enqueue_touching(q, touched, enqueue);
}

template <class Touched, class CGF> Ev submit(sycl::queue &q, const Touched &touched, CGF &&cgf) {
  const sycl::kernel *declined = nullptr;
  if constexpr (std::is_invocable_v<CGF &, Launch &>) {
    if (void *cq = native_queue(q)) {
      Launch l;
      cgf(l);
      if (l.kernel && !l.overflow) {
        std::optional<Ev> e = launch_native(cq, q, std::data(touched), std::size(touched), l);
        if (e) return std::move(*e);
        declined = l.kernel;
      }
    }
  }
  auto through_sycl = [&] {
    return enqueue_touching(q, touched, [&](const std::vector<sycl::event> &deps) {
      return q.submit([&](sycl::handler &h) {
        if (!deps.empty()) h.depends_on(deps);
        cgf(h);
      });
    });
  };
  if (!declined) return through_sycl();
  try {
    Ev e = through_sycl();
    runtime_launched(*declined, e);
    return e;
  } catch (...) {
    runtime_launched(*declined, Ev{});
    throw;
  }
}
template <class CGF>
Ev submit(sycl::queue &q, std::initializer_list<Allocation *> touched, CGF &&cgf) {
  return submit<std::initializer_list<Allocation *>>(q, touched, cgf);
}

// Launch `<base>, ND>` on a collapsed iteration: picks the smallest strided
// variant that holds it, pads, builds the Geometry and the nd_range; splits
// iterations with more dimensions than any variant into several launches.
// `ptrs` are the operands' element-zero pointers (after it.offset applied).
// `extra` are appended after the Geometry argument.
template <int NA, class... Extra>
Ev launch_strided(sycl::queue &q, KernelCache &kc, const std::string &base,
                           const Iteration &it, char *const (&ptrs)[NA],
                           const int64_t (&itemsizes)[NA],
                           std::initializer_list<Allocation *> touched, Extra... extra);
// The same, preferring `<inner>, ND>` (a kernel assuming unit stride in the
// last dimension) when every operand has it.
template <int NA, class... Extra>
Ev launch_strided(sycl::queue &q, KernelCache &kc, const std::string &base,
                           const std::string &inner, const Iteration &it,
                           char *const (&ptrs)[NA], const int64_t (&itemsizes)[NA],
                           std::initializer_list<Allocation *> touched, Extra... extra);

// t = s copied into `tmp` (at least s.size() items), C-contiguous.
Ev copy_to_contiguous(sycl::queue &q, KernelCache &kc, const ArrayRef &s, ArrayRef &t,
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
  Ev ev;
  void wait();
  bool complete() const;
};

} // namespace usm

#include "launch_impl.hpp"

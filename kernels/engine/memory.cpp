// USM allocations, the memory pool, and ordering state.
//
// Memory is never returned to SYCL while a command may still use it. A pooled
// block keeps the last event that touched it; whoever reuses the block
// inherits that event, so its first command waits for the previous user's
// last one (or runs after it on the same in-order queue). Blocks leaving the
// pool, and foreign owners, go through a deferred list until their event
// completes. No host_task ever frees memory.
#include "engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include <sys/mman.h>

namespace usm {

const int kItemSize[TC_COUNT] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8, 8, 16};
const char *const kTypeName[TC_COUNT] = {"b1", "i1", "u1", "i2", "u2", "i4", "u4",
                                         "i8", "u8", "f2", "f4", "f8", "c8", "c16"};

const char *move_type_name(int itemsize) {
  switch (itemsize) {
  case 1: return "u1";
  case 2: return "u2";
  case 4: return "u4";
  case 8: return "u8";
  case 16: return "x16";
  }
  throw std::invalid_argument("no move type for item size " + std::to_string(itemsize));
}

static bool event_complete(const Ev &e) { return e.complete(); }

bool LastUse::pending() const { return event && !event_complete(*event); }

// ------------------------------------------------------------- host waits
// Intel's OpenCL CPU runtime deadlocks when two or more host threads block
// in clWaitForEvents/clFinish on out-of-order queues at the same time (seen
// with 2..8 threads, each on its own queue, no dependency between them):
// each blocking wait enters the runtime's TBB arena, whose slots (one per
// core) end up held by executor tasks in nested waits while the flushes that
// would let them finish wait for a slot. So one thread at a time blocks in the
// runtime; the others poll the event's status, which needs no arena slot,
// and take the turn when it is free.
namespace {
std::mutex g_wait_turn;
}

// A waiting thread may first poll the event for up to kSpinWait, yielding
// its CPU between polls (USMARRAY_SPIN_WAIT_US; 0, the default, blocks at
// once). Blocking is what lets the thread work: the OpenCL CPU runtime runs
// kernels on one worker thread fewer than the cores, and a thread blocked
// on a kernel's event (or a later command) runs work-groups too, while a
// polling thread only takes CPU time from the worker. Polling paid when the
// waits were for barriers, which the thread cannot join (waking a thread
// blocked on one took 30-50 µs on a 2-CPU VM); since queue_wait waits for
// kernels, it costs: 4 runs of alternating processes, medians in µs,
// blocking / polling 20 µs / polling 250 µs: float(ua.sum(x)) of 4e6
// float32 131 / 141 / 240, asnumpy(x + y) of 1e5 45 / 59 / 71, of 1e6
// 259 / 272 / 404; 1e4 items, where polling wins, 20 / 17 / 19.
//
// A brief launch's event (a few work-items: Ev::brief) is polled for up to
// kBriefSpin first: its kernel takes microseconds, and waking a blocked
// thread took tens (1-item asnumpy(x + y), percentiles 50/75/90/99 in µs,
// blocking 4.7/7.1/8.6/14-94, polling 4.7/4.8/5.9/8.5-9.7).
namespace {
const std::chrono::microseconds kSpinWait{[] {
  const char *v = std::getenv("USMARRAY_SPIN_WAIT_US");
  return v ? std::max(0L, std::atol(v)) : 0L;
}()};
const std::chrono::microseconds kBriefSpin{[] {   // (USMARRAY_BRIEF_SPIN_US; 0: off)
  const char *v = std::getenv("USMARRAY_BRIEF_SPIN_US");
  return v ? std::max(0L, std::atol(v)) : 20L;
}()};
}

void host_wait(const Ev &e) { host_wait(e, e.brief() ? std::max(kSpinWait, kBriefSpin) : kSpinWait); }

void host_wait(const Ev &e, std::chrono::microseconds spin) {
  if (event_complete(e)) return;
  const auto until = std::chrono::steady_clock::now() + spin;
  for (unsigned i = 1; spin.count() > 0; ++i) {
    std::this_thread::yield();
    if (event_complete(e)) {
      e.wait_and_throw();  // (complete: returns at once, with errors raised)
      return;
    }
    if (i % 8 == 0 && std::chrono::steady_clock::now() > until) break;
  }
  for (unsigned round = 0;; ++round) {
    if (g_wait_turn.try_lock()) {
      std::lock_guard<std::mutex> turn(g_wait_turn, std::adopt_lock);
      e.wait_and_throw();
      return;
    }
    if (event_complete(e)) return;
    if (round < 16)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(
          std::chrono::microseconds(std::min(200u, 10u << std::min(5u, (round - 16) / 4))));
  }
}

// ------------------------------------------------------------- ordering
void add_dependencies(sycl::queue &q, Allocation *const *touched, size_t n, std::vector<Ev> &deps,
                      bool through_sycl) {
  const bool in_order = q.is_in_order();
  for (size_t i = 0; i < n; ++i) {
    Allocation *a = touched[i];
    if (!a) continue;
    const LastUse &l = *a->last;
    if (!l.event) continue;
    // Same in-order queue: the queue itself orders the commands. Except a
    // command the SYCL runtime submits after a kernel launched on the
    // OpenCL queue underneath (launch.cpp): a host task (oneMKL's on CPU
    // devices) waits only for events the SYCL runtime knows.
    if (in_order && l.in_order && *l.queue == q &&
        !(through_sycl && l.event->native() && !l.event->complete()))
      continue;
    bool dup = false;
    for (auto &d : deps) dup = dup || d == *l.event;
    if (!dup) deps.push_back(*l.event);
  }
}

void record_use(sycl::queue &q, Allocation *const *touched, size_t n, const Ev &e) {
  const bool in_order = q.is_in_order();
  for (size_t i = 0; i < n; ++i) {
    Allocation *a = touched[i];
    if (!a) continue;
    LastUse &l = *a->last;
    l.event = e;
    if (!l.queue || !(*l.queue == q)) l.queue = q;
    l.in_order = in_order;
  }
}

void Event::wait() {
  {
    nb::gil_scoped_release rel;
    host_wait(ev);
  }
  collect_deferred();
}
bool Event::complete() const { return event_complete(ev); }

// ------------------------------------------------------------- pool
namespace {

constexpr size_t kAlign = 128;
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeMin = size_t(8) << 20;

struct PoolKey {
  sycl::context ctx;
  sycl::device dev;
  int kind;
  bool operator==(const PoolKey &o) const {
    return kind == o.kind && ctx == o.ctx && dev == o.dev;
  }
};
struct PoolKeyHash {
  size_t operator()(const PoolKey &k) const {
    return std::hash<sycl::context>()(k.ctx) * 31 + std::hash<sycl::device>()(k.dev) * 7 +
           static_cast<size_t>(k.kind);
  }
};

struct Block {
  void *ptr;     // where the data starts
  size_t cap;
  size_t shift;  // bytes from the system block's start to ptr (see raw_alloc)
  std::shared_ptr<LastUse> last;
};

// Live memory regions by start address, for finding the ordering state of
// memory that is wrapped again (see LastUse).
struct Region {
  uintptr_t end;
  std::weak_ptr<LastUse> last;
};

struct Deferred {
  Ev ev;
  void *ptr;  // freed with sycl::free once ev completed, if not null
  std::optional<sycl::context> ctx;
  nb::object owner;  // released once ev completed
  size_t nbytes;     // memory held back: a block's capacity, a foreign view's extent
};

// Past this many bytes held on the deferred list, dropping more memory
// waits for the list's commands (memory an application frees in a loop of
// imports that never allocates would otherwise pile up).
constexpr size_t kDeferredLimit = size_t(256) << 20;

struct Pool {
  std::unordered_map<PoolKey, std::unordered_map<size_t, std::vector<Block>>, PoolKeyHash> free;
  std::deque<Deferred> deferred;
  size_t deferred_bytes = 0;
  std::map<uintptr_t, Region> regions;
  size_t cached_bytes = 0, cached_blocks = 0, in_use_bytes = 0, in_use_blocks = 0;
  size_t limit = size_t(1) << 30;
  bool shut_down = false;
};

// Never destroyed: SYCL objects must not be torn down by static destructors
// that may run after the SYCL runtime's own.
Pool &P() {
  static Pool *p = new Pool;
  return *p;
}

size_t size_class(size_t n) {
  if (n <= 512) return 512;
  if (n <= (size_t(1) << 20)) return round_up(n, 512);
  size_t p = size_t(1) << (63 - __builtin_clzll(n));
  return round_up(n, p / 8);
}

// Huge blocks begin on 2 MB boundaries, so element i of every large array
// would share its cache sets and low 12 address bits with element i of
// every other: a kernel streaming five or six arrays at once (a fused
// a * b + c * d - e) then loses 4-6% of its time to set conflicts and 4K
// aliasing (1e7 float32, alternating processes: 5.40-5.65 ms -> 5.23-5.26
// ms). Successive huge blocks start their data 256 bytes further in, over
// 16 steps (4 KB).
constexpr size_t kStagger = 256, kStaggerSteps = 16;

// A block of n usable bytes; *shift gets where they start in it.
void *raw_alloc(size_t n, int kind, const sycl::context &ctx, const sycl::device &dev,
                size_t *shift) {
  // On a CPU device USM is ordinary process memory: large blocks are
  // aligned to and advised for transparent huge pages (fewer TLB misses in
  // strided and transposing kernels), as NumPy does for its arrays.
  const bool huge = n >= kHugeMin && dev.is_cpu();
  const size_t align = huge ? kHugePage : kAlign;
  static size_t step = 0;
  *shift = huge ? kStagger * (step++ % kStaggerSteps) : 0;
  if (huge) n += kStagger * kStaggerSteps;
  void *p = nullptr;
  switch (kind) {
  case KIND_DEVICE: p = sycl::aligned_alloc_device(align, n, dev, ctx); break;
  case KIND_SHARED: p = sycl::aligned_alloc_shared(align, n, dev, ctx); break;
  case KIND_HOST: p = sycl::aligned_alloc_host(align, n, ctx); break;
  default: throw nb::value_error("unknown USM kind");
  }
#ifdef MADV_HUGEPAGE
  if (p && huge) madvise(p, n & ~(kHugePage - 1), MADV_HUGEPAGE);
#endif
  return p;
}

// Return a block to SYCL once nothing uses it any more.
void release_to_system(void *ptr, size_t cap, const sycl::context &ctx, const LastUse &last) {
  if (last.pending()) {
    P().deferred.push_back(Deferred{*last.event, ptr, ctx, nb::object(), cap});
    P().deferred_bytes += cap;
  } else {
    sycl::free(ptr, ctx);
  }
}

void evict_until(size_t target) {
  Pool &p = P();
  for (auto &kv : p.free) {
    for (auto &cls : kv.second) {
      auto &v = cls.second;
      while (!v.empty() && p.cached_bytes > target) {
        Block b = std::move(v.back());
        v.pop_back();
        p.cached_bytes -= b.cap;
        p.cached_blocks -= 1;
        release_to_system(static_cast<char *>(b.ptr) - b.shift, b.cap, kv.first.ctx, *b.last);
      }
    }
  }
}

std::shared_ptr<LastUse> region_of(const void *ptr) {
  auto &regions = P().regions;
  auto p = reinterpret_cast<uintptr_t>(ptr);
  auto it = regions.upper_bound(p);
  if (it == regions.begin()) return nullptr;
  --it;
  if (p >= it->second.end) return nullptr;
  auto l = it->second.last.lock();
  if (!l) regions.erase(it);
  return l;
}

void add_region(const void *ptr, size_t n, const std::shared_ptr<LastUse> &l) {
  auto p = reinterpret_cast<uintptr_t>(ptr);
  P().regions[p] = Region{p + std::max<size_t>(n, 1), l};
}

void remove_region(const void *ptr, const std::shared_ptr<LastUse> &l) {
  auto &regions = P().regions;
  auto it = regions.find(reinterpret_cast<uintptr_t>(ptr));
  if (it != regions.end() && (it->second.last.expired() || it->second.last.lock() == l))
    regions.erase(it);
}

} // namespace

namespace {
void release(Deferred &d) {
  P().deferred_bytes -= d.nbytes;
  if (d.ptr) sycl::free(d.ptr, *d.ctx);
  d.ptr = nullptr;
}
}  // namespace

void collect_deferred() {
  Pool &p = P();
  // Commands complete roughly in submission order: stop at the first one
  // still running rather than polling every entry on each allocation.
  while (!p.deferred.empty() && event_complete(p.deferred.front().ev)) {
    Deferred d = std::move(p.deferred.front());
    p.deferred.pop_front();
    release(d);
  }  // (an owner's release may run Python code that drops more memory)
}

void collect_deferred_all() {
  Pool &p = P();
  // Entries of several queues complete out of order: look at every one.
  std::vector<Deferred> done;
  for (auto it = p.deferred.begin(); it != p.deferred.end();) {
    if (event_complete(it->ev)) {
      done.push_back(std::move(*it));
      it = p.deferred.erase(it);
    } else {
      ++it;
    }
  }
  for (auto &d : done) release(d);
}

namespace {
// Host wait (without the GIL) for `evs`, then release what completed.
void wait_then_collect(const std::vector<Ev> &evs) {
  {
    nb::gil_scoped_release rel;
    for (auto &e : evs) host_wait(e);
  }
  collect_deferred_all();
}

// Called where no pool structure is being walked: the wait releases the GIL.
void limit_deferred() {
  Pool &p = P();
  if (p.deferred_bytes <= kDeferredLimit || p.shut_down) return;
  collect_deferred_all();
  if (p.deferred_bytes <= kDeferredLimit) return;
  std::vector<Ev> evs;
  for (auto &d : p.deferred) evs.push_back(d.ev);
  wait_then_collect(evs);
}
}  // namespace

namespace {
// The last commands on memory usmarray knows (of queue `only`, when given).
// Every command usmarray submitted is the last use of some allocation or
// ordered before one (commands on one allocation are chained).
std::vector<Ev> last_uses(const sycl::queue *only) {
  Pool &p = P();
  std::vector<Ev> evs;
  auto add = [&](const LastUse *l) {
    if (l && l->event && (!only || (l->queue && *l->queue == *only))) evs.push_back(*l->event);
  };
  for (auto &r : p.regions) add(r.second.last.lock().get());
  for (auto &kv : p.free)
    for (auto &cls : kv.second)
      for (auto &b : cls.second) add(b.last.get());
  return evs;
}
}  // namespace

void synchronize_all() {
  std::vector<Ev> evs = last_uses(nullptr);
  for (auto &d : P().deferred) evs.push_back(d.ev);
  wait_then_collect(evs);
}

// The OpenCL CPU runtime runs kernels on one worker thread fewer than the
// device has cores and counts on the host thread that waits for a kernel
// (or for a command after it) to join them; a thread waiting for a
// barrier's event does not. Waiting for the queue's barrier alone ran every
// kernel still queued on one core of two (ua.synchronize() after a 1e7
// float32 sum: 1.5 ms, against 1.2 ms waiting for the sum's event). So the
// last commands usmarray submitted to the queue are waited for first, and
// the barrier then covers commands submitted by others. Its wait polls
// first: the thread cannot join a barrier, and usually nothing is left for
// it to wait for, while waking a thread blocked on it costs 30-50 µs (take
// of 1e5 indices, whose engine call waits for the gather, then
// ua.synchronize(): 146 µs blocking at once, against 112 µs without the
// synchronize).
void queue_wait(sycl::queue &q) {
  const std::vector<Ev> evs = last_uses(&q);
  nb::gil_scoped_release rel;
  for (auto &e : evs) host_wait(e);
  host_wait(q.ext_oneapi_submit_barrier(), std::max(kSpinWait, std::chrono::microseconds(100)));
}

Allocation *allocate(sycl::queue &q, size_t nbytes, int kind) {
  Pool &p = P();
  if (p.shut_down) throw std::runtime_error("usmarray: the engine has shut down");
  if (!p.deferred.empty()) collect_deferred();
  const size_t cap = size_class(nbytes);
  PoolKey key{q.get_context(), q.get_device(), kind};
  if (p.limit > 0) {
    auto it = p.free.find(key);
    if (it != p.free.end()) {
      auto cls = it->second.find(cap);
      if (cls != it->second.end() && !cls->second.empty()) {
        Block b = std::move(cls->second.back());
        cls->second.pop_back();
        p.cached_bytes -= cap;
        p.cached_blocks -= 1;
        p.in_use_bytes += cap;
        p.in_use_blocks += 1;
        auto *a = new Allocation(b.ptr, nbytes, cap, kind, key.ctx, key.dev, std::move(b.last));
        a->shift = b.shift;
        add_region(a->ptr, cap, a->last);
        return a;
      }
    }
  }
  size_t shift = 0;
  void *ptr = raw_alloc(cap, kind, key.ctx, key.dev, &shift);
  if (!ptr) {
    // Out of memory: give back everything cached (waiting for its users) and retry.
    pool_free_cached();
    ptr = raw_alloc(cap, kind, key.ctx, key.dev, &shift);
    if (!ptr) {
      PyErr_Format(PyExc_MemoryError, "cannot allocate %zu bytes of USM", nbytes);
      throw nb::python_error();
    }
  }
  p.in_use_bytes += cap;
  p.in_use_blocks += 1;
  ptr = static_cast<char *>(ptr) + shift;
  auto *a = new Allocation(ptr, nbytes, cap, kind, key.ctx, key.dev, std::make_shared<LastUse>());
  a->shift = shift;
  add_region(ptr, cap, a->last);
  return a;
}

Allocation *wrap_foreign(void *ptr, size_t nbytes, int kind, const sycl::context &ctx,
                         const sycl::device &dev, nb::object owner) {
  std::shared_ptr<LastUse> last = region_of(ptr);
  const bool known = static_cast<bool>(last);
  if (!known) last = std::make_shared<LastUse>();
  auto *a = new Allocation(ptr, nbytes, 0, kind, ctx, dev, std::move(last));
  if (!known) add_region(ptr, nbytes, a->last);
  a->owner = std::move(owner);
  return a;
}

Allocation::~Allocation() {
  Pool &p = P();
  if (p.shut_down) {
    // The interpreter is finalising after engine_shutdown() waited for all
    // work; the process is about to release everything anyway.
    if (owner) owner.release();  // the owner may already be finalised
    return;
  }
  if (capacity == 0) {
    if (last.use_count() == 1) remove_region(ptr, last);
    if (owner && last->pending()) {
      p.deferred.push_back(Deferred{*last->event, nullptr, std::nullopt, std::move(owner), nbytes});
      p.deferred_bytes += nbytes;
      limit_deferred();
    }
    return;
  }
  remove_region(ptr, last);
  p.in_use_bytes -= capacity;
  p.in_use_blocks -= 1;
  if (p.limit == 0 || capacity > p.limit) {
    release_to_system(static_cast<char *>(ptr) - shift, capacity, ctx, *last);
  } else {
    if (p.cached_bytes + capacity > p.limit) evict_until(p.limit - capacity);
    p.free[PoolKey{ctx, dev, kind}][capacity].push_back(Block{ptr, capacity, shift, std::move(last)});
    p.cached_bytes += capacity;
    p.cached_blocks += 1;
  }
  limit_deferred();
}

void Allocation::wait() {
  if (!last->event) return;
  Ev e = *last->event;
  {
    nb::gil_scoped_release rel;
    host_wait(e);
  }
  collect_deferred();
}

PoolStats pool_stats() {
  Pool &p = P();
  return PoolStats{p.cached_bytes, p.cached_blocks, p.in_use_bytes, p.in_use_blocks,
                   p.deferred.size(), p.deferred_bytes, p.limit};
}

void pool_set_limit(size_t limit) {
  Pool &p = P();
  p.limit = limit;
  evict_until(limit);
}

void pool_free_cached() {
  Pool &p = P();
  evict_until(0);
  // Waiting here is what the caller asked for: memory back to the system.
  std::vector<Ev> evs;
  for (auto &d : p.deferred) evs.push_back(d.ev);
  wait_then_collect(evs);
}

void engine_shutdown() {
  Pool &p = P();
  if (p.shut_down) return;
  pool_free_cached();
  p.free.clear();
  p.regions.clear();
  p.shut_down = true;
}

bool engine_is_shut_down() { return P().shut_down; }

} // namespace usm

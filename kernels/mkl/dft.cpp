// oneMKL DFT entry points of libusmarray_mkl.so (kernels/mkl/dft_api.hpp),
// with the cache of committed descriptors.
#include <oneapi/mkl/dft.hpp>

#include <complex>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "mkl/dft_api.hpp"

namespace {

namespace dft = oneapi::mkl::dft;
using usm_mkl::DftPlan;

// A committed descriptor of one (queue, plan). Committing costs from a
// fraction of a millisecond to tens of ms (twiddle tables, the choice of
// kernels), far more than a small transform: entries are kept and reused.
struct Entry {
  sycl::queue q;
  DftPlan plan;
  std::mutex use;      // one submission at a time per descriptor
  sycl::event last;    // the last transform submitted with it
  Entry(const sycl::queue &q_, const DftPlan &p) : q(q_), plan(p) {}
  virtual ~Entry() = default;
  virtual sycl::event compute(void *in, void *out, const usm_mkl::Events &deps) = 0;
};

std::vector<std::int64_t> stride_vector(const std::int64_t *s, int rank) {
  std::vector<std::int64_t> v(rank + 1, 0);  // v[0]: offset of element zero, 0 here
  for (int i = 0; i < rank; ++i) v[i + 1] = s[i];
  return v;
}

template <dft::precision P, dft::domain D> struct EntryT final : Entry {
  using Real = std::conditional_t<P == dft::precision::DOUBLE, double, float>;
  using Cplx = std::complex<Real>;
  dft::descriptor<P, D> desc;

  static std::vector<std::int64_t> dims(const DftPlan &p) {
    return std::vector<std::int64_t>(p.lengths, p.lengths + p.rank);
  }

  EntryT(const sycl::queue &q_, const DftPlan &p) : Entry(q_, p), desc(dims(p)) {
    using cp = dft::config_param;
    using cv = dft::config_value;
    // The forward domain is the input of a forward transform and the output
    // of a backward one.
    const std::int64_t *fs = p.forward ? p.in_strides : p.out_strides;
    const std::int64_t *bs = p.forward ? p.out_strides : p.in_strides;
    desc.set_value(cp::FWD_STRIDES, stride_vector(fs, p.rank));
    desc.set_value(cp::BWD_STRIDES, stride_vector(bs, p.rank));
    if (p.batch > 1) {
      desc.set_value(cp::NUMBER_OF_TRANSFORMS, p.batch);
      desc.set_value(cp::FWD_DISTANCE, p.forward ? p.in_distance : p.out_distance);
      desc.set_value(cp::BWD_DISTANCE, p.forward ? p.out_distance : p.in_distance);
    }
    desc.set_value(cp::PLACEMENT, p.inplace ? cv::INPLACE : cv::NOT_INPLACE);
    // Inputs are the caller's arrays: never scratch space.
    if (!p.inplace) desc.set_value(cp::DESTROY_INPUT, cv::AVOID);
    desc.set_value(p.forward ? cp::FORWARD_SCALE : cp::BACKWARD_SCALE, static_cast<Real>(p.scale));
    desc.commit(q);
  }

  sycl::event compute(void *in, void *out, const usm_mkl::Events &deps) override {
    using In = std::conditional_t<D == dft::domain::REAL, Real, Cplx>;
    if (plan.inplace) {
      Cplx *io = static_cast<Cplx *>(out);
      return plan.forward ? dft::compute_forward(desc, io, deps)
                          : dft::compute_backward(desc, io, deps);
    }
    if (plan.forward)
      return dft::compute_forward(desc, static_cast<In *>(in), static_cast<Cplx *>(out), deps);
    return dft::compute_backward(desc, static_cast<Cplx *>(in), static_cast<In *>(out), deps);
  }
};

std::shared_ptr<Entry> make_entry(const sycl::queue &q, const DftPlan &p) {
  using dft::domain;
  using dft::precision;
  if (p.rank < 1 || p.rank > usm_mkl::kDftMaxRank) throw std::invalid_argument("dft: bad rank");
  if (p.inplace && p.real) throw std::invalid_argument("dft: real transforms are out of place");
  switch (p.type) {
  case 's':
    if (p.real) return std::make_shared<EntryT<precision::SINGLE, domain::REAL>>(q, p);
    return std::make_shared<EntryT<precision::SINGLE, domain::COMPLEX>>(q, p);
  case 'd':
    if (p.real) return std::make_shared<EntryT<precision::DOUBLE, domain::REAL>>(q, p);
    return std::make_shared<EntryT<precision::DOUBLE, domain::COMPLEX>>(q, p);
  }
  throw std::invalid_argument("dft: precision must be 's' or 'd'");
}

struct Key {
  sycl::queue q;
  DftPlan plan;
  bool operator==(const Key &o) const {
    return q == o.q && std::memcmp(&plan, &o.plan, sizeof(DftPlan)) == 0;
  }
};
struct KeyHash {
  size_t operator()(const Key &k) const {
    // FNV-1a over the plan's bytes, mixed with the queue's hash
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&k.plan);
    size_t h = 1469598103934665603ull ^ std::hash<sycl::queue>()(k.q);
    for (size_t i = 0; i < sizeof(DftPlan); ++i) h = (h ^ b[i]) * 1099511628211ull;
    return h;
  }
};

// Least recently used first out, bounded. Thread-safe; commits run outside
// the lock. An entry leaving the cache is destroyed only after its last
// transform completed (the descriptor owns the transform's internal data):
// until then it waits in `retired_`, swept by later calls.
class Cache {
 public:
  std::shared_ptr<Entry> get(const sycl::queue &q, const DftPlan &p) {
    Key k{q, p};
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = map_.find(k);
      if (it != map_.end()) {
        lru_.splice(lru_.begin(), lru_, it->second);
        ++hits_;
        return it->second->second;
      }
      ++misses_;
    }
    std::shared_ptr<Entry> e = make_entry(q, p);
    std::vector<std::shared_ptr<Entry>> evicted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = map_.find(k);
      if (it != map_.end()) return it->second->second;  // another thread committed it first
      lru_.emplace_front(k, e);
      map_.emplace(k, lru_.begin());
      trim();
      sweep(evicted);
    }
    return e;  // `evicted` goes out of scope here, outside the lock
  }

  void configure(std::int64_t limit, std::int64_t *stats) {
    std::vector<std::shared_ptr<Entry>> evicted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (limit >= 0) {
        limit_ = static_cast<size_t>(limit);
        trim();
      }
      sweep(evicted);
      stats[0] = static_cast<std::int64_t>(lru_.size());
      stats[1] = static_cast<std::int64_t>(limit_);
      stats[2] = hits_;
      stats[3] = misses_;
    }
  }

 private:
  using Item = std::pair<Key, std::shared_ptr<Entry>>;
  std::mutex mu_;
  std::list<Item> lru_;
  std::unordered_map<Key, std::list<Item>::iterator, KeyHash> map_;
  size_t limit_ = 64;
  std::int64_t hits_ = 0, misses_ = 0;

  // Evicted entries, kept until their last transform completed.
  std::vector<std::shared_ptr<Entry>> retired_;

  void trim() {
    while (lru_.size() > limit_) {
      retired_.push_back(std::move(lru_.back().second));
      map_.erase(lru_.back().first);
      lru_.pop_back();
    }
  }
  // Moves the retired entries whose last transform completed to `dead` (the
  // caller destroys them outside the lock). Never waits: a host wait here
  // could block beside other threads' waits, which the OpenCL CPU runtime
  // can deadlock on (the engine serialises its own waits, usm::host_wait);
  // an entry still running stays for a later call. One used by another
  // thread lives on in that thread's shared_ptr.
  void sweep(std::vector<std::shared_ptr<Entry>> &dead) {
    for (size_t i = 0; i < retired_.size();) {
      Entry &e = *retired_[i];
      bool done = false;
      if (e.use.try_lock()) {
        // (read twice: a transform held back behind a host task and enqueued
        // by the runtime's thread between the runtime's reads of the event's
        // handle and of its command reads as complete once; see
        // usm::sycl_complete, kernels/engine/launch.cpp)
        done = e.last.get_info<sycl::info::event::command_execution_status>() ==
                   sycl::info::event_command_status::complete &&
               e.last.get_info<sycl::info::event::command_execution_status>() ==
                   sycl::info::event_command_status::complete;
        e.use.unlock();
      }
      if (done) {
        dead.push_back(std::move(retired_[i]));
        retired_[i] = std::move(retired_.back());
        retired_.pop_back();
      } else {
        ++i;
      }
    }
  }
};

// Never destroyed: descriptors must not be torn down after the SYCL runtime
// at process exit.
Cache &cache() {
  static Cache *c = new Cache;
  return *c;
}

} // namespace

extern "C" sycl::event usm_mkl_dft(sycl::queue &q, const usm_mkl::DftPlan &plan, const void *in,
                                   void *out, const usm_mkl::Events &deps) {
  std::shared_ptr<Entry> e = cache().get(q, plan);
  std::lock_guard<std::mutex> lock(e->use);
  e->last = e->compute(const_cast<void *>(in), out, deps);
  return e->last;
}

extern "C" void usm_mkl_dft_cache(std::int64_t limit, std::int64_t *stats) {
  cache().configure(limit, stats);
}

static_assert(std::is_same_v<decltype(&usm_mkl_dft), usm_mkl::dft_fn>);
static_assert(std::is_same_v<decltype(&usm_mkl_dft_cache), usm_mkl::dft_cache_fn>);

// DFT entry points of libusmarray_mkl.so (kernels/mkl/dft.cpp), resolved by
// the engine (kernels/engine/fft.cpp) with usm::mkl_entry<T>("name").
#pragma once
#include "mkl/api.hpp"

namespace usm_mkl {

// Dimensions one descriptor transforms at most (more axes are split into
// several transforms by the caller).
constexpr int kDftMaxRank = 3;

// One batched DFT: `batch` transforms of rank `rank` with `lengths`, the
// logical (real-domain for real transforms) lengths; the last of them is the
// halved one of a real transform. Strides and distances are in elements of
// the input and output types (real or complex). A plain aggregate: the
// descriptor cache compares plans bytewise, so build it zero-initialised.
struct DftPlan {
  char type;        // 's' single or 'd' double precision
  bool real;        // real domain: forward real -> complex, backward complex -> real
  bool forward;     // direction
  bool inplace;     // in == out with the same strides (complex domain only)
  std::int32_t rank;
  std::int64_t lengths[kDftMaxRank];
  std::int64_t in_strides[kDftMaxRank];
  std::int64_t out_strides[kDftMaxRank];
  std::int64_t batch;
  std::int64_t in_distance, out_distance;  // between batch items (ignored for batch 1)
  double scale;     // factor of the direction's result
};

// out = DFT(in) per `plan`, on `q` after `deps`. Committed descriptors are
// cached per (queue, plan): the first plan of a shape pays the commit.
using dft_fn = sycl::event (*)(sycl::queue &q, const DftPlan &plan, const void *in, void *out,
                               const Events &deps);

// The descriptor cache: sets its capacity when `limit` >= 0 (0 drops every
// descriptor not in use), and fills stats with {entries, limit, hits, misses}.
using dft_cache_fn = void (*)(std::int64_t limit, std::int64_t *stats);

} // namespace usm_mkl

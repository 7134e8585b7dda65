// Sums of consecutive runs of a vector: out[k] = v[pos[k]] + ... +
// v[pos[k + 1] - 1]. The weighted counts of bincount and the histograms:
// the weights sorted by bin, summed per bin, so that a NaN, an infinity or
// a large weight stays in its own bin (differences of one running sum
// spread them to the later bins). One work-item per run; the device
// compiler's floating-point model may reassociate a run's sum (NumPy adds
// in input order: results agree to rounding, not bit for bit). Pointer
// parameters: the engine's launch_raw launches it, as it does RawKernels.
#include "common.hpp"

template <typename T>
USM_KERNEL(1)
void segment_sums(const T *v, const std::int64_t *pos, std::int64_t m, T *out) {
  const std::int64_t k = usmk::linear_id();
  if (k >= m) return;
  T s{};
  for (std::int64_t j = pos[k]; j < pos[k + 1]; ++j) s += v[j];
  out[k] = s;
}

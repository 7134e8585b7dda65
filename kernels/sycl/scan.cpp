// Inclusive scans (cumulative_sum, cumulative_prod) along the rows of a
// buffer, in place: element (r, i) is at x[r * ld + i]. Rows longer than one
// chunk run in three steps: chunk totals, a scan of the totals (the same
// kernels, recursively, from the engine), then each chunk rescanned from the
// total before it. Each work-item owns one chunk of one row.
#include "reduction.hpp"

template <class Op, typename T>
USM_KERNEL(1)
void scan_totals(const T *x, T *tot, std::int64_t rows, std::int64_t n, std::int64_t ld,
                 std::int64_t chunk, std::int64_t nch) {
  const std::int64_t g = usmk::linear_id();
  if (g >= rows * nch) return;
  const std::int64_t r = g / nch, c = g % nch;
  const T *p = x + r * ld + c * chunk;
  const std::int64_t m = sycl::min(chunk, n - c * chunk);
  T acc = Op::template identity<T>();
  for (std::int64_t i = 0; i < m; ++i) acc = Op::combine(acc, p[i]);
  tot[g] = acc;
}

// `tot` holds the inclusive scan of each row's chunk totals (or is null when
// a row is one chunk).
template <class Op, typename T>
USM_KERNEL(1)
void scan_apply(T *x, const T *tot, std::int64_t rows, std::int64_t n, std::int64_t ld,
                std::int64_t chunk, std::int64_t nch) {
  const std::int64_t g = usmk::linear_id();
  if (g >= rows * nch) return;
  const std::int64_t r = g / nch, c = g % nch;
  T *p = x + r * ld + c * chunk;
  const std::int64_t m = sycl::min(chunk, n - c * chunk);
  T acc = c == 0 ? Op::template identity<T>() : tot[g - 1];
  for (std::int64_t i = 0; i < m; ++i) {
    acc = Op::combine(acc, p[i]);
    p[i] = acc;
  }
}

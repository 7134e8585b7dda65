// where(cond, x1, x2): selection by a boolean condition.
#include "common.hpp"

template <typename T>
USM_KERNEL(1)
void where_contig(const bool *c, const T *a, const T *b, T *r, std::int64_t n) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) r[i] = c[i] ? a[i] : b[i];
}

template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void where_strided(const bool *c, const T *a, const T *b, T *r, Geometry<ND, 4> g) {
  std::int64_t off[4];
  if (usmk::strided_offsets(g, off)) r[off[3]] = c[off[0]] ? a[off[1]] : b[off[2]];
}

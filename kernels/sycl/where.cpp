// where(cond, x1, x2) (selection by a boolean condition) and gathers.
#include "order.hpp"

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

// out[i] = x[i + offs[i]] in element units: gathering for integer array
// indexing. offs, x and out are walked by one geometry; x's strides cover
// the dimensions that are not indexed, offs holds the gathered part.
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void take_strided(const std::int64_t *offs, const T *x, T *out, Geometry<ND, 3> g) {
  std::int64_t off[3];
  if (usmk::strided_offsets(g, off)) out[off[2]] = x[off[1] + offs[off[0]]];
}

// Positions of the true elements of a contiguous mask, from the inclusive
// cumulative count `cs` of the mask: the i-th true element's index lands in
// out[cs[i] - 1] (nonzero, boolean-mask indexing).
template <typename I>
USM_KERNEL(1)
void mask_positions(const bool *m, const I *cs, I *out, std::int64_t n) {
  const std::int64_t i = usmk::linear_id();
  if (i < n && m[i]) out[cs[i] - 1] = static_cast<I>(i);
}

// x[offs + ...] = v: the scatter of integer-array assignment, over the same
// geometry as take_strided (duplicate offsets: one of the values lands).
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void put_strided(const std::int64_t *offs, T *x, const T *v, Geometry<ND, 3> g) {
  std::int64_t off[3];
  if (usmk::strided_offsets(g, off)) x[off[1] + offs[off[0]]] = v[off[2]];
}

// out[j] = insertion index of v[j] into the sorted s (left: before equal
// elements; right: after them), by binary search.
template <typename T, int RIGHT>
USM_KERNEL(1)
void search_sorted(const T *s, std::int64_t n, const T *v, std::int64_t *out, std::int64_t m) {
  const std::int64_t j = usmk::linear_id();
  if (j >= m) return;
  const T x = v[j];
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    const bool go_right = RIGHT ? !sorts_before(x, s[mid]) : sorts_before(s[mid], x);
    if (go_right) lo = mid + 1;
    else hi = mid;
  }
  out[j] = lo;
}

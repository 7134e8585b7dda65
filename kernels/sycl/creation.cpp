// Kernels behind the creation functions: strided fills, arithmetic
// sequences (arange, linspace) and triangular masks (tril, triu).
#include "common.hpp"

template <typename T>
USM_KERNEL(1)
void fill_contig(kptr<T> y, std::int64_t n, T v) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) y[i] = v;
}

template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void fill_strided(kptr<T> y, Geometry<ND, 1> g, T v) {
  std::int64_t off[1];
  if (usmk::strided_offsets(g, off)) y[off[0]] = v;
}

// y[i] = start + i * step, computed in C and converted to T: the product
// and the sum rounded apart, as NumPy's linspace and arange compute them
// (a fused multiply-add gave 12.999999999999998 for NumPy's 13.0, and
// linspace of integers floors it).
template <typename T, typename C>
USM_KERNEL(1)
void sequence(kptr<T> y, C start, C step, std::int64_t n) {
#pragma clang fp contract(off)
  const std::int64_t i = usmk::linear_id();
  if (i < n) y[i] = usmk::convert<T>(start + static_cast<C>(i) * step);
}

// Keeps x[..., i, j] where j - i <= k (lower) or j - i >= k (upper), zero
// elsewhere. The last two dimensions of the geometry are the matrix.
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void tri(kptr<const T> x, kptr<T> y, Geometry<ND, 2> g, std::int64_t k, std::int32_t upper) {
  constexpr int R = ND < 3 ? ND : 3;
  std::int64_t off[2];
  if (!usmk::strided_offsets(g, off)) return;
  auto it = syclext::this_work_item::get_nd_item<R>();
  const std::int64_t i = it.get_global_id(R - 2), j = it.get_global_id(R - 1);
  const bool keep = upper ? (j - i >= k) : (j - i <= k);
  y[off[1]] = keep ? x[off[0]] : T{};
}

// Batched matrix products out[b] = a[b] @ x[b] of contiguous (n, k) and
// (k, m) matrices; a batch stride of 0 reuses one matrix for every batch.
// Integer and bool products (floating ones go to oneMKL's gemm).
//
// Register tiles: each work-item computes MM_ROWS consecutive rows of one
// output column, consecutive work-items along a row of the output. Per step
// of k it loads one element of x (vector loads across work-items) and
// MM_ROWS elements of a (the same for every work-item of a row: broadcasts),
// for MM_ROWS multiply-adds: a quarter of the naive kernel's loads per
// product. No local memory or barriers, which CPU runtimes emulate slowly.
#include "common.hpp"

template <typename T>
struct mm_acc { using type = T; };
template <>
struct mm_acc<sycl::half> { using type = float; };

constexpr std::int64_t MM_ROWS = 4;

template <typename T>
USM_KERNEL(3)
void matmul_tiled(kptr<const T> a, kptr<const T> x, kptr<T> out, std::int64_t n, std::int64_t k,
                  std::int64_t m, std::int64_t sa, std::int64_t sx) {
  auto it = syclext::this_work_item::get_nd_item<3>();
  const std::int64_t bi = it.get_global_id(0), i0 = it.get_global_id(1) * MM_ROWS,
                     j = it.get_global_id(2);
  if (i0 >= n || j >= m) return;
  const T *pa = a + bi * sa + i0 * k;
  const T *px = x + bi * sx + j;
  using A = typename mm_acc<T>::type;
  A acc[MM_ROWS];
  for (int r = 0; r < MM_ROWS; ++r) acc[r] = A(0);
  const std::int64_t rows = n - i0 < MM_ROWS ? n - i0 : MM_ROWS;
  if (rows == MM_ROWS) {
    for (std::int64_t t = 0; t < k; ++t) {
      const A xv = A(px[t * m]);
#pragma unroll
      for (int r = 0; r < MM_ROWS; ++r) acc[r] += A(pa[r * k + t]) * xv;
    }
  } else {
    for (std::int64_t t = 0; t < k; ++t) {
      const A xv = A(px[t * m]);
      for (std::int64_t r = 0; r < rows; ++r) acc[r] += A(pa[r * k + t]) * xv;
    }
  }
  T *po = out + (bi * n + i0) * m + j;
  for (std::int64_t r = 0; r < rows; ++r) po[r * m] = T(acc[r]);
}

// Batched matrix products out[b] = a[b] @ x[b] of contiguous (n, k) and
// (k, m) matrices; a batch stride of 0 reuses one matrix for every batch.
// One work-item per output element, consecutive work-items along a row of
// the output (so loads of x vectorise and a's element is shared). A plain
// kernel: tiled and vendor-library paths belong to the linalg work.
#include "common.hpp"

template <typename T>
struct mm_acc { using type = T; };
template <>
struct mm_acc<sycl::half> { using type = float; };

template <typename T>
USM_KERNEL(3)
void matmul_naive(const T *a, const T *x, T *out, std::int64_t n, std::int64_t k,
                  std::int64_t m, std::int64_t sa, std::int64_t sx) {
  auto it = syclext::this_work_item::get_nd_item<3>();
  const std::int64_t bi = it.get_global_id(0), i = it.get_global_id(1), j = it.get_global_id(2);
  if (i >= n || j >= m) return;
  const T *pa = a + bi * sa + i * k;
  const T *px = x + bi * sx + j;
  using A = typename mm_acc<T>::type;
  A acc = A(0);
  for (std::int64_t t = 0; t < k; ++t) acc += A(pa[t]) * A(px[t * m]);
  out[(bi * n + i) * m + j] = T(acc);
}

// oneMKL BLAS entry points of libusmarray_mkl.so (kernels/mkl/api.hpp).
#include <oneapi/mkl/blas.hpp>

#include <complex>

#include "mkl/api.hpp"

namespace {

namespace blas = oneapi::mkl::blas::row_major;
using oneapi::mkl::transpose;

template <typename T>
sycl::event gemm_batch_t(sycl::queue &q, std::int64_t batch, std::int64_t m, std::int64_t n,
                         std::int64_t k, const void *a, std::int64_t lda, std::int64_t sa, bool ta,
                         const void *b, std::int64_t ldb, std::int64_t sb, bool tb, void *c,
                         std::int64_t ldc, std::int64_t sc, const usm_mkl::Events &deps) {
  const transpose opa = ta ? transpose::trans : transpose::nontrans;
  const transpose opb = tb ? transpose::trans : transpose::nontrans;
  const T *A = static_cast<const T *>(a), *B = static_cast<const T *>(b);
  T *C = static_cast<T *>(c);
  // One product goes to gemm itself: its batch form costs more per call.
  if (batch == 1)
    return blas::gemm(q, opa, opb, m, n, k, T(1), A, lda, B, ldb, T(0), C, ldc, deps);
  return blas::gemm_batch(q, opa, opb, m, n, k, T(1), A, lda, sa, B, ldb, sb, T(0), C, ldc, sc,
                          batch, deps);
}

} // namespace

extern "C" sycl::event usm_mkl_gemm_batch(sycl::queue &q, char type, std::int64_t batch,
                                          std::int64_t m, std::int64_t n, std::int64_t k,
                                          const void *a, std::int64_t lda, std::int64_t sa, bool ta,
                                          const void *b, std::int64_t ldb, std::int64_t sb, bool tb,
                                          void *c, std::int64_t ldc, std::int64_t sc,
                                          const usm_mkl::Events &deps) {
  switch (type) {
  case 's': return gemm_batch_t<float>(q, batch, m, n, k, a, lda, sa, ta, b, ldb, sb, tb, c, ldc, sc, deps);
  case 'd': return gemm_batch_t<double>(q, batch, m, n, k, a, lda, sa, ta, b, ldb, sb, tb, c, ldc, sc, deps);
  case 'c':
    return gemm_batch_t<std::complex<float>>(q, batch, m, n, k, a, lda, sa, ta, b, ldb, sb, tb, c,
                                             ldc, sc, deps);
  case 'z':
    return gemm_batch_t<std::complex<double>>(q, batch, m, n, k, a, lda, sa, ta, b, ldb, sb, tb, c,
                                              ldc, sc, deps);
  }
  throw std::invalid_argument("usm_mkl_gemm_batch: unsupported element type");
}

// Checked by the engine against usm_mkl::gemm_batch_fn at compile time.
static_assert(std::is_same_v<decltype(&usm_mkl_gemm_batch), usm_mkl::gemm_batch_fn>);

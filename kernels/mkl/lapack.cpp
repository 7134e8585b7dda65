// oneMKL LAPACK entry points of libusmarray_mkl.so (kernels/mkl/lapack_api.hpp).
#include <oneapi/mkl/lapack.hpp>

#include <complex>
#include <stdexcept>
#include <type_traits>

#include "mkl/lapack_api.hpp"

namespace {

namespace lapack = oneapi::mkl::lapack;
using usm_mkl::Events;
using usm_mkl::Work;
using std::int64_t;

template <typename T> struct is_complex : std::false_type {};
template <typename T> struct is_complex<std::complex<T>> : std::true_type {};
template <typename T> struct real_of { using type = T; };
template <typename T> struct real_of<std::complex<T>> { using type = T; };

// Calls f(T{}) with T the element type of a BLAS letter.
template <class F> sycl::event by_type(char type, F &&f) {
  switch (type) {
  case 's': return f(float{});
  case 'd': return f(double{});
  case 'c': return f(std::complex<float>{});
  case 'z': return f(std::complex<double>{});
  }
  throw std::invalid_argument("oneMKL LAPACK: unsupported element type");
}

// Size query (work.scratch == nullptr) or the call itself; oneMKL's
// computation errors become work.info.
template <typename T, class Size, class Run>
sycl::event run(Work &work, Size &&size, Run &&call) {
  if (!work.scratch) {
    work.scratch_bytes = static_cast<int64_t>(size()) * static_cast<int64_t>(sizeof(T));
    return sycl::event{};
  }
  T *scratch = static_cast<T *>(work.scratch);
  const int64_t count = work.scratch_bytes / static_cast<int64_t>(sizeof(T));
  work.info = 0;
  try {
    return call(scratch, count);
  } catch (const lapack::batch_error &e) {
    work.info = e.info() > 0 ? e.info() : 1;
  } catch (const lapack::computation_error &e) {
    work.info = e.info() > 0 ? e.info() : 1;
  }
  return sycl::event{};
}

template <typename T> T *ptr(void *p) { return static_cast<T *>(p); }
template <typename T> const T *ptr(const void *p) { return static_cast<const T *>(p); }

oneapi::mkl::jobsvd jobsvd_of(char job) {
  switch (job) {
  case 'N': return oneapi::mkl::jobsvd::novec;
  case 'S': return oneapi::mkl::jobsvd::somevec;
  case 'A': return oneapi::mkl::jobsvd::vectors;
  }
  throw std::invalid_argument("gesvd: job must be 'N', 'S' or 'A'");
}

} // namespace

extern "C" sycl::event usm_mkl_getrf(sycl::queue &q, char type, int64_t batch, int64_t n, void *a,
                                     int64_t lda, int64_t sa, int64_t *ipiv, int64_t sipiv,
                                     Work &work, const Events &deps) {
  return by_type(type, [&](auto t) {
    using T = decltype(t);
    return run<T>(work, [&] {
      return batch == 1 ? lapack::getrf_scratchpad_size<T>(q, n, n, lda)
                        : lapack::getrf_batch_scratchpad_size<T>(q, n, n, lda, sa, sipiv, batch);
    }, [&](T *s, int64_t ns) {
      if (batch == 1) return lapack::getrf(q, n, n, ptr<T>(a), lda, ipiv, s, ns, deps);
      return lapack::getrf_batch(q, n, n, ptr<T>(a), lda, sa, ipiv, sipiv, batch, s, ns, deps);
    });
  });
}

extern "C" sycl::event usm_mkl_getrs(sycl::queue &q, char type, int64_t batch, bool trans,
                                     int64_t n, int64_t nrhs, const void *a, int64_t lda,
                                     int64_t sa, const int64_t *ipiv, int64_t sipiv, void *b,
                                     int64_t ldb, int64_t sb, Work &work, const Events &deps) {
  const auto op = trans ? oneapi::mkl::transpose::trans : oneapi::mkl::transpose::nontrans;
  return by_type(type, [&](auto t) {
    using T = decltype(t);
    return run<T>(work, [&] {
      return batch == 1 ? lapack::getrs_scratchpad_size<T>(q, op, n, nrhs, lda, ldb)
                        : lapack::getrs_batch_scratchpad_size<T>(q, op, n, nrhs, lda, sa, sipiv,
                                                                 ldb, sb, batch);
    }, [&](T *s, int64_t ns) {
      // oneMKL's getrs takes non-const pointers to the factors it only reads
      T *A = const_cast<T *>(ptr<T>(a));
      int64_t *P = const_cast<int64_t *>(ipiv);
      if (batch == 1) return lapack::getrs(q, op, n, nrhs, A, lda, P, ptr<T>(b), ldb, s, ns, deps);
      return lapack::getrs_batch(q, op, n, nrhs, A, lda, sa, P, sipiv, ptr<T>(b), ldb, sb, batch,
                                 s, ns, deps);
    });
  });
}

extern "C" sycl::event usm_mkl_getri(sycl::queue &q, char type, int64_t batch, int64_t n, void *a,
                                     int64_t lda, int64_t sa, const int64_t *ipiv, int64_t sipiv,
                                     Work &work, const Events &deps) {
  return by_type(type, [&](auto t) {
    using T = decltype(t);
    return run<T>(work, [&] {
      return batch == 1 ? lapack::getri_scratchpad_size<T>(q, n, lda)
                        : lapack::getri_batch_scratchpad_size<T>(q, n, lda, sa, sipiv, batch);
    }, [&](T *s, int64_t ns) {
      int64_t *P = const_cast<int64_t *>(ipiv);
      if (batch == 1) return lapack::getri(q, n, ptr<T>(a), lda, P, s, ns, deps);
      return lapack::getri_batch(q, n, ptr<T>(a), lda, sa, P, sipiv, batch, s, ns, deps);
    });
  });
}

extern "C" sycl::event usm_mkl_potrf(sycl::queue &q, char type, int64_t batch, bool upper,
                                     int64_t n, void *a, int64_t lda, int64_t sa, Work &work,
                                     const Events &deps) {
  const auto uplo = upper ? oneapi::mkl::uplo::upper : oneapi::mkl::uplo::lower;
  return by_type(type, [&](auto t) {
    using T = decltype(t);
    return run<T>(work, [&] {
      return batch == 1 ? lapack::potrf_scratchpad_size<T>(q, uplo, n, lda)
                        : lapack::potrf_batch_scratchpad_size<T>(q, uplo, n, lda, sa, batch);
    }, [&](T *s, int64_t ns) {
      if (batch == 1) return lapack::potrf(q, uplo, n, ptr<T>(a), lda, s, ns, deps);
      return lapack::potrf_batch(q, uplo, n, ptr<T>(a), lda, sa, batch, s, ns, deps);
    });
  });
}

// Always the batch form, a single matrix included: oneMKL's single-matrix
// geqrf calibrates the CPU clock on its first call in some processes
// (0.3-0.8 s, mkl_serv_get_clocks_frequency); the batch form of one matrix
// takes the same time warm and starts in ~0.1 s.
extern "C" sycl::event usm_mkl_geqrf(sycl::queue &q, char type, int64_t batch, int64_t m,
                                     int64_t n, void *a, int64_t lda, int64_t sa, void *tau,
                                     int64_t stau, Work &work, const Events &deps) {
  return by_type(type, [&](auto t) {
    using T = decltype(t);
    return run<T>(work, [&] {
      return lapack::geqrf_batch_scratchpad_size<T>(q, m, n, lda, sa, stau, batch);
    }, [&](T *s, int64_t ns) {
      return lapack::geqrf_batch(q, m, n, ptr<T>(a), lda, sa, ptr<T>(tau), stau, batch, s, ns,
                                 deps);
    });
  });
}

extern "C" sycl::event usm_mkl_orgqr(sycl::queue &q, char type, int64_t batch, int64_t m,
                                     int64_t n, int64_t k, void *a, int64_t lda, int64_t sa,
                                     const void *tau, int64_t stau, Work &work,
                                     const Events &deps) {
  return by_type(type, [&](auto t) {
    using T = decltype(t);
    return run<T>(work, [&] {
      if constexpr (is_complex<T>::value)
        return batch == 1 ? lapack::ungqr_scratchpad_size<T>(q, m, n, k, lda)
                          : lapack::ungqr_batch_scratchpad_size<T>(q, m, n, k, lda, sa, stau, batch);
      else
        return batch == 1 ? lapack::orgqr_scratchpad_size<T>(q, m, n, k, lda)
                          : lapack::orgqr_batch_scratchpad_size<T>(q, m, n, k, lda, sa, stau, batch);
    }, [&](T *s, int64_t ns) {
      T *Tau = const_cast<T *>(ptr<T>(tau));
      if constexpr (is_complex<T>::value) {
        if (batch == 1) return lapack::ungqr(q, m, n, k, ptr<T>(a), lda, Tau, s, ns, deps);
        return lapack::ungqr_batch(q, m, n, k, ptr<T>(a), lda, sa, Tau, stau, batch, s, ns, deps);
      } else {
        if (batch == 1) return lapack::orgqr(q, m, n, k, ptr<T>(a), lda, Tau, s, ns, deps);
        return lapack::orgqr_batch(q, m, n, k, ptr<T>(a), lda, sa, Tau, stau, batch, s, ns, deps);
      }
    });
  });
}

// oneMKL has no batched gesvd or syevd/heevd with vectors: one call per
// matrix, each after the previous (they share the scratchpad).
extern "C" sycl::event usm_mkl_gesvd(sycl::queue &q, char type, int64_t batch, char job, int64_t m,
                                     int64_t n, void *a, int64_t lda, int64_t sa, void *s,
                                     int64_t ss, void *u, int64_t ldu, int64_t su, void *vt,
                                     int64_t ldvt, int64_t svt, Work &work, const Events &deps) {
  const auto jb = jobsvd_of(job);
  return by_type(type, [&](auto t) {
    using T = decltype(t);
    using R = typename real_of<T>::type;
    return run<T>(work, [&] {
      return lapack::gesvd_scratchpad_size<T>(q, jb, jb, m, n, lda, ldu, ldvt);
    }, [&](T *sc, int64_t ns) {
      sycl::event e;
      Events d = deps;
      for (int64_t i = 0; i < batch; ++i) {
        e = lapack::gesvd(q, jb, jb, m, n, ptr<T>(a) + i * sa, lda, ptr<R>(s) + i * ss,
                          job == 'N' ? nullptr : ptr<T>(u) + i * su, ldu,
                          job == 'N' ? nullptr : ptr<T>(vt) + i * svt, ldvt, sc, ns, d);
        d.assign(1, e);
      }
      return e;
    });
  });
}

extern "C" sycl::event usm_mkl_heevd(sycl::queue &q, char type, int64_t batch, bool vectors,
                                     int64_t n, void *a, int64_t lda, int64_t sa, void *w,
                                     int64_t sw, Work &work, const Events &deps) {
  const auto jobz = vectors ? oneapi::mkl::job::vec : oneapi::mkl::job::novec;
  const auto uplo = oneapi::mkl::uplo::lower;
  return by_type(type, [&](auto t) {
    using T = decltype(t);
    using R = typename real_of<T>::type;
    return run<T>(work, [&] {
      if constexpr (is_complex<T>::value)
        return lapack::heevd_scratchpad_size<T>(q, jobz, uplo, n, lda);
      else
        return lapack::syevd_scratchpad_size<T>(q, jobz, uplo, n, lda);
    }, [&](T *sc, int64_t ns) {
      sycl::event e;
      Events d = deps;
      for (int64_t i = 0; i < batch; ++i) {
        if constexpr (is_complex<T>::value)
          e = lapack::heevd(q, jobz, uplo, n, ptr<T>(a) + i * sa, lda, ptr<R>(w) + i * sw, sc, ns, d);
        else
          e = lapack::syevd(q, jobz, uplo, n, ptr<T>(a) + i * sa, lda, ptr<R>(w) + i * sw, sc, ns, d);
        d.assign(1, e);
      }
      return e;
    });
  });
}

// Checked against the typedefs the engine uses.
static_assert(std::is_same_v<decltype(&usm_mkl_getrf), usm_mkl::getrf_fn>);
static_assert(std::is_same_v<decltype(&usm_mkl_getrs), usm_mkl::getrs_fn>);
static_assert(std::is_same_v<decltype(&usm_mkl_getri), usm_mkl::getri_fn>);
static_assert(std::is_same_v<decltype(&usm_mkl_potrf), usm_mkl::potrf_fn>);
static_assert(std::is_same_v<decltype(&usm_mkl_geqrf), usm_mkl::geqrf_fn>);
static_assert(std::is_same_v<decltype(&usm_mkl_orgqr), usm_mkl::orgqr_fn>);
static_assert(std::is_same_v<decltype(&usm_mkl_gesvd), usm_mkl::gesvd_fn>);
static_assert(std::is_same_v<decltype(&usm_mkl_heevd), usm_mkl::heevd_fn>);

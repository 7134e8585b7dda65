// LAPACK commands through oneMKL (kernels/mkl/lapack.cpp) for usmarray.linalg.
//
// Python lays the operands out (usmarray/linalg/_lapack.py); here they are
// validated, the scratchpad comes from the pool and the call is enqueued.
// Layout contract: a batch of column-major r x c matrices is a C-contiguous
// array of shape (B, c, r) (each matrix's columns are rows of the array), so
// its leading dimension is r and its batch stride c * r. Vectors (pivots,
// tau, singular values, eigenvalues) are C-contiguous (B, len) arrays.
// Every command returns (event, info): info > 0 is LAPACK's report of a
// singular / not positive-definite matrix (or the number of failed batch
// items); Python turns it into LinAlgError.
#include <nanobind/stl/pair.h>

#include <algorithm>

#include "mkl.hpp"
#include "mkl/lapack_api.hpp"

namespace usm {

namespace {

using usm_mkl::Work;
using Result = std::pair<Event, int64_t>;

// A batch of column-major matrices (see the layout contract above).
struct Mats {
  ArrayRef x;
  int64_t batch = 0, rows = 0, cols = 0, ld = 1, stride = 0;
};

void read_mats(sycl::queue &q, nb::handle h, Mats &m, const char *what) {
  read_array(h, m.x);
  check_operand(q, m.x, m.x, what);
  if (m.x.nd != 3 || !m.x.is_c_contiguous())
    throw nb::value_error((std::string(what) + ": expected a C-contiguous 3-d array").c_str());
  m.batch = m.x.shape[0];
  m.cols = m.x.shape[1];
  m.rows = m.x.shape[2];
  m.ld = std::max<int64_t>(m.rows, 1);
  m.stride = m.cols * m.rows;
}

// A C-contiguous (B, len) array of type `tc` (-1: the real type of `like`).
void read_vecs(sycl::queue &q, nb::handle h, ArrayRef &v, int64_t batch, int64_t len, int tc,
               const char *what) {
  read_array(h, v);
  check_operand(q, v, v, what);
  if (v.nd != 2 || !v.is_c_contiguous() || v.shape[0] != batch || v.shape[1] < len ||
      v.tc != tc)
    throw nb::value_error((std::string(what) + ": wrong shape, type or layout").c_str());
}

int real_tc(int tc) { return tc == TC_C8 ? TC_F4 : tc == TC_C16 ? TC_F8 : tc; }

void same_type(const Mats &a, const Mats &b, const char *fn) {
  if (a.x.tc != b.x.tc) throw nb::value_error((std::string(fn) + ": operand types differ").c_str());
  if (overlaps(a.x, b.x)) throw nb::value_error((std::string(fn) + ": operands overlap").c_str());
}

// The size query, a pooled scratchpad, then the call, ordered after (and
// recorded on) every allocation it touches, the scratchpad included: the
// pool hands the block to its next user with this call's event.
template <class Call>
Result with_scratch(sycl::queue &q, Allocation *a0, Allocation *a1, Allocation *a2,
                    Allocation *a3, Call &&call) {
  static const usm_mkl::Events none;
  Work w;
  call(w, none);
  const int64_t bytes = std::max<int64_t>(w.scratch_bytes, 64);
  std::unique_ptr<Allocation> scratch(allocate(q, static_cast<size_t>(bytes), KIND_DEVICE));
  w.scratch = scratch->ptr;
  w.scratch_bytes = bytes;
  // oneMKL's LAPACK on the CPU device computes on the calling thread and
  // waits only for the events it is given, not for earlier commands of an
  // in-order queue (which enqueue leaves out): it gets the pending last use
  // of every operand, whatever its queue.
  std::vector<sycl::event> own = pending_uses({a0, a1, a2, a3, scratch.get()});
  Ev e = enqueue(q, {a0, a1, a2, a3, scratch.get()},
                          [&](const std::vector<sycl::event> &deps) {
    for (const sycl::event &d : deps)
      if (std::find(own.begin(), own.end(), d) == own.end()) own.push_back(d);
    // oneMKL waits for them with the SYCL runtime's wait, which can return
    // before a command held back behind a host task has run (sycl_complete,
    // launch.cpp): on the CPU device, where the call computes on this
    // thread, usmarray's wait comes first (the GIL held, as for the call).
    if (q.get_device().is_cpu())
      for (const sycl::event &d : own) host_wait(Ev(d));
    return call(w, own);
  });
  return {Event{e}, w.info};
}

} // namespace

// LU factors of square matrices a (in place) and their pivots ipiv (B, n) int64.
Result lapack_getrf(std::uintptr_t qref, nb::handle a_h, nb::handle ipiv_h) {
  sycl::queue &q = queue_from_ref(qref);
  Mats a;
  ArrayRef p;
  read_mats(q, a_h, a, "getrf: the matrices");
  if (a.rows != a.cols) throw nb::value_error("getrf: matrices must be square");
  read_vecs(q, ipiv_h, p, a.batch, a.rows, TC_I8, "getrf: the pivots");
  const char type = blas_type(a.x.tc);
  if (a.batch == 0 || a.rows == 0) return {Event{}, 0};
  static const auto fn = mkl_entry<usm_mkl::getrf_fn>("usm_mkl_getrf");
  void *ap = a.x.data();
  auto *pp = reinterpret_cast<int64_t *>(p.data());
  const int64_t sp = p.shape[1];
  return with_scratch(q, a.x.alloc, p.alloc, nullptr, nullptr, [&](Work &w, const auto &deps) {
    return fn(q, type, a.batch, a.rows, ap, a.ld, a.stride, pp, sp, w, deps);
  });
}

// Solves with getrf's factors: b (B, nrhs, n) holds the right-hand sides as
// column-major n x nrhs matrices and receives the solutions. trans: solve
// with the transpose of the factored matrix.
Result lapack_getrs(std::uintptr_t qref, nb::handle a_h, nb::handle ipiv_h, nb::handle b_h,
                    bool trans) {
  sycl::queue &q = queue_from_ref(qref);
  Mats a, b;
  ArrayRef p;
  read_mats(q, a_h, a, "getrs: the factors");
  read_mats(q, b_h, b, "getrs: the right-hand sides");
  same_type(a, b, "getrs");
  if (a.rows != a.cols || b.rows != a.rows || b.batch != a.batch)
    throw nb::value_error("getrs: shapes do not match");
  read_vecs(q, ipiv_h, p, a.batch, a.rows, TC_I8, "getrs: the pivots");
  const char type = blas_type(a.x.tc);
  if (a.batch == 0 || a.rows == 0 || b.cols == 0) return {Event{}, 0};
  static const auto fn = mkl_entry<usm_mkl::getrs_fn>("usm_mkl_getrs");
  const void *ap = a.x.data();
  void *bp = b.x.data();
  const auto *pp = reinterpret_cast<const int64_t *>(p.data());
  const int64_t sp = p.shape[1];
  return with_scratch(q, a.x.alloc, p.alloc, b.x.alloc, nullptr, [&](Work &w, const auto &deps) {
    return fn(q, type, a.batch, trans, a.rows, b.cols, ap, a.ld, a.stride, pp, sp, bp, b.ld,
              b.stride, w, deps);
  });
}

// Inverses in place from getrf's factors.
Result lapack_getri(std::uintptr_t qref, nb::handle a_h, nb::handle ipiv_h) {
  sycl::queue &q = queue_from_ref(qref);
  Mats a;
  ArrayRef p;
  read_mats(q, a_h, a, "getri: the factors");
  if (a.rows != a.cols) throw nb::value_error("getri: matrices must be square");
  read_vecs(q, ipiv_h, p, a.batch, a.rows, TC_I8, "getri: the pivots");
  const char type = blas_type(a.x.tc);
  if (a.batch == 0 || a.rows == 0) return {Event{}, 0};
  static const auto fn = mkl_entry<usm_mkl::getri_fn>("usm_mkl_getri");
  void *ap = a.x.data();
  const auto *pp = reinterpret_cast<const int64_t *>(p.data());
  const int64_t sp = p.shape[1];
  return with_scratch(q, a.x.alloc, p.alloc, nullptr, nullptr, [&](Work &w, const auto &deps) {
    return fn(q, type, a.batch, a.rows, ap, a.ld, a.stride, pp, sp, w, deps);
  });
}

// Cholesky factors in place: the upper (column-major) triangle when `upper`.
Result lapack_potrf(std::uintptr_t qref, nb::handle a_h, bool upper) {
  sycl::queue &q = queue_from_ref(qref);
  Mats a;
  read_mats(q, a_h, a, "potrf: the matrices");
  if (a.rows != a.cols) throw nb::value_error("potrf: matrices must be square");
  const char type = blas_type(a.x.tc);
  if (a.batch == 0 || a.rows == 0) return {Event{}, 0};
  static const auto fn = mkl_entry<usm_mkl::potrf_fn>("usm_mkl_potrf");
  void *ap = a.x.data();
  return with_scratch(q, a.x.alloc, nullptr, nullptr, nullptr, [&](Work &w, const auto &deps) {
    return fn(q, type, a.batch, upper, a.rows, ap, a.ld, a.stride, w, deps);
  });
}

// QR factors of m x n matrices in place, tau (B, >= min(m, n)).
Result lapack_geqrf(std::uintptr_t qref, nb::handle a_h, nb::handle tau_h) {
  sycl::queue &q = queue_from_ref(qref);
  Mats a;
  ArrayRef t;
  read_mats(q, a_h, a, "geqrf: the matrices");
  read_vecs(q, tau_h, t, a.batch, std::min(a.rows, a.cols), a.x.tc, "geqrf: tau");
  const char type = blas_type(a.x.tc);
  if (a.batch == 0 || a.rows == 0 || a.cols == 0) return {Event{}, 0};
  static const auto fn = mkl_entry<usm_mkl::geqrf_fn>("usm_mkl_geqrf");
  void *ap = a.x.data(), *tp = t.data();
  const int64_t st = t.shape[1];
  return with_scratch(q, a.x.alloc, t.alloc, nullptr, nullptr, [&](Work &w, const auto &deps) {
    return fn(q, type, a.batch, a.rows, a.cols, ap, a.ld, a.stride, tp, st, w, deps);
  });
}

// The m x n (n <= m) matrices Q of k reflectors stored in a (in place) and tau.
Result lapack_orgqr(std::uintptr_t qref, nb::handle a_h, nb::handle tau_h, int64_t k) {
  sycl::queue &q = queue_from_ref(qref);
  Mats a;
  ArrayRef t;
  read_mats(q, a_h, a, "orgqr: the reflectors");
  if (k < 0 || k > a.cols || a.cols > a.rows) throw nb::value_error("orgqr: need k <= n <= m");
  read_vecs(q, tau_h, t, a.batch, k, a.x.tc, "orgqr: tau");
  const char type = blas_type(a.x.tc);
  if (a.batch == 0 || a.rows == 0 || a.cols == 0) return {Event{}, 0};
  static const auto fn = mkl_entry<usm_mkl::orgqr_fn>("usm_mkl_orgqr");
  void *ap = a.x.data();
  const void *tp = t.data();
  const int64_t st = t.shape[1];
  return with_scratch(q, a.x.alloc, t.alloc, nullptr, nullptr, [&](Work &w, const auto &deps) {
    return fn(q, type, a.batch, a.rows, a.cols, k, ap, a.ld, a.stride, tp, st, w, deps);
  });
}

// Singular values s (B, min(m, n)) of m x n matrices a (destroyed) and, unless
// job is 'N', the vectors u (m x ucols) and vt (vtrows x n). `host`: the CPU
// device's variant, the host LAPACK's gesdd (kernels/mkl/host.cpp), which
// computes on the calling thread once the operands' pending uses are done.
Result lapack_gesvd(std::uintptr_t qref, nb::handle a_h, nb::handle s_h, nb::handle u_h,
                    nb::handle vt_h, char job, bool host) {
  sycl::queue &q = queue_from_ref(qref);
  Mats a, u, vt;
  ArrayRef s;
  read_mats(q, a_h, a, "gesvd: the matrices");
  const int64_t m = a.rows, n = a.cols, k = std::min(m, n);
  read_vecs(q, s_h, s, a.batch, k, real_tc(a.x.tc), "gesvd: the singular values");
  if (job != 'N' && job != 'S' && job != 'A') throw nb::value_error("gesvd: job must be N, S or A");
  if (job != 'N') {
    read_mats(q, u_h, u, "gesvd: u");
    read_mats(q, vt_h, vt, "gesvd: vt");
    same_type(a, u, "gesvd");
    same_type(a, vt, "gesvd");
    const int64_t ucols = job == 'A' ? m : k, vtrows = job == 'A' ? n : k;
    if (u.batch != a.batch || vt.batch != a.batch || u.rows != m || u.cols != ucols ||
        vt.rows != vtrows || vt.cols != n)
      throw nb::value_error("gesvd: shapes of u or vt do not match");
  }
  const char type = blas_type(a.x.tc);
  if (a.batch == 0 || k == 0) return {Event{}, 0};
  void *ap = a.x.data(), *sp = s.data();
  void *up = job == 'N' ? nullptr : u.x.data(), *vp = job == 'N' ? nullptr : vt.x.data();
  const int64_t ss = s.shape[1];
  if (host) {
    if (!q.get_device().is_cpu())
      throw nb::value_error("gesvd: the host variant needs a CPU device");
    static const auto hfn = mkl_entry<usm_mkl::gesdd_host_fn>("usm_mkl_gesdd_host");
    const std::vector<sycl::event> pending =
        pending_uses({a.x.alloc, s.alloc, job == 'N' ? nullptr : u.x.alloc,
                      job == 'N' ? nullptr : vt.x.alloc});
    int64_t info;
    {
      nb::gil_scoped_release nogil;
      for (const sycl::event &e : pending) host_wait(Ev(e));
      info = hfn(type, a.batch, job, m, n, ap, a.ld, a.stride, sp, ss, up, u.ld, u.stride, vp,
                 vt.ld, vt.stride);
    }
    return {Event{}, info};
  }
  static const auto fn = mkl_entry<usm_mkl::gesvd_fn>("usm_mkl_gesvd");
  return with_scratch(q, a.x.alloc, s.alloc, job == 'N' ? nullptr : u.x.alloc,
                      job == 'N' ? nullptr : vt.x.alloc, [&](Work &w, const auto &deps) {
    return fn(q, type, a.batch, job, m, n, ap, a.ld, a.stride, sp, ss, up, u.ld, u.stride, vp,
              vt.ld, vt.stride, w, deps);
  });
}

// Eigenvalues w (B, n), ascending, of Hermitian matrices given by their lower
// (column-major) triangle; with `vectors` the eigenvectors replace a.
Result lapack_heevd(std::uintptr_t qref, nb::handle a_h, nb::handle w_h, bool vectors) {
  sycl::queue &q = queue_from_ref(qref);
  Mats a;
  ArrayRef wv;
  read_mats(q, a_h, a, "heevd: the matrices");
  if (a.rows != a.cols) throw nb::value_error("heevd: matrices must be square");
  read_vecs(q, w_h, wv, a.batch, a.rows, real_tc(a.x.tc), "heevd: the eigenvalues");
  const char type = blas_type(a.x.tc);
  if (a.batch == 0 || a.rows == 0) return {Event{}, 0};
  static const auto fn = mkl_entry<usm_mkl::heevd_fn>("usm_mkl_heevd");
  void *ap = a.x.data(), *wp = wv.data();
  const int64_t sw = wv.shape[1];
  return with_scratch(q, a.x.alloc, wv.alloc, nullptr, nullptr, [&](Work &w, const auto &deps) {
    return fn(q, type, a.batch, vectors, a.rows, ap, a.ld, a.stride, wp, sw, w, deps);
  });
}

} // namespace usm

namespace usm {

void bind_linalg(nb::module_ &m) {
  m.def("lapack_getrf", &lapack_getrf, "LU factors in place and pivots: (event, info).");
  m.def("lapack_getrs", &lapack_getrs, "Solve with LU factors, in place: (event, info).");
  m.def("lapack_getri", &lapack_getri, "Inverse from LU factors, in place: (event, info).");
  m.def("lapack_potrf", &lapack_potrf, "Cholesky factors in place: (event, info).");
  m.def("lapack_geqrf", &lapack_geqrf, "QR factors (reflectors) in place: (event, info).");
  m.def("lapack_orgqr", &lapack_orgqr, "Q from QR reflectors, in place: (event, info).");
  m.def("lapack_gesvd", &lapack_gesvd, nb::arg("q"), nb::arg("a"), nb::arg("s"), nb::arg("u"),
        nb::arg("vt"), nb::arg("job"), nb::arg("host") = false,
        "Singular values and vectors: (event, info).");
  m.def("lapack_heevd", &lapack_heevd, "Hermitian eigenvalues and vectors: (event, info).");
}

} // namespace usm

// Run-time loading of oneMKL. The libraries are opened with RTLD_GLOBAL, in
// dependency order, so that libusmarray_mkl.so (built against oneMKL's
// headers only) resolves its symbols against them; RTLD_LAZY because
// libmkl_core and the threading layer refer to each other.
#include "mkl.hpp"

#include <dlfcn.h>

#include <mutex>

namespace usm {

namespace {
std::mutex g_mutex;
void *g_shim = nullptr;
} // namespace

void mkl_load(const std::vector<std::string> &libs, const std::string &shim) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_shim) return;
  for (const std::string &lib : libs)
    if (!dlopen(lib.c_str(), RTLD_LAZY | RTLD_GLOBAL))
      throw nb::import_error(("cannot load oneMKL library " + lib + ": " + dlerror()).c_str());
  void *h = dlopen(shim.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw nb::import_error((std::string("cannot load ") + shim + ": " + dlerror()).c_str());
  g_shim = h;
}

bool mkl_loaded() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_shim != nullptr;
}

void *mkl_symbol(const char *name) {
  void *shim;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    shim = g_shim;
  }
  if (!shim) throw nb::import_error("oneMKL is not loaded (usmarray._mkl.load() loads it)");
  void *p = dlsym(shim, name);
  if (!p) throw nb::import_error((std::string("libusmarray_mkl.so has no entry ") + name).c_str());
  return p;
}

char blas_type(int tc) {
  switch (tc) {
  case TC_F4: return 's';
  case TC_F8: return 'd';
  case TC_C8: return 'c';
  case TC_C16: return 'z';
  }
  throw nb::value_error("oneMKL computes in float32, float64, complex64 or complex128 only");
}

std::vector<sycl::event> pending_uses(std::initializer_list<Allocation *> allocs) {
  std::vector<sycl::event> own;
  for (Allocation *x : allocs) {
    if (!x || !x->last->event) continue;
    const Ev &ev = *x->last->event;
    if (!ev.complete()) own.push_back(ev.to_sycl(x->ctx));
  }
  return own;
}

} // namespace usm

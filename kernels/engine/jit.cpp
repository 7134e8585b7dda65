// Run-time compilation of SYCL C++ kernel sources, and reloading of compiled
// device binaries through the backend's adapter (binary_cache.hpp; the disk
// cache itself is kept by usmarray/_core/_kernels.py).
#include "engine.hpp"

#include "binary_cache.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

namespace usm {

const BinaryAdapter *binary_adapter(const sycl::device &dev) {
  switch (dev.get_backend()) {
  case sycl::backend::opencl:
    return opencl_adapter_usable() ? &kOpenCLAdapter : nullptr;
  case sycl::backend::ext_oneapi_level_zero:
    return level_zero_adapter_usable() ? &kLevelZeroAdapter : nullptr;
  default:
    return nullptr;
  }
}

KernelCache::KernelCache(const sycl::context &c, const sycl::device &d, nb::object r)
    : ctx(c), dev(d), resolver(std::move(r)), adapter(binary_adapter(d)) {
  // 512 work-items per group: measured best (or equal) for streaming kernels
  // on the OpenCL CPU device, within every GPU's limit.
  wg_size = std::min<size_t>(512, dev.get_info<sycl::info::device::max_work_group_size>());
  simd = dev.is_cpu();
}

const sycl::kernel *KernelCache::find(const std::string &name) {
  auto it = kernels.find(name);
  if (it != kernels.end()) return &it->second;
  if (absent.count(name)) return nullptr;
  if (!materialize(*this, name)) {
    resolver(nb::str(name.c_str(), name.size()));
    materialize(*this, name);
  }
  it = kernels.find(name);
  if (it == kernels.end()) {
    absent.insert(name);
    return nullptr;
  }
  return &it->second;
}

const sycl::kernel &KernelCache::get(const std::string &name) {
  auto it = kernels.find(name);
  if (it != kernels.end()) return it->second;
  if (!materialize(*this, name)) {
    resolver(nb::str(name.c_str(), name.size()));
    materialize(*this, name);
  }
  it = kernels.find(name);
  if (it == kernels.end())
    throw std::runtime_error("usmarray: kernel '" + name + "' was not provided by its bundle");
  return it->second;
}

// Compiles `source` for the cache's device and registers `names`. Returns
// (ok, log, binaries or None, raw kernel names or None); binaries are the
// native programs when the backend lets us reload them.
nb::tuple build_source(KernelCache &kc, const std::string &source,
                       const std::vector<std::pair<std::string, std::string>> &includes,
                       const std::vector<std::string> &names,
                       const std::vector<std::string> &options) {
  std::string log, error;
  std::optional<sycl::kernel_bundle<sycl::bundle_state::executable>> kb;
  {
    nb::gil_scoped_release rel;
    try {
      syclex::include_files inc;
      for (auto &p : includes) inc.add(p.first, p.second);
      auto src = syclex::create_kernel_bundle_from_source(
          kc.ctx, syclex::source_language::sycl, source, syclex::properties{inc});
      kb = syclex::build(src, std::vector<sycl::device>{kc.dev},
                         syclex::properties{syclex::registered_names{names},
                                            syclex::build_options{options},
                                            syclex::save_log{&log}});
    } catch (const sycl::exception &e) {
      error = e.what();
    }
  }
  if (!kb) return nb::make_tuple(false, error + "\n" + log, nb::none(), nb::none());
  nb::list raw;
  for (auto &n : names) {
    kc.kernels.insert_or_assign(n, kb->ext_oneapi_get_kernel(n));
    std::string r = kb->ext_oneapi_get_raw_kernel_name(n);
    raw.append(nb::str(r.c_str(), r.size()));
  }
  nb::object bins = nb::none();
  if (kc.adapter) {
    std::vector<std::string> b = kc.adapter->read(*kb);
    if (!b.empty()) {
      nb::list l;
      for (auto &x : b) l.append(nb::bytes(x.data(), x.size()));
      bins = l;
    }
  }
  return nb::make_tuple(true, log, bins, raw);
}

bool materialize(KernelCache &kc, const std::string &name) {
  auto it = kc.lazy.find(name);
  if (it == kc.lazy.end()) return false;
  std::optional<sycl::kernel> k;
  try {
    k = kc.adapter->kernel(kc.ctx, *it->second.program, it->second.raw_name);
  } catch (const sycl::exception &) {
  }
  kc.lazy.erase(it);
  if (!k) return false;  // the resolver compiles the bundle again
  kc.kernels.insert_or_assign(name, std::move(*k));
  return true;
}

// Loads binaries produced by build_source; their kernels are created on
// first use. Returns False when the binaries are unusable (corrupted, other
// driver, a kernel missing); the caller then recompiles.
bool load_binary(KernelCache &kc, const std::vector<nb::bytes> &binaries,
                 const std::vector<std::string> &names, const std::vector<std::string> &raw_names) {
  if (!kc.adapter || names.size() != raw_names.size() || binaries.empty()) return false;
  std::vector<std::string> bins;
  for (auto &b : binaries) bins.emplace_back(b.c_str(), b.size());
  std::vector<LoadedProgram> progs;
  bool ok;
  {
    nb::gil_scoped_release rel;
    try {
      ok = kc.adapter->load(kc.ctx, kc.dev, bins, progs);
    } catch (const sycl::exception &) {
      ok = false;
    }
  }
  if (!ok) return false;
  std::unordered_map<std::string, std::shared_ptr<LoadedProgram>> where;  // raw name -> program
  for (auto &p : progs) {
    auto shared = std::make_shared<LoadedProgram>(std::move(p));
    for (auto &n : shared->kernel_names) where.emplace(n, shared);
  }
  std::vector<std::pair<std::string, KernelCache::Lazy>> found;
  for (size_t i = 0; i < names.size(); ++i) {
    auto w = where.find(raw_names[i]);
    if (w == where.end()) return false;
    found.push_back({names[i], KernelCache::Lazy{w->second, raw_names[i]}});
  }
  for (auto &f : found)
    if (!kc.kernels.count(f.first)) kc.lazy.insert_or_assign(f.first, std::move(f.second));
  return true;
}

bool adapter_loads(KernelCache &kc, const std::string &adapter,
                   const std::vector<nb::bytes> &binaries) {
  const BinaryAdapter *a = adapter == "opencl"       ? &kOpenCLAdapter
                           : adapter == "level_zero" ? &kLevelZeroAdapter
                                                     : nullptr;
  if (!a) throw nb::value_error("adapter must be 'opencl' or 'level_zero'");
  if ((a == &kOpenCLAdapter && !opencl_adapter_usable()) ||
      (a == &kLevelZeroAdapter && !level_zero_adapter_usable()))
    return false;
  std::vector<std::string> bins;
  for (auto &b : binaries) bins.emplace_back(b.c_str(), b.size());
  std::vector<LoadedProgram> progs;
  try {
    return a->load(kc.ctx, kc.dev, bins, progs) && !progs.empty();
  } catch (const sycl::exception &) {
    return false;
  }
}

} // namespace usm

// Run-time compilation of SYCL C++ kernel sources, and reloading of compiled
// device binaries (the disk cache is kept by usmarray/_kernels.py).
//
// On the OpenCL backend the executable's native binary is read with
// clGetProgramInfo and reloaded with clCreateProgramWithBinary: a few
// milliseconds instead of the compiler's hundreds. The OpenCL entry points
// are looked up in the libOpenCL the SYCL runtime already loaded, so the
// extension does not link against OpenCL.
#include "engine.hpp"

#include "opencl.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

namespace usm {

KernelCache::KernelCache(const sycl::context &c, const sycl::device &d, nb::object r)
    : ctx(c), dev(d), resolver(std::move(r)) {
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

namespace {

bool binary_cache_supported(const KernelCache &kc) {
  return kc.dev.get_backend() == sycl::backend::opencl && opencl().ok;
}

// One native binary per device image: the runtime splits a bundle into
// images by the device features kernels use (e.g. fp64).
std::vector<std::string> native_binaries(
    const sycl::kernel_bundle<sycl::bundle_state::executable> &kb) {
  const OpenCL &cl = opencl();
  std::vector<cl_program> progs = sycl::get_native<sycl::backend::opencl>(kb);
  std::vector<std::string> out;
  for (cl_program p : progs) {
    size_t sz = 0;
    std::string bin;
    if (cl.GetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(sz), &sz, nullptr) == CL_SUCCESS &&
        sz > 0) {
      bin.resize(sz);
      unsigned char *ptr = reinterpret_cast<unsigned char *>(bin.data());
      if (cl.GetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr) != CL_SUCCESS)
        bin.clear();
    }
    if (bin.empty()) {
      out.clear();
      break;
    }
    out.push_back(std::move(bin));
  }
  for (cl_program p : progs) cl.ReleaseProgram(p);
  return out;
}

} // namespace

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
  if (binary_cache_supported(kc)) {
    std::vector<std::string> b = native_binaries(*kb);
    if (!b.empty()) {
      nb::list l;
      for (auto &x : b) l.append(nb::bytes(x.data(), x.size()));
      bins = l;
    }
  }
  return nb::make_tuple(true, log, bins, raw);
}

namespace {

struct Program {
  cl_program p;
  explicit Program(cl_program prog) : p(prog) {}
  ~Program() { opencl().ReleaseProgram(p); }
};

std::vector<std::string> kernel_names(cl_program p) {
  const OpenCL &cl = opencl();
  size_t n = 0;
  std::vector<std::string> out;
  if (cl.GetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &n) != CL_SUCCESS || n == 0)
    return out;
  std::string all(n, '\0');
  if (cl.GetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, n, all.data(), nullptr) != CL_SUCCESS) return out;
  all.resize(strnlen(all.c_str(), n));
  size_t start = 0;
  while (start <= all.size()) {
    size_t end = all.find(';', start);
    if (end == std::string::npos) end = all.size();
    if (end > start) out.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

} // namespace

bool materialize(KernelCache &kc, const std::string &name) {
  auto it = kc.lazy.find(name);
  if (it == kc.lazy.end()) return false;
  const OpenCL &cl = opencl();
  auto *prog = static_cast<Program *>(it->second.program.get());
  cl_int err = CL_SUCCESS;
  cl_kernel k = cl.CreateKernel(prog->p, it->second.raw_name.c_str(), &err);
  if (err != CL_SUCCESS || !k) {
    kc.lazy.erase(it);
    return false;  // the resolver compiles the bundle again
  }
  try {
    kc.kernels.insert_or_assign(name, sycl::make_kernel<sycl::backend::opencl>(k, kc.ctx));
  } catch (const sycl::exception &) {
    cl.ReleaseKernel(k);
    kc.lazy.erase(it);
    return false;
  }
  cl.ReleaseKernel(k);  // the SYCL kernel holds its own reference
  kc.lazy.erase(it);
  return true;
}

// Loads binaries produced by build_source; their kernels are created on
// first use. Returns False when the binaries are unusable (corrupted, other
// driver, a kernel missing); the caller then recompiles.
bool load_binary(KernelCache &kc, const std::vector<nb::bytes> &binaries,
                 const std::vector<std::string> &names, const std::vector<std::string> &raw_names) {
  if (!binary_cache_supported(kc) || names.size() != raw_names.size() || binaries.empty())
    return false;
  const OpenCL &cl = opencl();
  // get_native hands out retained handles: release them when done.
  struct Native {
    const OpenCL &cl;
    cl_context ctx;
    cl_device_id dev;
    ~Native() {
      cl.ReleaseDevice(dev);
      cl.ReleaseContext(ctx);
    }
  } native{cl, sycl::get_native<sycl::backend::opencl>(kc.ctx),
           sycl::get_native<sycl::backend::opencl>(kc.dev)};
  std::vector<std::shared_ptr<void>> progs;
  std::unordered_map<std::string, size_t> where;  // raw kernel name -> program
  for (auto &b : binaries) {
    size_t sz = b.size();
    const unsigned char *bp = reinterpret_cast<const unsigned char *>(b.c_str());
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program prog = cl.CreateProgramWithBinary(native.ctx, 1, &native.dev, &sz, &bp, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS || !prog) {
      if (prog) cl.ReleaseProgram(prog);
      return false;
    }
    progs.push_back(std::make_shared<Program>(prog));
    {
      nb::gil_scoped_release rel;
      err = cl.BuildProgram(prog, 1, &native.dev, "", nullptr, nullptr);
    }
    if (err != CL_SUCCESS) return false;
    for (auto &n : kernel_names(prog)) where.emplace(n, progs.size() - 1);
  }
  std::vector<std::pair<std::string, KernelCache::Lazy>> found;
  for (size_t i = 0; i < names.size(); ++i) {
    auto w = where.find(raw_names[i]);
    if (w == where.end()) return false;
    found.push_back({names[i], KernelCache::Lazy{progs[w->second], raw_names[i]}});
  }
  for (auto &f : found)
    if (!kc.kernels.count(f.first)) kc.lazy.insert_or_assign(f.first, std::move(f.second));
  return true;
}

bool can_cache_binaries(KernelCache &kc) { return binary_cache_supported(kc); }

} // namespace usm

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
  wg_size = std::min<size_t>(256, dev.get_info<sycl::info::device::max_work_group_size>());
}

const sycl::kernel &KernelCache::get(const std::string &name) {
  auto it = kernels.find(name);
  if (it != kernels.end()) return it->second;
  resolver(nb::str(name.c_str(), name.size()));
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

// Loads binaries produced by build_source. Returns False when they are
// unusable (corrupted, other driver); the caller then recompiles.
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
    std::vector<cl_program> progs;
    ~Native() {
      for (cl_program p : progs) cl.ReleaseProgram(p);
      cl.ReleaseDevice(dev);
      cl.ReleaseContext(ctx);
    }
  } native{cl, sycl::get_native<sycl::backend::opencl>(kc.ctx),
           sycl::get_native<sycl::backend::opencl>(kc.dev), {}};
  for (auto &b : binaries) {
    size_t sz = b.size();
    const unsigned char *bp = reinterpret_cast<const unsigned char *>(b.c_str());
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program prog = cl.CreateProgramWithBinary(native.ctx, 1, &native.dev, &sz, &bp, &status, &err);
    if (prog) native.progs.push_back(prog);
    if (err != CL_SUCCESS || status != CL_SUCCESS || !prog) return false;
    {
      nb::gil_scoped_release rel;
      err = cl.BuildProgram(prog, 1, &native.dev, "", nullptr, nullptr);
    }
    if (err != CL_SUCCESS) return false;
  }
  std::vector<std::pair<std::string, sycl::kernel>> made;
  for (size_t i = 0; i < names.size(); ++i) {
    cl_kernel k = nullptr;
    for (cl_program p : native.progs) {
      cl_int err = CL_SUCCESS;
      k = cl.CreateKernel(p, raw_names[i].c_str(), &err);
      if (err == CL_SUCCESS && k) break;
      k = nullptr;
    }
    if (!k) return false;
    try {
      made.emplace_back(names[i], sycl::make_kernel<sycl::backend::opencl>(k, kc.ctx));
    } catch (const sycl::exception &) {
      cl.ReleaseKernel(k);
      return false;
    }
    cl.ReleaseKernel(k);  // the SYCL kernel holds its own reference
  }
  for (auto &m : made) kc.kernels.insert_or_assign(m.first, m.second);
  return true;
}

bool can_cache_binaries(KernelCache &kc) { return binary_cache_supported(kc); }

} // namespace usm

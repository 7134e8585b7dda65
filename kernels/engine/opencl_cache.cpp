// The OpenCL adapter of the kernel binary cache: an executable's native
// binary is read with clGetProgramInfo and reloaded with
// clCreateProgramWithBinary, a few milliseconds instead of the compiler's
// hundreds. The entry points are looked up in the libOpenCL the SYCL
// runtime already loaded (opencl.cpp), so the engine does not link OpenCL.
#include "binary_cache.hpp"

#include <cstring>

#include "opencl.hpp"

namespace usm {

namespace {

std::vector<std::string> read(const ExecBundle &kb) {
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
  // get_native hands out retained handles
  for (cl_program p : progs) cl.ReleaseProgram(p);
  return out;
}

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

bool load(const sycl::context &ctx, const sycl::device &dev,
          const std::vector<std::string> &binaries, std::vector<LoadedProgram> &out) {
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
  } native{cl, sycl::get_native<sycl::backend::opencl>(ctx),
           sycl::get_native<sycl::backend::opencl>(dev)};
  for (auto &b : binaries) {
    size_t sz = b.size();
    const unsigned char *bp = reinterpret_cast<const unsigned char *>(b.data());
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program prog = cl.CreateProgramWithBinary(native.ctx, 1, &native.dev, &sz, &bp, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS || !prog) {
      if (prog) cl.ReleaseProgram(prog);
      return false;
    }
    std::shared_ptr<void> handle(prog, [](void *p) { opencl().ReleaseProgram(static_cast<cl_program>(p)); });
    if (cl.BuildProgram(prog, 1, &native.dev, "", nullptr, nullptr) != CL_SUCCESS) return false;
    out.push_back(LoadedProgram{std::move(handle), kernel_names(prog)});
  }
  return true;
}

std::optional<sycl::kernel> kernel(const sycl::context &ctx, const LoadedProgram &program,
                                   const std::string &raw_name) {
  const OpenCL &cl = opencl();
  cl_int err = CL_SUCCESS;
  cl_kernel k = cl.CreateKernel(static_cast<cl_program>(program.handle.get()), raw_name.c_str(), &err);
  if (err != CL_SUCCESS || !k) return std::nullopt;
  std::optional<sycl::kernel> out;
  try {
    out = sycl::make_kernel<sycl::backend::opencl>(k, ctx);
  } catch (const sycl::exception &) {
  }
  cl.ReleaseKernel(k);  // the SYCL kernel holds its own reference
  return out;
}

} // namespace

const BinaryAdapter kOpenCLAdapter{"opencl", read, load, kernel};

bool opencl_adapter_usable() { return opencl().ok; }

} // namespace usm

#include "opencl.hpp"

#include <dlfcn.h>

namespace usm {

const OpenCL &opencl() {
  static OpenCL *cl = [] {
    auto *c = new OpenCL;
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h) h = dlopen("libOpenCL.so.1", RTLD_NOW);
    if (!h) return c;
    auto sym = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
      return fn != nullptr;
    };
    c->ok = sym(c->GetProgramInfo, "clGetProgramInfo") &&
            sym(c->CreateProgramWithBinary, "clCreateProgramWithBinary") &&
            sym(c->BuildProgram, "clBuildProgram") && sym(c->CreateKernel, "clCreateKernel") &&
            sym(c->ReleaseProgram, "clReleaseProgram") &&
            sym(c->ReleaseKernel, "clReleaseKernel") &&
            sym(c->ReleaseContext, "clReleaseContext") &&
            sym(c->ReleaseDevice, "clReleaseDevice") &&
            sym(c->GetExtensionFunctionAddressForPlatform,
                "clGetExtensionFunctionAddressForPlatform");
    c->launch_ok = sym(c->SetKernelArg, "clSetKernelArg") &&
                   sym(c->EnqueueNDRangeKernel, "clEnqueueNDRangeKernel") &&
                   sym(c->GetKernelInfo, "clGetKernelInfo") &&
                   sym(c->GetEventInfo, "clGetEventInfo") &&
                   sym(c->WaitForEvents, "clWaitForEvents") &&
                   sym(c->RetainEvent, "clRetainEvent") && sym(c->ReleaseEvent, "clReleaseEvent") &&
                   sym(c->ReleaseCommandQueue, "clReleaseCommandQueue") && sym(c->Flush, "clFlush") &&
                   c->ok;   // (clCreateKernel: launches use kernels of their own)
    sym(c->SetKernelExecInfo, "clSetKernelExecInfo");
    return c;
  }();
  return *cl;
}

bool usm_allocation_range(const void *ptr, const sycl::context &ctx, uintptr_t &base,
                          size_t &size) {
  const OpenCL &cl = opencl();
  if (!cl.ok || ctx.get_backend() != sycl::backend::opencl) return false;
  cl_platform_id plat = sycl::get_native<sycl::backend::opencl>(ctx.get_platform());
  auto info = reinterpret_cast<clGetMemAllocInfoINTEL_fn>(
      cl.GetExtensionFunctionAddressForPlatform(plat, "clGetMemAllocInfoINTEL"));
  if (!info) return false;
  cl_context cctx = sycl::get_native<sycl::backend::opencl>(ctx);
  void *b = nullptr;
  size_t n = 0;
  bool ok = info(cctx, ptr, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof(b), &b, nullptr) == CL_SUCCESS &&
            info(cctx, ptr, CL_MEM_ALLOC_SIZE_INTEL, sizeof(n), &n, nullptr) == CL_SUCCESS;
  cl.ReleaseContext(cctx);
  if (!ok || !b) return false;
  base = reinterpret_cast<uintptr_t>(b);
  size = n;
  return true;
}

} // namespace usm

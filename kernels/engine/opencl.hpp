// OpenCL entry points, looked up in the libOpenCL.so.1 the SYCL runtime
// already loaded (the engine does not link OpenCL): device binaries for the
// kernel cache, USM allocation ranges for validating imported memory, and
// kernel launches on the OpenCL queue underneath a SYCL queue (launch.cpp).
#pragma once
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <sycl/sycl.hpp>
#include <sycl/backend/opencl.hpp>

namespace usm {

struct OpenCL {
  bool ok = false;
  decltype(&clGetProgramInfo) GetProgramInfo = nullptr;
  decltype(&clCreateProgramWithBinary) CreateProgramWithBinary = nullptr;
  decltype(&clBuildProgram) BuildProgram = nullptr;
  decltype(&clCreateKernel) CreateKernel = nullptr;
  decltype(&clReleaseProgram) ReleaseProgram = nullptr;
  decltype(&clReleaseKernel) ReleaseKernel = nullptr;
  decltype(&clReleaseContext) ReleaseContext = nullptr;
  decltype(&clReleaseDevice) ReleaseDevice = nullptr;
  decltype(&clGetExtensionFunctionAddressForPlatform) GetExtensionFunctionAddressForPlatform =
      nullptr;
  // launches (launch_ok: all of them found)
  bool launch_ok = false;
  decltype(&clSetKernelArg) SetKernelArg = nullptr;
  decltype(&clEnqueueNDRangeKernel) EnqueueNDRangeKernel = nullptr;
  decltype(&clGetKernelInfo) GetKernelInfo = nullptr;
  decltype(&clGetEventInfo) GetEventInfo = nullptr;
  decltype(&clWaitForEvents) WaitForEvents = nullptr;
  decltype(&clRetainEvent) RetainEvent = nullptr;
  decltype(&clReleaseEvent) ReleaseEvent = nullptr;
  decltype(&clReleaseCommandQueue) ReleaseCommandQueue = nullptr;
  decltype(&clFlush) Flush = nullptr;
  // optional (OpenCL 2.0): USM pointers inside arguments on a kernel of our own
  decltype(&clSetKernelExecInfo) SetKernelExecInfo = nullptr;
};

const OpenCL &opencl();

// [base, base + size) of the USM allocation holding `ptr` in `ctx`, when the
// backend can tell (OpenCL); false otherwise.
bool usm_allocation_range(const void *ptr, const sycl::context &ctx, uintptr_t &base,
                          size_t &size);

} // namespace usm

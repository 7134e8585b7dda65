// Backend adapters of the kernel binary cache (usmarray/_core/_kernels.py
// keeps the files): read the native binaries of a compiled bundle, load
// them back in a later process, and create kernels from what was loaded,
// skipping the compiler entirely. One adapter per backend that allows it:
// OpenCL (opencl_cache.cpp) and Level Zero (level_zero_cache.cpp). On other
// backends the resolver falls back on the SYCL runtime's persistent cache.
#pragma once
#include <sycl/sycl.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace usm {

// A native program loaded from a binary: its backend handle (released with
// the last reference) and the raw names of its kernels.
struct LoadedProgram {
  std::shared_ptr<void> handle;
  std::vector<std::string> kernel_names;
};

using ExecBundle = sycl::kernel_bundle<sycl::bundle_state::executable>;

struct BinaryAdapter {
  const char *name;
  // One native binary per device image of `kb`; empty when they cannot be read.
  std::vector<std::string> (*read)(const ExecBundle &kb);
  // The programs of `binaries`, or false (corrupted, another driver or
  // device: the caller compiles again).
  bool (*load)(const sycl::context &ctx, const sycl::device &dev,
               const std::vector<std::string> &binaries, std::vector<LoadedProgram> &out);
  // The kernel `raw_name` of a loaded program, or nullopt.
  std::optional<sycl::kernel> (*kernel)(const sycl::context &ctx, const LoadedProgram &program,
                                        const std::string &raw_name);
};

// The adapter for the device's backend, or nullptr.
const BinaryAdapter *binary_adapter(const sycl::device &dev);

extern const BinaryAdapter kOpenCLAdapter;     // opencl_cache.cpp
extern const BinaryAdapter kLevelZeroAdapter;  // level_zero_cache.cpp
bool opencl_adapter_usable();
bool level_zero_adapter_usable();

} // namespace usm

// The Level Zero adapter of the kernel binary cache (Intel GPUs): a
// module's native binary is read with zeModuleGetNativeBinary and a module
// is created from it again with zeModuleCreate (ZE_MODULE_FORMAT_NATIVE),
// then wrapped by make_kernel_bundle<ext_oneapi_level_zero>; kernels are
// created with zeKernelCreate and make_kernel. The ze* entry points are
// looked up in the libze_loader.so.1 that the runtime's Level Zero adapter
// loaded, so the engine links no Level Zero library, and ze_api.h (which
// the intel-sycl-rt wheel does not ship) is not needed: the few types used
// are declared below, as oneapi-src/level-zero include/ze_api.h (spec
// v1.17) defines them, checked by static_asserts of their layout. The
// handle types (ze_module_handle_t, ...) come from the SYCL headers.
//
// No Level Zero device exists where this was written: it is compiled and
// its failure paths run on OpenCL devices (tests/test_kernels.py), but the
// load path has not run on a GPU (docs/kernels-cache.md).
#include "binary_cache.hpp"

#include <cstddef>
#include <cstdint>
#include <dlfcn.h>

namespace usm {
namespace ze {

// ze_api.h:205 (_ze_result_t); only the values we test.
enum result_t : uint32_t {
  RESULT_SUCCESS = 0,
  RESULT_ERROR_MODULE_BUILD_FAILURE = 0x70000004,
  RESULT_ERROR_INVALID_NATIVE_BINARY = 0x7800000f,
  RESULT_ERROR_INVALID_KERNEL_NAME = 0x78000011,
  RESULT_FORCE_UINT32 = 0x7fffffff
};
// ze_api.h:293 (_ze_structure_type_t)
enum structure_type_t : uint32_t {
  STRUCTURE_TYPE_MODULE_DESC = 0x1b,  // ze_api.h:322
  STRUCTURE_TYPE_KERNEL_DESC = 0x1d,  // ze_api.h:324
  STRUCTURE_TYPE_FORCE_UINT32 = 0x7fffffff
};
// ze_api.h:8088 (_ze_module_format_t)
enum module_format_t : uint32_t {
  MODULE_FORMAT_IL_SPIRV = 0,  // ze_api.h:8090
  MODULE_FORMAT_NATIVE = 1,    // ze_api.h:8091
  MODULE_FORMAT_FORCE_UINT32 = 0x7fffffff
};
typedef uint32_t kernel_flags_t;                                        // ze_api.h:8541
typedef struct _ze_module_build_log_handle_t *module_build_log_handle_t; // ze_api.h:153

// ze_api.h:8098
struct module_constants_t {
  uint32_t numConstants;
  const uint32_t *pConstantIds;
  const void **pConstantValues;
};
// ze_api.h:8110-8142
struct module_desc_t {
  structure_type_t stype;
  const void *pNext;
  module_format_t format;
  size_t inputSize;
  const uint8_t *pInputModule;
  const char *pBuildFlags;
  const module_constants_t *pConstants;
};
// ze_api.h:8553-8563
struct kernel_desc_t {
  structure_type_t stype;
  const void *pNext;
  kernel_flags_t flags;
  const char *pKernelName;
};

// LP64 layout of the C structs (ze_api.h compiled for x86-64 / aarch64 Linux).
static_assert(sizeof(result_t) == 4 && sizeof(structure_type_t) == 4 &&
                  sizeof(module_format_t) == 4,
              "ze enums are 32-bit");
static_assert(offsetof(module_desc_t, stype) == 0 && offsetof(module_desc_t, pNext) == 8 &&
                  offsetof(module_desc_t, format) == 16 &&
                  offsetof(module_desc_t, inputSize) == 24 &&
                  offsetof(module_desc_t, pInputModule) == 32 &&
                  offsetof(module_desc_t, pBuildFlags) == 40 &&
                  offsetof(module_desc_t, pConstants) == 48 && sizeof(module_desc_t) == 56,
              "ze_module_desc_t layout");
static_assert(offsetof(kernel_desc_t, stype) == 0 && offsetof(kernel_desc_t, pNext) == 8 &&
                  offsetof(kernel_desc_t, flags) == 16 &&
                  offsetof(kernel_desc_t, pKernelName) == 24 && sizeof(kernel_desc_t) == 32,
              "ze_kernel_desc_t layout");

// ZE_APICALL is empty on Linux (ze_api.h:53): plain C calling convention.
extern "C" {
typedef result_t (*PFN_zeModuleCreate)(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                       const module_desc_t *desc, ze_module_handle_t *phModule,
                                       module_build_log_handle_t *phBuildLog);  // ze_api.h:8200
typedef result_t (*PFN_zeModuleDestroy)(ze_module_handle_t hModule);            // ze_api.h:8240
typedef result_t (*PFN_zeModuleBuildLogDestroy)(
    module_build_log_handle_t hModuleBuildLog);                                // ze_api.h:8332
typedef result_t (*PFN_zeModuleBuildLogGetString)(module_build_log_handle_t hModuleBuildLog,
                                                  size_t *pSize, char *pBuildLog);  // :8364
typedef result_t (*PFN_zeModuleGetNativeBinary)(ze_module_handle_t hModule, size_t *pSize,
                                                uint8_t *pModuleNativeBinary);  // ze_api.h:8404
typedef result_t (*PFN_zeModuleGetKernelNames)(ze_module_handle_t hModule, uint32_t *pCount,
                                               const char **pNames);  // ze_api.h:8474
typedef result_t (*PFN_zeKernelCreate)(ze_module_handle_t hModule, const kernel_desc_t *desc,
                                       ze_kernel_handle_t *phKernel);  // ze_api.h:8600
typedef result_t (*PFN_zeKernelDestroy)(ze_kernel_handle_t hKernel);   // ze_api.h:8636
}

struct Api {
  bool ok = false;
  PFN_zeModuleCreate ModuleCreate = nullptr;
  PFN_zeModuleDestroy ModuleDestroy = nullptr;
  PFN_zeModuleBuildLogDestroy ModuleBuildLogDestroy = nullptr;
  PFN_zeModuleBuildLogGetString ModuleBuildLogGetString = nullptr;
  PFN_zeModuleGetNativeBinary ModuleGetNativeBinary = nullptr;
  PFN_zeModuleGetKernelNames ModuleGetKernelNames = nullptr;
  PFN_zeKernelCreate KernelCreate = nullptr;
  PFN_zeKernelDestroy KernelDestroy = nullptr;
};

// The UR Level Zero adapters (libur_adapter_level_zero{,_v2}.so) dlopen
// "libze_loader.so.1" themselves (it is not a DT_NEEDED of theirs), and have
// called zeInit/zeInitDrivers on it, so when the SYCL backend is Level Zero
// the loader is already resident and initialised.
const Api &api() {
  static const Api *a = [] {
    auto *z = new Api;
    void *h = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h) h = dlopen("libze_loader.so.1", RTLD_NOW);
    if (!h) return z;
    auto sym = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
      return fn != nullptr;
    };
    z->ok = sym(z->ModuleCreate, "zeModuleCreate") &&
            sym(z->ModuleDestroy, "zeModuleDestroy") &&
            sym(z->ModuleBuildLogDestroy, "zeModuleBuildLogDestroy") &&
            sym(z->ModuleBuildLogGetString, "zeModuleBuildLogGetString") &&
            sym(z->ModuleGetNativeBinary, "zeModuleGetNativeBinary") &&
            sym(z->ModuleGetKernelNames, "zeModuleGetKernelNames") &&
            sym(z->KernelCreate, "zeKernelCreate") && sym(z->KernelDestroy, "zeKernelDestroy");
    return z;
  }();
  return *a;
}

std::vector<std::string> kernel_names(ze_module_handle_t m) {
  const Api &z = api();
  uint32_t n = 0;
  std::vector<std::string> out;
  if (z.ModuleGetKernelNames(m, &n, nullptr) != RESULT_SUCCESS || n == 0) return out;
  std::vector<const char *> names(n, nullptr);  // strings owned by the module
  if (z.ModuleGetKernelNames(m, &n, names.data()) != RESULT_SUCCESS) return out;
  for (uint32_t i = 0; i < n; ++i)
    if (names[i]) out.emplace_back(names[i]);
  return out;
}

} // namespace ze

namespace {
constexpr auto L0 = sycl::backend::ext_oneapi_level_zero;
namespace l0 = sycl::ext::oneapi::level_zero;

// A module created from a binary. `bundle` has exactly one device image and
// owns `module` (ownership::transfer): zeModuleDestroy runs when the last
// copy of the bundle, and of every kernel made from it, is gone.
struct Module {
  ExecBundle bundle;
  ze_module_handle_t module;
};

std::vector<std::string> read(const ExecBundle &kb) {
  std::vector<std::string> out;
  const ze::Api &z = ze::api();
  if (kb.get_backend() != L0 || !z.ok) return out;
  try {
    // One module per device image. Unlike OpenCL nothing is retained: the
    // handles stay the bundle's and must not be destroyed here.
    std::vector<ze_module_handle_t> mods = sycl::get_native<L0>(kb);
    for (ze_module_handle_t m : mods) {
      size_t sz = 0;
      std::string bin;
      if (m && z.ModuleGetNativeBinary(m, &sz, nullptr) == ze::RESULT_SUCCESS && sz > 0) {
        bin.resize(sz);
        if (z.ModuleGetNativeBinary(m, &sz, reinterpret_cast<uint8_t *>(bin.data())) !=
            ze::RESULT_SUCCESS)
          bin.clear();
        else
          bin.resize(sz);
      }
      if (bin.empty()) return {};
      out.push_back(std::move(bin));
    }
  } catch (const sycl::exception &) {
    return {};
  }
  return out;
}

bool load(const sycl::context &ctx, const sycl::device &dev,
          const std::vector<std::string> &binaries, std::vector<LoadedProgram> &out) {
  const ze::Api &z = ze::api();
  if (ctx.get_backend() != L0 || dev.get_backend() != L0 || !z.ok) return false;
  try {
    // plain handles: Level Zero counts no references, nothing to release
    ze_context_handle_t zctx = sycl::get_native<L0>(ctx);
    ze_device_handle_t zdev = sycl::get_native<L0>(dev);
    for (const std::string &b : binaries) {
      ze::module_desc_t desc{};
      desc.stype = ze::STRUCTURE_TYPE_MODULE_DESC;
      desc.format = ze::MODULE_FORMAT_NATIVE;
      desc.inputSize = b.size();
      desc.pInputModule = reinterpret_cast<const uint8_t *>(b.data());
      desc.pBuildFlags = "";  // baked into the native binary
      ze_module_handle_t mod = nullptr;
      ze::module_build_log_handle_t log = nullptr;
      ze::result_t r = z.ModuleCreate(zctx, zdev, &desc, &mod, &log);
      if (log) z.ModuleBuildLogDestroy(log);
      if (r != ze::RESULT_SUCCESS || !mod) {  // e.g. ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
        if (mod) z.ModuleDestroy(mod);
        return false;
      }
      std::vector<std::string> names = ze::kernel_names(mod);
      std::shared_ptr<Module> m;
      try {
        // The runtime wraps the module as a built program of the context's
        // first device and destroys it with the program (transfer).
        m = std::make_shared<Module>(Module{
            sycl::make_kernel_bundle<L0, sycl::bundle_state::executable>(
                {mod, l0::ownership::transfer}, ctx),
            mod});
      } catch (const sycl::exception &) {
        z.ModuleDestroy(mod);
        return false;
      }
      out.push_back(LoadedProgram{std::move(m), std::move(names)});
    }
  } catch (const sycl::exception &) {
    return false;  // bundles already made destroy their modules
  }
  return true;
}

std::optional<sycl::kernel> kernel(const sycl::context &ctx, const LoadedProgram &program,
                                   const std::string &raw_name) {
  const ze::Api &z = ze::api();
  if (!z.ok) return std::nullopt;
  const Module &m = *static_cast<const Module *>(program.handle.get());
  ze::kernel_desc_t desc{};
  desc.stype = ze::STRUCTURE_TYPE_KERNEL_DESC;
  desc.pKernelName = raw_name.c_str();
  ze_kernel_handle_t k = nullptr;
  if (z.KernelCreate(m.module, &desc, &k) != ze::RESULT_SUCCESS || !k) return std::nullopt;
  try {
    // The bundle must have one device image (make_kernel's rule); with
    // transfer the runtime destroys the ze kernel, and the kernel keeps the
    // bundle, and so the module, alive.
    return sycl::make_kernel<L0>({m.bundle, k, l0::ownership::transfer}, ctx);
  } catch (const sycl::exception &) {
    z.KernelDestroy(k);
    return std::nullopt;
  }
}

} // namespace

const BinaryAdapter kLevelZeroAdapter{"level_zero", read, load, kernel};

bool level_zero_adapter_usable() { return ze::api().ok; }

} // namespace usm

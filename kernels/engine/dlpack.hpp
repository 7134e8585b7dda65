// The DLPack ABI (version 1.1): the structs and constants the standard
// defines, written for this project (the ABI is small and public; C enums
// are int32 here).
#pragma once
#include <cstdint>

namespace dlpack {

constexpr uint32_t kMajor = 1;
constexpr uint32_t kMinor = 1;

enum DeviceType : int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLOpenCL = 4,
                            kDLVulkan = 7, kDLMetal = 8, kDLVPI = 9, kDLROCM = 10,
                            kDLROCMHost = 11, kDLExtDev = 12, kDLCUDAManaged = 13,
                            kDLOneAPI = 14, kDLWebGPU = 15, kDLHexagon = 16, kDLMAIA = 17 };

enum DataTypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLOpaqueHandle = 3,
                              kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };

constexpr uint64_t kFlagReadOnly = 1ull << 0;
constexpr uint64_t kFlagIsCopied = 1ull << 1;
constexpr uint64_t kFlagSubbytePadded = 1ull << 2;

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;  // in elements; NULL means compact row-major
  uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
};

constexpr const char *kCapsule = "dltensor";
constexpr const char *kCapsuleUsed = "used_dltensor";
constexpr const char *kCapsuleVersioned = "dltensor_versioned";
constexpr const char *kCapsuleVersionedUsed = "used_dltensor_versioned";

} // namespace dlpack

// Shared by the host engine (g++) and the run-time compiled kernels: the
// layout of the iteration description passed by value to strided kernels.
// Keep it a plain aggregate of fixed-size integer arrays so both compilers
// agree on its layout.
#pragma once
#include <cstdint>

namespace usm {

// A USM pointer kernel argument, passed by value as a struct. Given a
// pointer parameter, Intel's OpenCL CPU runtime records every command
// against each allocation it is passed (so that clMemBlockingFreeINTEL can
// wait for them): measured on a 2-core VM, a launch with three pointer
// parameters took 4-5 us against 1.5-2 us with the same pointers by value,
// and with many thousand commands queued on one allocation each completed
// command searched that allocation's list (most of the runtime's time in
// a loop of small asynchronous launches). usmarray orders commands and
// frees memory itself (kernels/engine/memory.cpp), so its kernels take
// USM pointers this way; every backend lets a kernel reach any USM
// allocation of its context through such a pointer (indirect access).
// Host and device agree on the layout: one pointer.
template <typename T> struct KernelPtr {
  T *p;
  operator T *() const { return p; }
};

// ND dimensions (after collapsing), NA operands. strides are in elements.
template <int ND, int NA> struct Geometry {
  std::int64_t shape[ND];
  std::int64_t strides[NA][ND];
};

// The strided kernel variants that exist. A collapsed iteration with nd
// dimensions runs on the smallest variant >= nd (padding with size-1 dims);
// one with more than kMaxKernelDims runs as several launches of the largest
// (kernels/engine/launch_impl.hpp, for_outer_indices). Variants 3 and 8
// existed too: a 3-D iteration in the 4-D variant measured the same (its
// padding costs a division by 1; memory-bound kernels), and the 8-D variant
// cost 10% of an elementwise bundle's compile time for iterations of five
// or more dimensions that do not collapse, which are rare
// (docs/kernel-cache.md).
constexpr int kStridedVariants[] = {1, 2, 4};
constexpr int kMaxKernelDims = 4;
// Variants with unit stride in the last dimension ("inner" kernels).
constexpr int kInnerVariants[] = {2, 4};

// Kernels of user code and fusion (usmarray/kernels.py): at most this many
// operands walked together, their Geometry<ND, kMaxOperands> and a block of
// kParamBytes bytes of scalar parameters passed by value (1.5 KB of
// arguments at ND 8, within every device's limit).
constexpr int kMaxOperands = 16;
constexpr int kParamBytes = 256;
struct alignas(16) Params {
  unsigned char bytes[kParamBytes];
};

// Vector-block kernels (unary_vec, binary_vec, cast_vec, ...): each
// work-item takes kSimdVectors consecutive vectors of simd_lanes(...) items,
// the narrowest operand filling one 64-byte vector (at most 16 lanes, the
// widest sycl::vec). The host sizes the launch with the same numbers.
constexpr int kSimdBytes = 64;
constexpr int kSimdVectors = 32;
// Work-items per group: fewer than any SIMD width, so a CPU runtime runs
// each work-item's body as written rather than vectorising across them
// (which would turn the streaming stores into ordinary ones).
constexpr int kSimdGroup = 2;
// Vector-block kernels write results of at least this many bytes with
// streaming stores: straight to memory, without reading the lines for
// ownership first, which pays once the arrays no longer fit in the caches.
// Smaller results take ordinary stores, so they stay cached for the next
// operation (and in-place updates of cached data do not go out to memory).
// On a CPU with 32 MB of L3, in-place float32 additions of 1e6 items ran
// 2.5x faster with ordinary stores, and additions of 2e6 items into a new
// array 1.5-2x slower; the limit sits between them (an eighth of that L3).
constexpr long long kStreamBytes = 1LL << 22;
constexpr int simd_lanes(int min_itemsize) {
  return kSimdBytes / min_itemsize > 16 ? 16 : kSimdBytes / min_itemsize;
}

// Scans and mask compaction (kernels/sycl/scan.cpp). Tiles have a fixed size
// so that float scans are bit-identical run to run. Generic kernels: a
// work-group of kScanGroup work-items per tile, kScanItems consecutive
// elements per work-item. Vector-block kernels (CPU devices): one
// work-item per tile of kScanVecTile elements.
constexpr int kScanGroup = 128;
constexpr int kScanItems = 16;
constexpr std::int64_t kScanTile = std::int64_t(kScanGroup) * kScanItems;
constexpr std::int64_t kScanVecTile = 16384;

} // namespace usm

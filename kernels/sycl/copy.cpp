// Copy kernels: moving items of one type between strided layouts, and
// converting between types (contiguous and strided).
#include "common.hpp"

// Same-type copy, by item size (T is u1, u2, u4, u8 or x16): the bytes move
// unchanged, so one instantiation serves every dtype of that size.
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void move_strided(kptr<const T> x, kptr<T> y, Geometry<ND, 2> g) {
  std::int64_t off[2];
  if (usmk::strided_offsets(g, off)) y[off[1]] = x[off[0]];
}

// The same when both operands walk the last dimension with unit stride.
template <typename T, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void move_inner(kptr<const T> x, kptr<T> y, Geometry<ND, 2> g) {
  std::int64_t off[2];
  if (usmk::strided_offsets<ND, 2, 3>(g, off)) y[off[1]] = x[off[0]];
}

template <typename S, typename D>
USM_KERNEL(1)
void cast_contig(kptr<const S> x, kptr<D> y, std::int64_t n) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) y[i] = usmk::convert<D>(x[i]);
}

// Vector-block variant (see usmk::simd_blocks) for conversions to float
// types, where a vector conversion rounds like the scalar one.
template <typename S, typename D>
USM_SIMD_KERNEL
void cast_vec(kptr<const S> x, kptr<D> y, std::int64_t n) {
  static_assert(std::is_floating_point_v<D>);
  constexpr int L = usm::simd_lanes(sizeof(S) < sizeof(D) ? sizeof(S) : sizeof(D));
  usmk::with_streaming<D>(n, [&](auto st) {
    usmk::simd_blocks<L>(
        n,
        [&](std::int64_t i) {
          usmk::store_vec<decltype(st)::value, D, L>(
              __builtin_convertvector(usmk::load_raw<S, L>(x + i), usmk::raw_vec<D, L>), y + i);
        },
        [&](std::int64_t i) { y[i] = usmk::convert<D>(x[i]); });
  });
}

template <typename S, typename D, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void cast_strided(kptr<const S> x, kptr<D> y, Geometry<ND, 2> g) {
  std::int64_t off[2];
  if (usmk::strided_offsets(g, off)) y[off[1]] = usmk::convert<D>(x[off[0]]);
}

// Kernel templates of elementwise operations. Each operation is a struct
// with a static `apply<R>(a[, b])` generated from the table in
// usmarray/_elementwise_ops.py; the variants below iterate over operands.
// Operations whose expression calls math.hpp (or a sycl:: builtin) include
// it themselves: the builtins are a third of a small bundle's compile time.
#pragma once
#include "common.hpp"

// r[i] = op(a[i]) over contiguous operands.
template <class Op, typename A, typename R>
USM_KERNEL(1)
void unary_contig(kptr<const A> a, kptr<R> r, std::int64_t n) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) r[i] = Op::template apply<R>(a[i]);
}

template <class Op, typename A, typename R, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void unary_strided(kptr<const A> a, kptr<R> r, Geometry<ND, 2> g) {
  std::int64_t off[2];
  if (usmk::strided_offsets(g, off)) r[off[1]] = Op::template apply<R>(a[off[0]]);
}

// Unit stride in the last dimension for every operand (rows of a matrix
// with a broadcast row, column blocks): vector loads instead of gathers.
template <class Op, typename A, typename R, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void unary_inner(kptr<const A> a, kptr<R> r, Geometry<ND, 2> g) {
  std::int64_t off[2];
  if (usmk::strided_offsets<ND, 2, 3>(g, off)) r[off[1]] = Op::template apply<R>(a[off[0]]);
}

template <class Op, typename A, typename B, typename R>
USM_KERNEL(1)
void binary_contig(kptr<const A> a, kptr<const B> b, kptr<R> r, std::int64_t n) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) r[i] = Op::template apply<R>(a[i], b[i]);
}

// One operand is a scalar passed by value (Python scalars: no device buffer).
template <class Op, typename A, typename B, typename R>
USM_KERNEL(1)
void binary_scalar_r(kptr<const A> a, B s, kptr<R> r, std::int64_t n) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) r[i] = Op::template apply<R>(a[i], s);
}

template <class Op, typename A, typename B, typename R>
USM_KERNEL(1)
void binary_scalar_l(A s, kptr<const B> b, kptr<R> r, std::int64_t n) {
  const std::int64_t i = usmk::linear_id();
  if (i < n) r[i] = Op::template apply<R>(s, b[i]);
}

template <class Op, typename A, typename B, typename R, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void binary_strided(kptr<const A> a, kptr<const B> b, kptr<R> r, Geometry<ND, 3> g) {
  std::int64_t off[3];
  if (usmk::strided_offsets(g, off)) r[off[2]] = Op::template apply<R>(a[off[0]], b[off[1]]);
}

template <class Op, typename A, typename B, typename R, int ND>
USM_KERNEL((ND < 3 ? ND : 3))
void binary_inner(kptr<const A> a, kptr<const B> b, kptr<R> r, Geometry<ND, 3> g) {
  std::int64_t off[3];
  if (usmk::strided_offsets<ND, 3, 7>(g, off))
    r[off[2]] = Op::template apply<R>(a[off[0]], b[off[1]]);
}

// One input broadcast along the last dimension (stride 0: x + c with c of
// shape (rows, 1)), the other input and the result unit-stride. WHICH is the
// broadcast input (0: a, 1: b).
template <class Op, typename A, typename B, typename R, int ND, int WHICH>
USM_KERNEL(ND)
void binary_bcast(kptr<const A> a, kptr<const B> b, kptr<R> r, Geometry<ND, 3> g) {
  std::int64_t off[3];
  if (usmk::strided_offsets<ND, 3, WHICH == 0 ? 6 : 5>(g, off))
    r[off[2]] = Op::template apply<R>(a[off[0]], b[off[1]]);
}

// Vector-block variants of the contiguous kernels (see usmk::simd_blocks)
// for operations with a vector form `Op::vapply` (on usmk::raw_vec), whose
// loops compute and return one type.
template <class Op, typename A, typename R>
USM_SIMD_KERNEL
void unary_vec(kptr<const A> a, kptr<R> r, std::int64_t n) {
  static_assert(std::is_same_v<A, R>);
  constexpr int L = usm::simd_lanes(sizeof(R));
  usmk::with_streaming<R>(n, [&](auto st) {
    usmk::simd_blocks<L>(
        n,
        [&](std::int64_t i) {
          usmk::store_vec<decltype(st)::value, R, L>(Op::vapply(usmk::load_raw<A, L>(a + i)), r + i);
        },
        [&](std::int64_t i) { r[i] = Op::template apply<R>(a[i]); });
  });
}

template <class Op, typename A, typename B, typename R>
USM_SIMD_KERNEL
void binary_vec(kptr<const A> a, kptr<const B> b, kptr<R> r, std::int64_t n) {
  static_assert(std::is_same_v<A, R> && std::is_same_v<B, R>);
  constexpr int L = usm::simd_lanes(sizeof(R));
  usmk::with_streaming<R>(n, [&](auto st) {
    usmk::simd_blocks<L>(
        n,
        [&](std::int64_t i) {
          usmk::store_vec<decltype(st)::value, R, L>(
              Op::vapply(usmk::load_raw<A, L>(a + i), usmk::load_raw<B, L>(b + i)), r + i);
        },
        [&](std::int64_t i) { r[i] = Op::template apply<R>(a[i], b[i]); });
  });
}

template <class Op, typename A, typename B, typename R>
USM_SIMD_KERNEL
void binary_scalar_r_vec(kptr<const A> a, B s, kptr<R> r, std::int64_t n) {
  static_assert(std::is_same_v<A, R> && std::is_same_v<B, R>);
  constexpr int L = usm::simd_lanes(sizeof(R));
  const usmk::raw_vec<B, L> sv = s;
  usmk::with_streaming<R>(n, [&](auto st) {
    usmk::simd_blocks<L>(
        n,
        [&](std::int64_t i) {
          usmk::store_vec<decltype(st)::value, R, L>(Op::vapply(usmk::load_raw<A, L>(a + i), sv), r + i);
        },
        [&](std::int64_t i) { r[i] = Op::template apply<R>(a[i], s); });
  });
}

template <class Op, typename A, typename B, typename R>
USM_SIMD_KERNEL
void binary_scalar_l_vec(A s, kptr<const B> b, kptr<R> r, std::int64_t n) {
  static_assert(std::is_same_v<A, R> && std::is_same_v<B, R>);
  constexpr int L = usm::simd_lanes(sizeof(R));
  const usmk::raw_vec<A, L> sv = s;
  usmk::with_streaming<R>(n, [&](auto st) {
    usmk::simd_blocks<L>(
        n,
        [&](std::int64_t i) {
          usmk::store_vec<decltype(st)::value, R, L>(Op::vapply(sv, usmk::load_raw<B, L>(b + i)), r + i);
        },
        [&](std::int64_t i) { r[i] = Op::template apply<R>(s, b[i]); });
  });
}

// Rows of a 2-D iteration (a matrix and a row, or a matrix and a column):
// result rows unit-stride and aligned for vector stores; bit k of INNER set
// when input k walks the row, clear when it is constant along it (a column).
// Each row takes ceil(cols / (kSimdVectors * L)) work-items.
template <class Op, typename A, typename B, typename R, int INNER>
USM_SIMD_KERNEL
void binary_rows_vec(kptr<const A> a, kptr<const B> b, kptr<R> r, Geometry<2, 3> g) {
  static_assert(std::is_same_v<A, R> && std::is_same_v<B, R>);
  constexpr int L = usm::simd_lanes(sizeof(R));
  constexpr bool UA = INNER & 1, UB = INNER & 2;
  constexpr std::int64_t per_item = std::int64_t(usm::kSimdVectors) * L;
  const std::int64_t cols = g.shape[1];
  const std::int64_t per_row = (cols + per_item - 1) / per_item;
  const std::int64_t w = usmk::linear_id();
  const std::int64_t row = w / per_row;
  if (row >= g.shape[0]) return;
  const A *ar = a + row * g.strides[0][0];
  const B *br = b + row * g.strides[1][0];
  R *rr = r + row * g.strides[2][0];
  usmk::with_streaming<R>(g.shape[0] * cols, [&](auto st) {
    usmk::simd_blocks_from<L>(
        (w - row * per_row) * per_item, cols,
        [&](std::int64_t i) {
          usmk::store_vec<decltype(st)::value, R, L>(
              Op::vapply(usmk::load_or_splat<A, L, UA>(ar + (UA ? i : 0)),
                         usmk::load_or_splat<B, L, UB>(br + (UB ? i : 0))),
              rr + i);
        },
        [&](std::int64_t i) { rr[i] = Op::template apply<R>(ar[UA ? i : 0], br[UB ? i : 0]); });
  });
}

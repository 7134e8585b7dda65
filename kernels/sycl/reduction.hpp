// Reduction kernels. A reduction of a collapsed (outer, reduced) iteration
// runs in passes: work-item j of output o combines the elements
// j, j + W, j + 2W, ... of its row (consecutive work-items read consecutive
// memory, so loads vectorise), writing W partial results per row; the next
// pass reduces those rows, until one value per row is left.
#pragma once
#include "common.hpp"
#include "math.hpp"

namespace usmk {

struct red_sum {
  template <typename A> static A identity() { return A(0); }
  template <typename A> static A combine(const A &a, const A &b) { return a + b; }
};
struct red_prod {
  template <typename A> static A identity() { return A(1); }
  template <typename A> static A combine(const A &a, const A &b) { return a * b; }
};
struct red_max {
  template <typename A> static A identity() {
    if constexpr (is_float_v<A>) return -inf<calc_t<A>>();
    else return std::numeric_limits<A>::lowest();
  }
  template <typename A> static A combine(const A &a, const A &b) { return maximum_(a, b); }
};
struct red_min {
  template <typename A> static A identity() {
    if constexpr (is_float_v<A>) return inf<calc_t<A>>();
    else return std::numeric_limits<A>::max();
  }
  template <typename A> static A combine(const A &a, const A &b) { return minimum_(a, b); }
};
struct red_all {
  template <typename A> static A identity() { return true; }
  template <typename A> static A combine(const A &a, const A &b) { return a && b; }
};
struct red_any {
  template <typename A> static A identity() { return false; }
  template <typename A> static A combine(const A &a, const A &b) { return a || b; }
};

} // namespace usmk

// out[o * W + j] = reduce over k of x[o * s_o + (j + k * W) * s_r], k * W + j < n.
// cols_fast: consecutive work-items take consecutive o (outer stride 1)
// instead of consecutive j.
template <class Op, typename T, typename A, typename R>
USM_KERNEL(1)
void reduce_pass(const T *x, R *out, std::int64_t n_out, std::int64_t n, std::int64_t s_o,
                 std::int64_t s_r, std::int64_t W, std::int32_t cols_fast) {
  const std::int64_t i = usmk::linear_id();
  if (i >= n_out * W) return;
  std::int64_t o, j;
  if (cols_fast) {
    o = i % n_out;
    j = i / n_out;
  } else {
    j = i % W;
    o = i / W;
  }
  A acc = Op::template identity<A>();
  const T *row = x + o * s_o;
  for (std::int64_t r = j; r < n; r += W) acc = Op::combine(acc, usmk::convert<A>(row[r * s_r]));
  out[o * W + j] = usmk::convert<R>(acc);
}

// Transposing copies: one operand walks the two dimensions in the other
// order than the other operand (x.T copied into C order, a C array into an
// F-ordered view). The plain strided copy (copy.cpp) takes the items in the
// destination's order and so reads one item of each of thousands of source
// rows before it comes back to any: every read misses the caches. Here a
// work-group is a kTile x kTile tile, the destination's rows along
// dimension 1 (the fastest one of the work-group, vectorised across
// work-items on CPU devices): the tile's source lines serve all its rows
// from the cache, on CPU and GPU alike.
// (Item sizes as move_strided: u1, u2, u4, u8, x16.)
#include "common.hpp"

template <typename T>
USM_KERNEL(2)
void move_tiled(kptr<const T> x, kptr<T> y, std::int64_t n0, std::int64_t n1, std::int64_t xs0,
                std::int64_t xs1, std::int64_t ys0, std::int64_t ys1) {
  auto it = syclext::this_work_item::get_nd_item<2>();
  const std::int64_t i = static_cast<std::int64_t>(it.get_global_id(0));
  const std::int64_t j = static_cast<std::int64_t>(it.get_global_id(1));
  if (i < n0 && j < n1) y[i * ys0 + j * ys1] = x[i * xs0 + j * xs1];
}

// The order sorting and searching agree on: NumPy's, with NaNs after every
// number (x != x tests for NaN without the math headers).
#pragma once
#include "common.hpp"

template <typename T>
inline bool sorts_before(const T &a, const T &b) {
  if constexpr (usmk::is_float_v<T>) return a < b || (b != b && a == a);
  else return a < b;
}

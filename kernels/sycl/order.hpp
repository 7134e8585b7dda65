// The order sorting and searching agree on: NumPy's, with NaNs after every
// number (x != x tests for NaN without the math headers). Complex numbers
// sort lexicographically (real part, then imaginary part), NaNs last as
// NumPy's sort documents: [R + Rj, R + nanj, nan + Rj, nan + nanj], each
// class ordered by its non-NaN part (npysort's CFLOAT_LT).
#pragma once
#include "common.hpp"

template <typename T>
inline bool sorts_before(const T &a, const T &b) {
  if constexpr (usmk::is_complex_v<T>) {
    const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
  } else if constexpr (usmk::is_float_v<T>) {
    return a < b || (b != b && a == a);
  } else {
    return a < b;
  }
}

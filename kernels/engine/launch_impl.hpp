// Template part of the launch helper (included by engine.hpp).
#pragma once

#include <algorithm>
#include <utility>

namespace usm {

inline size_t pow2_at_least(int64_t n) {
  size_t p = 1;
  while (static_cast<int64_t>(p) < n) p <<= 1;
  return p;
}
inline size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

template <int ND, int NA, class H, class... Extra, size_t... I>
void set_strided_args(H &h, char *const *ptrs, const Geometry<ND, NA> &g,
                      std::index_sequence<I...>, Extra... extra) {
  set_args(h, ptrs[I]..., g, extra...);
}

// Dimensions [first, it.nd) of `it` as the Geometry of an ND variant
// (leading size-1 dimensions pad it to ND).
template <int ND, int NA> Geometry<ND, NA> geometry_of(const Iteration &it, int first = 0) {
  Geometry<ND, NA> g;
  const int n = it.nd - first;
  const int pad = ND - n;
  for (int d = 0; d < pad; ++d) {
    g.shape[d] = 1;
    for (int a = 0; a < NA; ++a) g.strides[a][d] = 0;
  }
  for (int d = 0; d < n; ++d) {
    g.shape[pad + d] = it.shape[first + d];
    // (operands past it.na: a Geometry wider than the iteration, nary.cpp)
    for (int a = 0; a < NA; ++a) g.strides[a][pad + d] = a < it.na ? it.strides[a][first + d] : 0;
  }
  return g;
}

// The nd_range of the ND variant over geometry `g` (its first `na`
// operands): the fastest range dimension is the last one, rounded up to
// the work-group size, outer dimensions folded into range dimension 0.
template <int ND, int NA>
sycl::nd_range<(ND < 3 ? ND : 3)> strided_range(const Geometry<ND, NA> &g, int na, size_t wgmax) {
  const int64_t last = g.shape[ND - 1];
  size_t L = std::min(wgmax, pow2_at_least(last));
  size_t T = 1;  // work-items per work-group along dimension ND-2
  if constexpr (ND >= 2) {
    // When one operand walks the last dimension with unit stride and another
    // walks the one before it with unit stride (a transpose), square tiles
    // keep both operands' cache lines in use while a work-group runs.
    bool unit_last = false, unit_prev = false;
    for (int a = 0; a < na; ++a) {
      unit_last |= g.strides[a][ND - 1] == 1 || g.strides[a][ND - 1] == -1;
      unit_prev |= (g.strides[a][ND - 2] == 1 || g.strides[a][ND - 2] == -1) &&
                   g.strides[a][ND - 1] != 1 && g.strides[a][ND - 1] != -1;
    }
    bool all_unit = true;
    for (int a = 0; a < na; ++a) all_unit &= g.strides[a][ND - 1] == 1 || g.strides[a][ND - 1] == 0;
    if (unit_last && unit_prev && g.shape[ND - 2] > 1) {
      L = std::min<size_t>(L, 64);
      T = std::min<size_t>({wgmax / L, 32, pow2_at_least(g.shape[ND - 2])});
    } else if (g.shape[ND - 2] > 1) {
      // Several rows per work-group: short rows would otherwise give tiny
      // work-groups, and contiguous rows ran ~25% faster on the CPU device
      // as 4 x 128 blocks than as 1 x 512 (measured, 4096 x 2048 + row).
      if (all_unit) L = std::min<size_t>(L, 128);
      T = std::min<size_t>(wgmax / L, pow2_at_least(g.shape[ND - 2]));
    }
  }
  const size_t glast = round_up(static_cast<size_t>(last), L);
  if constexpr (ND == 1) {
    return sycl::nd_range<1>{{glast}, {L}};
  } else if constexpr (ND == 2) {
    return sycl::nd_range<2>{{round_up(static_cast<size_t>(g.shape[0]), T), glast}, {T, L}};
  } else {
    size_t outer = 1;
    for (int d = 0; d < ND - 2; ++d) outer *= static_cast<size_t>(g.shape[d]);
    return sycl::nd_range<3>{{outer, round_up(static_cast<size_t>(g.shape[ND - 2]), T), glast},
                             {1, T, L}};
  }
}

// Dimensions [first, it.nd) of `it` on the ND variant.
template <int ND, int NA, class... Extra>
Ev launch_nd(sycl::queue &q, const sycl::kernel &k, const Iteration &it, int first,
                      char *const *ptrs, std::initializer_list<Allocation *> touched,
                      size_t wgmax, Extra... extra) {
  const Geometry<ND, NA> g = geometry_of<ND, NA>(it, first);
  const auto range = strided_range<ND, NA>(g, NA, wgmax);
  return submit(q, touched, [&](auto &h) {
    set_strided_args<ND, NA>(h, ptrs, g, std::make_index_sequence<NA>{}, extra...);
    h.parallel_for(range, k);
  });
}

// An iteration with more dimensions than any variant runs as launches of
// the largest variant, one per index of `outer` = it.nd - kMaxKernelDims
// outer dimensions: the smallest ones among all but the last two (which
// the work-groups tile), moved to the front, the others keeping their
// order. So a permuted (10^6, 2, 2, 2, 2) takes 2 launches, not 10^6; 8
// dimensions of one extent take sqrt(size) launches.
// `launch(it2, offsets)` per index, `it2` the reordered iteration (its
// dimensions [outer, nd) are the launch's) and `offsets` the operands'
// pointer offsets in elements.
template <class F> Ev for_outer_indices(const Iteration &it, F &&launch) {
  const int outer = it.nd - kMaxKernelDims;
  int order[kMaxDims];
  for (int d = 0; d < it.nd; ++d) order[d] = d;
  std::stable_sort(order, order + it.nd - 2,
                   [&](int a, int b) { return it.shape[a] < it.shape[b]; });
  std::stable_sort(order + outer, order + it.nd);   // the inner ones in their order
  auto r = std::make_unique<Iteration>(it);          // (8 KB: not on the stack)
  for (int d = 0; d < it.nd; ++d) {
    r->shape[d] = it.shape[order[d]];
    for (int a = 0; a < it.na; ++a) r->strides[a][d] = it.strides[a][order[d]];
  }
  int64_t idx[kMaxDims] = {0};
  int64_t off[kMaxOperands];
  Ev e;
  for (;;) {
    for (int a = 0; a < r->na; ++a) {
      off[a] = 0;
      for (int d = 0; d < outer; ++d) off[a] += idx[d] * r->strides[a][d];
    }
    e = launch(static_cast<const Iteration &>(*r), static_cast<const int64_t *>(off));
    int d = outer - 1;
    while (d >= 0 && ++idx[d] == r->shape[d]) idx[d--] = 0;
    if (d < 0) break;
  }
  return e;
}

// With `inner` ("family_inner<types"): use the inner variant when every
// operand walks the last dimension with unit stride and one exists.
template <int NA, class... Extra>
Ev launch_strided(sycl::queue &q, KernelCache &kc, const std::string &base,
                           const std::string &inner, const Iteration &it,
                           char *const (&ptrs)[NA], const int64_t (&itemsizes)[NA],
                           std::initializer_list<Allocation *> touched, Extra... extra) {
  const int nd = it.nd;
  if (nd <= kMaxKernelDims) {
    int variant = kMaxKernelDims;
    for (int v : kStridedVariants)
      if (v >= nd) { variant = v; break; }
    bool unit = !inner.empty() && nd >= 2;
    for (int a = 0; a < NA && unit; ++a) unit = it.strides[a][nd - 1] == 1;
    bool has_inner = false;
    for (int v : kInnerVariants) has_inner |= v == variant;
    const sycl::kernel &k = kc.get((unit && has_inner ? inner : base) + ", " +
                                   std::to_string(variant) + ">");
    switch (variant) {
    case 1: return launch_nd<1, NA>(q, k, it, 0, ptrs, touched, kc.wg_size, extra...);
    case 2: return launch_nd<2, NA>(q, k, it, 0, ptrs, touched, kc.wg_size, extra...);
    default: return launch_nd<kMaxKernelDims, NA>(q, k, it, 0, ptrs, touched, kc.wg_size, extra...);
    }
  }
  // More dimensions than any variant: one launch per index of the outer ones.
  const sycl::kernel &k = kc.get(base + ", " + std::to_string(kMaxKernelDims) + ">");
  return for_outer_indices(it, [&](const Iteration &it2, const int64_t *off) {
    char *p[NA];
    for (int a = 0; a < NA; ++a) p[a] = ptrs[a] + off[a] * itemsizes[a];
    return launch_nd<kMaxKernelDims, NA>(q, k, it2, it2.nd - kMaxKernelDims, p, touched,
                                          kc.wg_size, extra...);
  });
}

template <int NA, class... Extra>
Ev launch_strided(sycl::queue &q, KernelCache &kc, const std::string &base,
                           const Iteration &it, char *const (&ptrs)[NA],
                           const int64_t (&itemsizes)[NA],
                           std::initializer_list<Allocation *> touched, Extra... extra) {
  return launch_strided<NA>(q, kc, base, std::string(), it, ptrs, itemsizes, touched, extra...);
}

} // namespace usm

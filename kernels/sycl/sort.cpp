// Stable sorts along the rows of contiguous (rows, n) buffers: insertion
// sort of short chunks, then merge passes that double the sorted width. A
// merge pass places every element directly: its rank in its own run plus
// the number of elements of the other run that go before it (a binary
// search), so one work-item per element and no synchronisation.
// Keys may carry int64 indices (argsort). NaNs sort after every number.
#include "order.hpp"

inline std::int64_t min64(std::int64_t a, std::int64_t b) { return a < b ? a : b; }

template <typename K, int DESC>
inline bool before(const K &a, const K &b) {
  return DESC ? sorts_before(b, a) : sorts_before(a, b);
}

template <typename K, int DESC, int IDX>
USM_KERNEL(1)
void sort_chunks(K *keys, std::int64_t *idx, std::int64_t rows, std::int64_t n,
                 std::int64_t chunk) {
  const std::int64_t nch = (n + chunk - 1) / chunk;
  const std::int64_t g = usmk::linear_id();
  if (g >= rows * nch) return;
  const std::int64_t r = g / nch, c = g % nch;
  const std::int64_t lo = r * n + c * chunk, hi = r * n + min64(n, (c + 1) * chunk);
  for (std::int64_t i = lo + 1; i < hi; ++i) {
    const K k = keys[i];
    std::int64_t v = 0;
    if constexpr (IDX) v = idx[i];
    std::int64_t j = i;
    while (j > lo && before<K, DESC>(k, keys[j - 1])) {
      keys[j] = keys[j - 1];
      if constexpr (IDX) idx[j] = idx[j - 1];
      --j;
    }
    keys[j] = k;
    if constexpr (IDX) idx[j] = v;
  }
}

template <typename K, int DESC, int IDX>
USM_KERNEL(1)
void merge_pass(const K *kin, const std::int64_t *iin, K *kout, std::int64_t *iout,
                std::int64_t rows, std::int64_t n, std::int64_t width) {
  const std::int64_t g = usmk::linear_id();
  if (g >= rows * n) return;
  const std::int64_t r = g / n, i = g % n;
  const std::int64_t start = (i / (2 * width)) * 2 * width;
  const std::int64_t mid = min64(n, start + width), end = min64(n, start + 2 * width);
  const K *row = kin + r * n;
  const K k = row[i];
  std::int64_t dest;
  if (i < mid) {
    // elements of the right run strictly before k
    std::int64_t lo = mid, hi = end;
    while (lo < hi) {
      const std::int64_t m = lo + (hi - lo) / 2;
      if (before<K, DESC>(row[m], k)) lo = m + 1;
      else hi = m;
    }
    dest = i + (lo - mid);
  } else {
    // elements of the left run not after k (equal ones stay first: stable)
    std::int64_t lo = start, hi = mid;
    while (lo < hi) {
      const std::int64_t m = lo + (hi - lo) / 2;
      if (!before<K, DESC>(k, row[m])) lo = m + 1;
      else hi = m;
    }
    dest = start + (i - mid) + (lo - start);
  }
  kout[r * n + dest] = k;
  if constexpr (IDX) iout[r * n + dest] = iin[g];
}

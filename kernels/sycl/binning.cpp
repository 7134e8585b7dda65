// Histograms without sorting (bincount, histogram): work-item g counts the
// items of chunk g, [g * chunk, (g + 1) * chunk), into row g of `rows`
// (nbins wide, zeroed by the work-item), and the engine's column reduction
// then sums the rows (usmarray/binning.py). No atomics: counts and weight
// sums come out the same on every run and device (fixed chunks, each added
// in order, then a fixed reduction order). Rows cost memory per bin, so
// only histograms of up to a few ten thousand bins come here; more sort.
//
// Bins: with E false, the item itself (bincount's int64 values, checked to
// lie in [0, nbins) beforehand); with E true, the bin of the evenly spaced
// edges e[0..nbins] holding it, [e_k, e_k+1), the last bin closed, as
// NumPy's histogram (scale: nbins / (e[nbins] - e[0]), finite; other edges
// sort: a search per item took 4 times a sort's time here).
// Items outside the edges and NaNs count nowhere. W: the row type (int64
// counts, or the weights' accumulator); Wt: whether item i adds w[i]
// (else 1). Pointer parameters: launched by the engine's launch_raw.
#include "common.hpp"

template <typename T, typename W, bool E, bool Wt>
USM_KERNEL(1)
void bin_rows(const T *x, const T *e, const W *w, std::int64_t n, std::int64_t chunk,
              std::int64_t nbins, std::int64_t nrows, T scale, W *rows) {
  const std::int64_t g = usmk::linear_id();
  if (g >= nrows) return;
  W *h = rows + g * nbins;
  for (std::int64_t b = 0; b < nbins; ++b) h[b] = W{};
  const std::int64_t end = n < (g + 1) * chunk ? n : (g + 1) * chunk;
  const T lo_edge = e[0], hi_edge = e[nbins];
  for (std::int64_t i = g * chunk; i < end; ++i) {
    std::int64_t k;
    if constexpr (E) {
      const T v = x[i];
      if (!(v >= lo_edge && v <= hi_edge)) continue;
      // the bin computed (in int: a conversion to int64 took 4 times as
      // long on the CPU device), then moved to the edges that hold v, as
      // NumPy does: the edges decide, the arithmetic only guesses
      k = static_cast<int>((v - lo_edge) * scale);
      k = k < 0 ? 0 : k >= nbins ? nbins - 1 : k;
      while (k > 0 && v < e[k]) --k;
      while (k < nbins - 1 && v >= e[k + 1]) ++k;
    } else {
      k = static_cast<std::int64_t>(x[i]);
    }
    if constexpr (Wt) h[k] += w[i];
    else h[k] += W(1);
  }
}

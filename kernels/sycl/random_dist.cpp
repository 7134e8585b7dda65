// Random distributions that call math functions (usmarray.random): normal
// and lognormal (Box-Muller, one word per element), exponential
// (inversion), and the rejection samplers gamma, beta, poisson, binomial,
// von Mises, Zipf, logarithmic series and hypergeometric, which draw from
// one sub-stream per element (philox.hpp: Stream), so each element's value
// depends only on its position.
//
// None of these match NumPy's stream (NumPy draws normals and exponentials
// by ziggurat, a variable number of draws per value). C is the compute type
// (double, or float on devices without fp64).
#pragma clang fp contract(off)
#include "philox.hpp"
#include "math.hpp"

namespace usmk::rng {

enum : int {
  D_NORMAL = 5, D_EXPONENTIAL = 6, D_LOGNORMAL = 7, D_GAMMA = 8, D_BETA = 9, D_POISSON = 10,
  D_BINOMIAL = 11, D_VONMISES = 12, D_ZIPF = 13, D_LOGSERIES = 14, D_HYPERGEOMETRIC = 15
};

// [0, 1) and (0, 1] in C from a word: 53 bits in double; in float the top
// 32 bits (exact for small values, so logarithms keep their tails).
template <typename C> inline C unit(u64 w) {
  if constexpr (sizeof(C) == 8) return to_double(w);
  else return static_cast<C>(static_cast<u32>(w >> 40)) * (1.0f / 16777216.0f);
}
template <typename C> inline C unit_pos(u64 w) {
  if constexpr (sizeof(C) == 8) return to_double_pos(w);
  else return (static_cast<C>(static_cast<u32>(w >> 32)) + 1.0f) * (1.0f / 4294967296.0f);
}
// (0, 1), exactly representable: the midpoints of 2^53 (float: 2^23) cells.
template <typename C> inline C unit_open(u64 w) {
  if constexpr (sizeof(C) == 8)
    return (static_cast<double>(w >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  else return (static_cast<C>(static_cast<u32>(w >> 41)) + 0.5f) * (1.0f / 8388608.0f);
}

// A conversion of a scalar or a clang vector.
template <typename To, typename From> inline To cvt(From x) {
  if constexpr (std::is_arithmetic_v<From>) return static_cast<To>(x);
  else return __builtin_convertvector(x, To);
}

// sin(2 pi u) and cos(2 pi u) for u in [0, 1), of a scalar or a vector V
// of C (U: unsigned integers of C's width, in V's shape). Written out in
// + and *, not sycl::sin/cos: the device library's scalar and vector forms
// round differently, and the generic and vector-block kernels must agree
// bit for bit. The reduction is exact: 4u splits into a quadrant q and
// f in [-1/2, 1/2] without rounding, and sin/cos of f pi/2 (|.| <= pi/4)
// are Taylor polynomials whose first omitted term is below 1e-19 (float:
// 2e-9) of the result.
template <typename C, typename V, typename U> inline void sincos_2pi(V u, V &s, V &c) {
  using S = std::conditional_t<sizeof(C) == 8, u64, u32>;
  const V v = u * C(4);
  const U q = cvt<U>(v + C(0.5));
  const V t = (v - cvt<V>(q)) * C(1.5707963267948966);
  const V t2 = t * t;
  V ps, pc;
  if constexpr (sizeof(C) == 8) {
    ps = C(1.0 / 355687428096000.0);
    ps = C(-1.0 / 1307674368000.0) + t2 * ps;
    ps = C(1.0 / 6227020800.0) + t2 * ps;
    ps = C(-1.0 / 39916800.0) + t2 * ps;
    ps = C(1.0 / 362880.0) + t2 * ps;
    pc = C(-1.0 / 6402373705728000.0);
    pc = C(1.0 / 20922789888000.0) + t2 * pc;
    pc = C(-1.0 / 87178291200.0) + t2 * pc;
    pc = C(1.0 / 479001600.0) + t2 * pc;
    pc = C(-1.0 / 3628800.0) + t2 * pc;
    pc = C(1.0 / 40320.0) + t2 * pc;
  } else {
    ps = C(1.0 / 362880.0);
    pc = C(-1.0 / 3628800.0);
    pc = C(1.0 / 40320.0) + t2 * pc;
  }
  ps = C(-1.0 / 5040.0) + t2 * ps;
  ps = C(1.0 / 120.0) + t2 * ps;
  ps = C(-1.0 / 6.0) + t2 * ps;
  ps = t + t * (t2 * ps);
  pc = C(-1.0 / 720.0) + t2 * pc;
  pc = C(1.0 / 24.0) + t2 * pc;
  pc = C(-0.5) + t2 * pc;
  pc = C(1) + t2 * pc;
  // sin(q pi/2 + a) = sin a, cos a, -sin a, -cos a for q = 0 .. 3: odd
  // quadrants swap the two, sign bits from q
  const U odd = 0 - (q & 1);
  const U sb = __builtin_bit_cast(U, ps), cb = __builtin_bit_cast(U, pc);
  constexpr S sign = S(1) << (8 * sizeof(C) - 1);
  const U so = ((cb & odd) | (sb & ~odd)) ^ (((q >> 1) & 1) * sign);
  const U co = ((sb & odd) | (cb & ~odd)) ^ ((((q + 1) >> 1) & 1) * sign);
  s = __builtin_bit_cast(V, so);
  c = __builtin_bit_cast(V, co);
}

// Box-Muller: the pair (r cos t, r sin t) of two words; `second` picks sin.
template <typename C> inline C box_muller(u64 w1, u64 w2, bool second) {
  const C r = sycl::sqrt(C(-2) * sycl::log(unit_pos<C>(w1)));
  C s, c;
  sincos_2pi<C, C, std::conditional_t<sizeof(C) == 8, u64, u32>>(unit<C>(w2), s, c);
  return r * (second ? s : c);
}

// A sub-stream with the spare normal of its last Box-Muller pair.
template <typename C> struct Draws {
  Stream s;
  C spare = 0;
  bool has_spare = false;
  C uniform() { return unit<C>(s.next()); }
  C uniform_pos() { return unit_pos<C>(s.next()); }
  C uniform_open() { return unit_open<C>(s.next()); }
  C exponential() { return -sycl::log(uniform_pos()); }
  C normal() {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    const u64 w1 = s.next(), w2 = s.next();
    spare = box_muller<C>(w1, w2, true);
    has_spare = true;
    return box_muller<C>(w1, w2, false);
  }
};

// NumPy's random_standard_gamma: Marsaglia and Tsang for shape >= 1,
// Ahrens and Dieter's GS-like rejection below.
template <typename C> C standard_gamma(Draws<C> &d, C shape) {
  if (shape == C(1)) return d.exponential();
  if (shape == C(0)) return C(0);
  if (shape < C(1)) {
    for (;;) {
      const C u = d.uniform(), v = d.exponential();
      if (u <= C(1) - shape) {
        const C x = sycl::pow(u, C(1) / shape);
        if (x <= v) return x;
      } else {
        const C y = -sycl::log((C(1) - u) / shape);
        const C x = sycl::pow(C(1) - shape + shape * y, C(1) / shape);
        if (x <= v + y) return x;
      }
    }
  }
  const C b = shape - C(1) / C(3), c = C(1) / sycl::sqrt(C(9) * b);
  for (;;) {
    C x, v;
    do {
      x = d.normal();
      v = C(1) + c * x;
    } while (v <= C(0));
    v = v * v * v;
    const C u = d.uniform();
    if (u < C(1) - C(0.0331) * (x * x) * (x * x)) return b * v;
    if (sycl::log(u) < C(0.5) * x * x + b * (C(1) - v + sycl::log(v))) return b * v;
  }
}

// NumPy's random_beta: Johnk's algorithm when both parameters are <= 1,
// else the ratio of two gammas.
template <typename C> C beta(Draws<C> &d, C a, C b) {
  if (a <= C(1) && b <= C(1)) {
    for (;;) {
      const C u = d.uniform(), v = d.uniform();
      const C x = sycl::pow(u, C(1) / a), y = sycl::pow(v, C(1) / b), xy = x + y;
      if (xy <= C(1) && u + v > C(0)) {
        constexpr C tiny = std::numeric_limits<C>::min();
        if (x >= tiny && y >= tiny) return x / xy;
        // a power underflowed (a < 0.01 in float often does), its ratio to
        // the other may not: the ratio in logarithms
        C lx = sycl::log(u) / a, ly = sycl::log(v) / b;
        const C lm = lx > ly ? lx : ly;
        if (sycl::isinf(lm)) {
          // both quotients overflowed (subnormal a and b): the larger power
          // takes all, as NumPy's 0s and 1s (-inf - -inf was NaN)
          const C sx = sycl::log(u) * b, sy = sycl::log(v) * a;
          return sx > sy ? C(1) : sx < sy ? C(0) : C(0.5);
        }
        lx -= lm;
        ly -= lm;
        return sycl::exp(lx - sycl::log(sycl::exp(lx) + sycl::exp(ly)));
      }
    }
  }
  const C ga = standard_gamma(d, a), gb = standard_gamma(d, b), s = ga + gb;
  if (sycl::isinf(s)) return C(1) / (C(1) + gb / ga);   // (huge shapes in float32: no 0)
  return ga / s;
}

// Poisson: NumPy's algorithms, multiplication of uniforms below lam = 10,
// Hormann's PTRS transformed rejection above.
template <typename C> std::int64_t poisson(Draws<C> &d, C lam) {
  if (lam == C(0)) return 0;
  if (lam < C(10)) {
    const C enlam = sycl::exp(-lam);
    std::int64_t x = 0;
    C prod = 1;
    for (;;) {
      prod *= d.uniform();
      if (prod > enlam) ++x;
      else return x;
    }
  }
  const C slam = sycl::sqrt(lam), loglam = sycl::log(lam);
  const C b = C(0.931) + C(2.53) * slam, a = C(-0.059) + C(0.02483) * b;
  const C invalpha = C(1.1239) + C(1.1328) / (b - C(3.4)), vr = C(0.9277) - C(3.6224) / (b - C(2));
  for (;;) {
    const C u = d.uniform() - C(0.5), v = d.uniform();
    const C us = C(0.5) - sycl::fabs(u);
    const C kf = sycl::floor((C(2) * a / us + b) * u + lam + C(0.43));
    if (us >= C(0.07) && v <= vr) return static_cast<std::int64_t>(kf);
    if (kf < C(0) || (us < C(0.013) && v > us)) continue;
    if (sycl::log(v) + sycl::log(invalpha) - sycl::log(a / (us * us) + b) <=
        -lam + kf * loglam - sycl::lgamma(kf + C(1)))
      return static_cast<std::int64_t>(kf);
  }
}

// log(k!) - Stirling's approximation of it (BTRS).
template <typename C> C stirling_tail(C k) {
  constexpr double tail[] = {0.0810614667953272,  0.0413406959554092,  0.0276779256849983,
                             0.02079067210376509, 0.0166446911898211,  0.0138761288230707,
                             0.0118967099458917,  0.0104112652619720,  0.00925546218271273,
                             0.00833056343336287};
  if (k <= C(9)) return static_cast<C>(tail[static_cast<int>(k)]);
  const C kp1sq = (k + C(1)) * (k + C(1));
  return (C(1) / C(12) - (C(1) / C(360) - C(1) / C(1260) / kp1sq) / kp1sq) / (k + C(1));
}

// Binomial for p <= 1/2: counting geometric waiting times while n p < 10
// (about n p + 1 draws), Hormann's BTRS transformed rejection above (as
// TensorFlow's and JAX's samplers).
template <typename C> C binomial_low(Draws<C> &d, C n, C p) {
  if (p == C(0) || n == C(0)) return C(0);
  if (n * p < C(10)) {
    const C logq = sycl::log1p(-p);
    C x = 0, sum = 0;
    for (;;) {
      // (0, 1), so that every waiting time is at least one trial
      sum += sycl::ceil(sycl::log(d.uniform_open()) / logq);
      if (sum > n) return x;
      x += C(1);
    }
  }
  const C sd = sycl::sqrt(n * p * (C(1) - p));
  const C b = C(1.15) + C(2.53) * sd, a = C(-0.0873) + C(0.0248) * b + C(0.01) * p;
  const C c = n * p + C(0.5), vr = C(0.92) - C(4.2) / b, r = p / (C(1) - p);
  const C alpha = (C(2.83) + C(5.1) / b) * sd, m = sycl::floor((n + C(1)) * p);
  for (;;) {
    const C u = d.uniform() - C(0.5);
    C v = d.uniform();
    const C us = C(0.5) - sycl::fabs(u);
    const C k = sycl::floor((C(2) * a / us + b) * u + c);
    if (us >= C(0.07) && v <= vr) return k;
    if (k < C(0) || k > n) continue;
    v = sycl::log(v * alpha / (a / (us * us) + b));
    // log(f(k) / f(m)), Hormann's (m + 1/2) log((m + 1) / (r (n - m + 1)))
    // + (n + 1) log((n - m + 1) / (n - k + 1)) + (k + 1/2) log(r (n - k + 1)
    // / (k + 1)) + Stirling tails, regrouped so that no logarithm of a ratio
    // near 1 is multiplied by n or k: for n of 1e17 those terms are each
    // about 1e9 and cancel to a few units, and the rounding of the ratios
    // left the bound wrong by tens (the variance of binomial(1e18, 0.5)
    // came out 1.55 n p q)
    const C km = k - m, B = n - k + C(1);
    const C bound = (m + C(0.5)) * sycl::log1p(-km / (k + C(1))) +
                    (B + km - C(0.5)) * sycl::log1p(km / B) + km * sycl::log(r * B / (k + C(1))) +
                    stirling_tail(m) + stirling_tail(n - m) - stirling_tail(k) -
                    stirling_tail(n - k);
    if (v <= bound) return k;
  }
}

// A count k of binomial_low (k <= C(n), which is n rounded, up past 2^53 in
// double) as an integer of at most n.
template <typename C> inline std::int64_t count_of(C k, std::int64_t n) {
  return k >= static_cast<C>(n) ? n : static_cast<std::int64_t>(k);
}

// n exact (an int64 parameter): n - k for p > 1/2 counts from it
template <typename C> std::int64_t binomial(Draws<C> &d, std::int64_t n, C p) {
  const C nf = static_cast<C>(n);
  if (p > C(0.5)) return n - count_of(binomial_low(d, nf, C(1) - p), n);
  return count_of(binomial_low(d, nf, p), n);
}

// NumPy's random_vonmises: Best and Fisher's rejection, a uniform angle
// below kappa 1e-8 and a wrapped normal above 1e6; results in [-pi, pi].
// Written in the differences from 1 its quantities approach as kappa
// grows (s - 1, 1 - z, 1 - w, from half-angle forms): NumPy's form of them
// in float lost the angle's digits (draws at kappa 300 failed a KS test at
// 4e5 draws, at 1e5 at 2e4); this one passes from 1e-4 to 1e6 in float and
// double.
template <typename C> C vonmises(Draws<C> &d, C mu, C kappa) {
  constexpr C pi = C(3.14159265358979323846);
  if (sycl::isnan(kappa)) return kappa;
  if (kappa < C(1e-8)) return pi * (C(2) * d.uniform() - C(1));
  C res;
  if (kappa > C(1e6)) {
    res = mu + sycl::sqrt(C(1) / kappa) * d.normal();
  } else {
    C sm1;  // s - 1, s = (1 + rho^2) / (2 rho)
    if (kappa < C(1e-5)) {
      sm1 = C(1) / kappa + kappa - C(1);
    } else {
      const C q = sycl::sqrt(C(1) + C(4) * kappa * kappa), r = C(1) + q;
      const C sq = sycl::sqrt(C(2) * r), rho = C(2) * kappa / (r + sq);
      // 1 - rho, from r - 2 kappa = 1 + 1 / (q + 2 kappa) where rho nears 1
      const C om = rho < C(0.5) ? C(1) - rho : (C(1) + C(1) / (q + C(2) * kappa) + sq) / (r + sq);
      sm1 = om * om / (C(2) * rho);
    }
    C omw;  // 1 - w
    for (;;) {
      const C h = pi * d.uniform() / C(2), sh = sycl::sin(h), ch = sycl::cos(h);
      const C omz = C(2) * sh * sh, opz = C(2) * ch * ch;  // 1 - z, 1 + z (z = cos(2 h))
      omw = sm1 * omz / (sm1 + opz);  // w = (1 + s z) / (s + z)
      const C y = kappa * (sm1 + omw), v = d.uniform();  // kappa (s - w)
      if (y * (C(2) - y) - v >= C(0) || sycl::log(y / v) + C(1) - y >= C(0)) break;
    }
    // acos(w) = 2 asin(sqrt((1 - w) / 2))
    res = C(2) * sycl::asin(sycl::fmin(sycl::sqrt(omw / C(2)), C(1)));
    if (d.uniform() < C(0.5)) res = -res;
    res += mu;
  }
  const C m = sycl::fmod(sycl::fabs(res) + pi, C(2) * pi) - pi;
  return res < C(0) ? -m : m;
}

// NumPy's random_zipf: rejection from a continuous Pareto envelope, a > 1
// (the host refuses others). Draws at 2^63 or more are rejected.
template <typename C> std::int64_t zipf(Draws<C> &d, C a) {
  if (!(a < C(1025))) return 1;
  constexpr C kTop = C(9223372036854775808.0);  // 2^63
  const C am1 = a - C(1), b = sycl::pow(C(2), am1), umin = sycl::pow(kTop, -am1);
  for (;;) {
    const C u01 = d.uniform();
    const C u = u01 * umin + (C(1) - u01), v = d.uniform();
    const C x = sycl::floor(sycl::pow(u, C(-1) / am1));
    if (!(x < kTop) || x < C(1)) continue;
    const C t = sycl::pow(C(1) + C(1) / x, am1);
    if (v * x * (t - C(1)) / (b - C(1)) <= t / b) return static_cast<std::int64_t>(x);
  }
}

// NumPy's random_logseries (Kemp's second method), 0 <= p < 1.
template <typename C> std::int64_t logseries(Draws<C> &d, C p) {
  const C r = sycl::log1p(-p);
  constexpr C kTop = C(9223372036854775808.0);
  for (;;) {
    const C v = d.uniform();
    if (v >= p) return 1;
    const C q = -sycl::expm1(r * d.uniform());
    if (v <= q * q) {
      const C k = sycl::floor(C(1) + sycl::log(v) / sycl::log(q));
      if (k < C(1) || v == C(0)) continue;
      return k < kTop ? static_cast<std::int64_t>(k) : INT64_MAX;
    }
    return v >= q ? 1 : 2;
  }
}

// log(k!) (k a whole number)
template <typename C> inline C log_factorial(C k) { return sycl::lgamma(k + C(1)); }

// Hypergeometric counts: good items among `sample` drawn without
// replacement from good + bad (each below 10^9). NumPy's choice of
// algorithm: the draws one at a time for samples within 10 of either end
// (exact integers: Lemire's bounded draws), else Stadlober's
// ratio-of-uniforms rejection (HRUA) on the smaller of the two kinds and
// of the sample and its complement.
template <typename C>
std::int64_t hypergeometric(Draws<C> &d, std::int64_t good, std::int64_t bad, std::int64_t sample) {
  const std::int64_t total = good + bad;
  if (sample < 10 || sample > total - 10) {
    const bool flip = sample > total / 2;
    std::int64_t left = flip ? total - sample : sample, total_left = total, good_left = good;
    while (left > 0 && good_left > 0 && total_left > good_left) {
      if (static_cast<std::int64_t>(bounded64(d.s, static_cast<u64>(total_left))) < good_left)
        --good_left;
      --total_left;
      --left;
    }
    if (total_left == good_left) good_left -= left;  // (only good ones left)
    return flip ? good_left : good - good_left;
  }
  const std::int64_t m_s = sample < total - sample ? sample : total - sample;
  const std::int64_t lo = good < bad ? good : bad, hi = good < bad ? bad : good;
  const C s = static_cast<C>(m_s), l = static_cast<C>(lo), h = static_cast<C>(hi),
          t = static_cast<C>(total);
  const C p = l / t, q = h / t, mu = s * p, a = mu + C(0.5);
  const C var = (t - s) * s * p * q / (t - C(1));
  const C c = sycl::sqrt(var + C(0.5));
  const C hh = C(1.7155277699214135) * c + C(0.8989161620588988);
  const C m = sycl::floor((s + C(1)) * (l + C(1)) / (t + C(2)));
  const C g = log_factorial(m) + log_factorial(l - m) + log_factorial(s - m) +
              log_factorial(h - s + m);
  const C b = sycl::fmin(sycl::fmin(s, l) + C(1), sycl::floor(a + C(16) * c));
  C k;
  for (;;) {
    const C u = d.uniform(), v = d.uniform();
    const C x = a + hh * (v - C(0.5)) / u;
    if (!(x >= C(0)) || x >= b) continue;
    k = sycl::floor(x);
    const C tt = g - (log_factorial(k) + log_factorial(l - k) + log_factorial(s - k) +
                      log_factorial(h - s + k));
    if (u * (C(4) - u) - C(3) <= tt) break;
    if (u * (u - tt) >= C(1)) continue;
    if (C(2) * sycl::log(u) <= tt) break;
  }
  std::int64_t K = static_cast<std::int64_t>(k);
  if (good > bad) K = m_s - K;
  if (m_s < sample) K = good - K;
  return K;
}

// The element of word k of w (an array of whole pairs) for the
// distributions reading one word each (normal and lognormal: pairs).
template <int D, typename C> inline C of_words(const u64 *w, int k, C pa, C pb) {
  if constexpr (D == D_EXPONENTIAL) {
    return pa * -sycl::log(unit_pos<C>(w[k]));
  } else {
    const C z = pa + pb * box_muller<C>(w[k & ~1], w[k | 1], k & 1);
    return D == D_LOGNORMAL ? sycl::exp(z) : z;
  }
}

// The same for L words at once (sycl::vec builtins): the formulas of
// of_words operation for operation. x: L words from an even position.
template <int D, typename C, int L>
inline usmk::raw_vec<C, L> of_words_vec(usmk::raw_vec<u64, L> x, C pa, C pb) {
  using V = usmk::raw_vec<C, L>;
  using W = usmk::raw_vec<u64, L>;
  const auto unit_pos_v = [](W w) -> V {
    if constexpr (sizeof(C) == 8)
      return unit_f64(w) + 1.0 / 9007199254740992.0;
    else
      return (__builtin_convertvector(__builtin_convertvector(w >> 32, usmk::raw_vec<u32, L>), V) +
              1.0f) * (1.0f / 4294967296.0f);
  };
  if constexpr (D == D_EXPONENTIAL) {
    return pa * -usmk::to_raw(sycl::log(usmk::to_sycl(unit_pos_v(x))));
  } else {
    constexpr int H = L / 2;
    using WH = usmk::raw_vec<u64, H>;
    using VH = usmk::raw_vec<C, H>;
    WH w1, w2;
#pragma unroll
    for (int j = 0; j < H; ++j) {
      w1[j] = x[2 * j];
      w2[j] = x[2 * j + 1];
    }
    VH u2;
    if constexpr (sizeof(C) == 8)
      u2 = unit_f64(w2);
    else
      u2 = __builtin_convertvector(__builtin_convertvector(w2 >> 40, usmk::raw_vec<u32, H>), VH) *
           (1.0f / 16777216.0f);
    VH u1;
    if constexpr (sizeof(C) == 8)
      u1 = unit_f64(w1) + 1.0 / 9007199254740992.0;
    else
      u1 = (__builtin_convertvector(__builtin_convertvector(w1 >> 32, usmk::raw_vec<u32, H>), VH) +
            1.0f) * (1.0f / 4294967296.0f);
    const VH r = usmk::to_raw(sycl::sqrt(C(-2) * sycl::log(usmk::to_sycl(u1))));
    VH sn, cs;
    sincos_2pi<C, VH, usmk::raw_vec<std::conditional_t<sizeof(C) == 8, u64, u32>, H>>(u2, sn, cs);
    VH zc = pa + pb * (r * cs);
    VH zs = pa + pb * (r * sn);
    if constexpr (D == D_LOGNORMAL) {
      zc = usmk::to_raw(sycl::exp(usmk::to_sycl(zc)));
      zs = usmk::to_raw(sycl::exp(usmk::to_sycl(zs)));
    }
    V z;
#pragma unroll
    for (int j = 0; j < H; ++j) {
      z[2 * j] = zc[j];
      z[2 * j + 1] = zs[j];
    }
    return z;
  }
}

} // namespace usmk::rng

using namespace usmk::rng;

// CPU vector-block variant of normal, lognormal and exponential (random.cpp's
// rng_vec conventions: the host launches it for calls starting at a block
// boundary with scalar parameters and an aligned result). The generic
// kernel runs one work-item per block, four scattered stores each, which
// the CPU compiler's vectorisation across work-items serves badly
// (standard_normal 45 ms for 10**7 against 13 ms for the draws).
template <int D, typename T, typename C>
USM_SIMD_KERNEL
void rng_dist_vec(USM_RNG_ARGS) {
  USM_RNG_POS;
  constexpr int L = 16;
  const C pa_ = from_bits<C>(a), pb_ = from_bits<C>(b);
  const std::int64_t q0 = usmk::linear_id() * kVecGroups;
  if (q0 * 32 >= n) return;
  u64 all[32 * kVecGroups];
  words_of_groups(pos, static_cast<u64>(q0), all);
  usmk::with_streaming<T>(n, [&](auto S) {
#pragma unroll 1
    for (int s = 0; s < kVecGroups; ++s) {
      const std::int64_t q = q0 + s, e0 = q * 32;
      if (e0 >= n) return;
      const u64 *words = all + 32 * s;
      if (e0 + 32 > n) {  // the last, partial group: item by item
        for (int k = 0; e0 + k < n; ++k)
          out[e0 + k] = static_cast<T>(of_words<D, C>(words, k, pa_, pb_));
        return;
      }
#pragma unroll
      for (int v = 0; v < 32 / L; ++v) {
        const auto z = of_words_vec<D, C, L>(usmk::load_raw<u64, L>(words + v * L), pa_, pb_);
        usmk::store_vec<decltype(S)::value, T, L>(
            __builtin_convertvector(z, usmk::raw_vec<T, L>), out + e0 + v * L);
      }
    }
  });
}

// Normal and lognormal read the stream's words in pairs (the host starts
// them at an even word); exponential one word per element; the rest one
// sub-stream per element. a, b: the two parameters (bits of C).
template <int D, typename T, typename C>
USM_KERNEL(1)
void rng_dist(USM_RNG_ARGS) {
  USM_RNG_POS;
  if constexpr (D == D_NORMAL || D == D_LOGNORMAL || D == D_EXPONENTIAL) {
    for_words(pos, n, [&](std::int64_t i, const u64 (&w)[4], int k, u64) {
      out[i] = static_cast<T>(of_words<D, C>(w, k, param<C>(pa, i, a), param<C>(pb, i, b)));
    });
  } else {
    for_elements(pos, n, [&](std::int64_t i, u64 g) {
      Draws<C> d{word_stream(pos, g)};
      const C pa_ = param<C>(pa, i, a), pb_ = param<C>(pb, i, b);
      if constexpr (D == D_GAMMA) out[i] = static_cast<T>(pb_ * standard_gamma(d, pa_));
      else if constexpr (D == D_BETA) out[i] = static_cast<T>(beta(d, pa_, pb_));
      else if constexpr (D == D_POISSON) out[i] = static_cast<T>(poisson(d, pa_));
      else if constexpr (D == D_VONMISES) out[i] = static_cast<T>(vonmises(d, pa_, pb_));
      else if constexpr (D == D_ZIPF) out[i] = static_cast<T>(zipf(d, pa_));
      else if constexpr (D == D_LOGSERIES) out[i] = static_cast<T>(logseries(d, pa_));
      else if constexpr (D == D_HYPERGEOMETRIC) {
        // (a: good | bad << 32, b: the sample)
        const std::int64_t gb = param<std::int64_t>(pa, i, a);
        out[i] = static_cast<T>(hypergeometric(d, gb & 0xffffffff, gb >> 32,
                                               param<std::int64_t>(pb, i, b)));
      } else out[i] = static_cast<T>(binomial(d, param<std::int64_t>(pa, i, a), pb_));
    });
  }
}

/* Hand-written host loops for bench_reductions.py's bandwidth rows: what
 * the machine's cores and memory allow, beside what usmarray and NumPy get.
 *
 * Each loop splits its array into one contiguous part per OpenMP thread and
 * reads it once with the compiler's vector code (built with -O3
 * -march=native by _floor.py), so it measures the memory system, not a
 * library. Results are returned so the work cannot be optimised away.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

float floor_sum_f32(const float *x, int64_t n) {
  float s = 0.0f;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
  for (int64_t i = 0; i < n; ++i) s += x[i];
  return s;
}

double floor_max_f64(const double *x, int64_t n) {
  double m = x[0];
#pragma omp parallel for simd reduction(max : m) schedule(static)
  for (int64_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

/* First index of the largest item (no NaNs in the benchmark's data): each
 * thread takes the maximum of a block of 4096 items (vector code, one read
 * from memory) and looks for its position in the block, still in the L1
 * cache, only when it beats the thread's best so far. */
int64_t floor_argmax_f32(const float *x, int64_t n) {
  const int64_t B = 4096;
  const int64_t nblk = (n + B - 1) / B;
  float best = x[0];
  int64_t where = 0;
#pragma omp parallel
  {
    float tbest = x[0];
    int64_t twhere = 0;
#pragma omp for schedule(static)
    for (int64_t b = 0; b < nblk; ++b) {
      const int64_t lo = b * B, hi = lo + B < n ? lo + B : n;
      float m = x[lo];
#pragma omp simd reduction(max : m)
      for (int64_t i = lo; i < hi; ++i) m = x[i] > m ? x[i] : m;
      if (m > tbest || (b == 0 && m == tbest)) {
        int64_t i = lo;
        while (x[i] != m) ++i;
        tbest = m;
        twhere = i;
      }
    }
#pragma omp critical
    if (tbest > best || (tbest == best && twhere < where)) {
      best = tbest;
      where = twhere;
    }
  }
  return where;
}

/* Column sums of a C-contiguous (rows, cols) matrix: each thread adds its
 * rows into a private row of sums, read and written in order. */
void floor_sum_axis0_f32(const float *x, int64_t rows, int64_t cols, float *out) {
  memset(out, 0, (size_t)cols * sizeof(float));
#pragma omp parallel
  {
    float *acc = calloc((size_t)cols, sizeof(float));
#pragma omp for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
      const float *row = x + r * cols;
#pragma omp simd
      for (int64_t c = 0; c < cols; ++c) acc[c] += row[c];
    }
#pragma omp critical
    for (int64_t c = 0; c < cols; ++c) out[c] += acc[c];
    free(acc);
  }
}

void floor_sum_axis1_f32(const float *x, int64_t rows, int64_t cols, float *out) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = x + r * cols;
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t c = 0; c < cols; ++c) s += row[c];
    out[r] = s;
  }
}

/* bench_kernels.py's floor for fusion: a * b + c * d - e in one loop and
 * as the four loops an unfused evaluation runs, and sum((x - y)^2) fused
 * and in three loops. Results are stored with streaming (non-temporal)
 * stores where the host has them (SSE on x86-64), as usmarray's kernels
 * store large results, so that the two sides differ only in fusion. */
#if defined(__SSE__)
#include <xmmintrin.h>
#define STREAM4(p, v) _mm_stream_ps((p), (v))
#define VEC __m128
#define LOAD(p) _mm_load_ps(p)
#define ADD _mm_add_ps
#define SUB _mm_sub_ps
#define MUL _mm_mul_ps
#define FENCE() _mm_sfence()
#else
typedef struct { float v[4]; } vec4_;
static inline vec4_ load4_(const float *p) { vec4_ r; memcpy(r.v, p, 16); return r; }
#define VEC vec4_
#define LOAD(p) load4_(p)
static inline vec4_ op4_(vec4_ a, vec4_ b, int k) {
  for (int i = 0; i < 4; ++i) a.v[i] = k == 0 ? a.v[i] + b.v[i] : k == 1 ? a.v[i] - b.v[i] : a.v[i] * b.v[i];
  return a;
}
#define ADD(a, b) op4_(a, b, 0)
#define SUB(a, b) op4_(a, b, 1)
#define MUL(a, b) op4_(a, b, 2)
#define STREAM4(p, v) memcpy((p), (v).v, 16)
#define FENCE() ((void)0)
#endif

/* n: a multiple of 4 and arrays 16-byte aligned (the benchmark's are) */
void floor_binary_f32(const float *a, const float *b, float *out, int64_t n, int op) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i += 4) {
    const VEC x = LOAD(a + i), y = LOAD(b + i);
    STREAM4(out + i, op == 0 ? ADD(x, y) : op == 1 ? SUB(x, y) : MUL(x, y));
  }
  FENCE();
}

void floor_square_f32(const float *a, float *out, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i += 4) {
    const VEC x = LOAD(a + i);
    STREAM4(out + i, MUL(x, x));
  }
  FENCE();
}

void floor_fused5_f32(const float *a, const float *b, const float *c, const float *d,
                      const float *e, float *out, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i += 4) {
    const VEC r = SUB(ADD(MUL(LOAD(a + i), LOAD(b + i)), MUL(LOAD(c + i), LOAD(d + i))),
                      LOAD(e + i));
    STREAM4(out + i, r);
  }
  FENCE();
}

float floor_sqdist_f32(const float *x, const float *y, int64_t n) {
  float s = 0.0f;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    const float t = x[i] - y[i];
    s += t * t;
  }
  return s;
}

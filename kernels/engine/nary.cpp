// Kernels of user code and of fusion (usmarray/user_kernels.py): `n_in` inputs
// and the outputs after them, all of one shape (Python broadcasts them and
// allocates the outputs), walked together; `raw` arrays passed as pointers
// to their first element, outside the iteration; the loop's scalars as one
// block of bytes (usm::Params). The kernels are `<name>_contig(pointers...,
// raw pointers..., n, params)` and `<name>_strided<ND>(pointers..., raw
// pointers..., Geometry<ND, kMaxOperands>, params)` for ND in
// kStridedVariants (`_strided1`, `_strided2`, `_strided4`): plain functions, one
// per ND, not a template (the kernel compiler of intel-sycl-rt 2026.1
// crashes on free-function kernel templates whose Geometry has more than
// four operands). `<name>_vec<1>`, when there is one, is the vector-block
// variant of `_contig` (CPU devices; common.hpp, usmk::simd_blocks).
#include "engine.hpp"

#include <cstring>
#include <functional>

namespace usm {

namespace {

template <int ND>
Ev launch_nary_nd(sycl::queue &q, const sycl::kernel &k, const Iteration &it, int first,
                           const std::vector<char *> &ptrs, const std::vector<char *> &raw,
                           const std::vector<Allocation *> &touched, size_t wgmax,
                           const Params &prm) {
  const Geometry<ND, kMaxOperands> g = geometry_of<ND, kMaxOperands>(it, first);
  const auto range = strided_range<ND, kMaxOperands>(g, it.na, wgmax);
  return submit(q, touched, [&](auto &h) {
    int i = 0;
    for (char *p : ptrs) set_arg(h, i++, p);
    for (char *p : raw) set_arg(h, i++, p);
    set_arg(h, i++, g);
    set_arg(h, i++, prm);
    h.parallel_for(range, k);
  });
}

} // namespace

Event nary(std::uintptr_t qref, KernelCache &kc, const std::string &name,
           const std::vector<nb::handle> &arrays, int n_in, const std::vector<nb::handle> &raw_h,
           nb::bytes params, bool vec) {
  const int na = static_cast<int>(arrays.size());
  if (na < 1 || na > kMaxOperands || n_in < 0 || n_in >= na)
    throw nb::value_error("nary: 1 to 16 operands, at least one output");
  if (params.size() > static_cast<size_t>(kParamBytes))
    throw nb::value_error("nary: scalar parameters take more than 256 bytes");
  sycl::queue &q = queue_from_ref(qref);
  // (on the stack: a vector of 1 KB views was a heap block past malloc's
  // per-thread cache, taken under the lock the runtime's worker thread
  // frees its command objects under)
  ArrayRef a[kMaxOperands];
  for (int i = 0; i < na; ++i) read_array(arrays[i], a[i]);
  const ArrayRef &out = a[n_in];
  for (int i = 0; i < na; ++i)
    check_operand(q, a[i], out, i < n_in ? "an input" : "an output");
  std::vector<ArrayRef> raw(raw_h.size());
  for (size_t i = 0; i < raw_h.size(); ++i) {
    read_array(raw_h[i], raw[i]);
    if (!(raw[i].alloc->ctx == q.get_context()))
      throw nb::value_error("nary: a raw array is bound to another SYCL context");
  }
  // Inputs that share memory with an output other than element for element
  // are read from a contiguous copy (no item is read after it is written).
  std::vector<std::unique_ptr<Allocation>> staged;
  for (int i = 0; i < n_in; ++i)
    for (int o = n_in; o < na; ++o)
      if (overlaps(a[i], a[o]) && !same_view(a[i], a[o])) {
        staged.emplace_back(allocate(q, static_cast<size_t>(a[i].size() * a[i].itemsize),
                                     KIND_DEVICE));
        ArrayRef t;
        copy_to_contiguous(q, kc, a[i], t, staged.back().get());
        a[i] = t;
        break;
      }
  Params prm{};
  std::memcpy(prm.bytes, params.c_str(), params.size());
  const int64_t *strides[kMaxOperands];
  for (int i = 0; i < na; ++i) strides[i] = a[i].strides;
  Iteration it;
  collapse(out.nd, out.shape, na, strides, n_in, it);
  if (it.nd < 0) return Event{};
  std::vector<char *> ptrs(na), raws;
  std::vector<Allocation *> touched;
  touched.reserve(na + raw.size());
  for (int i = 0; i < na; ++i) {
    ptrs[i] = a[i].data() + it.offset[i] * a[i].itemsize;
    touched.push_back(a[i].alloc);
  }
  for (auto &r : raw) {
    raws.push_back(r.data());
    touched.push_back(r.alloc);
  }
  if (it.contiguous()) {
    const int64_t n = it.size();
    // `vec`: the source has a vector-block kernel (its operands share one
    // type), used when every output is aligned for its vector stores
    const sycl::kernel *kv = nullptr;
    if (vec) {
      bool aligned = true;
      for (int o = n_in; o < na; ++o)
        aligned = aligned && reinterpret_cast<uintptr_t>(ptrs[o]) % kSimdBytes == 0;
      if (aligned) kv = simd_variant(kc, name + "_vec<1>", ptrs[n_in]);
    }
    const sycl::kernel &k = kv ? *kv : kc.get(name + "_contig");
    return Event{submit(q, touched, [&](auto &h) {
      int i = 0;
      for (char *p : ptrs) set_arg(h, i++, p);
      for (char *p : raws) set_arg(h, i++, p);
      set_arg(h, i++, n);
      set_arg(h, i++, prm);
      h.parallel_for(kv ? simd_range(n, out.itemsize) : linear_range(n, kc.wg_size), k);
    })};
  }
  auto launch = [&](const Iteration &it, int variant, int first, const std::vector<char *> &p) {
    const sycl::kernel &k = kc.get(name + "_strided" + std::to_string(variant));
    switch (variant) {
    case 1: return launch_nary_nd<1>(q, k, it, first, p, raws, touched, kc.wg_size, prm);
    case 2: return launch_nary_nd<2>(q, k, it, first, p, raws, touched, kc.wg_size, prm);
    default: return launch_nary_nd<kMaxKernelDims>(q, k, it, first, p, raws, touched,
                                                   kc.wg_size, prm);
    }
  };
  if (it.nd <= kMaxKernelDims) {
    int variant = kMaxKernelDims;
    for (int v : kStridedVariants)
      if (v >= it.nd) { variant = v; break; }
    return Event{launch(it, variant, 0, ptrs)};
  }
  return Event{for_outer_indices(it, [&](const Iteration &it2, const int64_t *off) {
    std::vector<char *> p(na);
    for (int i = 0; i < na; ++i) p[i] = ptrs[i] + off[i] * a[i].itemsize;
    return launch(it2, kMaxKernelDims, it2.nd - kMaxKernelDims, p);
  })};
}

namespace {

// A scalar argument of `b.size()` bytes, passed as an item of that size
// (the kernel reads the bytes as its declared type).
void set_bytes_arg(sycl::handler &h, int i, const nb::bytes &b) {
  struct B16 { uint64_t lo, hi; };
  const char *p = b.c_str();
  switch (b.size()) {
  case 1: { uint8_t v; std::memcpy(&v, p, 1); h.set_arg(i, v); break; }
  case 2: { uint16_t v; std::memcpy(&v, p, 2); h.set_arg(i, v); break; }
  case 4: { uint32_t v; std::memcpy(&v, p, 4); h.set_arg(i, v); break; }
  case 8: { uint64_t v; std::memcpy(&v, p, 8); h.set_arg(i, v); break; }
  case 16: { B16 v; std::memcpy(&v, p, 16); h.set_arg(i, v); break; }
  default: throw nb::value_error("launch_raw: scalar arguments are 1, 2, 4, 8 or 16 bytes");
  }
}

template <int D> sycl::range<D> range_of(const std::vector<size_t> &v) {
  if constexpr (D == 1) return sycl::range<1>{v[0]};
  else if constexpr (D == 2) return sycl::range<2>{v[0], v[1]};
  else return sycl::range<3>{v[0], v[1], v[2]};
}

} // namespace

// RawKernel (usmarray/user_kernels.py): the kernel `name` over an nd_range
// of `global` work-items in work-groups of `local` (1 to 3 dimensions);
// `args` are usm_ndarrays (passed as pointers to their first item) and
// scalars as bytes.
Event launch_raw(std::uintptr_t qref, KernelCache &kc, const std::string &name,
                 const std::vector<nb::object> &args, const std::vector<size_t> &global,
                 const std::vector<size_t> &local) {
  const size_t dims = global.size();
  if (dims < 1 || dims > 3 || local.size() != dims)
    throw nb::value_error("launch_raw: 1 to 3 dimensions, global and local alike");
  size_t group = 1;
  for (size_t d = 0; d < dims; ++d) {
    if (local[d] == 0 || global[d] % local[d] != 0)
      throw nb::value_error("launch_raw: each global size must be a multiple of the local one");
    group *= local[d];
  }
  sycl::queue &q = queue_from_ref(qref);
  const size_t max_wg = kc.dev.get_info<sycl::info::device::max_work_group_size>();
  if (group > max_wg)
    throw nb::value_error(("launch_raw: work-groups of " + std::to_string(group) +
                           " work-items, more than the device's " + std::to_string(max_wg))
                              .c_str());
  std::vector<ArrayRef> arrays;
  std::vector<Allocation *> touched;
  arrays.reserve(args.size());
  for (auto &a : args)
    if (!nb::isinstance<nb::bytes>(a)) {
      arrays.emplace_back();
      read_array(a, arrays.back());
      if (!(arrays.back().alloc->ctx == q.get_context()))
        throw nb::value_error("launch_raw: an array is bound to another SYCL context");
      touched.push_back(arrays.back().alloc);
    }
  const sycl::kernel &k = kc.get(name);
  // (an argument left unset would run with whatever the last launch set)
  const size_t want = k.get_info<sycl::info::kernel::num_args>();
  if (want != args.size())
    throw nb::value_error(("launch_raw: " + name + " takes " + std::to_string(want) +
                           " arguments, got " + std::to_string(args.size()))
                              .c_str());
  try {
    return Event{submit(q, touched, [&](sycl::handler &h) {
      size_t ai = 0;
      for (size_t i = 0; i < args.size(); ++i) {
        if (nb::isinstance<nb::bytes>(args[i])) set_bytes_arg(h, static_cast<int>(i), nb::cast<nb::bytes>(args[i]));
        else h.set_arg(static_cast<int>(i), arrays[ai++].data());
      }
      if (dims == 1) h.parallel_for(sycl::nd_range<1>{range_of<1>(global), range_of<1>(local)}, k);
      else if (dims == 2) h.parallel_for(sycl::nd_range<2>{range_of<2>(global), range_of<2>(local)}, k);
      else h.parallel_for(sycl::nd_range<3>{range_of<3>(global), range_of<3>(local)}, k);
    })};
  } catch (const sycl::exception &e) {
    const std::string what = e.what();
    std::string why = "arguments or ranges that do not fit the kernel?";
    if (what.find("ARGUMENT_SIZE") != std::string::npos)
      why = "an argument's size differs from its parameter's: pass scalars as NumPy scalars of "
            "the parameter's type, such as np.int32(8) for an int";
    else if (what.find("INVALID_MEM_OBJECT") != std::string::npos)
      why = "a pointer parameter got something that is not an array";
    throw nb::value_error(("launch_raw: the launch of " + name + " failed (" + why + "): " + what)
                              .c_str());
  }
}

} // namespace usm

// Python bindings of the engine (usmarray._engine).
#include "engine.hpp"
#include "binary_cache.hpp"
#include "opencl.hpp"

#include <dlfcn.h>
#include <cstdio>
#include <sys/stat.h>

#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace usm {
// defined in ops.cpp / jit.cpp
Event copy_array(std::uintptr_t qref, KernelCache &kc, nb::handle src, nb::handle dst);
Event fill_array(std::uintptr_t qref, KernelCache &kc, nb::handle dst, nb::bytes value);
Event sequence(std::uintptr_t qref, KernelCache &kc, nb::handle dst, nb::handle start,
               nb::handle step, int ctc);
Event triangle(std::uintptr_t qref, KernelCache &kc, nb::handle src, nb::handle dst, int64_t k,
               bool upper);
nb::tuple build_source(KernelCache &kc, const std::string &source,
                       const std::vector<std::pair<std::string, std::string>> &includes,
                       const std::vector<std::string> &names,
                       const std::vector<std::string> &options);
bool load_binary(KernelCache &kc, const std::vector<nb::bytes> &binaries,
                 const std::vector<std::string> &names, const std::vector<std::string> &raw_names);
bool adapter_loads(KernelCache &kc, const std::string &adapter,
                   const std::vector<nb::bytes> &binaries);
Event unary(std::uintptr_t qref, KernelCache &kc, const std::string &sig, nb::handle x,
            nb::handle out);
Event nary(std::uintptr_t qref, KernelCache &kc, const std::string &name,
           const std::vector<nb::handle> &arrays, int n_in, const std::vector<nb::handle> &raw,
           nb::bytes params, bool vec);
Event launch_raw(std::uintptr_t qref, KernelCache &kc, const std::string &name,
                 const std::vector<nb::object> &args, const std::vector<size_t> &global,
                 const std::vector<size_t> &local);
Event binary(std::uintptr_t qref, KernelCache &kc, const std::string &sig, nb::handle a,
             nb::handle b, nb::handle out);
Event binary_scalar(std::uintptr_t qref, KernelCache &kc, const std::string &sig, nb::handle x,
                    nb::bytes value, bool left, nb::handle out);
Event reduce(std::uintptr_t qref, KernelCache &kc, const std::string &op, const std::string &comb,
             nb::handle x, int nred, nb::handle out, const std::string &acc, int acc_size,
             bool indexed, const std::vector<nb::handle> &inputs, std::optional<nb::bytes> scalars,
             const std::string &result);
Event where(std::uintptr_t qref, KernelCache &kc, nb::handle c, nb::handle a, nb::handle b,
            nb::handle out);
Event take(std::uintptr_t qref, KernelCache &kc, nb::handle idx, nb::handle x, nb::handle out,
           int64_t n, int64_t sa);
Event scan(std::uintptr_t qref, KernelCache &kc, const std::string &op, nb::handle x,
           nb::handle y);
// random.cpp (usmarray.random)
Event random_fill(std::uintptr_t qref, KernelCache &kc, const std::string &kernel, int dist,
                  int ctc, int unit, nb::handle out, std::array<uint64_t, 2> key,
                  std::array<uint64_t, 4> ctr, int64_t first, uint32_t lead, uint32_t lead_bits,
                  uint64_t a, uint64_t b, nb::handle pa, nb::handle pb);
Event random_bounds(std::uintptr_t qref, KernelCache &kc, nb::handle keys, nb::handle idx,
                    nb::handle bounds);
Event random_shuffle(std::uintptr_t qref, KernelCache &kc, nb::handle idx, nb::handle bounds,
                     std::array<uint64_t, 2> key, std::array<uint64_t, 4> ctr, int64_t first);
Event random_sample(std::uintptr_t qref, KernelCache &kc, nb::handle out, uint64_t n,
                    std::array<uint64_t, 4> words);
int64_t mask_count(std::uintptr_t qref, KernelCache &kc, nb::handle m, nb::handle off);
Event mask_compact(std::uintptr_t qref, KernelCache &kc, nb::handle m, nb::handle x,
                   nb::handle off, nb::handle out, bool indices);
Event mask_expand(std::uintptr_t qref, KernelCache &kc, nb::handle m, nb::handle x,
                  nb::handle off, nb::handle v);
void gather(std::uintptr_t qref, KernelCache &kc, nb::handle x, nb::handle idx, nb::handle out);
void scatter(std::uintptr_t qref, KernelCache &kc, nb::handle x, nb::handle idx, nb::handle v);
Event put(std::uintptr_t qref, KernelCache &kc, nb::handle idx, nb::handle x, nb::handle v,
          int64_t n, int64_t sa);
void index_offsets(std::uintptr_t qref, KernelCache &kc, std::vector<nb::handle> idx,
                   std::vector<int64_t> lengths, std::vector<int64_t> strides,
                   std::vector<int64_t> axes, int64_t base, nb::handle out);
Event sort(std::uintptr_t qref, KernelCache &kc, nb::handle src, nb::handle keys, nb::handle idx,
           bool desc);
int64_t unique_count(std::uintptr_t qref, KernelCache &kc, nb::handle s, nb::handle offs);
Event isin_sorted(std::uintptr_t qref, KernelCache &kc, nb::handle s, nb::handle v, nb::handle out,
                  bool invert);
Event unique_scatter(std::uintptr_t qref, KernelCache &kc, nb::handle s, nb::handle offs,
                     nb::handle vals, nb::handle pos, nb::handle order, nb::handle inv);
Event matmul(std::uintptr_t qref, KernelCache &kc, nb::handle a, nb::handle x, nb::handle out);
Event gemm(std::uintptr_t qref, nb::handle a, nb::handle x, nb::handle out, bool host);
void mkl_load(const std::vector<std::string> &libs, const std::string &shim);
Event fft(std::uintptr_t qref, nb::handle x, nb::handle out, const std::vector<int> &axes,
          bool forward, bool real, double scale);
nb::tuple fft_cache(int64_t limit);
bool mkl_loaded();
Event search_sorted(std::uintptr_t qref, KernelCache &kc, nb::handle s, nb::handle v,
                    nb::handle out, bool right);
void bind_linalg(nb::module_ &m);  // linalg.cpp: the lapack_* commands
void bind_dlpack(nb::module_ &m);
} // namespace usm

using namespace usm;

namespace {

const char *kind_name(int k) {
  switch (k) {
  case KIND_DEVICE: return "device";
  case KIND_SHARED: return "shared";
  case KIND_HOST: return "host";
  }
  return "unknown";
}

int kind_of(sycl::usm::alloc a) {
  switch (a) {
  case sycl::usm::alloc::device: return KIND_DEVICE;
  case sycl::usm::alloc::shared: return KIND_SHARED;
  case sycl::usm::alloc::host: return KIND_HOST;
  default: return KIND_UNKNOWN;
  }
}

sycl::context &context_from_ref(std::uintptr_t r) {
  if (!r) throw nb::value_error("null context reference");
  return *reinterpret_cast<sycl::context *>(r);
}
sycl::device &device_from_ref(std::uintptr_t r) {
  if (!r) throw nb::value_error("null device reference");
  return *reinterpret_cast<sycl::device *>(r);
}

sycl::device root_of(sycl::device d) {
  for (;;) {
    try {
      d = d.get_info<sycl::info::device::parent_device>();
    } catch (const sycl::exception &) {
      return d;
    }
  }
}

// Position of `d`'s root device in sycl::device::get_devices() (the DLPack
// kDLOneAPI device_id), or -1.
int root_device_index(const sycl::device &d) {
  // The device list does not change in a process: remember the answers.
  static auto *known = new std::unordered_map<sycl::device, int>;
  auto it = known->find(d);
  if (it != known->end()) return it->second;
  sycl::device root = root_of(d);
  auto all = sycl::device::get_devices();
  int idx = -1;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i] == root) idx = static_cast<int>(i);
  known->emplace(d, idx);
  return idx;
}

// Identity of the SYCL runtime in use, for the kernel cache's keys: the
// headers' version and a fingerprint of the loaded libsycl (its size and a
// hash of its first and last 64 KiB). Not its path or mtime, so that every
// virtual environment with the same runtime release shares cache entries.
std::string runtime_id() {
  std::string id = std::to_string(__SYCL_COMPILER_VERSION);
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&sycl::device::get_devices), &info) || !info.dli_fname)
    return id;
  FILE *f = std::fopen(info.dli_fname, "rb");
  if (!f) return id + "|" + info.dli_fname;
  std::vector<unsigned char> buf(size_t(1) << 16);
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  auto mix = [&](size_t n) {
    for (size_t i = 0; i < n; ++i) h = (h ^ buf[i]) * 1099511628211ull;
  };
  mix(std::fread(buf.data(), 1, buf.size(), f));
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  if (size > static_cast<long>(buf.size())) {
    std::fseek(f, size - static_cast<long>(buf.size()), SEEK_SET);
    mix(std::fread(buf.data(), 1, buf.size(), f));
  }
  std::fclose(f);
  return id + "|" + std::to_string(size) + "|" + std::to_string(h);
}

} // namespace

// A Python object's contiguous buffer (NumPy arrays, bytearray), held for
// the length of a host transfer: cheaper than reading its address in Python.
struct HostBuffer {
  Py_buffer view;
  HostBuffer(nb::handle h, bool writable) {
    const int flags = PyBUF_ANY_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(h.ptr(), &view, flags) != 0) throw nb::python_error();
  }
  ~HostBuffer() { PyBuffer_Release(&view); }
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;
};

NB_MODULE(_engine, m) {
  m.doc() = "usmarray compiled engine: USM memory, ordering, kernel compilation and launches";
  nb::set_leak_warnings(false);

  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const sycl::exception &e) {
      PyErr_SetString(PyExc_RuntimeError, (std::string("SYCL error: ") + e.what()).c_str());
    }
  });

  nb::class_<Event>(m, "Event", "A SYCL event of a submitted command.")
      .def(nb::init<>())
      .def("wait", &Event::wait, "Block until the command completed.")
      .def_prop_ro("complete", [](const Event &e) {
        collect_deferred();  // completion checks also release what completed
        return e.complete();
      });

  nb::class_<Allocation>(m, "Allocation", "A USM allocation (pooled or owned by another object).")
      .def_prop_ro("ptr", [](const Allocation &a) { return reinterpret_cast<std::uintptr_t>(a.ptr); })
      .def_prop_ro("nbytes", [](const Allocation &a) { return a.nbytes; })
      .def_prop_ro("capacity", [](const Allocation &a) { return a.capacity; })
      .def_prop_ro("kind", [](const Allocation &a) { return kind_name(a.kind); })
      .def_prop_ro("owner", [](const Allocation &a) { return a.owner ? a.owner : nb::none(); })
      .def_prop_ro("pending", [](const Allocation &a) {
        collect_deferred();
        return a.last->pending();
      })
      .def("wait", &Allocation::wait, "Block until the last command using this memory completed.")
      .def("same_context", [](const Allocation &a, std::uintptr_t ctxref) {
        return a.ctx == context_from_ref(ctxref);
      })
      .def_prop_ro("device_index", [](const Allocation &a) { return root_device_index(a.dev); },
                   "Index of the allocation's root device in sycl::device::get_devices().")
      .def_prop_ro("in_default_context", [](const Allocation &a) {
        return a.ctx == a.dev.get_platform().ext_oneapi_get_default_context();
      }, "Whether the memory is bound to its platform's default context.")
      .def("order_before", [](const Allocation &a, std::uintptr_t qref) {
        // Make work submitted to `q` later wait for the memory's pending
        // commands, without a host wait.
        sycl::queue &q = queue_from_ref(qref);
        if (a.last->pending()) q.ext_oneapi_submit_barrier({a.last->event->to_sycl(q.get_context())});
      }, "Make later commands of a queue wait for the memory's pending work.")
      .def("order_after", [](Allocation &a, std::uintptr_t qref) {
        // The reverse, for imported memory: later commands on it wait for
        // everything submitted to `q` so far (a DLPack producer's barrier
        // on our queue). A barrier of the SYCL runtime, which the native
        // launches see as the memory's last use (launch.cpp).
        sycl::queue &q = queue_from_ref(qref);
        Allocation *touched[] = {&a};
        enqueue_touching(q, touched, [&](const std::vector<sycl::event> &deps) {
          return q.ext_oneapi_submit_barrier(deps);
        });
      }, "Make later commands on the memory wait for the work submitted to a queue so far.");

  nb::class_<KernelCache>(m, "KernelCache", "Kernels compiled for one (context, device).")
      .def("__init__",
           [](KernelCache *self, std::uintptr_t qref, nb::object resolver) {
             sycl::queue &q = queue_from_ref(qref);
             new (self) KernelCache(q.get_context(), q.get_device(), std::move(resolver));
           })
      .def("build_source", &build_source, nb::arg("source"), nb::arg("includes"),
           nb::arg("names"), nb::arg("options"))
      .def("load_binary", &load_binary, nb::arg("binaries"), nb::arg("names"), nb::arg("raw_names"))
      .def_prop_ro("can_cache_binaries", [](const KernelCache &kc) { return kc.adapter != nullptr; })
      .def_prop_ro("binary_adapter",
                   [](const KernelCache &kc) -> nb::object {
                     if (!kc.adapter) return nb::none();
                     return nb::str(kc.adapter->name);
                   },
                   "The backend adapter that reads and reloads native binaries, or None.")
      .def("adapter_loads", &adapter_loads, nb::arg("adapter"), nb::arg("binaries"),
           "Whether the named adapter ('opencl', 'level_zero') loads `binaries` on this "
           "cache's device (for tests of the adapters' refusals).")
      .def("has", &KernelCache::has)
      .def("__len__", [](const KernelCache &kc) { return kc.kernels.size() + kc.lazy.size(); })
      .def_prop_ro("work_group_size", [](const KernelCache &kc) { return kc.wg_size; })
      .def_rw("simd", &KernelCache::simd,
              "Use vector-block kernel variants where bundles have them (default: CPU devices).");

  bind_dlpack(m);

  m.def("allocate", [](std::uintptr_t qref, nb::handle nbytes, int kind) {
    // Sizes come from Python arithmetic on shapes: any int, however large.
    nb::object n = nb::steal(PyNumber_Index(nbytes.ptr()));
    if (!n) throw nb::python_error();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    if (overflow || v < 0)
      throw nb::value_error(("array is too big: " + nb::cast<std::string>(nb::str(n)) +
                             " bytes is not a possible allocation size").c_str());
    return allocate(queue_from_ref(qref), static_cast<size_t>(v), kind);
  }, nb::rv_policy::take_ownership);
  m.def("wrap", [](std::uintptr_t ptr, size_t nbytes, int kind, std::uintptr_t ctxref,
                   std::uintptr_t devref, nb::object owner) {
    return wrap_foreign(reinterpret_cast<void *>(ptr), nbytes, kind, context_from_ref(ctxref),
                        device_from_ref(devref), std::move(owner));
  }, nb::rv_policy::take_ownership);

  m.def("copy", &copy_array, "Copy (and cast) src into dst, same shape, any strides.");
  m.def("fill", &fill_array);
  m.def("sequence", &sequence);
  m.def("triangle", &triangle);
  m.def("unary", &unary, "out = op(x) for a loop signature 'op_name, T_in, T_out'.");
  m.def("binary", &binary, "out = op(a, b) for a loop signature 'op_name, A, B, R'.");
  m.def("nary", &nary, nb::arg("qref"), nb::arg("kc"), nb::arg("name"), nb::arg("arrays"),
        nb::arg("n_in"), nb::arg("raw"), nb::arg("params"), nb::arg("vec"),
        "A kernel of user code or fusion over inputs and outputs of one shape (nary.cpp).");
  m.def("launch_raw", &launch_raw, nb::arg("qref"), nb::arg("kc"), nb::arg("name"),
        nb::arg("args"), nb::arg("global_size"), nb::arg("local_size"),
        "A RawKernel over an nd_range (nary.cpp).");
  m.def("binary_scalar", &binary_scalar, "out = op(x, value) or op(value, x), contiguous x/out.");
  m.def("reduce", &reduce, nb::arg("qref"), nb::arg("kc"), nb::arg("op"), nb::arg("comb"),
        nb::arg("x"), nb::arg("nred"), nb::arg("out"), nb::arg("acc"), nb::arg("acc_size"),
        nb::arg("indexed"), nb::arg("inputs") = std::vector<nb::handle>{},
        nb::arg("scalars") = nb::none(), nb::arg("result") = "",
        "out = reduction of x over its last nred dimensions (reduce.cpp).");
  m.def("scan", &scan, "y = inclusive scan of x, both (B, n, C), along axis 1.");
  m.def("mask_count", &mask_count, "Tile offsets of a mask's true elements; returns their count.");
  m.def("mask_compact", &mask_compact, "out = x[mask] (indices: the true elements' indices, x unused).");
  m.def("mask_expand", &mask_expand, "x[mask] = v.");
  m.def("gather", &gather, "out = x taken at indices along axis 0 (IndexError out of bounds).");
  m.def("scatter", &scatter, "x at indices along axis 0 = v (IndexError out of bounds).");
  m.def("put", &put, "x[offs] = v, the scatter of integer-array assignment.");
  m.def("index_offsets", &index_offsets,
        "out = base + sum of idx[k] * strides[k]: the element offsets of x[i0, i1, ...] (waits; "
        "IndexError for an index out of bounds).");
  m.def("search_sorted", &search_sorted, "Insertion indices of v into the sorted s.");
  // usmarray.random (random.cpp)
  m.def("random_fill", &random_fill, nb::arg("qref"), nb::arg("kc"), nb::arg("kernel"),
        nb::arg("dist"), nb::arg("ctc"), nb::arg("unit"), nb::arg("out"), nb::arg("key"),
        nb::arg("ctr"), nb::arg("first"), nb::arg("lead"), nb::arg("lead_bits"), nb::arg("a"),
        nb::arg("b"), nb::arg("pa").none(), nb::arg("pb").none(),
        "out = a distribution drawn from a Philox stream position (random kernels).");
  m.def("random_bounds", &random_bounds, "Bucket bounds of stably sorted rows of random keys.");
  m.def("random_shuffle", &random_shuffle, "Fisher-Yates shuffles of segments of positions.");
  m.def("random_sample", &random_sample,
        "out = the first items of a keyed pseudo-random permutation of range(n).");
  bind_linalg(m);
  m.def("matmul", &matmul, "Batched products of contiguous matrices.");
  m.def("gemm", &gemm, nb::arg("q"), nb::arg("a"), nb::arg("x"), nb::arg("out"),
        nb::arg("host") = false, "Batched floating matrix products through oneMKL.");
  m.def("mkl_load", &mkl_load, "Load oneMKL libraries, then libusmarray_mkl.so.");
  m.def("mkl_loaded", &mkl_loaded);
  m.def("fft", &fft, "Batched DFT over up to 3 axes through oneMKL.");
  m.def("fft_cache", &fft_cache, "oneMKL descriptor cache: (entries, limit, hits, misses).");
  m.def("sort", &sort, "keys = stable sort of src (rows, n) along rows; idx = their positions.",
        nb::arg("qref"), nb::arg("kc"), nb::arg("src"), nb::arg("keys"), nb::arg("idx").none(),
        nb::arg("desc"));
  m.def("isin_sorted", &isin_sorted, "out = whether each item of v occurs in the sorted s.");
  m.def("unique_count", &unique_count, "Groups of equal values of a sorted vector (waits).");
  m.def("unique_scatter", &unique_scatter, "Values, starts and inverse of unique_count's groups.",
        nb::arg("qref"), nb::arg("kc"), nb::arg("s"), nb::arg("offs"), nb::arg("vals"),
        nb::arg("pos").none(), nb::arg("order").none(), nb::arg("inv").none());
  m.def("where", &where);
  m.def("take", &take, "out[i] = x[i + offsets[i]] (gathers of integer array indexing).");
  m.def("to_host", [](std::uintptr_t qref, Allocation &a, int64_t lo, nb::handle buf) {
    HostBuffer b(buf, true);
    host_transfer(qref, a, lo, reinterpret_cast<std::uintptr_t>(b.view.buf), b.view.len, true);
  }, "Copy bytes [lo, lo + len(buf)) of an allocation into a writable buffer (waits).");
  m.def("from_host", [](std::uintptr_t qref, Allocation &a, int64_t lo, nb::handle buf) {
    HostBuffer b(buf, false);
    host_transfer(qref, a, lo, reinterpret_cast<std::uintptr_t>(b.view.buf), b.view.len, false);
  }, "Copy a contiguous buffer to an allocation at byte lo (waits).");
  m.def("read_bytes", [](std::uintptr_t qref, Allocation &a, int64_t lo, int64_t n) {
    // one item (of up to 16 bytes), for __float__, __bool__ and friends
    char item[16];
    if (n < 0 || n > static_cast<int64_t>(sizeof(item))) throw nb::value_error("read_bytes: 0 to 16 bytes");
    host_transfer(qref, a, lo, reinterpret_cast<std::uintptr_t>(item), n, true);
    return nb::bytes(item, static_cast<size_t>(n));
  }, "Bytes [lo, lo + n) of an allocation, n <= 16 (waits).");

  m.def("pointer_kind", [](std::uintptr_t ptr, std::uintptr_t ctxref) {
    return kind_name(kind_of(sycl::get_pointer_type(reinterpret_cast<void *>(ptr),
                                                    context_from_ref(ctxref))));
  }, "USM kind of a pointer in a context: device, shared, host or unknown.");
  m.def("pointer_device_index", [](std::uintptr_t ptr, std::uintptr_t ctxref) {
    try {
      sycl::device d = sycl::get_pointer_device(reinterpret_cast<void *>(ptr), context_from_ref(ctxref));
      return root_device_index(d);
    } catch (const sycl::exception &) {
      return -1;
    }
  }, "Index in sycl::device::get_devices() of the root device a USM pointer was allocated on.");
  m.def("device_index", [](std::uintptr_t devref) { return root_device_index(device_from_ref(devref)); });
  m.def("pointer_device_in", [](std::uintptr_t ptr, std::uintptr_t ctxref,
                                const std::vector<std::uintptr_t> &devrefs) {
    try {
      sycl::device d = sycl::get_pointer_device(reinterpret_cast<void *>(ptr), context_from_ref(ctxref));
      for (size_t i = 0; i < devrefs.size(); ++i)
        if (device_from_ref(devrefs[i]) == d) return static_cast<int>(i);
    } catch (const sycl::exception &) {
    }
    return -1;
  }, "Position in `devrefs` of the device a USM pointer was allocated on, or -1.");
  m.def("allocation_range", [](std::uintptr_t ptr, std::uintptr_t ctxref) -> nb::object {
    uintptr_t base = 0;
    size_t size = 0;
    if (!usm_allocation_range(reinterpret_cast<void *>(ptr), context_from_ref(ctxref), base, size))
      return nb::none();
    return nb::make_tuple(base, size);
  }, "(base, size) of the USM allocation holding a pointer, or None if the backend cannot tell.");
  m.def("runtime_id", &runtime_id);
  m.def("pool_stats", [] {
    PoolStats s = pool_stats();
    nb::dict d;
    d["cached_bytes"] = s.cached_bytes;
    d["cached_blocks"] = s.cached_blocks;
    d["in_use_bytes"] = s.in_use_bytes;
    d["in_use_blocks"] = s.in_use_blocks;
    d["deferred"] = s.deferred;
    d["deferred_bytes"] = s.deferred_bytes;
    d["limit"] = s.limit;
    return d;
  });
  m.def("pool_set_limit", &pool_set_limit);
  m.def("pool_free_cached", &pool_free_cached);
  m.def("collect", &collect_deferred_all);
  m.def("synchronize", &synchronize_all,
        "Wait for every command on memory usmarray knows, then release the deferred list.");
  m.def("queue_wait", [](std::uintptr_t qref) { queue_wait(queue_from_ref(qref)); },
        "Wait for every command submitted to a queue so far (deadlock-safe queue.wait()).");
  m.def("native_launch", [](std::uintptr_t qref) { return native_queue(queue_from_ref(qref)) != nullptr; },
        "Whether kernels on this queue launch through the OpenCL queue underneath it "
        "(kernels/engine/launch.cpp; USMARRAY_NATIVE_LAUNCH=0 turns it off).");
  m.def("shutdown", &engine_shutdown);
  m.def("is_shut_down", &engine_is_shut_down);
}

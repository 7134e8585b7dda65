// DLPack capsules: making them for an array (producer) and taking them
// apart (consumer). Policy (which device, copies, streams, errors of the
// array API contract) lives in usmarray/dlpack.py.
//
// Lifetime: a capsule owns its managed tensor until a consumer renames it
// "used_dltensor[_versioned]"; an unconsumed capsule frees the tensor in its
// destructor, a consumed one is freed by the consumer calling the deleter.
// The manager context holds a reference to the exporting Python object, so
// the memory stays alive as long as either needs it. Deleters may be called
// from any thread: they take the GIL to drop that reference.
#include "engine.hpp"
#include "dlpack.hpp"

#include <Python.h>

namespace usm {

using namespace dlpack;

namespace {

bool interpreter_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

void release_owner(PyObject *o) {
  if (!o || !Py_IsInitialized() || interpreter_finalizing()) return;  // at exit: leak
  PyGILState_STATE st = PyGILState_Ensure();
  Py_DECREF(o);
  PyGILState_Release(st);
}

struct Manager {
  std::vector<int64_t> shape, strides;
  PyObject *owner = nullptr;
  DLManagedTensor legacy{};
  DLManagedTensorVersioned versioned{};
};

void delete_versioned(DLManagedTensorVersioned *t) {
  auto *m = static_cast<Manager *>(t->manager_ctx);
  release_owner(m->owner);
  delete m;
}

void delete_legacy(DLManagedTensor *t) {
  auto *m = static_cast<Manager *>(t->manager_ctx);
  release_owner(m->owner);
  delete m;
}

void capsule_destructor(PyObject *cap) {
  // Only an unconsumed capsule still owns its tensor.
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  if (PyCapsule_IsValid(cap, kCapsuleVersioned)) {
    auto *t = static_cast<DLManagedTensorVersioned *>(PyCapsule_GetPointer(cap, kCapsuleVersioned));
    if (t && t->deleter) t->deleter(t);
  } else if (PyCapsule_IsValid(cap, kCapsule)) {
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, kCapsule));
    if (t && t->deleter) t->deleter(t);
  }
  PyErr_Clear();
  PyErr_Restore(type, value, tb);
}

DLDataType dl_type(int tc) {
  static const DLDataType table[TC_COUNT] = {
      {kDLBool, 8, 1},     {kDLInt, 8, 1},   {kDLUInt, 8, 1},   {kDLInt, 16, 1},
      {kDLUInt, 16, 1},    {kDLInt, 32, 1},  {kDLUInt, 32, 1},  {kDLInt, 64, 1},
      {kDLUInt, 64, 1},    {kDLFloat, 16, 1}, {kDLFloat, 32, 1}, {kDLFloat, 64, 1},
      {kDLComplex, 64, 1}, {kDLComplex, 128, 1}};
  if (tc < 0 || tc >= TC_COUNT) throw nb::value_error("unknown type code");
  return table[tc];
}

// Type code of a DLPack dtype, or -1 when usmarray has no such dtype.
int type_code(DLDataType t) {
  if (t.lanes != 1) return -1;
  for (int tc = 0; tc < TC_COUNT; ++tc) {
    DLDataType d = dl_type(tc);
    if (d.code == t.code && d.bits == t.bits) return tc;
  }
  return -1;
}

// Checks a tensor's geometry before anything reads through it: a shape to
// read, no negative dimension, an element count and a byte extent that fit
// in int64, a data pointer where there are elements, an address range that
// does not wrap. Producers are not trusted: a capsule is plain memory.
void check_geometry(const DLTensor &t, int64_t itemsize) {
  if (t.ndim > 0 && !t.shape)
    throw nb::buffer_error("DLPack tensor has ndim >= 1 but a NULL shape");
  bool empty = false;
  for (int i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0)
      throw nb::buffer_error(("DLPack tensor has a negative dimension (" +
                              std::to_string(t.shape[i]) + ")").c_str());
    empty = empty || t.shape[i] == 0;
  }
  if (empty) return;
  auto too_big = [] {
    return nb::value_error("DLPack tensor is too big: its size or extent in bytes overflows");
  };
  // [lo, hi]: element displacements from element zero
  int64_t lo = 0, hi = 0, size = 1, contiguous = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    const int64_t n = t.shape[i];
    const int64_t st = t.strides ? t.strides[i] : contiguous;
    int64_t d;
    if (__builtin_mul_overflow(size, n, &size) || __builtin_mul_overflow(n - 1, st, &d) ||
        (d < 0 ? __builtin_add_overflow(lo, d, &lo) : __builtin_add_overflow(hi, d, &hi)))
      throw too_big();
    if (!t.strides && __builtin_mul_overflow(contiguous, n, &contiguous)) throw too_big();
  }
  int64_t span, nbytes, total, lo_bytes;
  if (__builtin_sub_overflow(hi, lo, &span) || __builtin_add_overflow(span, 1, &span) ||
      __builtin_mul_overflow(span, itemsize, &nbytes) ||
      __builtin_mul_overflow(size, itemsize, &total) ||
      __builtin_mul_overflow(lo, itemsize, &lo_bytes))
    throw too_big();
  if (!t.data)
    throw nb::buffer_error("DLPack tensor has a NULL data pointer but a non-zero size");
  // first and one-past-last byte of the view must be addresses
  const __int128 start = static_cast<__int128>(reinterpret_cast<uintptr_t>(t.data)) +
                         static_cast<__int128>(t.byte_offset) + lo_bytes;
  if (start <= 0 || start + nbytes > (static_cast<__int128>(1) << 64))
    throw nb::buffer_error("DLPack tensor's data pointer, byte_offset and strides give "
                           "addresses outside the address space");
}

nb::tuple as_tuple(const int64_t *v, int n) {
  nb::list l;
  for (int i = 0; i < n; ++i) l.append(v[i]);
  return nb::tuple(l);
}

// The consumer side of a managed tensor: calls the producer's deleter when
// usmarray no longer needs the memory.
struct DLPackHolder {
  void *tensor = nullptr;
  bool versioned = false;
  ~DLPackHolder() {
    if (!tensor) return;
    if (versioned) {
      auto *t = static_cast<DLManagedTensorVersioned *>(tensor);
      if (t->deleter) t->deleter(t);
    } else {
      auto *t = static_cast<DLManagedTensor *>(tensor);
      if (t->deleter) t->deleter(t);
    }
  }
};

} // namespace

// A capsule for `owner`'s memory: element zero at `ptr` (byte_offset 0),
// shape/strides in elements.
nb::object dlpack_capsule(nb::handle owner, std::uintptr_t ptr, nb::tuple shape, nb::tuple strides,
                          int tc, bool versioned, int device_type, int device_id, uint64_t flags) {
  const size_t nd = nb::len(shape);
  if (nb::len(strides) != nd) throw nb::value_error("shape and strides differ in length");
  auto *m = new Manager;
  for (size_t i = 0; i < nd; ++i) {
    m->shape.push_back(nb::cast<int64_t>(shape[i]));
    m->strides.push_back(nb::cast<int64_t>(strides[i]));
  }
  DLTensor t{};
  t.data = reinterpret_cast<void *>(ptr);
  t.device = DLDevice{device_type, device_id};
  t.ndim = static_cast<int32_t>(nd);
  t.dtype = dl_type(tc);
  t.shape = m->shape.data();
  t.strides = m->strides.data();
  t.byte_offset = 0;
  m->owner = owner.ptr();
  Py_INCREF(m->owner);
  PyObject *cap;
  if (versioned) {
    m->versioned.version = DLPackVersion{kMajor, kMinor};
    m->versioned.manager_ctx = m;
    m->versioned.deleter = delete_versioned;
    m->versioned.flags = flags;
    m->versioned.dl_tensor = t;
    cap = PyCapsule_New(&m->versioned, kCapsuleVersioned, capsule_destructor);
  } else {
    m->legacy.dl_tensor = t;
    m->legacy.manager_ctx = m;
    m->legacy.deleter = delete_legacy;
    cap = PyCapsule_New(&m->legacy, kCapsule, capsule_destructor);
  }
  if (!cap) {
    Py_DECREF(m->owner);
    delete m;
    throw nb::python_error();
  }
  return nb::steal(cap);
}

namespace {
// Validates the capsule's tensor and describes it, without consuming it:
// BufferError (or ValueError for sizes that overflow) for tensors usmarray
// cannot hold.
nb::dict inspect(nb::handle cap, void *&ptr, bool &versioned) {
  PyObject *c = cap.ptr();
  if (!PyCapsule_CheckExact(c)) throw nb::type_error("expected a DLPack capsule");
  const char *name = PyCapsule_GetName(c);
  if (!name) {
    if (PyErr_Occurred()) throw nb::python_error();
    throw nb::type_error("not a DLPack capsule (it has no name)");   // a legal, unnamed capsule
  }
  const std::string n = name;
  if (n == kCapsuleUsed || n == kCapsuleVersionedUsed)
    throw nb::buffer_error("this DLPack capsule was already consumed");
  versioned = n == kCapsuleVersioned;
  if (!versioned && n != kCapsule)
    throw nb::type_error(("not a DLPack capsule (its name is '" + n + "')").c_str());
  ptr = PyCapsule_GetPointer(c, name);
  if (!ptr) throw nb::python_error();
  DLTensor *t;
  uint64_t flags = 0;
  nb::object version = nb::none();
  if (versioned) {
    auto *mt = static_cast<DLManagedTensorVersioned *>(ptr);
    if (mt->version.major > kMajor)
      throw nb::buffer_error(("DLPack version " + std::to_string(mt->version.major) + "." +
                              std::to_string(mt->version.minor) + " is not supported (major " +
                              std::to_string(kMajor) + " is)")
                                 .c_str());
    if (mt->version.major < 1)
      throw nb::buffer_error("a versioned DLPack capsule must have major version 1");
    t = &mt->dl_tensor;
    flags = mt->flags;
    version = nb::make_tuple(mt->version.major, mt->version.minor);
  } else {
    t = &static_cast<DLManagedTensor *>(ptr)->dl_tensor;
  }
  if (t->ndim < 0 || t->ndim > kMaxDims)
    throw nb::buffer_error(("DLPack tensor with " + std::to_string(t->ndim) +
                            " dimensions is not supported").c_str());
  if (t->dtype.lanes != 1)
    throw nb::buffer_error("DLPack tensors with vector lanes (lanes != 1) are not supported");
  const int tc = type_code(t->dtype);
  if (tc < 0)
    throw nb::buffer_error(("DLPack data type (code " + std::to_string(t->dtype.code) + ", " +
                            std::to_string(t->dtype.bits) + " bits) has no usmarray dtype")
                               .c_str());
  if (flags & kFlagSubbytePadded) throw nb::buffer_error("sub-byte DLPack types are not supported");
  if (t->byte_offset % static_cast<uint64_t>(kItemSize[tc]) != 0)
    throw nb::buffer_error(("DLPack byte_offset " + std::to_string(t->byte_offset) +
                            " is not a multiple of the item size " + std::to_string(kItemSize[tc]))
                               .c_str());
  check_geometry(*t, kItemSize[tc]);
  if (t->device.device_type == kDLCPU && t->device.device_id != 0)
    throw nb::buffer_error(("kDLCPU tensors have device_id 0, this one has " +
                            std::to_string(t->device.device_id)).c_str());
  nb::dict info;
  info["version"] = version;
  info["flags"] = flags;
  info["data"] = reinterpret_cast<std::uintptr_t>(t->data) + t->byte_offset;
  // (the pointer and the offset apart, for errors that name what is wrong)
  info["base"] = reinterpret_cast<std::uintptr_t>(t->data);
  info["byte_offset"] = t->byte_offset;
  info["device_type"] = t->device.device_type;
  info["device_id"] = t->device.device_id;
  info["shape"] = as_tuple(t->shape, t->ndim);
  info["strides"] = t->strides ? nb::object(as_tuple(t->strides, t->ndim)) : nb::none();
  info["tc"] = tc;
  return info;
}
}  // namespace

// The description of a capsule's tensor; the capsule stays unconsumed.
nb::dict dlpack_info(nb::handle cap) {
  void *ptr;
  bool versioned;
  return inspect(cap, ptr, versioned);
}

// Takes a capsule apart: returns (holder, info) and marks the capsule used.
// Raises (before consuming it) for tensors usmarray cannot hold.
nb::tuple dlpack_consume(nb::handle cap) {
  void *ptr;
  bool versioned;
  nb::dict info = inspect(cap, ptr, versioned);
  if (PyCapsule_SetName(cap.ptr(), versioned ? kCapsuleVersionedUsed : kCapsuleUsed) != 0)
    throw nb::python_error();
  auto *h = new DLPackHolder;
  h->tensor = ptr;
  h->versioned = versioned;
  return nb::make_tuple(nb::cast(h, nb::rv_policy::take_ownership), info);
}

void bind_dlpack(nb::module_ &m) {
  nb::class_<DLPackHolder>(m, "DLPackHolder",
                           "Owns a consumed DLPack tensor; its deleter runs when this is freed.");
  m.def("dlpack_capsule", &dlpack_capsule, nb::arg("owner"), nb::arg("ptr"), nb::arg("shape"),
        nb::arg("strides"), nb::arg("tc"), nb::arg("versioned"), nb::arg("device_type"),
        nb::arg("device_id"), nb::arg("flags"));
  m.def("dlpack_consume", &dlpack_consume);
  m.def("dlpack_info", &dlpack_info, "Validate and describe a DLPack capsule without consuming it.");
}

} // namespace usm

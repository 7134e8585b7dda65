// Reading usm_ndarray slots, and collapsing iterations to few dimensions.
#include "engine.hpp"

#include <Python.h>
#include <structmember.h>
#include <cstdlib>

namespace usm {

sycl::queue &queue_from_ref(std::uintptr_t qref) {
  if (!qref) throw nb::value_error("null queue reference");
  return *reinterpret_cast<sycl::queue *>(qref);
}

namespace {
PyObject *intern(const char *s) {
  PyObject *o = PyUnicode_InternFromString(s);
  if (!o) throw nb::python_error();
  return o;
}
struct SlotNames {
  PyObject *alloc = intern("_alloc");
  PyObject *off = intern("_off");
  PyObject *shape = intern("_shape");
  PyObject *strides = intern("_strides");
  PyObject *tc = intern("_tc");
};
const SlotNames &names() {
  static SlotNames *n = new SlotNames;
  return *n;
}

// New reference to attribute `name` of `o`, raising TypeError if missing.
nb::object get(nb::handle o, PyObject *name) {
  PyObject *r = PyObject_GetAttr(o.ptr(), name);
  if (!r) {
    PyErr_Clear();
    throw nb::type_error("expected a usm_ndarray");
  }
  return nb::steal(r);
}

int64_t as_i64(PyObject *o) {
  long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}
} // namespace

namespace {
// Where a class keeps the slots read_array reads (usm_ndarray has
// __slots__): their byte offsets in an instance, read once per class, so
// that an array's fields are read without five attribute lookups (half a
// microsecond of a small operation's launch).
struct SlotOffsets {
  PyTypeObject *type = nullptr;
  Py_ssize_t alloc, off, shape, strides, tc;
};
SlotOffsets g_slots;

bool slot_offset(PyTypeObject *t, PyObject *name, Py_ssize_t &off) {
  PyObject *d = _PyType_Lookup(t, name);  // borrowed
  if (!d || !Py_IS_TYPE(d, &PyMemberDescr_Type)) return false;
  const PyMemberDef *m = reinterpret_cast<PyMemberDescrObject *>(d)->d_member;
  if (m->type != T_OBJECT_EX) return false;
  off = m->offset;
  return true;
}

// The instance's slot at byte offset `off`, or nullptr when unset.
inline PyObject *slot(nb::handle o, Py_ssize_t off) {
  return *reinterpret_cast<PyObject **>(reinterpret_cast<char *>(o.ptr()) + off);
}

// The five fields of arr, borrowed, through the slot offsets of its class
// when it has them; false otherwise.
bool read_slots(nb::handle arr, PyObject *&alloc, PyObject *&off, PyObject *&shape,
                PyObject *&strides, PyObject *&tc) {
  PyTypeObject *t = Py_TYPE(arr.ptr());
  if (t != g_slots.type) {
    const SlotNames &n = names();
    SlotOffsets s;
    s.type = t;
    if (!slot_offset(t, n.alloc, s.alloc) || !slot_offset(t, n.off, s.off) ||
        !slot_offset(t, n.shape, s.shape) || !slot_offset(t, n.strides, s.strides) ||
        !slot_offset(t, n.tc, s.tc))
      return false;
    g_slots = s;
  }
  alloc = slot(arr, g_slots.alloc);
  off = slot(arr, g_slots.off);
  shape = slot(arr, g_slots.shape);
  strides = slot(arr, g_slots.strides);
  tc = slot(arr, g_slots.tc);
  return alloc && off && shape && strides && tc;
}
} // namespace

void read_array(nb::handle arr, ArrayRef &out) {
  PyObject *alloc_p, *off_p, *shape_p, *strides_p, *tc_p;
  nb::object held[5];  // the fields, when read as attributes
  if (!read_slots(arr, alloc_p, off_p, shape_p, strides_p, tc_p)) {
    const SlotNames &n = names();
    held[0] = get(arr, n.alloc);
    held[1] = get(arr, n.off);
    held[2] = get(arr, n.shape);
    held[3] = get(arr, n.strides);
    held[4] = get(arr, n.tc);
    alloc_p = held[0].ptr();
    off_p = held[1].ptr();
    shape_p = held[2].ptr();
    strides_p = held[3].ptr();
    tc_p = held[4].ptr();
  }
  Allocation *a = nullptr;
  if (!nb::try_cast<Allocation *>(nb::handle(alloc_p), a) || !a)
    throw nb::type_error("usm_ndarray without an allocation");
  out.alloc = a;
  out.off = as_i64(off_p);
  out.tc = static_cast<int>(as_i64(tc_p));
  if (out.tc < 0 || out.tc >= TC_COUNT) throw nb::type_error("unknown type code");
  out.itemsize = kItemSize[out.tc];
  nb::handle shape(shape_p), strides(strides_p);
  if (!PyTuple_Check(shape.ptr()) || !PyTuple_Check(strides.ptr()))
    throw nb::type_error("shape and strides must be tuples");
  Py_ssize_t nd = PyTuple_GET_SIZE(shape.ptr());
  if (nd > kMaxDims || PyTuple_GET_SIZE(strides.ptr()) != nd)
    throw nb::value_error("bad array dimensions");
  out.nd = static_cast<int>(nd);
  for (Py_ssize_t i = 0; i < nd; ++i) {
    out.shape[i] = as_i64(PyTuple_GET_ITEM(shape.ptr(), i));
    out.strides[i] = as_i64(PyTuple_GET_ITEM(strides.ptr(), i));
  }
}

bool overlaps(const ArrayRef &a, const ArrayRef &b) {
  int64_t alo, ahi, blo, bhi;
  a.extent(alo, ahi);
  b.extent(blo, bhi);
  if (alo == ahi || blo == bhi) return false;  // (no items: nothing to share)
  auto pa = reinterpret_cast<intptr_t>(a.alloc->ptr), pb = reinterpret_cast<intptr_t>(b.alloc->ptr);
  return pa + alo < pb + bhi && pb + blo < pa + ahi;
}

bool same_view(const ArrayRef &a, const ArrayRef &b) {
  if (a.data() != b.data() || a.itemsize != b.itemsize || a.nd != b.nd) return false;
  for (int i = 0; i < a.nd; ++i)
    if (a.shape[i] > 1 && a.strides[i] != b.strides[i]) return false;
  return true;
}

void check_operand(sycl::queue &q, const ArrayRef &x, const ArrayRef &out, const char *what) {
  bool same = x.nd == out.nd;
  for (int i = 0; same && i < x.nd; ++i) same = x.shape[i] == out.shape[i];
  if (!same) throw nb::value_error((std::string(what) + " shape differs from the output's").c_str());
  if (!(x.alloc->ctx == q.get_context()))
    throw nb::value_error((std::string(what) +
                           " is bound to another SYCL context than the queue; copy it through "
                           "the host (to_device/asarray do)")
                              .c_str());
}

int64_t ArrayRef::size() const {
  int64_t s = 1;
  for (int i = 0; i < nd; ++i) s *= shape[i];
  return s;
}

bool ArrayRef::is_c_contiguous() const {
  int64_t expect = 1;
  for (int i = nd - 1; i >= 0; --i) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

void ArrayRef::extent(int64_t &lo, int64_t &hi) const {
  int64_t mn = off, mx = off;
  for (int i = 0; i < nd; ++i) {
    if (shape[i] == 0) {
      lo = hi = off * itemsize;
      return;
    }
    int64_t d = (shape[i] - 1) * strides[i];
    if (d < 0) mn += d; else mx += d;
  }
  lo = mn * itemsize;
  hi = (mx + 1) * itemsize;
}

bool Iteration::contiguous() const {
  if (nd != 1) return false;
  if (shape[0] == 1) return true;
  for (int a = 0; a < na; ++a)
    if (strides[a][0] != 1) return false;
  return true;
}

int64_t Iteration::size() const {
  if (nd < 0) return 0;
  int64_t s = 1;
  for (int d = 0; d < nd; ++d) s *= shape[d];
  return s;
}

void collapse(int nd, const int64_t *shape, int na, const int64_t *const *strides, int primary,
              Iteration &it, int keep_last) {
  it.na = na;
  for (int a = 0; a < na; ++a) it.offset[a] = 0;
  for (int d = 0; d < nd; ++d)
    if (shape[d] == 0) {
      it.nd = -1;
      return;
    }
  const int nfree = nd - keep_last;
  int m = 0;
  int64_t sh[kMaxDims], st[kMaxOperands][kMaxDims];
  for (int d = 0; d < nfree; ++d) {
    if (shape[d] == 1) continue;
    sh[m] = shape[d];
    bool any_neg = false, all_nonpos = true;
    for (int a = 0; a < na; ++a) {
      st[a][m] = strides[a][d];
      any_neg |= st[a][m] < 0;
      all_nonpos &= st[a][m] <= 0;
    }
    if (any_neg && all_nonpos) {
      // Every operand walks this dimension backwards: walk it forwards from
      // the other end instead (same element pairing, better locality).
      for (int a = 0; a < na; ++a) {
        it.offset[a] += (sh[m] - 1) * st[a][m];
        st[a][m] = -st[a][m];
      }
    }
    ++m;
  }
  // Order dimensions by decreasing stride of the primary operand (ties by
  // the others), so the innermost dimension is the one it walks fastest.
  auto before = [&](int i, int j) {
    for (int k = 0; k < na; ++k) {
      int a = (primary + k) % na;
      int64_t x = std::llabs(st[a][i]), y = std::llabs(st[a][j]);
      if (x != y) return x > y;
    }
    return false;
  };
  for (int i = 1; i < m; ++i) {
    for (int j = i; j > 0 && before(j, j - 1); --j) {
      std::swap(sh[j], sh[j - 1]);
      for (int a = 0; a < na; ++a) std::swap(st[a][j], st[a][j - 1]);
    }
  }
  int n = 0;
  for (int i = 0; i < m; ++i) {
    bool merge = n > 0;
    for (int a = 0; a < na && merge; ++a)
      merge = it.strides[a][n - 1] == sh[i] * st[a][i];
    if (merge) {
      it.shape[n - 1] *= sh[i];
      for (int a = 0; a < na; ++a) it.strides[a][n - 1] = st[a][i];
    } else {
      it.shape[n] = sh[i];
      for (int a = 0; a < na; ++a) it.strides[a][n] = st[a][i];
      ++n;
    }
  }
  for (int d = nfree; d < nd; ++d) {
    it.shape[n] = shape[d];
    for (int a = 0; a < na; ++a) it.strides[a][n] = strides[a][d];
    ++n;
  }
  if (n == 0) {
    it.shape[0] = 1;
    for (int a = 0; a < na; ++a) it.strides[a][0] = 0;
    n = 1;
  }
  it.nd = n;
}

} // namespace usm

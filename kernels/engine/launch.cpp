// Kernel launches on the OpenCL queue underneath an OpenCL SYCL queue, and
// the engine's events (Ev), which hold either a SYCL event or an OpenCL one.
//
// Why: on the OpenCL CPU device a 1-item kernel launched through SYCL cost
// 2.7-4.6 us of the submitting thread, through clEnqueueNDRangeKernel on
// the same queue 1.6-3.1 us (C++ loops of 20000 launches on the 2-core VM,
// alternating runs); the SYCL runtime's handler, command group and event
// objects are the difference. usmarray's kernels take only values (USM
// pointers by value: usm::KernelPtr), so a launch is a list of argument
// bytes and an nd_range, recorded by the command group (Launch) and set
// with clSetKernelArg. Commands the SYCL runtime submits on the same queue
// (copies, fills, oneMKL) are ordered with these by the queue itself when
// it is in order, and by events otherwise (Ev::to_sycl, launch_native's
// wait list).
#include "engine.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "opencl.hpp"

namespace usm {

namespace {
const OpenCL &cl() { return opencl(); }

// USMARRAY_NATIVE_LAUNCH=0 launches every kernel through SYCL.
const bool kNativeLaunch = [] {
  const char *v = std::getenv("USMARRAY_NATIVE_LAUNCH");
  return !(v && v[0] == '0');
}();

std::mutex g_mutex;  // the caches below, and a kernel's arguments until its launch

// The queues launched on most recently, most recent first: a few, so that
// the lookup on every launch stays short and a program that makes queue
// after queue does not keep them all alive (an entry holds its queue).
constexpr size_t kQueueCache = 8;
struct NativeQueue {
  sycl::queue q;
  cl_command_queue cq;  // null: not an OpenCL queue; else retained (get_native retains)
};
// (this and g_kernels are never destroyed, as the memory pool: SYCL
// objects destroyed after the runtime's own teardown at exit crash it)
std::vector<NativeQueue> &g_queues = *new std::vector<NativeQueue>;

// Kernel arguments are state of the cl_kernel object, and the SYCL
// runtime's object for a kernel (get_native: `k`) also serves its launches
// of the kernel: those usmarray submits through SYCL (behind a host task,
// such as oneMKL's gemm on the CPU device, the runtime holds one back and
// submits it from its own thread when the task ends). While any such
// launch may still be setting arguments (on another queue, or an out-of-
// order one, a later launch may complete before an earlier one held back),
// direct launches use a cl_kernel of their own (`own`): with the one
// object, a launch once in thousands under load ran on another's operands
// (a flaky LinearDiscriminantAnalysis test). Not always `own`: the OpenCL
// CPU runtime launches a kernel made by clCreateKernel 1.2 us slower (5.0
// against 3.8 us per x + y).
struct NativeKernel {
  cl_kernel k = nullptr;    // retained for the process
  cl_kernel own = nullptr;  // made on first need, retained for the process
  cl_uint nargs = 0;
  int declined = 0;         // launches declined and not yet submitted through SYCL
  std::vector<Ev> runtime;  // the events of those submitted, until they complete (every
                            // one: on other queues a later one may complete first)
};
std::unordered_map<sycl::kernel, NativeKernel> &g_kernels =
    *new std::unordered_map<sycl::kernel, NativeKernel>;

// A cl_kernel of the same program and name as `shared`, or null.
cl_kernel private_kernel(cl_kernel shared) {
  cl_program prog = nullptr;
  size_t len = 0;
  if (cl().GetKernelInfo(shared, CL_KERNEL_PROGRAM, sizeof(prog), &prog, nullptr) != CL_SUCCESS ||
      cl().GetKernelInfo(shared, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &len) != CL_SUCCESS || !len)
    return nullptr;
  std::string name(len, '\0');
  if (cl().GetKernelInfo(shared, CL_KERNEL_FUNCTION_NAME, len, name.data(), nullptr) != CL_SUCCESS)
    return nullptr;
  cl_int err = CL_SUCCESS;
  cl_kernel own = cl().CreateKernel(prog, name.c_str(), &err);
  if (err != CL_SUCCESS || !own) return nullptr;
  // USM pointers reach kernels inside arguments (usm::KernelPtr, Geometry):
  // indirect access to every kind of USM, as the runtime's kernels have it
  if (cl().SetKernelExecInfo) {
    const cl_bool yes = CL_TRUE;
    for (cl_kernel_exec_info what : {CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                     CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                     CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL})
      cl().SetKernelExecInfo(own, what, sizeof(yes), &yes);
  }
  return own;
}

// The cl_kernel a direct launch of `nk` sets arguments on, or null (launch
// through SYCL). Under g_mutex.
void drop_completed(std::vector<Ev> &r) {
  r.erase(std::remove_if(r.begin(), r.end(), [](const Ev &e) { return e.complete(); }), r.end());
}

cl_kernel launch_object(NativeKernel &nk) {
  drop_completed(nk.runtime);
  if (nk.declined == 0 && nk.runtime.empty()) return nk.k;
  if (!nk.own) nk.own = private_kernel(nk.k);
  return nk.own;
}

NativeKernel &native_kernel(const sycl::kernel &k) {
  auto it = g_kernels.find(k);
  if (it != g_kernels.end()) return it->second;
  NativeKernel nk;
  try {
    nk.k = sycl::get_native<sycl::backend::opencl>(k);
    if (cl().GetKernelInfo(nk.k, CL_KERNEL_NUM_ARGS, sizeof(nk.nargs), &nk.nargs, nullptr) !=
        CL_SUCCESS)
      nk.nargs = ~cl_uint(0);
  } catch (const sycl::exception &) {
    nk.k = nullptr;
  }
  return g_kernels.emplace(k, nk).first->second;
}

std::string cl_error(cl_int err, const char *what) {
  return std::string("OpenCL error ") + std::to_string(err) + " " + what;
}
} // namespace

void *native_queue(const sycl::queue &q) {
  if (!kNativeLaunch) return nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < g_queues.size(); ++i) {
    if (g_queues[i].q != q) continue;
    if (i > 0) std::swap(g_queues[i], g_queues[i - 1]);  // (towards the front)
    return g_queues[i > 0 ? i - 1 : 0].cq;
  }
  cl_command_queue cq = nullptr;
  if (q.get_backend() == sycl::backend::opencl && cl().launch_ok)
    cq = sycl::get_native<sycl::backend::opencl>(q);
  if (g_queues.size() == kQueueCache) {
    // (commands launched on it keep the OpenCL queue alive through their events)
    if (g_queues.back().cq) cl().ReleaseCommandQueue(g_queues.back().cq);
    g_queues.pop_back();
  }
  g_queues.insert(g_queues.begin(), NativeQueue{q, cq});
  return cq;
}

// Launches of at most this many work-items are brief (host_wait): a few
// microseconds of work, even for the vector-block kernels (64 items each
// at most), whose wait pays less by polling than by blocking.
constexpr size_t kBriefItems = 1024;

std::optional<Ev> launch_native(void *cq, sycl::queue &q, Allocation *const *touched, size_t n,
                                const Launch &l) {
  thread_local std::vector<Ev> deps;
  thread_local std::vector<cl_event> wait;
  deps.clear();
  wait.clear();
  // After a command of the SYCL runtime still running (it may be a host
  // task, which has no OpenCL event), through SYCL, which orders them; so
  // the SYCL events left among the dependencies have completed.
  for (size_t i = 0; i < n; ++i) {
    const LastUse *u = touched[i] ? touched[i]->last.get() : nullptr;
    if (u && u->event && u->event->sycl_event() && !u->event->complete()) {
      std::lock_guard<std::mutex> lock(g_mutex);
      ++native_kernel(*l.kernel).declined;   // (until runtime_launched)
      return std::nullopt;
    }
  }
  add_dependencies(q, touched, n, deps, false);
  for (const Ev &d : deps)
    if (d.native()) wait.push_back(static_cast<cl_event>(d.native()));
  cl_event ev = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    NativeKernel &nk = native_kernel(*l.kernel);
    // a kernel whose OpenCL form has other arguments than those set (an
    // argument the SYCL runtime adds) goes through SYCL
    cl_kernel k = nk.k && nk.nargs == static_cast<cl_uint>(l.nargs) ? launch_object(nk) : nullptr;
    if (!k) {
      ++nk.declined;
      deps.clear();
      return std::nullopt;
    }
    for (int i = 0; i < l.nargs; ++i) {
      const cl_int err = cl().SetKernelArg(k, static_cast<cl_uint>(i), l.size[i], l.data + l.off[i]);
      if (err != CL_SUCCESS) throw std::runtime_error(cl_error(err, "setting a kernel argument"));
    }
    const cl_int err = cl().EnqueueNDRangeKernel(
        static_cast<cl_command_queue>(cq), k, l.dims, nullptr, l.global, l.local,
        static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(), &ev);
    if (err != CL_SUCCESS) throw std::runtime_error(cl_error(err, "launching a kernel"));
    // Submitted to the device now, not at the next wait: a caller that
    // waits for the result soon (a read-back, a scalar) finds it done
    // sooner (1-2 us of a 1-item reduction and read-back; a loop of
    // launches without waits measured the same either way).
    cl().Flush(static_cast<cl_command_queue>(cq));
  }
  deps.clear();  // (no events held between launches: none left at exit)
  Ev e = Ev::adopt_native(ev, l.global[0] * l.global[1] * l.global[2] <= kBriefItems);
  record_use(q, touched, n, e);
  return e;
}

void runtime_launched(const sycl::kernel &k, const Ev &e) {
  std::lock_guard<std::mutex> lock(g_mutex);
  NativeKernel &nk = native_kernel(k);
  if (nk.declined > 0) --nk.declined;
  drop_completed(nk.runtime);
  if (!e.empty() && !e.complete()) nk.runtime.push_back(e);
}

// ---------------------------------------------------------------- Ev
Ev Ev::adopt_native(void *c, bool brief) {
  Ev e;
  e.native_ = new Native{{1}, c, brief};
  return e;
}

void Ev::release(Native *n) {
  cl().ReleaseEvent(static_cast<cl_event>(n->event));
  delete n;
}

namespace {
// Whether a SYCL event's command completed. The SYCL runtime (DPC++'s
// event_impl::get_info<command_execution_status> and event_impl::wait) reads
// the event's native handle and, when it has none, whether a scheduler
// command is attached: no handle and a command is "submitted" (a command held
// back, behind a host task such as oneMKL's gemm on the CPU device), no
// handle and no command is "complete", and wait() returns at once. The two
// reads are not one snapshot: when the runtime's thread enqueues the held-back
// command (setting the handle) and detaches it from its event (post-enqueue
// cleanup) between them, the event reads as complete while its kernel has
// just been enqueued, and a wait returns before it ran (asnumpy then read a
// gemm's output without the in-place updates after it, about once in 10^5
// iterations under load). Once detached, the handle is set, so a second read
// sees the native event's real status: an event is complete only when two
// reads in a row say so (its status never goes back from complete).
bool sycl_complete(const sycl::event &e) {
  auto status = [&] { return e.get_info<sycl::info::event::command_execution_status>(); };
  return status() == sycl::info::event_command_status::complete &&
         status() == sycl::info::event_command_status::complete;
}

cl_int native_status(void *c) {  // (a cl_event)
  cl_int status = CL_COMPLETE;
  if (cl().GetEventInfo(static_cast<cl_event>(c), CL_EVENT_COMMAND_EXECUTION_STATUS,
                        sizeof(status), &status, nullptr) != CL_SUCCESS)
    return -1;
  return status;
}
} // namespace

bool Ev::complete() const {
  if (native_) return native_status(native_->event) <= CL_COMPLETE;  // (negative: failed)
  if (sycl_) return sycl_complete(*sycl_);
  return true;
}

void Ev::wait_and_throw() const {
  if (native_) {
    cl_event c = static_cast<cl_event>(native_->event);
    const cl_int err = cl().WaitForEvents(1, &c);
    const cl_int status = native_status(c);
    if (err != CL_SUCCESS || status < 0)
      throw std::runtime_error(cl_error(status < 0 ? status : err, "in a kernel on the device"));
    return;
  }
  if (sycl_) {
    // A wait that raced with the runtime enqueuing a held-back command
    // returns at once (sycl_complete): the handle is set by then, so the
    // next wait blocks on the native event.
    sycl::event e(*sycl_);
    do e.wait_and_throw(); while (!sycl_complete(e));
  }
}

sycl::event Ev::to_sycl(const sycl::context &ctx) const {
  if (native_)
    return sycl::make_event<sycl::backend::opencl>(
        std::vector<cl_event>{static_cast<cl_event>(native_->event)}, ctx);  // (retains it)
  if (sycl_) return *sycl_;
  return sycl::event();
}

bool Ev::operator==(const Ev &o) const {
  if (native_ || o.native_) return native() == o.native();
  if (sycl_ && o.sycl_) return *sycl_ == *o.sycl_;
  return !sycl_ && !o.sycl_;
}

} // namespace usm

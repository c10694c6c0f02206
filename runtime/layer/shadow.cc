#include "runtime/layer/shadow.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <cstdlib>
#include <vector>

#include "runtime/diagnostic_output.h"
#include "runtime/layer/compare.h"
#include "runtime/layer/images.h"

namespace spvsim::layer {
namespace {

constexpr size_t kMismatchesShown = 4;  // per argument; the count says how many in all

std::string shapeText(const LaunchShape& s) {
  auto triple = [&](const std::array<size_t, 3>& v) {
    std::string t;
    for (cl_uint d = 0; d < s.dims; ++d) t += fmt::format("{}{}", d ? "," : "", v[d]);
    return t;
  };
  return fmt::format("global {}{}", triple(s.global),
                     s.localGiven ? ", local " + triple(s.local) : ", local chosen by each");
}

}  // namespace

ShadowKnobs ShadowKnobs::fromEnvironment() {
  ShadowKnobs k;
  if (const char* f = std::getenv("SPVSIM_SHADOW_FILTER")) k.filter = f;
  if (const char* l = std::getenv("SPVSIM_SHADOW_LIMIT"); l && *l) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(l, &end, 10);
    if (*end == '\0' && l[0] != '-')
      k.limit = n;
    else
      rt::writeDiagnosticText(
          fmt::format("spvsim layer: SPVSIM_SHADOW_LIMIT '{}' is not a number; ignored\n", l));
  }
  return k;
}

Shadow::Shadow(const cl_icd_dispatch* target, ShadowKnobs knobs)
    : target_(target), knobs_(std::move(knobs)) {}

cl_int Shadow::passThrough(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                           const size_t* offset, const size_t* global, const size_t* local,
                           cl_uint numWait, const cl_event* waitList, cl_event* event) {
  return target_->clEnqueueNDRangeKernel(queue, kernel, dims, offset, global, local, numWait,
                                         waitList, event);
}

void Shadow::skipped(const std::string& kernel, const std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++skips_[why];
  if (said_.emplace(kernel, why).second)
    rt::writeDiagnosticText(
        fmt::format("spvsim layer: not shadowing kernel '{}': {}\n", kernel, why));
}

uint32_t Shadow::deviceSubGroupSize(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                                    const size_t* local) {
  if (!local || !target_->clGetKernelSubGroupInfo) return 0;
  cl_device_id device = nullptr;
  if (target_->clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) !=
      CL_SUCCESS)
    return 0;
  size_t size = 0;
  if (target_->clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                       dims * sizeof(size_t), local, sizeof size, &size,
                                       nullptr) != CL_SUCCESS)
    return 0;
  return static_cast<uint32_t>(size);
}

bool Shadow::readRoots(cl_command_queue queue, const LaunchRecord& launch,
                       const std::set<cl_mem>& roots, cl_uint numWait, const cl_event* waitList,
                       std::map<cl_mem, std::vector<uint8_t>>& out, std::string& why) {
  for (cl_mem mem : roots) {
    const MemRecord& record = launch.mems.at(mem);
    std::vector<uint8_t>& bytes = out[mem];
    bytes.resize(record.size);
    const size_t origin[3] = {0, 0, 0};
    const std::array<size_t, 3> region = wholeRegion(record.desc);
    const cl_int err =
        record.image ? target_->clEnqueueReadImage(queue, mem, CL_TRUE, origin, region.data(), 0, 0,
                                                   bytes.data(), numWait, waitList, nullptr)
                     : target_->clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, record.size,
                                                    bytes.data(), numWait, waitList, nullptr);
    if (err != CL_SUCCESS) {
      why = fmt::format(
          "the device refused to read a buffer or image back (error {}; "
          "CL_MEM_HOST_NO_ACCESS or CL_MEM_HOST_WRITE_ONLY?)",
          err);
      return false;
    }
  }
  return true;
}

cl_int Shadow::enqueue(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t* offset,
                       const size_t* global, const size_t* local, cl_uint numWait,
                       const cl_event* waitList, cl_event* event) {
  std::string why;
  const std::optional<LaunchRecord> launch = records_.launch(kernel, why);
  const bool shapeOk = dims >= 1 && dims <= 3 && global;
  if (!launch || !shapeOk) {
    if (launch) why = "the NDRange is not one the device can run";  // the device says so
    skipped(launch ? launch->kernel.name : "?", why);
    return passThrough(queue, kernel, dims, offset, global, local, numWait, waitList, event);
  }
  const std::string& name = launch->kernel.name;
  if (!knobs_.filter.empty() && fnmatch(knobs_.filter.c_str(), name.c_str(), 0) != 0)
    return passThrough(queue, kernel, dims, offset, global, local, numWait, waitList, event);
  // Reading back blocks this thread until the queue gets there; with a user event the
  // application has not set, that could be never (the event gates this launch or an
  // earlier one of the queue, and the application sets it after enqueueing).
  cl_context context = nullptr;
  target_->clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr);
  if (context && records_.userEventsOutstanding(context)) {
    skipped(name,
            "a user event of its context is not set yet (waiting for the launch's inputs "
            "could block the application)");
    return passThrough(queue, kernel, dims, offset, global, local, numWait, waitList, event);
  }
  const uint64_t number = launches_++;
  if (number >= knobs_.limit) {
    skipped(name, fmt::format("SPVSIM_SHADOW_LIMIT ({}) launches were shadowed", knobs_.limit));
    return passThrough(queue, kernel, dims, offset, global, local, numWait, waitList, event);
  }
  std::vector<BufferParam> params;
  std::set<cl_mem> roots;
  if (!replay_.plan(*launch, params, why)) {
    skipped(name, why);
    return passThrough(queue, kernel, dims, offset, global, local, numWait, waitList, event);
  }
  for (const BufferParam& p : params)
    if (p.root) roots.insert(p.root);

  // The inputs as the device holds them once the wait list is done.
  std::map<cl_mem, std::vector<uint8_t>> before, deviceAfter, spvsimAfter;
  if (!readRoots(queue, *launch, roots, numWait, waitList, before, why)) {
    skipped(name, why);
    return passThrough(queue, kernel, dims, offset, global, local, numWait, waitList, event);
  }
  cl_event ran = nullptr;
  const cl_int status =
      passThrough(queue, kernel, dims, offset, global, local, numWait, waitList, &ran);
  if (status != CL_SUCCESS) return status;  // the device refused it: nothing ran
  const bool read = readRoots(queue, *launch, roots, 1, &ran, deviceAfter, why);
  if (event)
    *event = ran;
  else
    target_->clReleaseEvent(ran);
  if (!read) {
    skipped(name, why);
    return status;
  }

  LaunchShape shape;
  shape.dims = dims;
  for (cl_uint d = 0; d < dims; ++d) {
    shape.global[d] = global[d];
    shape.offset[d] = offset ? offset[d] : 0;
    shape.local[d] = local ? local[d] : 0;
  }
  shape.localGiven = local != nullptr;
  shape.subGroupSize = deviceSubGroupSize(queue, kernel, dims, local);
  if (!replay_.run(*launch, shape, before, deviceAfter, spvsimAfter, why)) {
    skipped(name, why);
    return status;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++shadowed_;
  }
  compare(*launch, number, shape, params, deviceAfter, spvsimAfter);
  return status;
}

void Shadow::compare(const LaunchRecord& launch, uint64_t number, const LaunchShape& shape,
                     const std::vector<BufferParam>& params,
                     const std::map<cl_mem, std::vector<uint8_t>>& device,
                     const std::map<cl_mem, std::vector<uint8_t>>& spvsim) {
  std::string text;
  uint64_t elements = 0;
  bool beyond = false;  // a difference the spec's accuracy does not allow
  std::set<std::tuple<cl_mem, size_t, size_t>> seen;  // one report per window
  std::optional<std::set<std::string>> builtins;
  for (const BufferParam& p : params) {
    if (!p.writable || !p.root || !seen.emplace(p.root, p.origin, p.size).second) continue;
    const std::vector<uint8_t>& d = device.at(p.root);
    const std::vector<uint8_t>& s = spvsim.at(p.root);
    const std::vector<uint8_t> dw(d.begin() + p.origin, d.begin() + p.origin + p.size);
    const std::vector<uint8_t> sw(s.begin() + p.origin, s.begin() + p.origin + p.size);
    const ElementType type = p.image ? pixelElement(p.format) : pointeeElement(p.typeName);
    const Comparison c = compareElements(type, dw, sw, kMismatchesShown);
    if (c.differing == 0) continue;
    elements += c.differing;
    std::string accuracy;
    bool allowedBySpec = false;
    if (c.onlyFloats) {
      if (!builtins) builtins = replay_.builtinsOf(launch);
      const std::optional<double> allowed = allowedUlps(*builtins);
      allowedBySpec = allowed && static_cast<double>(c.maxUlps) <= *allowed;
      accuracy = !allowed ? "; the kernel calls built-ins without an accuracy bound, so the "
                            "spec may allow it"
                 : static_cast<double>(c.maxUlps) <= *allowed
                     ? fmt::format("; within the {} ulp the built-ins it calls allow", *allowed)
                     : fmt::format("; beyond the {} ulp the built-ins it calls allow", *allowed);
    }
    if (c.onlyRounding) {
      // A float written to a normalized channel is converted with a precision the
      // conversion rules of OpenCL C 3.0 section 8.3.1 leave to the device within a
      // tolerance: one unit apart is a warning, not a wrong kernel.
      allowedBySpec = true;
      accuracy = "; each is one unit of a normalized channel (the float conversion's rounding)";
    }
    beyond = beyond || !allowedBySpec;
    text += fmt::format(
        "{}: device-mismatch: kernel '{}' (launch {}: {}), argument {} ({}): {} {} differ "
        "between the device and spvsim{}{}\n",
        allowedBySpec ? "warning" : "error", launch.kernel.name, number, shapeText(shape), p.index,
        p.declaration, c.differing, c.onlyFloats ? "floating-point components" : "components",
        c.onlyFloats ? fmt::format(" (at most {} ulps)", c.maxUlps) : "", accuracy);
    for (const Mismatch& m : c.first)
      text += fmt::format("  element {}{}: device {}, spvsim {}{}\n", m.element,
                          type.lanes > 1 ? fmt::format(" .s{:x}", m.lane) : "", m.device, m.spvsim,
                          m.ulps ? fmt::format(" ({} ulps)", *m.ulps) : "");
  }
  if (text.empty()) return;
  rt::writeDiagnosticText(text);
  std::lock_guard<std::mutex> lock(mutex_);
  ++mismatchedLaunches_;
  mismatchedElements_ += elements;
  if (!beyond) ++allowedLaunches_;
}

std::string Shadow::summary() const {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t skipped = 0;
  std::string reasons;
  for (const auto& [why, n] : skips_) {
    skipped += n;
    reasons += fmt::format("\n  {} x {}", n, why);
  }
  return fmt::format(
      "spvsim layer: {} launches shadowed, {} skipped, {} with device mismatches ({} "
      "components; {} of those launches only within the accuracy the spec allows), {} "
      "diagnostics from spvsim{}\n",
      shadowed_, skipped, mismatchedLaunches_, mismatchedElements_, allowedLaunches_,
      rt::diagnosticsReported(), reasons);
}

}  // namespace spvsim::layer

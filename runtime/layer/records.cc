#include "runtime/layer/records.h"

#include <cstring>

namespace spvsim::layer {

void Records::program(cl_program p, ProgramRecord r) {
  std::lock_guard<std::mutex> lock(mutex_);
  programs_[p] = std::move(r);
}

void Records::built(cl_program p, const char* options) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = programs_.find(p);
  if (it == programs_.end()) return;
  it->second.options = options ? options : "";
  it->second.built = true;
}

void Records::kernel(cl_kernel k, cl_program p, std::string name) {
  std::lock_guard<std::mutex> lock(mutex_);
  kernels_[k] = KernelRecord{p, std::move(name), {}};
}

void Records::arg(cl_kernel k, cl_uint index, ArgRecord a) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = kernels_.find(k);
  if (it == kernels_.end() || index > 4096) return;
  std::vector<ArgRecord>& args = it->second.args;
  if (args.size() <= index) args.resize(index + 1);
  args[index] = std::move(a);
}

void Records::clone(cl_kernel source, cl_kernel copy) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = kernels_.find(source); it != kernels_.end()) kernels_[copy] = it->second;
}

void Records::mem(cl_mem m, MemRecord r) {
  std::lock_guard<std::mutex> lock(mutex_);
  mems_[m] = r;
}

void Records::sampler(cl_sampler s, SamplerRecord r) {
  std::lock_guard<std::mutex> lock(mutex_);
  samplers_[s] = r;
}

void Records::dropSampler(cl_sampler s) {
  std::lock_guard<std::mutex> lock(mutex_);
  samplers_.erase(s);
}

void Records::userEvent(cl_event e, cl_context c) {
  std::lock_guard<std::mutex> lock(mutex_);
  userEvents_[e] = c;
}

void Records::userEventSet(cl_event e) {
  std::lock_guard<std::mutex> lock(mutex_);
  userEvents_.erase(e);
}

bool Records::userEventsOutstanding(cl_context c) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [event, context] : userEvents_)
    if (context == c) return true;
  return false;
}

void Records::dropProgram(cl_program p) {
  std::lock_guard<std::mutex> lock(mutex_);
  programs_.erase(p);
}

std::optional<ProgramRecord> Records::programOf(cl_program p) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = programs_.find(p);
  if (it == programs_.end()) return std::nullopt;
  return it->second;
}

void Records::dropKernel(cl_kernel k) {
  std::lock_guard<std::mutex> lock(mutex_);
  kernels_.erase(k);
}

void Records::dropMem(cl_mem m) {
  std::lock_guard<std::mutex> lock(mutex_);
  mems_.erase(m);
}

std::optional<LaunchRecord> Records::launch(cl_kernel k, std::string& why) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto kernel = kernels_.find(k);
  if (kernel == kernels_.end()) {
    why = "the layer did not see the kernel created";
    return std::nullopt;
  }
  const auto program = programs_.find(kernel->second.program);
  if (program == programs_.end()) {
    why = "the layer did not see the kernel's program created";
    return std::nullopt;
  }
  LaunchRecord r{kernel->second, program->second, {}};
  for (const ArgRecord& a : r.kernel.args) {
    if (a.kind != ArgRecord::Kind::Bytes || a.bytes.size() != sizeof(cl_mem)) continue;
    cl_mem m = nullptr;
    std::memcpy(&m, a.bytes.data(), sizeof m);
    cl_sampler s = nullptr;
    std::memcpy(&s, a.bytes.data(), sizeof s);
    if (auto it = samplers_.find(s); it != samplers_.end())
      r.samplers.emplace(it->first, it->second);
    // A value of pointer size may be a cl_mem: those the layer knows, with their parents.
    for (auto it = mems_.find(m); it != mems_.end(); it = mems_.find(it->second.parent)) {
      r.mems.emplace(it->first, it->second);
      if (!it->second.parent) break;
    }
  }
  return r;
}

}  // namespace spvsim::layer

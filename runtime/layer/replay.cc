#include "runtime/layer/replay.h"

#include <fmt/format.h>

#include <cstring>

#include "runtime/core_api.h"
#include "runtime/interfaces.h"
#include "runtime/kernel.h"
#include "runtime/layer/images.h"
#include "spirv/instruction_info.h"

namespace spvsim::layer {
namespace {

std::string clError(const char* what, cl_int err) {
  return fmt::format("{} failed ({})", what, err);
}

// What a parameter kind needs that the layer does not shadow yet; "" when it shadows it.
std::string unshadowed(const spirv::ParamSignature& p) {
  switch (p.kind) {
    case spirv::ParamKind::Pipe:
      return "pipe arguments are not shadowed yet";
    case spirv::ParamKind::Queue:
    case spirv::ParamKind::Event:
      return "device-side enqueue arguments are not shadowed yet";
    default:
      return "";
  }
}

// The kernel-access part of a buffer's flags; `fallback` where it gives none (a buffer is
// CL_MEM_READ_WRITE then; a sub-buffer inherits its buffer's).
cl_mem_flags accessFlags(cl_mem_flags flags, cl_mem_flags fallback = CL_MEM_READ_WRITE) {
  const cl_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY);
  return access ? access : fallback;
}

cl_mem memOf(const ArgRecord& a) {
  cl_mem m = nullptr;
  if (a.bytes.size() == sizeof m) std::memcpy(&m, a.bytes.data(), sizeof m);
  return m;
}

// The OpenCL.std instructions a module calls, by their grammar names, and "fdiv" where it
// divides floats.
std::set<std::string> builtinsIn(const spirv::Module& m) {
  std::set<std::string> names;
  for (const spirv::Function& f : m.functions)
    for (const spirv::Block& b : f.blocks)
      for (const spirv::Instruction& i : b.instructions) {
        if (i.opcode == spv::Op::OpFDiv) names.insert("fdiv");
        if (i.opcode != spv::Op::OpExtInst || i.operands.size() < 2) continue;
        const auto set = m.extInstImports.find(i.extSet());
        if (set == m.extInstImports.end() || set->second != "OpenCL.std") continue;
        if (const auto* row = spirv::findOpenclStd(i.extOpcode())) names.insert(row->name);
      }
  return names;
}

}  // namespace

Replay::Replay() {
  cl_uint n = 0;
  if (rt::clIcdGetPlatformIDsKHR(1, &platform_, &n) != CL_SUCCESS || n == 0) {
    unavailable_ = "spvsim's platform is not available";
    return;
  }
  d_ = *reinterpret_cast<const cl_icd_dispatch* const*>(platform_);
  cl_int err = d_->clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr);
  if (err == CL_SUCCESS)
    context_ = d_->clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  if (err == CL_SUCCESS)
    queue_ = d_->clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  if (err != CL_SUCCESS) unavailable_ = clError("creating spvsim's context and queue", err);
}

Replay::~Replay() {
  if (!d_) return;
  for (auto& [key, b] : built_)
    if (b.program) d_->clReleaseProgram(b.program);
  if (queue_) d_->clReleaseCommandQueue(queue_);
  if (context_) d_->clReleaseContext(context_);
}

Replay::Built& Replay::build(const LaunchRecord& launch) {
  const ProgramRecord& p = launch.program;
  std::string key = p.options + '\0' + (p.origin == ProgramRecord::Origin::Source ? "S" : "I");
  key +=
      p.origin == ProgramRecord::Origin::Source ? p.source : std::string(p.il.begin(), p.il.end());
  auto [it, fresh] = built_.try_emplace(std::move(key));
  Built& b = it->second;
  if (!fresh) return b;
  cl_int err = CL_SUCCESS;
  if (p.origin == ProgramRecord::Origin::Source) {
    const char* text = p.source.c_str();
    b.program = d_->clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
  } else {
    b.program = d_->clCreateProgramWithIL(context_, p.il.data(), p.il.size(), &err);
  }
  if (err != CL_SUCCESS) {
    b.error = clError("creating the program on spvsim", err);
    return b;
  }
  err = d_->clBuildProgram(b.program, 1, &device_, p.options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    size_t size = 0;
    d_->clGetProgramBuildInfo(b.program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    d_->clGetProgramBuildInfo(b.program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    b.error = fmt::format("spvsim cannot build the program: {}", log.empty() ? "no log" : log);
    d_->clReleaseProgram(b.program);
    b.program = nullptr;
  }
  return b;
}

cl_kernel Replay::kernel(const LaunchRecord& launch, std::string& why) {
  if (!unavailable_.empty()) {
    why = unavailable_;
    return nullptr;
  }
  if (launch.program.origin == ProgramRecord::Origin::Other) {
    why = fmt::format("the program was made from {}, which spvsim cannot build",
                      launch.program.other);
    return nullptr;
  }
  Built& b = build(launch);
  if (!b.program) {
    why = b.error;
    return nullptr;
  }
  cl_int err = CL_SUCCESS;
  cl_kernel k = d_->clCreateKernel(b.program, launch.kernel.name.c_str(), &err);
  if (err != CL_SUCCESS) why = clError(("creating kernel " + launch.kernel.name).c_str(), err);
  if (k && !b.builtinsKnown) {
    b.builtins = builtinsIn(static_cast<_cl_kernel*>(k)->executable->module());
    b.builtinsKnown = true;
  }
  return err == CL_SUCCESS ? k : nullptr;
}

bool Replay::plan(const LaunchRecord& launch, std::vector<BufferParam>& buffers, std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  cl_kernel k = kernel(launch, why);
  if (!k) return false;
  const std::vector<spirv::ParamSignature> params =
      static_cast<_cl_kernel*>(k)->kernel.signature().params;
  d_->clReleaseKernel(k);
  const std::vector<ArgRecord>& args = launch.kernel.args;
  for (const spirv::ParamSignature& p : params) {
    if (const std::string w = unshadowed(p); !w.empty()) {
      why = w;
      return false;
    }
    const ArgRecord* a = p.index < args.size() ? &args[p.index] : nullptr;
    if (!a || a->kind == ArgRecord::Kind::Unset) {
      why = fmt::format("argument {} was not set", p.index);  // the device refuses it too
      return false;
    }
    if (a->kind == ArgRecord::Kind::Svm) {
      why = "SVM pointer arguments are not shadowed yet";
      return false;
    }
    if (p.kind == spirv::ParamKind::Sampler) {
      cl_sampler s = nullptr;
      if (a->bytes.size() == sizeof s) std::memcpy(&s, a->bytes.data(), sizeof s);
      if (!launch.samplers.count(s)) {
        why = fmt::format("argument {} names a sampler the layer did not see created", p.index);
        return false;
      }
      continue;
    }
    if (p.kind == spirv::ParamKind::Image) {
      const cl_mem m = memOf(*a);
      const auto it = launch.mems.find(m);
      if (it == launch.mems.end() || !it->second.image) {
        why = fmt::format("argument {} names an image the layer did not see created", p.index);
        return false;
      }
      if (const std::string w = unshadowedImage(it->second.format, it->second.desc); !w.empty()) {
        why = w;
        return false;
      }
      BufferParam b{
          p.index, p.declaration(), p.typeName, p.access != spirv::AccessQualifier::ReadOnly, m, m,
          0,       it->second.size};
      b.image = true;
      b.format = it->second.format;
      buffers.push_back(std::move(b));
      continue;
    }
    if (p.kind != spirv::ParamKind::GlobalPointer && p.kind != spirv::ParamKind::ConstantPointer)
      continue;
    BufferParam b{p.index, p.declaration(), p.typeName, !p.readOnly, memOf(*a)};
    if (b.mem) {
      const auto it = launch.mems.find(b.mem);
      if (it == launch.mems.end() || !it->second.buffer) {
        why =
            fmt::format("argument {} names a memory object the layer did not see created", p.index);
        return false;
      }
      b.root = b.mem;
      b.size = it->second.size;
      for (auto r = it; r->second.parent; r = launch.mems.find(r->second.parent)) {
        if (!launch.mems.count(r->second.parent)) {
          why = "a sub-buffer's buffer was not seen created";
          return false;
        }
        b.origin += r->second.origin;
        b.root = r->second.parent;
      }
    }
    buffers.push_back(std::move(b));
  }
  return true;
}

std::set<std::string> Replay::builtinsOf(const LaunchRecord& launch) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!unavailable_.empty() || launch.program.origin == ProgramRecord::Origin::Other) return {};
  return build(launch).builtins;
}

// What one replay made on spvsim, released when it ends.
struct Replay::Made {
  const cl_icd_dispatch* d;
  cl_kernel kernel = nullptr;
  std::map<cl_mem, cl_mem> roots;  // the application's root allocation -> spvsim's copy
  std::vector<cl_mem> mems;
  std::vector<cl_sampler> samplers;
  ~Made() {
    for (cl_mem m : mems) d->clReleaseMemObject(m);
    for (cl_sampler s : samplers) d->clReleaseSampler(s);
    if (kernel) d->clReleaseKernel(kernel);
  }
};

namespace {

// A sub-buffer's window of its root allocation.
std::pair<cl_mem, size_t> rootOf(const LaunchRecord& launch, cl_mem mem) {
  size_t origin = 0;
  for (const MemRecord* m = &launch.mems.at(mem); m->parent; m = &launch.mems.at(m->parent)) {
    origin += m->origin;
    mem = m->parent;
  }
  return {mem, origin};
}

}  // namespace

// spvsim's copy of each root allocation (buffer or image) with the device's "before"
// contents and the application's access flags (so that spvsim reports their misuse).
bool Replay::copyRoots(const LaunchRecord& launch,
                       const std::map<cl_mem, std::vector<uint8_t>>& before,
                       const std::map<cl_mem, std::vector<uint8_t>>& deviceAfter, Made& made,
                       std::string& why) {
  for (const auto& [mem, bytes] : before) {
    const MemRecord& record = launch.mems.at(mem);
    auto* host = const_cast<uint8_t*>(bytes.data());
    cl_int err = CL_SUCCESS;
    cl_mem m = nullptr;
    if (record.image) {
      cl_image_desc desc = record.desc;  // packed: no pitches
      desc.image_row_pitch = desc.image_slice_pitch = 0;
      m = d_->clCreateImage(context_, accessFlags(record.flags) | CL_MEM_COPY_HOST_PTR,
                            &record.format, &desc, host, &err);
    } else {
      m = d_->clCreateBuffer(context_, accessFlags(record.flags) | CL_MEM_COPY_HOST_PTR,
                             std::max<size_t>(bytes.size(), 1), host, &err);
    }
    if (err != CL_SUCCESS) {
      why = clError("making spvsim's copy of a buffer or image", err);
      return false;
    }
    made.mems.push_back(m);
    made.roots[mem] = m;
    if (auto it = deviceAfter.find(mem); it != deviceAfter.end())
      static_cast<_cl_mem*>(m)->capturedAfter =
          std::make_shared<const std::vector<uint8_t>>(it->second);
  }
  return true;
}

// One argument of the replay, as the application set it on the device.
cl_int Replay::bindArg(const LaunchRecord& launch, const spirv::ParamSignature& p, Made& made) {
  const ArgRecord& a = launch.kernel.args[p.index];
  cl_int err = CL_SUCCESS;
  switch (p.kind) {
    case spirv::ParamKind::LocalPointer:
      return d_->clSetKernelArg(made.kernel, p.index,
                                a.kind == ArgRecord::Kind::Local ? a.size : a.bytes.size(),
                                nullptr);
    case spirv::ParamKind::Sampler: {
      cl_sampler app = nullptr;
      std::memcpy(&app, a.bytes.data(), sizeof app);
      const SamplerRecord& r = launch.samplers.at(app);
      const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                             r.normalized,
                                             CL_SAMPLER_ADDRESSING_MODE,
                                             r.addressing,
                                             CL_SAMPLER_FILTER_MODE,
                                             r.filter,
                                             0};
      cl_sampler s = d_->clCreateSamplerWithProperties(context_, props, &err);
      if (err != CL_SUCCESS) return err;
      made.samplers.push_back(s);
      return d_->clSetKernelArg(made.kernel, p.index, sizeof s, &s);
    }
    case spirv::ParamKind::Image: {
      const cl_mem image = made.roots.at(memOf(a));
      return d_->clSetKernelArg(made.kernel, p.index, sizeof image, &image);
    }
    case spirv::ParamKind::GlobalPointer:
    case spirv::ParamKind::ConstantPointer: {
      const cl_mem mem = memOf(a);
      cl_mem bound = nullptr;
      if (mem && !launch.mems.at(mem).parent) {
        bound = made.roots.at(mem);
      } else if (mem) {  // a sub-buffer: the same window of spvsim's copy of its root
        const auto [root, origin] = rootOf(launch, mem);
        const MemRecord& r = launch.mems.at(mem);
        const cl_buffer_region region{origin, r.size};
        bound = d_->clCreateSubBuffer(made.roots.at(root), accessFlags(r.flags, 0),
                                      CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
        if (err != CL_SUCCESS) return err;
        made.mems.push_back(bound);
      }
      return d_->clSetKernelArg(made.kernel, p.index, sizeof bound, &bound);
    }
    default:
      return d_->clSetKernelArg(made.kernel, p.index, a.bytes.size(), a.bytes.data());
  }
}

// spvsim's contents of each root allocation after its run, packed as `before` was.
bool Replay::readBack(const LaunchRecord& launch,
                      const std::map<cl_mem, std::vector<uint8_t>>& before, const Made& made,
                      std::map<cl_mem, std::vector<uint8_t>>& after, std::string& why) {
  for (const auto& [mem, simMem] : made.roots) {
    std::vector<uint8_t>& bytes = after[mem];
    bytes.resize(before.at(mem).size());
    const MemRecord& record = launch.mems.at(mem);
    const size_t origin[3] = {0, 0, 0};
    const std::array<size_t, 3> region = wholeRegion(record.desc);
    const cl_int err = record.image
                           ? d_->clEnqueueReadImage(queue_, simMem, CL_TRUE, origin, region.data(),
                                                    0, 0, bytes.data(), 0, nullptr, nullptr)
                           : d_->clEnqueueReadBuffer(queue_, simMem, CL_TRUE, 0, bytes.size(),
                                                     bytes.data(), 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      why = clError("reading spvsim's results", err);
      return false;
    }
  }
  return true;
}

bool Replay::run(const LaunchRecord& launch, const LaunchShape& shape,
                 const std::map<cl_mem, std::vector<uint8_t>>& before,
                 const std::map<cl_mem, std::vector<uint8_t>>& deviceAfter,
                 std::map<cl_mem, std::vector<uint8_t>>& after, std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  Made made{d_};
  made.kernel = kernel(launch, why);
  if (!made.kernel) return false;
  auto* k = static_cast<_cl_kernel*>(made.kernel);
  if (shape.subGroupSize >= 1 && shape.subGroupSize <= 128)
    k->subGroupSizeOverride = shape.subGroupSize;
  if (!copyRoots(launch, before, deviceAfter, made, why)) return false;
  for (const spirv::ParamSignature& p : k->kernel.signature().params) {
    if (const cl_int err = bindArg(launch, p, made); err != CL_SUCCESS) {
      why = fmt::format("spvsim refuses argument {} ({}): error {}", p.index, p.declaration(), err);
      return false;
    }
  }
  cl_int err = d_->clEnqueueNDRangeKernel(
      queue_, made.kernel, shape.dims, shape.offset.data(), shape.global.data(),
      shape.localGiven ? shape.local.data() : nullptr, 0, nullptr, nullptr);
  if (err == CL_SUCCESS) err = d_->clFinish(queue_);
  if (err != CL_SUCCESS) {
    why = clError("the launch on spvsim", err);
    return false;
  }
  return readBack(launch, before, made, after, why);
}

}  // namespace spvsim::layer

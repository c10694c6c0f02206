// One kernel argument as every front end passes it: to the argument checks
// (src/exec/arg_check.h) and to a launch (src/exec/program.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "src/exec/image.h"
#include "src/exec/pipe.h"

namespace spvsim {

// What a front end knows of an argument's type: the command line names it, the OpenCL
// API passes bytes only (then the checks that need it are skipped).
struct ArgType {
  std::string name;           // "float4", "struct {int, float}"
  uint64_t elementBytes = 0;  // Value: the value's bytes; Buffer: one element's
  bool floating = false;      // floating-point scalar or vector
  bool isStruct = false;      // a struct value (struct:TYPE,...=V,...)
};

// One kernel argument, as every front end gives it to the checks (src/exec/arg_check.h)
// and to a launch.
struct ArgBinding {
  // SvmPointer: a raw SVM host address in `value` (src/exec/svm.h); the launch's
  // LaunchOptions::svm must hold its allocation for the kernel to dereference it.
  enum class Kind { Value, Buffer, Local, Null, Image, Sampler, SvmPointer, Pipe };
  Kind kind = Kind::Value;
  std::vector<uint8_t> value;   // Value: the bytes in OpenCL C memory layout
  uint8_t* data = nullptr;      // Buffer: storage owned by the front end
  uint64_t size = 0;            // Buffer: bytes
  uint64_t localBytes = 0;      // Local: bytes of local memory
  ImageDesc image;              // Image: shape, format and storage (owned by the front end)
  SamplerDesc sampler;          // Sampler
  std::optional<ArgType> type;  // Value, Buffer: when the front end knows it
  std::string text;             // as the user wrote it, for messages ("" from the API)
  PipeStorage* pipe = nullptr;  // Pipe: owned by the front end; outlives the launch

  // Image, Buffer: whether kernels may read and write it (the ICD's CL_MEM_READ_ONLY and
  // CL_MEM_WRITE_ONLY, a .sim file's ro/wo). Images: checked against the parameter's
  // access qualifier. Buffers: a kernel access the flags forbid is undefined behaviour,
  // reported where it happens.
  bool readable = true;
  bool writable = true;
  // Buffer: contents the host never initialised (a .sim file's noinit, an ICD buffer
  // nothing wrote): the uninitialised-value checker treats its bytes as undefined.
  bool uninitialized = false;

  static ArgBinding bytes(std::vector<uint8_t> v) { return {Kind::Value, std::move(v)}; }
  static ArgBinding buffer(uint8_t* d, uint64_t n) { return {Kind::Buffer, {}, d, n}; }
  static ArgBinding local(uint64_t n) { return {Kind::Local, {}, nullptr, 0, n}; }
  static ArgBinding null() { return {Kind::Null}; }
  static ArgBinding svmPointer(const void* p) {
    const uint64_t v = reinterpret_cast<uintptr_t>(p);
    ArgBinding a{Kind::SvmPointer};
    a.value.assign(reinterpret_cast<const uint8_t*>(&v), reinterpret_cast<const uint8_t*>(&v) + 8);
    return a;
  }
  uint64_t svmAddress() const {
    uint64_t v = 0;
    std::memcpy(&v, value.data(), std::min<size_t>(8, value.size()));
    return v;
  }
  static ArgBinding ofImage(const ImageDesc& d) {
    ArgBinding a{Kind::Image};
    a.image = d;
    return a;
  }
  static ArgBinding ofPipe(PipeStorage* p) {
    ArgBinding a{Kind::Pipe};
    a.pipe = p;
    return a;
  }
  static ArgBinding ofSampler(const SamplerDesc& d) {
    ArgBinding a{Kind::Sampler};
    a.sampler = d;
    return a;
  }
};

}  // namespace spvsim

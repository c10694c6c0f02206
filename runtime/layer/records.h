// What the layer keeps of the application's objects to replay a launch: programs (source
// or IL and build options), kernels (name, program, arguments as set) and memory objects
// (size, flags, the parent of a sub-buffer). Handles are the driver's; a record is made
// when the driver creates the object, overwritten when the driver hands out the same
// handle again, and dropped when the application releases its last reference.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace spvsim::layer {

struct ProgramRecord {
  enum class Origin { Source, IL, Other };
  Origin origin = Origin::Other;
  std::string other;  // Other: what it was made from ("a device binary", ...)
  std::string source;
  std::vector<uint8_t> il;
  std::string options;  // the last clBuildProgram's
  bool built = false;
};

struct ArgRecord {
  enum class Kind { Bytes, Local, Svm, Unset };
  Kind kind = Kind::Unset;
  std::vector<uint8_t> bytes;  // Bytes: the value as given (a cl_mem handle for a buffer)
  size_t size = 0;             // Local: bytes of local memory
};

struct KernelRecord {
  cl_program program = nullptr;
  std::string name;
  std::vector<ArgRecord> args;  // grows as arguments are set
};

struct MemRecord {
  size_t size = 0;
  cl_mem_flags flags = 0;
  bool buffer = true;       // false: an image or pipe
  cl_mem parent = nullptr;  // a sub-buffer's buffer
  size_t origin = 0;        // a sub-buffer's offset in it
  // Images (clCreateImage*): as created; `size` is then its pixels packed tightly.
  bool image = false;
  cl_image_format format{};
  cl_image_desc desc{};
};

struct SamplerRecord {
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
};

// A kernel as a launch sees it: everything copied, so the records may change meanwhile.
struct LaunchRecord {
  KernelRecord kernel;
  ProgramRecord program;
  std::map<cl_mem, MemRecord> mems;  // every cl_mem an argument names, and their parents
  std::map<cl_sampler, SamplerRecord> samplers;  // every sampler an argument names
};

class Records {
 public:
  void program(cl_program p, ProgramRecord r);
  void built(cl_program p, const char* options);
  void kernel(cl_kernel k, cl_program p, std::string name);
  void arg(cl_kernel k, cl_uint index, ArgRecord a);
  // clCloneKernel: the copy has the source's program and arguments.
  void clone(cl_kernel source, cl_kernel copy);
  void mem(cl_mem m, MemRecord r);
  void sampler(cl_sampler s, SamplerRecord r);
  // User events the application has not set yet, by context: while one is outstanding a
  // blocking read could wait for the application itself (a command it gates, or an
  // in-order queue's earlier one), so launches in that context are not shadowed.
  void userEvent(cl_event e, cl_context c);
  void userEventSet(cl_event e);
  bool userEventsOutstanding(cl_context c) const;
  void dropSampler(cl_sampler s);
  void dropProgram(cl_program p);
  std::optional<ProgramRecord> programOf(cl_program p) const;
  void dropKernel(cl_kernel k);
  void dropMem(cl_mem m);

  // The launch's records, or nullopt with `why` when the layer did not see the kernel's
  // creation (or its program's).
  std::optional<LaunchRecord> launch(cl_kernel k, std::string& why) const;

 private:
  mutable std::mutex mutex_;
  std::map<cl_program, ProgramRecord> programs_;
  std::map<cl_kernel, KernelRecord> kernels_;
  std::map<cl_mem, MemRecord> mems_;
  std::map<cl_sampler, SamplerRecord> samplers_;
  std::map<cl_event, cl_context> userEvents_;  // created, not set yet
};

}  // namespace spvsim::layer

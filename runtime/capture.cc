#include "runtime/capture.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "runtime/knobs.h"
#include "runtime/mem.h"
#include "src/exec/image_format.h"
#include "src/files/whole_file.h"

namespace spvsim::rt {
namespace {

namespace fs = std::filesystem;

// Numbering, the limit and the stop after a failure are per process, like the directory
// they count in: one session, created on first use and guarded by its mutex.
struct CaptureSession {
  std::mutex mutex;
  bool started = false;
  uint64_t next = 1;     // the number of the next bundle's folder
  uint64_t written = 0;  // bundles begun (SPVSIM_CAPTURE_LIMIT counts these)
  bool failed = false;   // a bundle could not be written: capturing has stopped
};

CaptureSession& session() {
  static CaptureSession s;
  return s;
}

bool captureStopped() {
  CaptureSession& s = session();
  std::lock_guard lock(s.mutex);
  return s.failed;
}

// The first failure stops capturing for the rest of the process, with one line on
// stderr: a folder that failed once (full, gone, unwritable) would fail every launch,
// and the application must not pay for or be told of each.
void stopCapturing(const std::string& what) {
  CaptureSession& s = session();
  {
    std::lock_guard lock(s.mutex);
    if (std::exchange(s.failed, true)) return;
  }
  std::fprintf(stderr,
               "spvsim: SPVSIM_CAPTURE: %s (the launch ran uncaptured, and no further launch "
               "of this process is captured)\n",
               what.c_str());
}

// The first free number after the bundles DIR already holds ("0007-name" -> 8), so
// that a second run of the application adds bundles instead of mixing with old ones.
uint64_t firstFreeNumber(const fs::path& dir) {
  uint64_t next = 1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const size_t dash = name.find('-');
    if (dash == 0 || dash == std::string::npos) continue;
    uint64_t n = 0;
    bool digits = true;
    for (size_t i = 0; i < dash; ++i) {
      digits &= name[i] >= '0' && name[i] <= '9';
      n = n * 10 + uint64_t(name[i] - '0');
    }
    if (digits && dash <= 18) next = std::max(next, n + 1);
  }
  return next;
}

// Kernel names are identifiers, but the folder name must be safe whatever the module says.
std::string folderName(uint64_t number, const std::string& kernel) {
  std::string safe;
  for (char c : kernel.substr(0, 64))
    safe += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return fmt::format("{:04}-{}", number, safe);
}

// Reserves the next bundle's number and creates the folder it is written in: a hidden
// temporary one (".tmp-NNNN-KERNEL.PID.RANDOM", which no reader takes for a bundle),
// renamed to NNNN-KERNEL when complete (publish). nullopt past SPVSIM_CAPTURE_LIMIT or
// after a failure.
std::optional<LaunchCapture::Folder> claimFolder(const fs::path& root, const std::string& kernel) {
  CaptureSession& s = session();
  std::lock_guard lock(s.mutex);
  if (s.failed || s.written >= knobs().captureLimit) return std::nullopt;
  if (!s.started) {
    fs::create_directories(root);  // throws with the reason
    s.next = firstFreeNumber(root);
    s.started = true;
  }
  ++s.written;
  LaunchCapture::Folder folder{{}, root.string(), kernel, s.next++};
  folder.temporary =
      files::temporarySibling((root / folderName(folder.number, kernel)).string(), ".tmp-");
  fs::create_directory(folder.temporary);  // throws with the reason
  return folder;
}

// Renames the complete bundle into place under its number, or the next free one where
// another process took that name meanwhile (renameNoReplace refuses an existing folder).
void publish(const LaunchCapture::Folder& f) {
  uint64_t number = f.number;
  for (int tries = 0; tries < 1000; ++tries) {
    const fs::path final = fs::path(f.root) / folderName(number, f.kernel);
    if (files::renameNoReplace(f.temporary, final.string())) return;
    CaptureSession& s = session();
    std::lock_guard lock(s.mutex);
    number = s.next++;
  }
  throw std::runtime_error(fmt::format("no free bundle folder in {}", f.root));
}

void writeFile(const fs::path& path, const void* data, size_t bytes) {
  files::writeFile(path.string(), std::string_view(static_cast<const char*>(data), bytes));
}

// A bundle folder that could not be completed, with whatever it holds.
void removeFolder(const std::string& folder) {
  std::error_code ec;
  fs::remove_all(folder, ec);
}

// Type names go into one manifest token: spaces and '%' are escaped.
std::string escapeToken(const std::string& text) {
  std::string out;
  for (char c : text) out += c == ' ' ? "%20" : c == '%' ? "%25" : std::string(1, c);
  return out.empty() ? "-" : out;
}

std::string hexBytes(const std::vector<uint8_t>& bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out.empty() ? "-" : out;
}

std::string triple(const std::array<uint64_t, 3>& v) {
  return fmt::format("{} {} {}", v[0], v[1], v[2]);
}

// The local size the launch runs with.
std::array<uint64_t, 3> localSize(const LaunchCapture::Input& in) {
  return in.range.localGiven ? in.range.local : chooseLocalSize(in.kernel.entryPoint(), in.range);
}

// The manifest lines of the launch itself (module, kernel, NDRange as run, sub-group size).
std::string launchLines(const LaunchCapture::Input& in) {
  const NDRange& r = in.range;
  const std::array<uint64_t, 3> local = localSize(in);
  std::string out = "spvsim-capture 1\n";
  out += fmt::format("kernel {}\n", in.kernel.name());
  out += "module module.spv\n";
  if (!in.source.source.empty()) out += "source program.cl\n";
  std::string options = in.source.buildOptions;
  std::replace(options.begin(), options.end(), '\n', ' ');  // one line
  out += fmt::format("build-options {}\n", options);
  out += fmt::format("work-dim {}\n", r.dims);
  out += fmt::format("global-offset {}\n", triple(r.offset));
  out += fmt::format("global-size {}\n", triple(r.global));
  out += fmt::format("local-size {}\n", triple(local));
  out += fmt::format("sub-group-size {}\n", in.program.subGroupSizeFor(in.kernel, in.subGroupSize));
  if (in.svm)
    out +=
        "warning the context has SVM allocations, which are not captured: a kernel reaching "
        "them through pointers stored in buffers does not replay\n";
  return out;
}

// Why an argument cannot be captured, or "" when it can.
std::string notCaptured(const KernelArg& a, const spirv::ParamSignature& p) {
  using K = ArgBinding::Kind;
  if (p.kind == spirv::ParamKind::Queue) return "device queues";
  switch (a.binding.kind) {
    case K::Pipe:
      return "pipes";
    case K::SvmPointer:
      return "SVM pointers";
    case K::Buffer:
      return usesSvmPointer(a.mem) ? "buffers over SVM memory" : "";
    default:
      return "";
  }
}

// "image2d:RGBA,UNORM_INT8[4,2]", the command line's image2d:... form without the INIT.
std::string imageShape(const ImageDesc& d) {
  std::string head = imageTypeName(d.type);
  head.resize(head.size() - 2);  // "image2d_t" -> "image2d"
  std::string extents = std::to_string(d.width);
  if (d.type == ImageType::Image1DArray) extents += fmt::format(",{}", d.arraySize);
  if (d.type == ImageType::Image2D) extents += fmt::format(",{}", d.height);
  if (d.type == ImageType::Image2DArray) extents += fmt::format(",{},{}", d.height, d.arraySize);
  if (d.type == ImageType::Image3D) extents += fmt::format(",{},{}", d.height, d.depth);
  return fmt::format("{}:{}[{}]", head, imagefmt::formatName(d.format), extents);
}

// An image's pixels packed tightly (rows, then slices), as the command line holds them.
std::vector<uint8_t> packedPixels(const ImageDesc& d) {
  const uint64_t rowBytes = d.width * imagefmt::bytesPerPixel(d.format);
  const uint64_t slices = d.type == ImageType::Image3D ? d.depth
                          : d.type == ImageType::Image2DArray || d.type == ImageType::Image1DArray
                              ? d.arraySize
                              : 1;
  std::vector<uint8_t> out;
  out.reserve(rowBytes * d.height * slices);
  for (uint64_t s = 0; s < slices; ++s)
    for (uint64_t y = 0; y < d.height; ++y) {
      const uint8_t* row = d.data + s * d.slicePitch + y * d.rowPitch;
      out.insert(out.end(), row, row + rowBytes);
    }
  return out;
}

std::string imageFile(size_t arg, const char* when) {
  return fmt::format("image{}.{}.bin", arg, when);
}

// One "arg" line; buffers name their root allocation, added to `buffers` once.
std::string argLine(size_t i, const KernelArg& a, const spirv::ParamSignature& p,
                    std::vector<const _cl_mem*>& buffers) {
  const std::string head = fmt::format("arg {} ", i);
  if (std::string why = notCaptured(a, p); !why.empty())
    return head + fmt::format("not-captured {}\n", escapeToken(why));
  const ArgBinding& b = a.binding;
  switch (b.kind) {
    case ArgBinding::Kind::Value:
      return head + fmt::format("value size={} type={} bytes={}\n", b.value.size(),
                                escapeToken(p.typeName), hexBytes(b.value));
    case ArgBinding::Kind::Local:
      return head + fmt::format("local size={}\n", b.localBytes);
    case ArgBinding::Kind::Null:
      return head + "null\n";
    case ArgBinding::Kind::Image:
      return head + fmt::format("image shape={} before={} after={}\n", imageShape(a.mem->image),
                                imageFile(i, "before"), imageFile(i, "after"));
    case ArgBinding::Kind::Sampler:
      return head + fmt::format("sampler normalized={} addressing={:#x} filter={:#x}\n",
                                int(b.sampler.normalizedCoords), b.sampler.addressing,
                                b.sampler.filter);
    default:
      break;
  }
  const _cl_mem* root = rootOf(a.mem);
  size_t index = std::find(buffers.begin(), buffers.end(), root) - buffers.begin();
  if (index == buffers.size()) buffers.push_back(root);
  return head + fmt::format("buffer buffer={} offset={} size={} type={} access={}{}\n", index,
                            a.mem->data - root->data, a.mem->size, escapeToken(p.typeName),
                            b.readable ? "r" : "", b.writable ? "w" : "");
}

std::string bufferFile(size_t i, const char* when) {
  return fmt::format("buffer{}.{}.bin", i, when);
}

// Program-scope variables keep their values between launches: part of the launch's input.
std::string globalLines(Program& program, const fs::path& dir) {
  std::string out;
  const auto& globals = program.globalVariables();
  for (size_t i = 0; i < globals.size(); ++i) {
    const std::string file = fmt::format("global{}.before.bin", i);
    writeFile(dir / file, globals[i].storage.data(), globals[i].storage.size());
    out += fmt::format("global-variable id={} size={} before={}\n", globals[i].id,
                       globals[i].storage.size(), file);
  }
  return out;
}

}  // namespace

std::shared_ptr<const CaptureSource> captureSourceFor(_cl_kernel* k) {
  const Knobs& kn = knobs();
  if (kn.captureDir.empty() || captureStopped()) return nullptr;
  if (!kn.captureFilter.empty() &&
      fnmatch(kn.captureFilter.c_str(), k->kernel.name().c_str(), 0) != 0)
    return nullptr;
  auto source = std::make_shared<CaptureSource>();
  std::lock_guard lock(k->program->mutex);
  source->words = withoutMarkers(k->program->state.binary);
  source->buildOptions = k->program->state.options;
  if (k->program->origin == ProgramOrigin::Source) source->source = k->program->source;
  return source;
}

LaunchCapture::LaunchCapture(Folder folder, std::string manifest,
                             std::vector<const _cl_mem*> buffers,
                             std::vector<std::pair<size_t, const _cl_mem*>> images)
    : folder_(std::move(folder)),
      manifest_(std::move(manifest)),
      buffers_(std::move(buffers)),
      images_(std::move(images)) {}

std::unique_ptr<LaunchCapture> LaunchCapture::begin(const Input& in) {
  std::optional<Folder> folder;
  try {
    folder = claimFolder(knobs().captureDir, in.kernel.name());
    if (!folder) return nullptr;
    const fs::path dir = folder->temporary;
    writeFile(dir / "module.spv", in.source.words.data(), in.source.words.size() * 4);
    if (!in.source.source.empty())  // for `list` and the profile's source view in a replay
      writeFile(dir / "program.cl", in.source.source.data(), in.source.source.size());
    std::string manifest = launchLines(in);
    std::vector<const _cl_mem*> buffers;
    std::string args;
    const auto& params = in.kernel.signature().params;
    std::vector<std::pair<size_t, const _cl_mem*>> images;
    for (size_t i = 0; i < in.args.size() && i < params.size(); ++i) {
      args += argLine(i, in.args[i], params[i], buffers);
      if (in.args[i].binding.kind == ArgBinding::Kind::Image) {
        images.emplace_back(i, in.args[i].mem);
        const std::vector<uint8_t> pixels = packedPixels(in.args[i].mem->image);
        writeFile(dir / imageFile(i, "before"), pixels.data(), pixels.size());
      }
    }
    for (size_t i = 0; i < buffers.size(); ++i) {
      writeFile(dir / bufferFile(i, "before"), buffers[i]->data, buffers[i]->size);
      manifest += fmt::format("buffer {} size={} before={} after={} initialized={}\n", i,
                              buffers[i]->size, bufferFile(i, "before"), bufferFile(i, "after"),
                              int(buffers[i]->contentsWritten.load()));
    }
    manifest += globalLines(in.program, dir) + args;
    std::string why;
    const std::string sim = simFile(in, localSize(in), why);
    if (sim.empty())
      manifest += fmt::format("# no launch.sim: {} does not fit Oclgrind's format\n", why);
    else
      writeFile(dir / "launch.sim", sim.data(), sim.size());
    return std::make_unique<LaunchCapture>(std::move(*folder), std::move(manifest),
                                           std::move(buffers), std::move(images));
  } catch (const std::exception& e) {
    stopCapturing(e.what());
  } catch (...) {
    stopCapturing("an unknown error");
  }
  if (folder) removeFolder(folder->temporary);
  return nullptr;
}

LaunchCapture::~LaunchCapture() {
  if (!published_) removeFolder(folder_.temporary);  // finish failed, or never ran
}

void LaunchCapture::finish(int status) {
  try {
    const fs::path dir = folder_.temporary;
    for (size_t i = 0; i < buffers_.size(); ++i)
      if (const auto& device = buffers_[i]->capturedAfter;
          device && device->size() == buffers_[i]->size)
        writeFile(dir / bufferFile(i, "after"), device->data(), device->size());
      else
        writeFile(dir / bufferFile(i, "after"), buffers_[i]->data, buffers_[i]->size);
    for (const auto& [arg, mem] : images_) {
      // The layer's device contents where it gave them (packed as packedPixels packs).
      const std::vector<uint8_t> pixels =
          mem->capturedAfter ? *mem->capturedAfter : packedPixels(mem->image);
      writeFile(dir / imageFile(arg, "after"), pixels.data(), pixels.size());
    }
    // Written last: a bundle with a manifest is complete.
    const std::string text =
        manifest_ + fmt::format("status {}\n", status == CL_COMPLETE ? "complete" : "failed");
    writeFile(dir / "launch.txt", text.data(), text.size());
    publish(folder_);
    published_ = true;
  } catch (const std::exception& e) {
    stopCapturing(e.what());
  }
}

}  // namespace spvsim::rt

#include "runtime/capture.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "runtime/knobs.h"
#include "runtime/mem.h"
#include "src/exec/image_format.h"
#include "src/files/whole_file.h"
#include "src/formats/image_shape.h"

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

// The application's name from its command line (formats::sourceFileName), read once.
const std::string& applicationSourceName() {
  static const std::string name = [] {
    std::vector<std::string> argv;
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    for (std::string arg; std::getline(in, arg, '\0');) argv.push_back(arg);
    return formats::sourceFileName(argv);
  }();
  return name;
}

// The file the program's source goes in: the application's name, or program.cl where
// that is also the name of a header's file (the debugger and the profile name files by
// their last component).
std::string sourceFileName(const std::vector<compiler::SourceHeader>& headers) {
  const std::string& app = applicationSourceName();
  for (const compiler::SourceHeader& h : headers)
    if (fs::path(h.name).filename() == app) return formats::kSourceName;
  return app;
}

// An include name as the compile driver writes it ("a/./b.h" is "a/b.h").
std::string normalName(const std::string& name) {
  return fs::path(name).lexically_normal().string();
}

// The local size the launch runs with.
std::array<uint64_t, 3> localSize(const LaunchCapture::Input& in) {
  return in.range.localGiven ? in.range.local : chooseLocalSize(in.kernel.entryPoint(), in.range);
}

// The launch itself (module, kernel, NDRange as run, sub-group size).
formats::Bundle launchOf(const LaunchCapture::Input& in) {
  const NDRange& r = in.range;
  formats::Bundle b;
  b.kernel = in.kernel.name();
  b.module = formats::kModuleName;
  b.buildOptions = in.source.buildOptions;
  if (in.source.source) {
    const ProgramSource& s = *in.source.source;
    b.source = sourceFileName(s.headers);
    b.compiled = s.compiled;
    if (s.compiled) b.compileOptions = s.options;
    for (const compiler::SourceHeader& h : s.headers) {
      const std::string name = normalName(h.name);
      const std::string file = formats::headerFileName(name);
      const bool seen = std::any_of(b.headers.begin(), b.headers.end(),
                                    [&](const formats::BundleHeader& o) { return o.name == name; });
      // The first of one name, as the compile driver takes it (which refuses the names
      // that would leave the include folder).
      if (!seen && !file.empty() && formats::badIncludeName(name).empty())
        b.headers.push_back({name, file});
    }
  }
  if (!in.source.sourceNote.empty()) b.notes.push_back(in.source.sourceNote);
  b.dims = r.dims;
  b.offset = r.offset;
  b.global = r.global;
  b.local = localSize(in);
  b.subGroupSize = in.program.subGroupSizeFor(in.kernel, in.subGroupSize);
  if (in.svm)
    b.warnings.push_back(
        "the context has SVM allocations, which are not captured: a kernel reaching them "
        "through pointers stored in buffers does not replay");
  return b;
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

// One argument; buffers name their root allocation, added to `buffers` once.
formats::BundleArg argOf(size_t i, const KernelArg& a, const spirv::ParamSignature& p,
                         std::vector<const _cl_mem*>& buffers) {
  using K = formats::BundleArg::Kind;
  formats::BundleArg out;
  if (std::string why = notCaptured(a, p); !why.empty()) {
    out.kind = K::NotCaptured;
    out.notCaptured = why;
    return out;
  }
  const ArgBinding& b = a.binding;
  switch (b.kind) {
    case ArgBinding::Kind::Value:
      out.kind = K::Value;
      out.size = b.value.size();
      out.type = p.typeName;
      out.bytes = b.value;
      return out;
    case ArgBinding::Kind::Local:
      out.kind = K::Local;
      out.size = b.localBytes;
      return out;
    case ArgBinding::Kind::Null:
      out.kind = K::Null;
      return out;
    case ArgBinding::Kind::Image:
      out.kind = K::Image;
      out.shape = formats::imageShapeText(a.mem->image, ':');
      out.size = formats::packedImageBytes(a.mem->image);
      out.before = formats::imageFileName(i, "before");
      out.after = formats::imageFileName(i, "after");
      return out;
    case ArgBinding::Kind::Sampler:
      out.kind = K::Sampler;
      out.sampler = b.sampler;
      return out;
    default:
      break;
  }
  const _cl_mem* root = rootOf(a.mem);
  size_t index = std::find(buffers.begin(), buffers.end(), root) - buffers.begin();
  if (index == buffers.size()) buffers.push_back(root);
  out.kind = K::Buffer;
  out.buffer = index;
  out.offset = a.mem->data - root->data;
  out.size = a.mem->size;
  out.type = p.typeName;
  out.readable = b.readable;
  out.writable = b.writable;
  return out;
}

// The program's source and its headers (the first of each include name) as `bundle` names them.
void writeSources(const ProgramSource& source, const formats::Bundle& bundle, const fs::path& dir) {
  writeFile(dir / bundle.source, source.text.data(), source.text.size());
  for (const formats::BundleHeader& h : bundle.headers) {
    auto it =
        std::find_if(source.headers.begin(), source.headers.end(),
                     [&](const compiler::SourceHeader& s) { return normalName(s.name) == h.name; });
    fs::create_directories((dir / h.file).parent_path());
    writeFile(dir / h.file, it->text.data(), it->text.size());
  }
}

// Program-scope variables keep their values between launches: part of the launch's input.
void writeGlobals(Program& program, const fs::path& dir, formats::Bundle& bundle) {
  const auto& globals = program.globalVariables();
  for (size_t i = 0; i < globals.size(); ++i) {
    const std::string file = formats::globalFileName(i);
    writeFile(dir / file, globals[i].storage.data(), globals[i].storage.size());
    bundle.globals.push_back({globals[i].id, globals[i].storage.size(), file});
  }
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
  const std::vector<ProgramSource>& sources = k->program->state.sources;
  if (sources.size() == 1) {
    source->source = sources.front();
  } else if (sources.size() > 1) {
    // The module names every program compiled from memory "<stdin>": the lines of several
    // could not be told apart.
    source->sourceNote = fmt::format(
        "no source: the program was linked from {} programs compiled from source", sources.size());
  }
  return source;
}

LaunchCapture::LaunchCapture(Folder folder, formats::Bundle bundle,
                             std::vector<const _cl_mem*> buffers,
                             std::vector<std::pair<size_t, const _cl_mem*>> images)
    : folder_(std::move(folder)),
      bundle_(std::move(bundle)),
      buffers_(std::move(buffers)),
      images_(std::move(images)) {}

std::unique_ptr<LaunchCapture> LaunchCapture::begin(const Input& in) {
  std::optional<Folder> folder;
  try {
    folder = claimFolder(knobs().captureDir, in.kernel.name());
    if (!folder) return nullptr;
    const fs::path dir = folder->temporary;
    writeFile(dir / formats::kModuleName, in.source.words.data(), in.source.words.size() * 4);
    formats::Bundle bundle = launchOf(in);
    if (in.source.source)  // for `list`, the profile's source view and check's -O0 build
      writeSources(*in.source.source, bundle, dir);
    std::vector<const _cl_mem*> buffers;
    const auto& params = in.kernel.signature().params;
    std::vector<std::pair<size_t, const _cl_mem*>> images;
    for (size_t i = 0; i < in.args.size() && i < params.size(); ++i) {
      bundle.args.push_back(argOf(i, in.args[i], params[i], buffers));
      if (in.args[i].binding.kind == ArgBinding::Kind::Image) {
        images.emplace_back(i, in.args[i].mem);
        const std::vector<uint8_t> pixels = formats::packedPixels(in.args[i].mem->image);
        writeFile(dir / formats::imageFileName(i, "before"), pixels.data(), pixels.size());
      }
    }
    for (size_t i = 0; i < buffers.size(); ++i) {
      writeFile(dir / formats::bufferFileName(i, "before"), buffers[i]->data, buffers[i]->size);
      bundle.buffers.push_back({buffers[i]->size, formats::bufferFileName(i, "before"),
                                formats::bufferFileName(i, "after"),
                                buffers[i]->contentsWritten.load()});
    }
    writeGlobals(in.program, dir, bundle);
    std::string why;
    const std::string sim = simFile(in, localSize(in), why);
    if (sim.empty())
      bundle.notes.push_back(fmt::format("no launch.sim: {} does not fit Oclgrind's format", why));
    else
      writeFile(dir / "launch.sim", sim.data(), sim.size());
    return std::make_unique<LaunchCapture>(std::move(*folder), std::move(bundle),
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
        writeFile(dir / formats::bufferFileName(i, "after"), device->data(), device->size());
      else
        writeFile(dir / formats::bufferFileName(i, "after"), buffers_[i]->data, buffers_[i]->size);
    for (const auto& [arg, mem] : images_) {
      // The layer's device contents where it gave them (packed as packedPixels packs).
      const std::vector<uint8_t> pixels =
          mem->capturedAfter ? *mem->capturedAfter : formats::packedPixels(mem->image);
      writeFile(dir / formats::imageFileName(arg, "after"), pixels.data(), pixels.size());
    }
    // Written last: a bundle with a manifest is complete.
    bundle_.status = status == CL_COMPLETE ? "complete" : "failed";
    const std::string text = formats::manifestText(bundle_);
    writeFile(dir / formats::kManifestName, text.data(), text.size());
    publish(folder_);
    published_ = true;
  } catch (const std::exception& e) {
    stopCapturing(e.what());
  }
}

}  // namespace spvsim::rt

// Fuzz target: capture bundle manifests (tools/bundle.h) as `spvsim run|check|debug BUNDLE`
// reads them: readBundle, then bundleArguments against a kernel's parameters,
// validateArguments and argumentWarnings (src/exec/arg_check.h), and bundleExpectations.
//
// Input: a first line naming the kernel's parameters, one letter each (fuzz_params.h),
// then the launch.txt text, e.g.
//   IU
//   spvsim-capture 1
//   kernel k
//   ...
// The manifest is written into a bundle folder made once per process, which holds data
// files for it to name (kDataFiles: the names and sizes the seeds use), a symbolic link
// that leads out of the folder and a FIFO. Any spvsim::Error is an accepted refusal;
// anything else is a finding. Beyond "no crash" it checks that an accepted manifest names
// only regular files inside the folder (never the link or the FIFO, which would leak a
// file from elsewhere or block; headers in a subfolder, or through a linked folder that
// leads out), that every header's include name stays inside its include folder, and that
// it gives one argument per parameter.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/error.h"
#include "src/exec/arg_check.h"
#include "tools/cli/arg_value.h"
#include "tools/cli/bundle.h"
#include "tools/fuzz/fuzz_input.h"
#include "tools/fuzz/fuzz_params.h"

namespace {

namespace fs = std::filesystem;

struct DataFile {
  const char* name;
  size_t size;
};

// What the seeds' manifests name: a 4-byte "module", two buffers' before/after contents,
// a 4x2 RGBA UNORM_INT8 image, a program-scope variable, a program's source and a header.
constexpr DataFile kDataFiles[] = {
    {"module.spv", 20}, {"b0.before", 32},       {"b0.after", 32}, {"b1.before", 16},
    {"b1.after", 16},   {"i.before", 32},        {"i.after", 32},  {"g.before", 8},
    {"app.cl", 24},     {"headers/inc/h.h", 12},
};

// The bundle folder, made on first use and removed at exit.
class BundleDir {
 public:
  BundleDir() {
    dir_ = spvsim::fuzz::makeTempFolder("spvsim-fuzz-bundle");
    fs::create_directories(dir_ / "headers/inc");
    for (const DataFile& f : kDataFiles) {
      std::string bytes(f.size, '\0');
      for (size_t i = 0; i < f.size; ++i) bytes[i] = static_cast<char>(i * 7 + f.size);
      std::ofstream(dir_ / f.name, std::ios::binary) << bytes;
    }
    // A file outside the folder, reached by a link inside it, of a size a manifest may name.
    outside_ = dir_.string() + ".outside";
    std::ofstream(outside_, std::ios::binary) << std::string(32, 'S');
    fs::create_symlink(outside_, dir_ / "link");
    // A folder inside that is a link to a folder outside, holding a header.
    outsideFolder_ = dir_.string() + ".outside.d";
    fs::create_directories(fs::path(outsideFolder_) / "inc");
    std::ofstream(fs::path(outsideFolder_) / "inc/h.h", std::ios::binary) << std::string(12, 'S');
    fs::create_directory_symlink(outsideFolder_, dir_ / "linked");
    FUZZ_CHECK(mkfifo((dir_ / "fifo").c_str(), 0600) == 0, "a FIFO in the bundle folder");
  }
  ~BundleDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    fs::remove(outside_, ec);
    fs::remove_all(outsideFolder_, ec);
  }
  const fs::path& path() const { return dir_; }

  // Whether `file` is one of the data files (a regular file inside the folder).
  bool isDataFile(const std::string& file) const {
    const fs::path normal = fs::path(file).lexically_normal();
    for (const DataFile& f : kDataFiles)
      if (normal == (dir_ / f.name).lexically_normal()) return true;
    return false;
  }

 private:
  fs::path dir_;
  std::string outside_, outsideFolder_;
};

void checkNamesOnlyDataFiles(const BundleDir& dir, const spvsim::tools::Bundle& b) {
  using spvsim::tools::BundleArg;
  FUZZ_CHECK(dir.isDataFile(b.module), "the module is a data file of the bundle");
  FUZZ_CHECK(b.source.empty() || dir.isDataFile(b.source),
             "the program's source is a data file of the bundle");
  for (const auto& h : b.headers) {
    FUZZ_CHECK(dir.isDataFile(h.file), "a header is a data file of the bundle");
    FUZZ_CHECK(spvsim::formats::badIncludeName(h.name).empty() && !b.source.empty(),
               "a header's include name stays inside the include folder, beside a source");
  }
  for (const auto& buf : b.buffers)
    FUZZ_CHECK(dir.isDataFile(buf.before) && dir.isDataFile(buf.after),
               "a buffer's contents are data files of the bundle");
  for (const auto& g : b.globals)
    FUZZ_CHECK(dir.isDataFile(g.before), "a global's contents are a data file of the bundle");
  for (const BundleArg& a : b.args) {
    if (a.kind == BundleArg::Kind::Image)
      FUZZ_CHECK(dir.isDataFile(a.before) && dir.isDataFile(a.after),
                 "an image's pixels are data files of the bundle");
    if (a.kind == BundleArg::Kind::Buffer)
      FUZZ_CHECK(a.buffer < b.buffers.size() && a.offset + a.size <= b.buffers[a.buffer].size &&
                     a.offset + a.size >= a.offset,
                 "a buffer argument lies inside its allocation");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spvsim;
  static const BundleDir dir;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return 0;
  const std::vector<spirv::ParamSignature> params = fuzz::paramsFrom(input.substr(0, eol));
  {
    std::ofstream manifest(dir.path() / "launch.txt", std::ios::binary | std::ios::trunc);
    manifest << input.substr(eol + 1);
  }
  try {
    const tools::Bundle bundle = tools::readBundle(dir.path().string());
    checkNamesOnlyDataFiles(dir, bundle);
    // As --max-memory does: larger captures are an out-of-memory refusal before reading.
    tools::ArgMemory memory{1u << 20};
    std::vector<tools::ArgValue> args = tools::bundleArguments(bundle, params, memory);
    FUZZ_CHECK(args.size() == params.size(), "one argument per parameter");
    const spirv::KernelSignature sig{"k", params};
    const std::vector<ArgBinding> bound = tools::bindings(args);
    validateArguments(sig, bound);
    (void)argumentWarnings(sig, bound);
    const std::vector<tools::ExpectedArg> expected = tools::bundleExpectations(bundle, args);
    for (const tools::ExpectedArg& e : expected)
      FUZZ_CHECK(e.index < args.size(), "an expectation names an argument");
  } catch (const Error& e) {
    fuzz::refused(e);
  }
  return 0;
}

// Capture bundles: what the ICD writes with SPVSIM_CAPTURE (runtime/capture.cc, from its
// cl objects) and `spvsim run|debug|check BUNDLE` reads (tools/cli/bundle.h, into the
// command line's arguments). This is the one definition of the manifest both use:
// the writer serialises a Bundle with manifestText, the reader parses it back with
// readBundle. A bundle is a folder holding launch.txt (the manifest, written last), the
// module and one file per buffer allocation, image and program-scope variable. The
// manifest is line-based ("KEY VALUE..." or "KEY INDEX NAME=VALUE..."; '#' comments),
// documented in README.md ("Capture and replay"):
//
//   spvsim-capture 1                   format version (first line)
//   kernel NAME / module FILE / build-options TEXT (rest of the line)
//   source FILE                        the program's OpenCL C (APP.cl or program.cl), when
//                                      built or compiled from source
//   compile-options TEXT               clCompileProgram's options of the source, when it was
//                                      compiled and then linked (build-options: the link's)
//   header name=NAME file=FILE         an embedded header of clCompileProgram, under its
//                                      include name (files in headers/)
//   work-dim N / global-offset X Y Z / global-size X Y Z / local-size X Y Z
//   sub-group-size N
//   buffer I size=BYTES before=FILE after=FILE initialized=0|1   one per allocation
//   global-variable id=ID size=BYTES before=FILE                  program-scope variables
//   arg I value size=BYTES type=TYPE bytes=HEX
//   arg I buffer buffer=I offset=BYTES size=BYTES type=TYPE access=rw|r|w|-
//   arg I local size=BYTES | arg I null
//   arg I sampler normalized=0|1 addressing=N filter=N   (cl_addressing_mode, cl_filter_mode)
//   arg I image shape=image2d:ORDER,TYPE[W,H] before=FILE after=FILE   (pixels packed)
//   arg I not-captured WHAT            (pipes, ...: replay refuses the bundle)
//   warning TEXT                       what the capture could not hold (printed by replay)
//   status complete|failed
//
// TYPE, WHAT and NAME are one token each: spaces, '%', '#' and control characters escaped
// as %XX (%20, %25, ...), "" as "-" (and "-" as %2D). TEXT is the rest of the line with
// '%', '#' and control characters escaped (spaces as they are).
// Several arguments naming one buffer (sub-buffers, one buffer passed twice) share its
// storage in the replay, as they did in the application.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/exec/image.h"
#include "src/files/host_buffer.h"

namespace spvsim::formats {

// File names are relative to the bundle's folder when written; readBundle gives them as
// paths (the folder joined with the name).
struct BundleBuffer {
  uint64_t size = 0;
  std::string before, after;
  bool initialized = true;
};

struct BundleGlobal {
  uint32_t id = 0;
  uint64_t size = 0;
  std::string before;
};

// An embedded header of clCompileProgram: `#include "NAME"` found it.
struct BundleHeader {
  std::string name;  // the include name: a relative path that stays inside the include folder
  std::string file;  // headers/..., from headerFileName
};

struct BundleArg {
  enum class Kind { Value, Buffer, Local, Null, Sampler, Image, NotCaptured };
  Kind kind = Kind::Value;
  size_t line = 0;             // read: the manifest line
  std::string type;            // Value, Buffer: the parameter's OpenCL C type ("float*")
  std::vector<uint8_t> bytes;  // Value
  uint64_t size = 0;           // Value (written: bytes.size()), Buffer, Local, Image: bytes
  uint64_t offset = 0;         // Buffer: in its allocation
  size_t buffer = 0;           // Buffer: index into Bundle::buffers
  bool readable = true, writable = true;
  SamplerDesc sampler;
  std::string shape;          // Image: "image2d:RGBA,UNORM_INT8[4,2]"
  std::string before, after;  // Image: the packed pixels (`size` bytes each)
  std::string notCaptured;    // NotCaptured: what ("pipes")
};

struct Bundle {
  std::string manifest;  // read: the launch.txt path, for messages
  std::string module;
  std::string source;  // the program's source, or "" (programs from IL)
  // The options and headers the source was compiled with: clBuildProgram's options are
  // buildOptions; a program compiled (clCompileProgram) and then linked has
  // compileOptions (buildOptions are then the link's) and may have headers.
  bool compiled = false;
  std::string compileOptions;
  std::vector<BundleHeader> headers;
  std::string kernel, buildOptions, status;
  uint32_t dims = 1;
  std::array<uint64_t, 3> offset{0, 0, 0}, global{1, 1, 1}, local{1, 1, 1};
  uint32_t subGroupSize = 16;
  std::vector<BundleBuffer> buffers;
  std::vector<BundleGlobal> globals;
  std::vector<BundleArg> args;
  std::vector<std::string> warnings;
  // Written as '#' comment lines before the status (why there is no launch.sim); the
  // reader skips comments.
  std::vector<std::string> notes;
};

// The names the ICD gives a bundle's files.
inline constexpr const char* kManifestName = "launch.txt";
inline constexpr const char* kModuleName = "module.spv";
inline constexpr const char* kSourceName =
    "program.cl";  // when the application's name is not known
inline constexpr const char* kHeaderFolder = "headers";
std::string bufferFileName(size_t buffer, const char* when);  // "buffer0.before.bin"
std::string imageFileName(size_t arg, const char* when);      // "image2.after.bin"
std::string globalFileName(size_t global);                    // "global0.before.bin"

// The file a bundle keeps the program's source in: the application's name with .cl
// ("saxpy.cl" for `./saxpy` or `python3 saxpy.py`) where `argv` (the process's command line)
// tells it, else program.cl. A script run by an interpreter (python3, perl, node, ...) names
// the application; `-c`/`-e` code or a name with nothing of [A-Za-z0-9_-] left does not.
std::string sourceFileName(const std::vector<std::string>& argv);

// Where a bundle keeps a header of include name `name`: "headers/" and the name's
// components, '/'-separated, lexically normalised ("a/./b.h" is "a/b.h"), each byte other
// than [A-Za-z0-9_.+-] and a '.' after a '.' written %XX, so that no name can reach out
// of the folder (an absolute name, "..", NUL) and distinct names stay distinct. "" where
// the name has no component or leaves its folder ("../x.h"; the compile driver refuses
// those too).
std::string headerFileName(std::string_view name);

// Why `name` cannot be an include name in a bundle ("" if it can): empty, absolute, a ".."
// component, or control characters (NUL).
std::string badIncludeName(std::string_view name);

// One manifest token: spaces, '%', '#' and control characters escaped, "" as "-"; and back
// (%XX of any byte).
std::string escapeToken(std::string_view text);
std::string unescapeToken(std::string_view token);
// The rest of a line: '%', '#' and control characters (newlines) escaped; and back.
std::string escapeText(std::string_view text);
std::string unescapeText(std::string_view text);

// The manifest of `b`, every line in the order above (options escaped as TEXT, so that a
// newline or '#' in them survives); compile-options only where b.compiled, compile-options
// and header lines only with a source; the status line only where b.status is set.
std::string manifestText(const Bundle& b);

// Whether `path` names a bundle: a folder holding launch.txt (or module.spv: an incomplete
// bundle, which readBundle refuses), or a file named launch.txt.
bool isBundlePath(const std::string& path);

// Reads the manifest and checks it: every key known, every required one present, the
// arguments numbered 0..N-1, every file it names present, inside the bundle (a regular
// file, no symbolic link or folder leading out of it), with the size it says; header
// names relative paths inside their folder. Throws Error(DiagnosticKind::Input)
// "MANIFEST:LINE: message".
Bundle readBundle(const std::string& path);

// `size` bytes at `offset` of a bundle's data file (checked by readBundle).
files::HostBytes readBundleBytes(const std::string& path, uint64_t offset, uint64_t size);

}  // namespace spvsim::formats

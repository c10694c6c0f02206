#include "src/formats/bundle_manifest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include "spirv/error.h"
#include "src/files/input_file.h"
#include "src/formats/image_shape.h"
#include "src/values/text_util.h"

namespace spvsim::formats {
namespace {

using values::parseUnsigned;
using values::readTextFile;
using values::trim;
using values::withoutUtf8Bom;

namespace fs = std::filesystem;

// Reads one manifest, line by line; every error names the manifest and the line.
class ManifestReader {
 public:
  ManifestReader(std::string path, fs::path dir) : path_(std::move(path)), dir_(std::move(dir)) {}

  Bundle read(const std::string& text);

 private:
  using Fields = std::map<std::string, std::string>;

  [[noreturn]] void fail(const std::string& message) const {
    throw Error(DiagnosticKind::Input, fmt::format("{}:{}: {}", path_, line_, message));
  }
  void readLine(const std::string& key, std::istringstream& rest, Bundle& b);
  uint64_t number(std::string_view text, const char* what) const;
  std::array<uint64_t, 3> triple(std::istringstream& rest, const char* what) const;
  Fields fields(std::istringstream& rest, std::initializer_list<const char*> known) const;
  std::string field(const Fields& f, const char* key) const;
  std::string file(const std::string& name, std::optional<uint64_t> size) const;
  void readBuffer(std::istringstream& rest, Bundle& b);
  void readGlobal(std::istringstream& rest, Bundle& b);
  void readHeader(std::istringstream& rest, Bundle& b);
  void readArg(std::istringstream& rest, Bundle& b);
  BundleArg argOfKind(const std::string& kind, std::istringstream& rest);
  uint64_t imageBytes(const std::string& shape) const;
  void checkComplete(const Bundle& b, const std::map<std::string, size_t>& seen) const;

  std::string path_;
  fs::path dir_;
  size_t line_ = 0;
};

uint64_t ManifestReader::number(std::string_view text, const char* what) const {
  uint64_t v = 0;
  if (!parseUnsigned(text, v)) fail(fmt::format("{} '{}' is not a number", what, text));
  return v;
}

std::array<uint64_t, 3> ManifestReader::triple(std::istringstream& rest, const char* what) const {
  std::array<uint64_t, 3> v{};
  for (uint64_t& x : v) {
    std::string t;
    if (!(rest >> t)) fail(fmt::format("{} needs three numbers", what));
    x = number(t, what);
  }
  if (std::string extra; rest >> extra) fail(fmt::format("unexpected '{}' after {}", extra, what));
  return v;
}

// NAME=VALUE tokens, each name one of `known` and given once.
ManifestReader::Fields ManifestReader::fields(std::istringstream& rest,
                                              std::initializer_list<const char*> known) const {
  Fields out;
  for (std::string t; rest >> t;) {
    const size_t eq = t.find('=');
    if (eq == std::string::npos || eq == 0) fail(fmt::format("expected NAME=VALUE, found '{}'", t));
    const std::string key = t.substr(0, eq);
    if (std::find_if(known.begin(), known.end(), [&](const char* k) { return key == k; }) ==
        known.end()) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      fail(fmt::format("unknown key '{}' (expected {})", key, list));
    }
    if (!out.emplace(key, t.substr(eq + 1)).second) fail(fmt::format("'{}' is given twice", key));
  }
  return out;
}

std::string ManifestReader::field(const Fields& f, const char* key) const {
  auto it = f.find(key);
  if (it == f.end()) fail(fmt::format("missing {}=", key));
  return it->second;
}

// Whether `file` (which exists) resolves to a place inside `dir`: a symbolic link in a
// bundle must not lead out of it, or a bundle from elsewhere could read any file the
// user can read into a launch (and `--dump` would print it).
bool resolvesInside(const fs::path& file, const fs::path& dir) {
  std::error_code fileError, dirError;
  const fs::path target = fs::canonical(file, fileError);
  const fs::path root = fs::canonical(dir.empty() ? fs::path(".") : dir, dirError);
  if (fileError || dirError) return false;
  const fs::path rel = target.lexically_relative(root);
  return !rel.empty() && *rel.begin() != ".." && *rel.begin() != ".";
}

// A data file of the bundle: present, a regular file inside the bundle's folder, of
// `size` bytes (when given). Nothing outside the folder is looked at: the name is checked
// before the file is.
std::string ManifestReader::file(const std::string& name, std::optional<uint64_t> size) const {
  // A NUL would end the name for the system (another file than the one named); control
  // characters are in no name the ICD writes.
  const bool control = std::any_of(name.begin(), name.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (name.empty() || control || fs::path(name).is_absolute() ||
      name.find("..") != std::string::npos)
    fail(fmt::format("'{}' is not a file name inside the bundle", name));
  const fs::path p = dir_ / name;
  std::error_code ec;
  if (!fs::exists(p, ec))
    fail(fmt::format("missing file '{}' (the bundle is incomplete)", p.string()));
  if (!fs::is_regular_file(p, ec))
    fail(fmt::format("'{}' is not a regular file (it is {})", p.string(),
                     files::specialFileKind(p.string())));
  if (!resolvesInside(p, dir_))
    fail(fmt::format("'{}' is a symbolic link that leads out of the bundle", p.string()));
  const uint64_t actual = fs::file_size(p, ec);
  if (ec || (size && actual != *size))
    fail(fmt::format("'{}' holds {} bytes but the manifest says {}", p.string(), actual,
                     size.value_or(0)));
  return p.string();
}

void ManifestReader::readBuffer(std::istringstream& rest, Bundle& b) {
  std::string index;
  rest >> index;
  if (number(index, "the buffer index") != b.buffers.size())
    fail(fmt::format("buffer {} out of order: expected buffer {}", index, b.buffers.size()));
  const Fields f = fields(rest, {"size", "before", "after", "initialized"});
  BundleBuffer buf;
  buf.size = number(field(f, "size"), "size");
  buf.before = file(field(f, "before"), buf.size);
  buf.after = file(field(f, "after"), buf.size);
  const uint64_t init = f.count("initialized") ? number(f.at("initialized"), "initialized") : 1;
  if (init > 1) fail("initialized= takes 0 or 1");
  buf.initialized = init == 1;
  b.buffers.push_back(buf);
}

void ManifestReader::readGlobal(std::istringstream& rest, Bundle& b) {
  const Fields f = fields(rest, {"id", "size", "before"});
  BundleGlobal g;
  const uint64_t id = number(field(f, "id"), "id");
  if (id == 0 || id > 0xffffffffu) fail(fmt::format("id={} is not a SPIR-V result id", id));
  g.id = uint32_t(id);
  g.size = number(field(f, "size"), "size");
  g.before = file(field(f, "before"), g.size);
  b.globals.push_back(g);
}

// An embedded header: a name `#include` can reach inside the include folder, given once,
// and its file in the bundle.
void ManifestReader::readHeader(std::istringstream& rest, Bundle& b) {
  const Fields f = fields(rest, {"name", "file"});
  BundleHeader h;
  h.name = unescapeToken(field(f, "name"));
  if (const std::string why = badIncludeName(h.name); !why.empty())
    fail(fmt::format("header name={} {}: not an include name inside the bundle",
                     escapeToken(h.name), why));
  for (const BundleHeader& other : b.headers)
    if (other.name == h.name) fail(fmt::format("header name={} is given twice", field(f, "name")));
  h.file = file(field(f, "file"), std::nullopt);
  b.headers.push_back(std::move(h));
}

BundleArg ManifestReader::argOfKind(const std::string& kind, std::istringstream& rest) {
  BundleArg a;
  a.line = line_;
  if (kind == "not-captured") {
    a.kind = BundleArg::Kind::NotCaptured;
    std::getline(rest, a.notCaptured);
    a.notCaptured = unescapeToken(trim(a.notCaptured));
    if (a.notCaptured.empty()) a.notCaptured = "(unnamed)";
    return a;
  }
  if (kind == "null") {
    a.kind = BundleArg::Kind::Null;
    fields(rest, {});
  } else if (kind == "local") {
    a.kind = BundleArg::Kind::Local;
    a.size = number(field(fields(rest, {"size"}), "size"), "size");
    if (a.size == 0) fail("a local argument needs size= more than 0");
  } else if (kind == "value") {
    const Fields f = fields(rest, {"size", "type", "bytes"});
    a.kind = BundleArg::Kind::Value;
    a.size = number(field(f, "size"), "size");
    a.type = unescapeToken(field(f, "type"));
    const std::string hex = field(f, "bytes") == "-" ? "" : field(f, "bytes");
    if (hex.size() != a.size * 2)
      fail(fmt::format("bytes= holds {} hex digits, size={} needs {}", hex.size(), a.size,
                       a.size * 2));
    for (size_t i = 0; i < hex.size(); i += 2) {
      uint64_t byte = 0;
      if (!parseUnsigned("0x" + hex.substr(i, 2), byte))
        fail(fmt::format("bytes={} is not hex", hex));
      a.bytes.push_back(uint8_t(byte));
    }
  } else if (kind == "buffer") {
    const Fields f = fields(rest, {"buffer", "offset", "size", "type", "access"});
    a.kind = BundleArg::Kind::Buffer;
    a.buffer = number(field(f, "buffer"), "buffer");
    a.offset = number(field(f, "offset"), "offset");
    a.size = number(field(f, "size"), "size");
    a.type = unescapeToken(field(f, "type"));
    const std::string access = f.count("access") ? f.at("access") : "rw";
    if (access != "rw" && access != "r" && access != "w" && access != "-")
      fail(fmt::format("access={} (expected rw, r, w or -)", access));
    a.readable = access.find('r') != std::string::npos;
    a.writable = access.find('w') != std::string::npos;
  } else if (kind == "sampler") {
    const Fields f = fields(rest, {"normalized", "addressing", "filter"});
    a.kind = BundleArg::Kind::Sampler;
    a.sampler.normalizedCoords = number(field(f, "normalized"), "normalized") != 0;
    const uint64_t addressing = number(field(f, "addressing"), "addressing");
    const uint64_t filter = number(field(f, "filter"), "filter");
    // CL_ADDRESS_NONE..CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST / CL_FILTER_LINEAR
    if (addressing < 0x1130 || addressing > 0x1134)
      fail(fmt::format("addressing={:#x} is not a cl_addressing_mode", addressing));
    if (filter != 0x1140 && filter != 0x1141)
      fail(fmt::format("filter={:#x} is not a cl_filter_mode", filter));
    a.sampler.addressing = uint32_t(addressing);
    a.sampler.filter = uint32_t(filter);
  } else if (kind == "image") {
    const Fields f = fields(rest, {"shape", "before", "after"});
    a.kind = BundleArg::Kind::Image;
    a.shape = field(f, "shape");
    a.size = imageBytes(a.shape);
    a.before = file(field(f, "before"), a.size);
    a.after = file(field(f, "after"), a.size);
  } else {
    fail(
        fmt::format("unknown argument kind '{}' (expected value, buffer, local, null, sampler, "
                    "image or not-captured)",
                    kind));
  }
  return a;
}

// The packed pixels' bytes of the image "HEAD:SHAPE" names (image_shape.h).
uint64_t ManifestReader::imageBytes(const std::string& shape) const {
  const size_t colon = shape.find(':');
  if (colon == std::string::npos || !isImageHead(shape.substr(0, colon)))
    fail(fmt::format("shape={} is not an image shape such as image2d:RGBA,UNORM_INT8[4,2]", shape));
  try {
    return packedImageBytes(parseImageShape(shape.substr(0, colon), shape.substr(colon + 1)));
  } catch (const Error& e) {
    fail(fmt::format("shape={}: {}", shape, e.what()));
  }
}

void ManifestReader::readArg(std::istringstream& rest, Bundle& b) {
  std::string index, kind;
  rest >> index >> kind;
  if (number(index, "the argument index") != b.args.size())
    fail(fmt::format("arg {} out of order: expected arg {}", index, b.args.size()));
  if (kind.empty()) fail("the argument needs a kind (value, buffer, local, null, sampler)");
  b.args.push_back(argOfKind(kind, rest));
}

void ManifestReader::readLine(const std::string& key, std::istringstream& rest, Bundle& b) {
  auto word = [&](const char* what) {
    std::string w;
    if (!(rest >> w)) fail(fmt::format("{} needs a value", what));
    if (std::string extra; rest >> extra)
      fail(fmt::format("unexpected '{}' after {}", extra, what));
    return w;
  };
  if (key == "kernel") {
    b.kernel = word("kernel");
  } else if (key == "module") {
    b.module = file(word("module"), std::nullopt);
  } else if (key == "source") {
    b.source = file(word("source"), std::nullopt);
  } else if (key == "build-options" || key == "compile-options") {
    std::string text;
    std::getline(rest, text);
    (key == "build-options" ? b.buildOptions : b.compileOptions) = unescapeText(trim(text));
    b.compiled |= key == "compile-options";
  } else if (key == "header") {
    readHeader(rest, b);
  } else if (key == "work-dim") {
    b.dims = uint32_t(number(word("work-dim"), "work-dim"));
    if (b.dims < 1 || b.dims > 3) fail("work-dim must be 1, 2 or 3");
  } else if (key == "global-offset") {
    b.offset = triple(rest, "global-offset");
  } else if (key == "global-size") {
    b.global = triple(rest, "global-size");
  } else if (key == "local-size") {
    b.local = triple(rest, "local-size");
  } else if (key == "sub-group-size") {
    const uint64_t size = number(word("sub-group-size"), "sub-group-size");
    if (size < 1 || size > 128) fail(fmt::format("sub-group-size {} is outside 1..128", size));
    b.subGroupSize = uint32_t(size);
  } else if (key == "buffer") {
    readBuffer(rest, b);
  } else if (key == "global-variable") {
    readGlobal(rest, b);
  } else if (key == "arg") {
    readArg(rest, b);
  } else if (key == "warning") {
    std::string text;
    std::getline(rest, text);
    b.warnings.emplace_back(trim(text));
  } else if (key == "status") {
    // What runtime/capture.cc writes: the launch ended CL_COMPLETE or with an error.
    b.status = word("status");
    if (b.status != "complete" && b.status != "failed")
      fail(fmt::format("status '{}' is neither 'complete' nor 'failed'", b.status));
  } else {
    fail(fmt::format("unknown key '{}'", key));
  }
}

void ManifestReader::checkComplete(const Bundle& b,
                                   const std::map<std::string, size_t>& seen) const {
  for (const char* key :
       {"kernel", "module", "work-dim", "global-size", "local-size", "sub-group-size", "status"})
    if (!seen.count(key))
      throw Error(DiagnosticKind::Input, fmt::format("{}: missing '{}' line", path_, key));
  for (const char* key : {"compile-options", "header"})
    if (seen.count(key) && b.source.empty())
      throw Error(DiagnosticKind::Input,
                  fmt::format("{}:{}: a '{}' line describes the program's source, but the "
                              "manifest has no 'source' line",
                              path_, seen.at(key), key));
  for (uint32_t d = b.dims; d < 3; ++d)  // dimensions beyond work-dim are unused
    if (b.global[d] != 1 || b.local[d] != 1 || b.offset[d] != 0)
      throw Error(DiagnosticKind::Input,
                  fmt::format("{}: work-dim is {} but dimension {} has global size {}, local size "
                              "{}, offset {} (expected 1, 1, 0)",
                              path_, b.dims, d, b.global[d], b.local[d], b.offset[d]));
  for (const BundleArg& a : b.args) {
    if (a.kind != BundleArg::Kind::Buffer) continue;
    auto fail = [&](const std::string& m) {
      throw Error(DiagnosticKind::Input, fmt::format("{}:{}: {}", path_, a.line, m));
    };
    if (a.buffer >= b.buffers.size())
      fail(fmt::format("buffer={} but the manifest lists {} buffers", a.buffer, b.buffers.size()));
    const uint64_t size = b.buffers[a.buffer].size;
    if (a.offset > size || a.size > size - a.offset)
      fail(fmt::format("offset={} size={} lies outside buffer {} of {} bytes", a.offset, a.size,
                       a.buffer, size));
  }
}

Bundle ManifestReader::read(const std::string& text) {
  Bundle b;
  b.manifest = path_;
  std::istringstream in(std::string(withoutUtf8Bom(text)));
  std::map<std::string, size_t> seen;
  bool versioned = false;
  for (std::string raw; std::getline(in, raw);) {
    ++line_;
    const std::string line(trim(raw.substr(0, raw.find('#'))));
    if (line.empty()) continue;
    std::istringstream rest(line);
    std::string key;
    rest >> key;
    if (!versioned) {
      std::string version;
      rest >> version;
      if (key != "spvsim-capture")
        fail("not a capture manifest: expected 'spvsim-capture 1' first");
      if (version != "1")
        fail(fmt::format("capture format version '{}' (this spvsim reads 1)", version));
      versioned = true;
      continue;
    }
    const bool repeatable = key == "buffer" || key == "arg" || key == "global-variable" ||
                            key == "warning" || key == "header";
    if (seen.count(key) && !repeatable)
      fail(fmt::format("'{}' is given twice (first on line {})", key, seen[key]));
    seen.emplace(key, line_);
    readLine(key, rest, b);
  }
  if (!versioned) fail("empty manifest: expected 'spvsim-capture 1' first");
  checkComplete(b, seen);
  return b;
}

}  // namespace

files::HostBytes readBundleBytes(const std::string& path, uint64_t offset, uint64_t size) {
  return files::InputFile(path).readAt(offset, size);
}

bool isBundlePath(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))  // a bundle's folder, complete or not (readBundle says)
    return fs::exists(fs::path(path) / kManifestName, ec) ||
           fs::exists(fs::path(path) / kModuleName, ec);
  return fs::path(path).filename() == kManifestName;
}

Bundle readBundle(const std::string& path) {
  std::error_code ec;
  const fs::path manifest =
      fs::is_directory(path, ec) ? fs::path(path) / kManifestName : fs::path(path);
  if (!fs::exists(manifest, ec) && fs::is_directory(path, ec))
    throw Error(DiagnosticKind::Input,
                fmt::format("'{}' is an incomplete capture bundle: it has no {} (the launch did "
                            "not finish, or writing the bundle failed)",
                            path, kManifestName));
  if (fs::is_directory(path, ec) && fs::exists(manifest, ec) && !resolvesInside(manifest, path))
    throw Error(
        DiagnosticKind::Input,
        fmt::format("'{}' is a symbolic link that leads out of the bundle", manifest.string()));
  ManifestReader reader(manifest.string(), manifest.parent_path());
  return reader.read(readTextFile(manifest.string()));
}

namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX of any byte back to the byte; a '%' without two hex digits after it stays.
std::string percentDecoded(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const int high = text[i] == '%' && i + 2 < text.size() ? hexDigit(text[i + 1]) : -1;
    const int low = high >= 0 ? hexDigit(text[i + 2]) : -1;
    if (low >= 0) {
      out += char(high * 16 + low);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Bytes that a line could not hold as they are: a comment, an escape, a line break.
bool needsEscape(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f || c == '%' || c == '#';
}

std::string percentEncoded(std::string_view text, bool spaces) {
  std::string out;
  for (char c : text)
    out += needsEscape(c) || (spaces && c == ' ')
               ? fmt::format("%{:02X}", static_cast<unsigned char>(c))
               : std::string(1, c);
  return out;
}

}  // namespace

std::string unescapeToken(std::string_view token) {
  return token == "-" ? "" : percentDecoded(token);
}

std::string escapeToken(std::string_view text) {
  if (text.empty()) return "-";
  if (text == "-") return "%2D";
  return percentEncoded(text, true);
}

std::string escapeText(std::string_view text) { return percentEncoded(text, false); }

std::string unescapeText(std::string_view text) { return percentDecoded(text); }

std::string badIncludeName(std::string_view name) {
  if (name.empty()) return "is empty";
  if (std::any_of(name.begin(), name.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
      }))
    return "holds control characters";
  if (name.front() == '/') return "is absolute";
  for (size_t start = 0; start <= name.size();) {
    const size_t slash = std::min(name.find('/', start), name.size());
    if (name.substr(start, slash - start) == "..") return "has a '..' component";
    start = slash + 1;
  }
  return "";
}

std::string headerFileName(std::string_view name) {
  std::vector<std::string_view> parts;
  for (size_t start = 0; start <= name.size();) {
    const size_t slash = std::min(name.find('/', start), name.size());
    const std::string_view part = name.substr(start, slash - start);
    start = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part != "..") {
      parts.push_back(part);
    } else if (parts.empty()) {
      return "";  // out of the include folder
    } else {
      parts.pop_back();
    }
  }
  if (parts.empty()) return "";
  std::string out = kHeaderFolder;
  for (std::string_view part : parts) {
    out += '/';
    for (size_t i = 0; i < part.size(); ++i) {
      const char c = part[i];
      const bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+' ||
                         c == '-' || (c == '.' && (i == 0 || part[i - 1] != '.'));
      out += plain ? std::string(1, c) : fmt::format("%{:02X}", static_cast<unsigned char>(c));
    }
  }
  return out;
}

namespace {

bool isInterpreter(std::string_view name) {
  auto startsWithThenVersion = [&](std::string_view head) {
    if (name.substr(0, head.size()) != head) return false;
    return std::all_of(name.begin() + head.size(), name.end(),
                       [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
  };
  for (std::string_view head : {"python", "pypy", "perl", "ruby", "lua", "julia", "php"})
    if (startsWithThenVersion(head)) return true;
  for (std::string_view exact : {"node", "nodejs", "Rscript", "java", "bash", "sh", "dash"})
    if (name == exact) return true;
  return false;
}

// A path's last component without its extension, as [A-Za-z0-9_-] ('_' for the rest).
std::string appStem(std::string_view path) {
  std::string_view base = path.substr(path.find_last_of('/') + 1);
  if (const size_t dot = base.rfind('.'); dot != std::string_view::npos && dot > 0)
    base = base.substr(0, dot);
  std::string out;
  for (char c : base.substr(0, 64))
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  const bool named = std::any_of(
      out.begin(), out.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  return named ? out : "";
}

}  // namespace

std::string sourceFileName(const std::vector<std::string>& argv) {
  std::string stem;
  if (!argv.empty() && !isInterpreter(argv[0].substr(argv[0].find_last_of('/') + 1))) {
    stem = appStem(argv[0]);
  } else {
    for (size_t i = 1; i < argv.size(); ++i) {
      const std::string& a = argv[i];
      if (a == "-c" || a == "-e" || a == "-E" || a == "-" || a == "--eval") break;  // no file
      if (a == "-m" && i + 1 < argv.size()) {  // python3 -m package.module
        const std::string& module = argv[i + 1];
        stem = appStem(module.substr(module.find_last_of('.') + 1));
        break;
      }
      if (a == "-W" || a == "-X" || a == "-r" || a == "-I") {  // options taking the next word
        ++i;
        continue;
      }
      if (a.empty() || a[0] == '-') continue;
      stem = appStem(a);
      break;
    }
  }
  return stem.empty() ? kSourceName : stem + ".cl";
}

std::string bufferFileName(size_t buffer, const char* when) {
  return fmt::format("buffer{}.{}.bin", buffer, when);
}

std::string imageFileName(size_t arg, const char* when) {
  return fmt::format("image{}.{}.bin", arg, when);
}

std::string globalFileName(size_t global) { return fmt::format("global{}.before.bin", global); }

namespace {

std::string hexBytes(const std::vector<uint8_t>& bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out.empty() ? "-" : out;
}

std::string triple(const std::array<uint64_t, 3>& v) {
  return fmt::format("{} {} {}", v[0], v[1], v[2]);
}

// What follows "arg I ".
std::string argText(const BundleArg& a) {
  using K = BundleArg::Kind;
  switch (a.kind) {
    case K::NotCaptured:
      return fmt::format("not-captured {}", escapeToken(a.notCaptured));
    case K::Value:
      return fmt::format("value size={} type={} bytes={}", a.bytes.size(), escapeToken(a.type),
                         hexBytes(a.bytes));
    case K::Local:
      return fmt::format("local size={}", a.size);
    case K::Null:
      return "null";
    case K::Image:
      return fmt::format("image shape={} before={} after={}", a.shape, a.before, a.after);
    case K::Sampler:
      return fmt::format("sampler normalized={} addressing={:#x} filter={:#x}",
                         int(a.sampler.normalizedCoords), a.sampler.addressing, a.sampler.filter);
    case K::Buffer: {
      const std::string access = a.readable || a.writable
                                     ? std::string(a.readable ? "r" : "") + (a.writable ? "w" : "")
                                     : "-";
      return fmt::format("buffer buffer={} offset={} size={} type={} access={}", a.buffer, a.offset,
                         a.size, escapeToken(a.type), access);
    }
  }
  return "";
}

}  // namespace

std::string manifestText(const Bundle& b) {
  std::string out = "spvsim-capture 1\n";
  out += fmt::format("kernel {}\n", b.kernel);
  out += fmt::format("module {}\n", b.module);
  if (!b.source.empty()) {
    out += fmt::format("source {}\n", b.source);
    if (b.compiled) out += fmt::format("compile-options {}\n", escapeText(b.compileOptions));
    for (const BundleHeader& h : b.headers)
      out += fmt::format("header name={} file={}\n", escapeToken(h.name), h.file);
  }
  out += fmt::format("build-options {}\n", escapeText(b.buildOptions));
  out += fmt::format("work-dim {}\n", b.dims);
  out += fmt::format("global-offset {}\n", triple(b.offset));
  out += fmt::format("global-size {}\n", triple(b.global));
  out += fmt::format("local-size {}\n", triple(b.local));
  out += fmt::format("sub-group-size {}\n", b.subGroupSize);
  for (const std::string& w : b.warnings) out += fmt::format("warning {}\n", w);
  for (size_t i = 0; i < b.buffers.size(); ++i) {
    const BundleBuffer& buf = b.buffers[i];
    out += fmt::format("buffer {} size={} before={} after={} initialized={}\n", i, buf.size,
                       buf.before, buf.after, int(buf.initialized));
  }
  for (const BundleGlobal& g : b.globals)
    out += fmt::format("global-variable id={} size={} before={}\n", g.id, g.size, g.before);
  for (size_t i = 0; i < b.args.size(); ++i)
    out += fmt::format("arg {} {}\n", i, argText(b.args[i]));
  for (const std::string& note : b.notes) out += fmt::format("# {}\n", note);
  if (!b.status.empty()) out += fmt::format("status {}\n", b.status);
  return out;
}

}  // namespace spvsim::formats

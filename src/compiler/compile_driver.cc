#include "src/compiler/compile_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "spirv/call_graph.h"
#include "spirv/error.h"
#include "spirv/legacy_atomics.h"
#include "spirv/loader.h"
#include "spirv/normalize.h"
#include "src/compiler/build_options.h"
#include "src/compiler/clang_log.h"
#include "src/compiler/compile_cache.h"
#include "src/compiler/ir_rewrites.h"
#include "src/compiler/llvm_ir.h"
#include "src/compiler/opencl_c_support.h"
#include "src/compiler/prelude.h"
#include "src/compiler/process.h"

namespace spvsim::compiler {
namespace {

namespace fs = std::filesystem;

struct Tool {
  const char* name;
  const char* package;
};
constexpr Tool kClang{"clang-15", "clang-15"};
constexpr Tool kOpt{"opt-15", "llvm-15"};
constexpr Tool kTranslator{"llvm-spirv-15", "llvm-spirv-15"};

// Every extension but two whose capabilities the SPIR-V validator refuses for OpenCL and
// which only carry hints: SPV_INTEL_optnone (-O0 marks functions optnone) and
// SPV_INTEL_fp_fast_math_mode (fast-math options; core FPFastMathMode is used instead).
constexpr const char* kTranslatorExtensions =
    "--spirv-ext=+all,-SPV_INTEL_optnone,-SPV_INTEL_fp_fast_math_mode";

// LLVM options that keep clang's optimiser from producing what the translator or SPIR-V
// cannot express (src/DESIGN.md, "Compile driver"): SimplifyCFG must not merge the
// sub-group calls of two branches into one call after them (their arguments would become
// a phi: a non-constant cluster size, a non-uniform broadcast id), and loop exit values
// must not be rewritten into closed forms computed in odd-width integers (i33).
const std::vector<std::string> kLlvmOptions = {"-mllvm", "-simplifycfg-sink-common=false",
                                               "-mllvm", "-simplifycfg-hoist-common=false",
                                               "-mllvm", "-replexitval=never"};

// No SLP vectoriser: it packs a lane's independent scalar operations into short vectors
// (stencil's four border tests became compares of a <4 x i32> built by inserts and
// shuffles, a bool-vector bitcast and a reduction), which a simulator whose lanes are
// already the vector dimension runs as more instructions, not fewer. It never changes
// results; explicit vector types in the source stay vectors. After the level: clang's
// -O2 turns the SLP vectoriser back on for the options before it.
constexpr const char* kNoSlpVectorizer = "-fno-slp-vectorize";

// A header include name must stay inside the temporary directory.
fs::path headerPath(const std::string& name) {
  const fs::path p = fs::path(name).lexically_normal();
  if (name.empty() || p.is_absolute() || *p.begin() == "..")
    throw Error(DiagnosticKind::Usage,
                fmt::format("header include name '{}' is not a relative path inside "
                            "the include directory",
                            name));
  return p;
}

std::string firstLine(std::string_view text) {
  while (!text.empty() && (text.front() == '\n' || text.front() == ' ')) text.remove_prefix(1);
  return std::string(text.substr(0, text.find('\n')));
}

// The gist of a tool's failure: its first two non-empty lines (llvm-spirv-15 names the
// problem on one and the LLVM instruction on the next), without source-file suffixes.
std::string gist(std::string_view text) {
  std::string out;
  for (int lines = 0; lines < 2 && !text.empty();) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? "" : text.substr(nl + 1);
    if (const size_t src = line.find(" [Src: "); src != std::string_view::npos)
      line = line.substr(0, src);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
    if (line.empty()) continue;
    out += (out.empty() ? "" : " ") + std::string(line);
    ++lines;
  }
  return out;
}

std::string trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  while (!text.empty() && (text.front() == '\n' || text.front() == ' ')) text.remove_prefix(1);
  return std::string(text);
}

// The prerequisites of clang's -MD output ("target: a.cl \\\n b.h"), made absolute;
// files inside the scratch directory (the prelude, an in-memory source) are left out.
std::vector<std::string> parseDependencies(const std::string& text, const std::string& scratch) {
  std::vector<std::string> out;
  const size_t colon = text.find(": ");
  if (colon == std::string::npos) return out;
  std::string current;
  auto flush = [&] {
    if (!current.empty() && current != "-") {
      std::error_code ec;
      const std::string abs = fs::absolute(current, ec).lexically_normal().string();
      if (!ec && abs.rfind(scratch, 0) != 0) out.push_back(abs);
    }
    current.clear();
  };
  for (size_t i = colon + 2; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '#')) {
      current += text[++i];
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      flush();
    } else if (c == ' ' || c == '\n' || c == '\t') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return out;
}

// Options as clang takes them: without -cl-no-subgroup-ifp (clang does not know it; it
// only allows optimisations, and spvsim's sub-groups always make independent forward
// progress) and without optimisation levels (the driver sets the level).
std::vector<std::string> clangOptions(const std::vector<std::string>& options) {
  std::vector<std::string> out;
  for (const std::string& o : withoutOptimizationLevel(options))
    if (o != "-cl-no-subgroup-ifp") out.push_back(o);
  return out;
}

// The source path as clang's input: a relative path that starts with '-' would be read as
// an option (a file named "-fplugin=x.cl" would load itself into clang), so it gets "./".
std::string inputOperand(const std::string& path) {
  return path.rfind('-', 0) == 0 ? "./" + path : path;
}

// What one attempt at one optimisation level produced.
struct Attempt {
  std::optional<std::string> failure;  // why the module could not be made at this level
  CachedCompile result;
};

class Driver {
 public:
  Driver(const CompileRequest& r, const std::vector<std::string>& options)
      : request_(r),
        options_(options),
        std_(openclCStandard(options, r.defaultStd)),
        clang_(requireTool(kClang.name, kClang.package)),
        opt_(requireTool(kOpt.name, kOpt.package)),
        translator_(requireTool(kTranslator.name, kTranslator.package)) {}

  // Every input that decides the module, as one string (compile_cache.h).
  std::string cacheKey() const {
    std::string key = fmt::format("driver {}\nstd {}\n", selfIdentity(), std_);
    // What the driver adds to clang's input, as text: the binary's identity follows it
    // only through the binary's size and time.
    for (const std::string& a : featureArguments(openclCVersion(std_)))
      key += fmt::format("feature {}\n", a);
    const std::string prelude = preludeText();
    key += fmt::format("prelude {}\n{}\n", prelude.size(), prelude);
    for (const std::string* tool : {&clang_, &opt_, &translator_}) {
      std::error_code ec;
      const fs::path real = fs::canonical(*tool, ec);
      const auto time = fs::last_write_time(real, ec).time_since_epoch().count();
      key += fmt::format("tool {} {} {}\n", real.string(), fs::file_size(real, ec), time);
    }
    std::error_code ec;
    key += fmt::format("cwd {}\npath {}\n", fs::current_path(ec).string(), request_.sourcePath);
    for (const char* var : {"CPATH", "C_INCLUDE_PATH"})
      if (const char* v = std::getenv(var)) key += fmt::format("env {}={}\n", var, v);
    for (const std::string& o : options_) key += fmt::format("option {}\n{}\n", o.size(), o);
    for (const SourceHeader& h : request_.headers)
      key += fmt::format("header {} {}\n{}{}\n", h.name.size(), h.text.size(), h.name, h.text);
    return key + fmt::format("source {}\n", request_.source.size()) + request_.source;
  }

  // The module at the requested level, else at the first lower level that works (with a
  // warning naming what failed).
  CachedCompile compile() {
    const std::string level = optimizationLevel(options_);
    std::vector<std::string> levels = {level};
    for (const std::string& lower : lowerLevels(level)) levels.push_back(lower);
    std::string warnings, firstFailure;
    for (size_t i = 0; i < levels.size(); ++i) {
      Attempt a = attempt(levels[i]);
      if (!a.failure) {
        a.result.log = warnings + a.result.log;
        return std::move(a.result);
      }
      if (i == 0) firstFailure = *a.failure;
      if (i + 1 < levels.size())
        warnings += fmt::format("warning: {}; compiling at {} instead\n", firstLine(*a.failure),
                                levels[i + 1]);
    }
    if (levels.size() > 1) firstFailure += fmt::format(" (and at {} too)", levels.back());
    throw Error(DiagnosticKind::Compile,
                request_.sourcePath.empty()
                    ? firstFailure
                    : fmt::format("compiling '{}' failed: {}", request_.sourcePath, firstFailure));
  }

 private:
  std::string run(const std::string& tool, const Tool& t, std::vector<std::string> argv,
                  CachedCompile& out, const std::string& stdinPath = "") {
    argv.insert(argv.begin(), t.name);
    out.commands.push_back(shellQuoted(argv) + (stdinPath.empty() ? "" : " < " + stdinPath));
    const ProcessResult r =
        runProcess(tool, argv, dir_->file(std::string(t.name) + ".log"), stdinPath);
    if (r.status != 0)
      return r.output.empty()
                 ? fmt::format("{} exited with status {}", t.name, r.status)
                 : fmt::format("{} exited with status {}: {}", t.name, r.status, trimmed(r.output));
    out.log += r.output;
    return "";
  }

  std::vector<std::string> clangCommand(const std::string& level, const std::string& input,
                                        const std::string& output) const {
    std::vector<std::string> argv = {"-cl-std=" + std_,
                                     "-cl-kernel-arg-info",
                                     "-target",
                                     "spir64",
                                     "-Xclang",
                                     "-no-opaque-pointers",
                                     "-cl-no-stdinc",
                                     "-Xclang",
                                     "-finclude-default-header"};
    for (const std::string& a : featureArguments(openclCVersion(std_))) argv.push_back(a);
    argv.insert(argv.end(), {"-include", dir_->file("spvsim_prelude.h")});
    argv.insert(argv.end(), kLlvmOptions.begin(), kLlvmOptions.end());
    if (!request_.headers.empty()) argv.insert(argv.end(), {"-I", dir_->file("include")});
    for (const std::string& o : clangOptions(options_))
      if (o.rfind("-cl-std=", 0) != 0) argv.push_back(o);
    if (request_.sourcePath.empty()) argv.insert(argv.end(), {"-x", "cl"});
    argv.insert(argv.end(), {level, kNoSlpVectorizer, "-MD", "-MF", dir_->file("deps.d"),
                             "-emit-llvm", "-S", input, "-o", output});
    return argv;
  }

  void writeInputs() const {
    dir_->write("spvsim_prelude.h", preludeText());
    if (request_.sourcePath.empty()) dir_->write("source.cl", request_.source);
    std::vector<fs::path> seen;  // the first of several headers with one name wins
    for (const SourceHeader& h : request_.headers) {
      const fs::path p = headerPath(h.name);
      if (std::find(seen.begin(), seen.end(), p) != seen.end()) continue;
      seen.push_back(p);
      dir_->write(fs::path("include") / p, h.text);
    }
  }

  // clang-15's messages without its warning about a pragma for cl_khr_subgroups before
  // OpenCL C 2.0: clang makes the extension available from 2.0 only, but the device
  // supports it at every version (its functions and macro are there; the OpenCL C
  // specification asks only for the extension), so the pragma is correct there too, and
  // clang has no narrower way to accept it (prelude.cc makes the others pragma-taking).
  std::string clangMessages(const std::string& log) const {
    if (openclCVersion(std_) >= 200) return log;
    return withoutWarnings(log, "unsupported OpenCL extension 'cl_khr_subgroups'");
  }

  // The IR rewrites (src/compiler/ir_rewrites.h), noted for `spvsim info`.
  std::string rewrite(const std::string& ir, CachedCompile& out) const {
    std::vector<std::string> lines = ir::splitLines(ir);
    if (int n = removeFreeze(lines))
      out.notes.push_back(
          fmt::format("LLVM IR: {} freeze instruction(s) replaced by identities "
                      "(llvm-spirv-15 cannot translate freeze)",
                      n));
    if (int n = lowerLegacyAtomics(lines))
      out.notes.push_back(
          fmt::format("LLVM IR: {} OpenCL 1.x atomic built-in call(s) made "
                      "device-scope atomics (llvm-spirv-15 would give them "
                      "Workgroup scope)",
                      n));
    if (int n = widenSwitches(lines))
      out.notes.push_back(
          fmt::format("LLVM IR: {} switch(es) on an odd-width integer widened "
                      "(llvm-spirv-15 crashes on them)",
                      n));
    if (int n = expandBoolVectorBitcasts(lines))
      out.notes.push_back(
          fmt::format("LLVM IR: {} bitcast(s) between a bool vector and an "
                      "integer expanded (SPIR-V cannot bitcast booleans)",
                      n));
    if (int n = dropUntranslatableDebugValues(lines))
      out.notes.push_back(
          fmt::format("LLVM IR: {} debug value(s) whose DWARF expression "
                      "OpenCL.DebugInfo.100 cannot express marked optimised "
                      "out",
                      n));
    return ir::joinLines(lines);
  }

  Attempt attempt(const std::string& level) {
    TempDir dir;
    dir_ = &dir;
    writeInputs();
    Attempt a;
    CachedCompile& out = a.result;
    const std::string ll = dir.file("kernel.ll"), fixed = dir.file("kernel.rewritten.ll"),
                      bc = dir.file("kernel.bc"), spv = dir.file("kernel.spv");
    const bool inMemory = request_.sourcePath.empty();
    const std::string input = inMemory ? "-" : inputOperand(request_.sourcePath);
    if (std::string e = run(clang_, kClang, clangCommand(level, input, ll), out,
                            inMemory ? dir.file("source.cl") : "");
        !e.empty()) {
      // The source itself is wrong: no other level would compile it.
      const std::string messages =
          trimmed(clangMessages(readFile(dir.file(std::string(kClang.name) + ".log"))));
      if (inMemory) throw Error(DiagnosticKind::Compile, messages.empty() ? e : messages);
      throw Error(DiagnosticKind::Compile,
                  fmt::format("compiling '{}' failed ({}):\n{}", request_.sourcePath,
                              e.substr(0, e.find(':')), messages));
    }
    out.log = clangMessages(out.log);
    out.dependencies = parseDependencies(readFile(dir.file("deps.d")), dir.file(""));
    dir.write("kernel.rewritten.ll", rewrite(readFile(ll), out));
    if (std::string e = run(opt_, kOpt, {"-expand-reductions", fixed, "-o", bc}, out); !e.empty())
      return failed(std::move(a), "opt-15 refused the rewritten LLVM IR at " + level + ": " + e);
    if (std::string e =
            run(translator_, kTranslator,
                {kTranslatorExtensions, "--preserve-ocl-kernel-arg-type-metadata-through-string",
                 bc, "-o", spv},
                out);
        !e.empty())
      return failed(std::move(a), fmt::format("llvm-spirv-15 cannot translate the kernel at {} "
                                              "({})",
                                              level, gist(e.substr(e.find(':') + 2))));
    return finish(std::move(a), spirv::readBinaryFile(spv), level);
  }

  // The translator's module, normalised and checked by the loader, with the marker that
  // says its legacy atomics are already device-wide (spirv/ reads it).
  Attempt finish(Attempt a, std::vector<uint32_t> words, const std::string& level) {
    spirv::NormalizedModule n = spirv::normalizeModule(spirv::withLegacyAtomicsMarker(words));
    try {
      spirv::LoadOptions options;
      options.refuseRecursion = false;  // below: the source's error, at every level
      const spirv::Module m = spirv::loadModule(n.words, options);
      // Optimisation only removes calls (a tail call becomes a loop), so no other level
      // could be without the cycle: the kernel itself breaks OpenCL C's rule.
      if (std::optional<spirv::CallCycle> cycle = spirv::findCallCycle(m)) {
        const std::string why = spirv::recursionMessage(m, *cycle);
        throw Error(DiagnosticKind::Compile,
                    request_.sourcePath.empty()
                        ? why
                        : fmt::format("compiling '{}' failed: {}", request_.sourcePath, why));
      }
    } catch (const Error& e) {
      // What spvsim does not execute is refused at every level: only an invalid module
      // (a translator defect) is worth another level.
      if (e.kind() != DiagnosticKind::InvalidModule) throw;
      return failed(std::move(a), fmt::format("the module llvm-spirv-15 made at {} is invalid: {}",
                                              level, e.what()));
    }
    for (const spirv::Repair& r : n.repairs)
      a.result.notes.push_back(
          fmt::format("SPIR-V: repaired: {} ({}, {}x)", r.rule, r.producer, r.count));
    a.result.words = std::move(n.words);
    return a;
  }

  static Attempt failed(Attempt a, std::string why) {
    a.failure = std::move(why);
    return a;
  }

  const CompileRequest& request_;
  const std::vector<std::string>& options_;
  const std::string std_;
  const std::string clang_, opt_, translator_;
  const TempDir* dir_ = nullptr;
};

}  // namespace

std::string openclCStandard(const std::vector<std::string>& options,
                            const std::string& defaultStd) {
  std::string s = defaultStd;
  for (const std::string& o : options)
    if (o.rfind("-cl-std=", 0) == 0) s = o.substr(8);
  return s;
}

CompileResult compileOpenCL(const CompileRequest& request) {
  const std::vector<std::string> options = splitBuildOptions(request.options);
  Driver driver(request, options);
  const std::optional<CompileCache> cache = request.useCache ? CompileCache::open() : std::nullopt;
  const std::string key = cache ? driver.cacheKey() : "";
  std::optional<CachedCompile> hit = cache ? cache->find(key) : std::nullopt;
  CachedCompile c = hit ? std::move(*hit) : driver.compile();
  if (cache && !hit) cache->store(key, c);
  CompileResult r;
  r.words = std::move(c.words);
  r.log = std::move(c.log);
  r.commands = std::move(c.commands);
  r.notes = std::move(c.notes);
  r.fromCache = hit.has_value();
  return r;
}

CompileResult compileOpenCLFile(const std::string& path, std::string_view options, bool useCache) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot open '{}': {}", path,
                            fs::exists(path, ec) ? "not a regular file" : "no such file"));
  CompileRequest request;
  request.source = readFile(path);
  request.sourcePath = path;
  request.options = std::string(options);
  request.useCache = useCache;
  return compileOpenCL(request);
}

}  // namespace spvsim::compiler

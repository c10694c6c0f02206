// The Oclgrind .sim form of a captured launch (runtime/capture.h; the text's layout is
// src/formats/sim_text.h's, which the command line reads), where the launch fits
// that format: a zero global offset, and arguments that are scalars or vectors of
// char..ulong, float, double, buffers of them (or of anything, as uchar) that no other
// argument shares, local memory and null pointers; no program-scope variables. The
// manifest stays the exact description; the .sim repeats the "before" contents as text
// (floats with enough digits to round-trip; NaN payloads are lost) and runs with three
// work dimensions, as every .sim file does.
#include <fmt/format.h>

#include <optional>

#include "runtime/capture.h"
#include "runtime/mem.h"
#include "src/formats/bundle_manifest.h"
#include "src/formats/sim_text.h"

namespace spvsim::rt {
namespace {

constexpr uint64_t kMaxSimBytes = 16ull << 20;  // larger launches: the manifest only

// One argument's header and values, or nullopt (with `why`) when it does not fit.
std::optional<std::string> simArg(const KernelArg& a, const spirv::ParamSignature& p,
                                  const std::vector<KernelArg>& all, std::string& why) {
  const ArgBinding& b = a.binding;
  formats::SimHeader h;
  switch (b.kind) {
    case ArgBinding::Kind::Local:
      h.size = b.localBytes;
      return formats::simHeaderText(h) + "\n";
    case ArgBinding::Kind::Null:
      h.null = true;
      return formats::simHeaderText(h) + "\n";
    case ArgBinding::Kind::Value: {
      const auto s = formats::simScalarOf(p.typeName, false);
      if (!s || b.value.size() % values::scalarSize(*s)) {
        why = fmt::format("argument {} ({}: no .sim type)", p.index, p.declaration());
        return std::nullopt;
      }
      h.size = b.value.size();
      h.type = s;
      return formats::simHeaderText(h) + "\n" +
             formats::simValuesText(*s, b.value.data(), b.value.size());
    }
    case ArgBinding::Kind::Buffer: {
      int users = 0;
      for (const KernelArg& o : all)
        users += o.binding.kind == ArgBinding::Kind::Buffer && rootOf(o.mem) == rootOf(a.mem);
      const auto s = formats::simScalarOf(p.typeName, true);
      if (users > 1 || usesSvmPointer(a.mem) || a.mem->size % values::scalarSize(*s)) {
        why = fmt::format("argument {} ({}: {})", p.index, p.declaration(),
                          users > 1 ? "shares its buffer with another argument" : "SVM memory");
        return std::nullopt;
      }
      h.size = a.mem->size;
      h.type = s;
      h.wo = !b.readable;
      h.ro = b.readable && !b.writable;
      h.dump = true;
      return formats::simHeaderText(h) + "\n" +
             formats::simValuesText(*s, a.mem->data, a.mem->size);
    }
    default:
      break;
  }
  why = fmt::format("argument {} ({})", p.index, p.declaration());
  return std::nullopt;
}

}  // namespace

std::string simFile(const LaunchCapture::Input& in, const std::array<uint64_t, 3>& local,
                    std::string& why) {
  const NDRange& r = in.range;
  uint64_t bytes = 0;
  for (const KernelArg& a : in.args)
    if (a.binding.kind == ArgBinding::Kind::Buffer) bytes += a.mem->size;
  if (r.offset != std::array<uint64_t, 3>{0, 0, 0})
    why = "a global offset";
  else if (!in.program.globalVariables().empty())
    why = "program-scope variables";
  else if (bytes > kMaxSimBytes)
    why = "buffers larger than 16 MiB in all";
  if (!why.empty()) return "";
  std::string out =
      fmt::format("# spvsim capture of kernel {} (launch.txt is the exact description)\n",
                  in.kernel.name()) +
      formats::simSetupText({formats::kModuleName, in.kernel.name(), r.global, local});
  const auto& params = in.kernel.signature().params;
  for (size_t i = 0; i < in.args.size() && i < params.size(); ++i) {
    const auto arg = simArg(in.args[i], params[i], in.args, why);
    if (!arg) return "";
    out += *arg;
  }
  return out;
}

}  // namespace spvsim::rt

// The Oclgrind .sim form of a captured launch (runtime/capture.h), where the launch fits
// that format: a zero global offset, and arguments that are scalars or vectors of
// char..ulong, float, double, buffers of them (or of anything, as uchar) that no other
// argument shares, local memory and null pointers; no program-scope variables. The
// manifest stays the exact description; the .sim repeats the "before" contents as text
// (floats with enough digits to round-trip; NaN payloads are lost) and runs with three
// work dimensions, as every .sim file does.
#include <fmt/format.h>

#include <cstring>
#include <optional>

#include "runtime/capture.h"
#include "runtime/mem.h"

namespace spvsim::rt {
namespace {

struct SimScalar {
  const char* name;
  uint32_t bytes;
  bool floating, isSigned;
};

constexpr SimScalar kScalars[] = {{"char", 1, false, true},  {"uchar", 1, false, false},
                                  {"short", 2, false, true}, {"ushort", 2, false, false},
                                  {"int", 4, false, true},   {"uint", 4, false, false},
                                  {"long", 8, false, true},  {"ulong", 8, false, false},
                                  {"float", 4, true, true},  {"double", 8, true, true}};

// The scalar of an OpenCL C type name ("const float4*" -> float); uchar for pointers to
// anything else (void, structs), as Oclgrind reads them; nullopt for other values.
std::optional<SimScalar> scalarOf(std::string_view type, bool pointer) {
  for (std::string_view q : {"const ", "volatile "})
    while (type.substr(0, q.size()) == q) type.remove_prefix(q.size());
  while (!type.empty() && (type.back() == '*' || type.back() == ' ')) type.remove_suffix(1);
  while (!type.empty() && type.back() >= '0' && type.back() <= '9') type.remove_suffix(1);
  for (const SimScalar& s : kScalars)
    if (type == s.name) return s;
  if (pointer) return kScalars[1];
  return std::nullopt;
}

std::string formatValue(const SimScalar& s, const uint8_t* p) {
  if (s.floating && s.bytes == 4) {
    float f;
    std::memcpy(&f, p, 4);
    return fmt::format("{:.9g}", f);
  }
  if (s.floating) {
    double d;
    std::memcpy(&d, p, 8);
    return fmt::format("{:.17g}", d);
  }
  uint64_t bits = 0;
  std::memcpy(&bits, p, s.bytes);
  if (s.isSigned && s.bytes < 8 && (bits >> (8 * s.bytes - 1)) & 1) bits |= ~0ull << (8 * s.bytes);
  return s.isSigned ? std::to_string(int64_t(bits)) : std::to_string(bits);
}

// `bytes` as values of `s`, 16 to a line.
std::string values(const SimScalar& s, const uint8_t* bytes, uint64_t size) {
  std::string out;
  for (uint64_t i = 0; i < size / s.bytes; ++i)
    out += formatValue(s, bytes + i * s.bytes) + ((i + 1) % 16 == 0 ? "\n" : " ");
  if (!out.empty() && out.back() == ' ') out.back() = '\n';
  return out;
}

constexpr uint64_t kMaxSimBytes = 16ull << 20;  // larger launches: the manifest only

// One argument's header and values, or nullopt (with `why`) when it does not fit.
std::optional<std::string> simArg(const KernelArg& a, const spirv::ParamSignature& p,
                                  const std::vector<KernelArg>& all, std::string& why) {
  const ArgBinding& b = a.binding;
  switch (b.kind) {
    case ArgBinding::Kind::Local:
      return fmt::format("<size={}>\n", b.localBytes);
    case ArgBinding::Kind::Null:
      return std::string("<null>\n");
    case ArgBinding::Kind::Value: {
      const auto s = scalarOf(p.typeName, false);
      if (!s || b.value.size() % s->bytes) {
        why = fmt::format("argument {} ({}: no .sim type)", p.index, p.declaration());
        return std::nullopt;
      }
      return fmt::format("<size={} {}>\n", b.value.size(), s->name) +
             values(*s, b.value.data(), b.value.size());
    }
    case ArgBinding::Kind::Buffer: {
      int users = 0;
      for (const KernelArg& o : all)
        users += o.binding.kind == ArgBinding::Kind::Buffer && rootOf(o.mem) == rootOf(a.mem);
      const auto s = scalarOf(p.typeName, true);
      if (users > 1 || usesSvmPointer(a.mem) || a.mem->size % s->bytes) {
        why = fmt::format("argument {} ({}: {})", p.index, p.declaration(),
                          users > 1 ? "shares its buffer with another argument" : "SVM memory");
        return std::nullopt;
      }
      const char* access = !b.readable ? " wo" : !b.writable ? " ro" : "";
      return fmt::format("<size={} {}{} dump>\n", a.mem->size, s->name, access) +
             values(*s, a.mem->data, a.mem->size);
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
  std::string out = fmt::format(
      "# spvsim capture of kernel {} (launch.txt is the exact description)\nmodule.spv\n{}\n"
      "{} {} {}\n{} {} {}\n",
      in.kernel.name(), in.kernel.name(), r.global[0], r.global[1], r.global[2], local[0], local[1],
      local[2]);
  const auto& params = in.kernel.signature().params;
  for (size_t i = 0; i < in.args.size() && i < params.size(); ++i) {
    const auto arg = simArg(in.args[i], params[i], in.args, why);
    if (!arg) return "";
    out += *arg;
  }
  return out;
}

}  // namespace spvsim::rt

// Diagnostics: what spvsim reports about a kernel (src/DESIGN.md "Diagnostics").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spirv/error.h"

namespace spvsim {

enum class Severity { Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  DiagnosticKind kind = DiagnosticKind::Unsupported;
  std::string message;
  std::string kernel;
  std::optional<std::array<uint64_t, 3>> workGroup;
  std::optional<uint32_t> subGroup;
  std::vector<uint32_t> lanes;  // sub-group local ids
  std::string instruction;      // "%42 = OpLoad %uint %41 Aligned 4"
  std::string line;             // "k.cl:17"
  uint64_t repeats = 0;         // further occurrences folded into this one
  // Ordering key for deterministic output: linear work-group id, then sub-group id << 8 |
  // first lane (work-groups of more than 2^16 sub-groups exist: the command line's are
  // bounded by memory, kMaxWorkGroupItems).
  std::pair<uint64_t, uint64_t> order{0, 0};
};

// "error: out-of-bounds: load of 4 bytes ... [kernel k, work-group (0,0,0), ...]": one
// line without a newline whatever the message or names hold (they are escaped), so
// callers print it as it is.
std::string formatText(const Diagnostic& d);

// {"kind": ..., "severity": ..., ...} as src/DESIGN.md specifies.
std::string formatJson(const Diagnostic& d);

// JSON string literal with escapes, valid UTF-8 whatever `s` holds (spirv::jsonStringLiteral).
std::string jsonQuote(const std::string& s);

// Folds diagnostics of the same kind and severity at the same instruction into the
// first (in `order`), counting the rest in `repeats`; sorts by `order`.
std::vector<Diagnostic> foldDiagnostics(std::vector<Diagnostic> all);

bool hasErrors(const std::vector<Diagnostic>& ds);

}  // namespace spvsim

// A small JSON reader for files users hand to spvsim (`spvsim check --expect`): every value
// keeps its source line so that errors can say FILE:LINE.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spvsim::tools {

struct JsonValue {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  std::string text;  // Number: the token as written; String: the decoded string; Bool: true/false
  std::vector<JsonValue> items;                            // Array
  std::vector<std::pair<std::string, JsonValue>> members;  // Object, in file order
  uint64_t line = 1;

  // The member named `key`, or nullptr.
  const JsonValue* find(std::string_view key) const;
};

// Parses one JSON document. Throws Error(DiagnosticKind::Input) "NAME:LINE: message" for
// malformed text (and for nesting deeper than 256, which no report of spvsim has).
JsonValue parseJson(std::string_view text, const std::string& name);

}  // namespace spvsim::tools

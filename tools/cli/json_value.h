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
  // Array: the elements. Object: the member values, in file order, named by `keys`
  // (parallel vectors: std::pair of an incomplete type does not build with libc++/clang).
  std::vector<JsonValue> items;
  std::vector<std::string> keys;  // Object
  uint64_t line = 1;

  // The member named `key`, or nullptr.
  const JsonValue* find(std::string_view key) const;
};

// Parses one JSON document. Throws Error(DiagnosticKind::Input) "NAME:LINE: message" for
// malformed text (and for nesting deeper than 256, which no report of spvsim has).
// `firstLine`: the line `text` starts on in NAME (one line of a JSON Lines file).
JsonValue parseJson(std::string_view text, const std::string& name, uint64_t firstLine = 1);

// Builders for JSON that spvsim writes (the DAP adapter's messages).
JsonValue jsonString(std::string text);
JsonValue jsonNumber(int64_t number);
JsonValue jsonBool(bool value);
JsonValue jsonArray();
JsonValue jsonObject();
// Adds (or replaces) member `key` of an Object; returns the object for chaining.
JsonValue& setMember(JsonValue& object, std::string_view key, JsonValue value);

// Compact JSON text of `value` (strings escaped; Number text written as it is).
std::string writeJson(const JsonValue& value);

}  // namespace spvsim::tools

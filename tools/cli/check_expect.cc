#include "tools/cli/check_expect.h"

#include <fmt/format.h>

#include "spirv/error.h"
#include "tools/cli/check_compare.h"
#include "tools/cli/json_value.h"
#include "tools/cli/scalar_codec.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {
namespace {

class ExpectReader {
 public:
  ExpectReader(const std::string& path, const std::vector<ArgValue>& args)
      : path_(path), args_(args) {}

  std::vector<ExpectedArg> read() {
    const std::string text = readTextFile(path_);
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{')
      fromJson(parseJson(text, path_));
    else
      fromText(text);
    if (out_.empty())
      throw Error(DiagnosticKind::Input,
                  fmt::format("{}: names no argument (expected 'argN TYPE[COUNT] = ...' lines as "
                              "--dump prints them, or a --json report with \"buffers\")",
                              path_));
    return out_;
  }

 private:
  [[noreturn]] void fail(uint64_t line, const std::string& message) const {
    throw Error(DiagnosticKind::Input, fmt::format("{}:{}: {}", path_, line, message));
  }

  // "arg2" -> the launch's argument 2, checked to be a buffer or image named once.
  ExpectedArg& start(std::string_view name, uint64_t line) {
    uint64_t index = 0;
    if (name.substr(0, 3) != "arg" || !parseUnsigned(name.substr(3), index) ||
        name.substr(3, 2) == "0x")
      fail(line, fmt::format("'{}' is not an argument name (arg0, arg1, ...)", name));
    if (index >= args_.size())
      fail(line, fmt::format("{}: the kernel has {} argument{} (arg0..arg{})", name, args_.size(),
                             args_.size() == 1 ? "" : "s", args_.size() - 1));
    const ArgValue& arg = args_[index];
    if (!arg.holdsData())
      fail(line, fmt::format("{} is '{}', not a buffer or image (only those are compared)", name,
                             arg.text));
    for (const ExpectedArg& e : out_)
      if (e.index == index)
        fail(line, fmt::format("{} is named twice (first on line {})", name, e.line));
    out_.push_back({index, line, arg});
    return out_.back();
  }

  // One component: a literal of the element's scalar type ("NaN", "Infinity" as JSON
  // writes non-finite floats).
  void component(Scalar s, std::string_view text, uint8_t* out, uint64_t line) {
    const std::string_view literal = text == "NaN"         ? "nan"
                                     : text == "Infinity"  ? "inf"
                                     : text == "-Infinity" ? "-inf"
                                                           : text;
    try {
      storeLiteral(s, literal, out);
    } catch (const Error& e) {
      fail(line, e.what());
    }
  }

  void checkCount(const ExpectedArg& e, uint64_t count, uint64_t line) {
    if (count != e.value.count)
      fail(line, fmt::format("arg{} has {} elements here but {} in the launch ({})", e.index, count,
                             e.value.count, argTypeText(e.value)));
  }

  void fromText(const std::string& text) {
    uint64_t number = 0;
    for (std::string_view line : split(text, '\n')) {
      ++number;
      if (line.empty() || line[0] == '#') continue;
      const size_t space = line.find(' '), eq = line.find(" =");
      if (line.substr(0, 3) != "arg" || space == std::string_view::npos ||
          eq == std::string_view::npos || eq < space)
        fail(number, fmt::format("expected 'argN TYPE[COUNT] = VALUES' as --dump prints it, not "
                                 "'{}'",
                                 line.substr(0, 60)));
      ExpectedArg& e = start(line.substr(0, space), number);
      const std::string_view header = line.substr(space + 1, eq - space - 1);
      if (header != argTypeText(e.value))
        fail(number, fmt::format("arg{} is '{}' here but '{}' in the launch", e.index, header,
                                 argTypeText(e.value)));
      std::vector<std::string_view> values;
      for (std::string_view v : split(trim(line.substr(eq + 2)), ' '))
        if (!v.empty()) values.push_back(v);
      checkCount(e, values.size(), number);
      for (uint64_t i = 0; i < values.size(); ++i) textElement(e, values[i], i, number);
    }
  }

  void textElement(ExpectedArg& e, std::string_view token, uint64_t i, uint64_t line) {
    const ElementType& t = e.value.type;
    uint8_t* out = e.value.bytes.data() + i * t.size();
    if (t.lanes == 1) return component(t.scalar, token, out, line);
    if (token.size() < 2 || token.front() != '(' || token.back() != ')')
      fail(line,
           fmt::format("element {} '{}' is not a {} vector like (1,2,...)", i, token, t.name()));
    const std::vector<std::string_view> parts = split(token.substr(1, token.size() - 2), ',');
    if (parts.size() != t.lanes)
      fail(line, fmt::format("element {} '{}' has {} components, {} has {}", i, token, parts.size(),
                             t.name(), t.lanes));
    for (uint32_t c = 0; c < t.lanes; ++c)
      component(t.scalar, parts[c], out + c * scalarSize(t.scalar), line);
  }

  void fromJson(const JsonValue& root) {
    const JsonValue* buffers =
        root.type == JsonValue::Type::Object ? root.find("buffers") : nullptr;
    if (!buffers || buffers->type != JsonValue::Type::Object)
      fail(root.line, "a JSON reference needs a \"buffers\" object (as --json writes)");
    for (size_t k = 0; k < buffers->keys.size(); ++k) {
      const std::string& name = buffers->keys[k];
      const JsonValue& value = buffers->items[k];
      ExpectedArg& e = start(name, value.line);
      if (value.type != JsonValue::Type::Array)
        fail(value.line, fmt::format("{} is not an array of elements", name));
      checkCount(e, value.items.size(), value.line);
      for (uint64_t i = 0; i < value.items.size(); ++i) jsonElement(e, value.items[i], i);
    }
  }

  void jsonElement(ExpectedArg& e, const JsonValue& v, uint64_t i) {
    const ElementType& t = e.value.type;
    uint8_t* out = e.value.bytes.data() + i * t.size();
    auto scalar = [&](const JsonValue& s, uint8_t* to) {
      if (s.type != JsonValue::Type::Number && s.type != JsonValue::Type::String)
        fail(s.line, fmt::format("arg{} element {}: expected a number", e.index, i));
      component(t.scalar, s.text, to, s.line);
    };
    if (t.lanes == 1) return scalar(v, out);
    if (v.type != JsonValue::Type::Array || v.items.size() != t.lanes)
      fail(v.line, fmt::format("arg{} element {}: expected an array of {} components ({})", e.index,
                               i, t.lanes, t.name()));
    for (uint32_t c = 0; c < t.lanes; ++c) scalar(v.items[c], out + c * scalarSize(t.scalar));
  }

  const std::string& path_;
  const std::vector<ArgValue>& args_;
  std::vector<ExpectedArg> out_;
};

}  // namespace

std::vector<ExpectedArg> readExpectFile(const std::string& path,
                                        const std::vector<ArgValue>& args) {
  return ExpectReader(path, args).read();
}

}  // namespace spvsim::tools

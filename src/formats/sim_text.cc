#include "src/formats/sim_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <sstream>

#include "spirv/error.h"
#include "src/values/element_type.h"
#include "src/values/text_util.h"

namespace spvsim::formats {
namespace {

using values::Scalar;

std::optional<Scalar> headerType(std::string_view token) {
  auto t = values::parseElementType(token);
  if (!t || t->lanes != 1 || t->scalar == Scalar::SizeT) return std::nullopt;
  return t->scalar;
}

// The scalars the writer puts in headers.
constexpr Scalar kWritten[] = {Scalar::Char,  Scalar::UChar, Scalar::Short, Scalar::UShort,
                               Scalar::Int,   Scalar::UInt,  Scalar::Long,  Scalar::ULong,
                               Scalar::Float, Scalar::Double};

std::string valueText(Scalar s, const uint8_t* p) {
  if (s == Scalar::Float) {
    float f;
    std::memcpy(&f, p, 4);
    return fmt::format("{:.9g}", f);
  }
  if (s == Scalar::Double) {
    double d;
    std::memcpy(&d, p, 8);
    return fmt::format("{:.17g}", d);
  }
  const uint32_t bytes = values::scalarSize(s);
  uint64_t bits = 0;
  std::memcpy(&bits, p, bytes);
  const bool isSigned = values::isSignedInteger(s);
  if (isSigned && bytes < 8 && (bits >> (8 * bytes - 1)) & 1) bits |= ~0ull << (8 * bytes);
  return isSigned ? std::to_string(int64_t(bits)) : std::to_string(bits);
}

}  // namespace

SimText::SimText(const std::string& text, std::string name) : name_(std::move(name)) {
  std::istringstream in(std::string(values::withoutUtf8Bom(text)));
  for (std::string line; std::getline(in, line);) lines_.push_back(line.substr(0, line.find('#')));
}

size_t SimText::lineNumber() const {
  return std::min(line_, lines_.empty() ? 0 : lines_.size() - 1) + 1;
}

void SimText::fail(const std::string& message) const {
  throw Error(DiagnosticKind::Input,
              fmt::format("{}:{}: {} ({})", name_, lineNumber(), message, context_));
}

bool SimText::skipSpace() {
  for (; line_ < lines_.size(); ++line_, pos_ = 0) {
    const size_t at = lines_[line_].find_first_not_of(" \t\r", pos_);
    if (at != std::string::npos) {
      pos_ = at;
      return true;
    }
  }
  return false;
}

std::string SimText::token(const char* what) {
  if (!skipSpace()) fail(fmt::format("unexpected end of file, expected {}", what));
  const std::string& line = lines_[line_];
  const size_t end = std::min(line.find_first_of(" \t\r", pos_), line.size());
  std::string out = line.substr(pos_, end - pos_);
  pos_ = end;
  return out;
}

uint64_t SimText::number(const char* what) {
  const std::string text = token(what);
  uint64_t value = 0;
  if (!values::parseUnsigned(text, value) || value == 0)
    fail(fmt::format("expected {} (a positive number), found '{}'", what, text));
  return value;
}

SimSetup SimText::readSetup() {
  SimSetup setup;
  context_ = "program file";
  setup.program = token("the program file name");
  context_ = "kernel name";
  setup.kernel = token("the kernel name");
  context_ = "global size";
  for (uint64_t& g : setup.global) g = number("a global size");
  context_ = "local size";
  for (uint64_t& l : setup.local) l = number("a local size");
  return setup;
}

std::string SimText::headerText() {
  if (!skipSpace()) fail("unexpected end of file, expected an argument header <...>");
  if (lines_[line_][pos_] != '<')
    fail(fmt::format("expected an argument header <...>, found '{}'", token("a header")));
  const size_t close = lines_[line_].find('>', pos_);
  if (close == std::string::npos) fail("missing '>' at the end of the argument header");
  std::string text = lines_[line_].substr(pos_ + 1, close - pos_ - 1);
  pos_ = close + 1;
  return text;
}

SimHeader SimText::parseHeader(const std::string& text) {
  SimHeader h;
  h.text = "<" + text + ">";
  std::istringstream in(text);
  for (std::string t; in >> t;) {
    const size_t eq = t.find('=');
    const std::string key = t.substr(0, eq),
                      value = eq == std::string::npos ? "" : t.substr(eq + 1);
    if (auto s = headerType(t)) {
      if (h.type) fail("the argument type is given twice");
      h.type = s;
    } else if (eq != std::string::npos && value.empty()) {
      fail(fmt::format("'{}' needs a value after '='", key));
    } else if (key == "size" && eq != std::string::npos) {
      uint64_t n = 0;
      if (!values::parseUnsigned(value, n)) fail(fmt::format("size '{}' is not a number", value));
      h.size = n;
    } else if (key == "pipe" && eq != std::string::npos) {
      uint64_t n = 0;
      if (!values::parseUnsigned(value, n) || n == 0 || n > 0xffffffffu)
        fail(fmt::format("pipe={} is not a positive number of packets", value));
      h.pipe = n;
    } else if (key == "fill" && eq != std::string::npos) {
      h.fill = value;
    } else if (key == "range" && eq != std::string::npos) {
      h.range = value;
    } else if (key == "struct" && eq != std::string::npos) {
      h.members = value;
    } else if (t == "dump" || t == "hex" || t == "noinit" || t == "null" || t == "ro" ||
               t == "wo") {
      bool& flag = t == "dump"     ? h.dump
                   : t == "hex"    ? h.hex
                   : t == "noinit" ? h.noinit
                   : t == "null"   ? h.null
                   : t == "ro"     ? h.ro
                                   : h.wo;
      flag = true;
    } else {
      fail(fmt::format("unknown header token '{}'", t));
    }
  }
  return h;
}

std::string simSetupText(const SimSetup& s) {
  return fmt::format("{}\n{}\n{} {} {}\n{} {} {}\n", s.program, s.kernel, s.global[0], s.global[1],
                     s.global[2], s.local[0], s.local[1], s.local[2]);
}

std::string simHeaderText(const SimHeader& h) {
  std::vector<std::string> tokens;
  if (h.size) tokens.push_back(fmt::format("size={}", *h.size));
  if (h.type) tokens.emplace_back(values::scalarName(*h.type));
  if (h.pipe) tokens.push_back(fmt::format("pipe={}", *h.pipe));
  if (!h.fill.empty()) tokens.push_back("fill=" + h.fill);
  if (!h.range.empty()) tokens.push_back("range=" + h.range);
  if (!h.members.empty()) tokens.push_back("struct=" + h.members);
  for (const auto& [on, name] :
       {std::pair{h.null, "null"}, std::pair{h.noinit, "noinit"}, std::pair{h.ro, "ro"},
        std::pair{h.wo, "wo"}, std::pair{h.hex, "hex"}, std::pair{h.dump, "dump"}})
    if (on) tokens.emplace_back(name);
  std::string out = "<";
  for (size_t i = 0; i < tokens.size(); ++i) out += (i ? " " : "") + tokens[i];
  return out + ">";
}

std::optional<Scalar> simScalarOf(std::string_view typeName, bool pointer) {
  const std::string pointee = values::pointeeTypeName(typeName);
  std::string_view type = pointee;
  while (!type.empty() && type.back() >= '0' && type.back() <= '9') type.remove_suffix(1);
  for (Scalar s : kWritten)
    if (type == values::scalarName(s)) return s;
  if (pointer) return Scalar::UChar;
  return std::nullopt;
}

std::string simValuesText(Scalar s, const uint8_t* bytes, uint64_t size) {
  const uint32_t n = values::scalarSize(s);
  std::string out;
  for (uint64_t i = 0; i < size / n; ++i)
    out += valueText(s, bytes + i * n) + ((i + 1) % 16 == 0 ? "\n" : " ");
  if (!out.empty() && out.back() == ' ') out.back() = '\n';
  return out;
}

}  // namespace spvsim::formats

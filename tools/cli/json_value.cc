#include "tools/cli/json_value.h"

#include <fmt/format.h>

#include "spirv/error.h"
#include "spirv/text.h"

namespace spvsim::tools {

const JsonValue* JsonValue::find(std::string_view key) const {
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &items[i];
  return nullptr;
}

namespace {

constexpr int kMaxDepth = 256;

class Reader {
 public:
  Reader(std::string_view text, const std::string& name, uint64_t firstLine)
      : text_(text), name_(name), line_(firstLine) {}

  JsonValue document() {
    JsonValue v = value(0);
    skipSpace();
    if (pos_ < text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw Error(DiagnosticKind::Input, fmt::format("{}:{}: {}", name_, line_, message));
  }

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      line_ += text_[pos_++] == '\n';
  }

  char peek() {
    skipSpace();
    if (pos_ >= text_.size()) fail("unexpected end of the JSON text");
    return text_[pos_];
  }

  void expect(char c) {
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++pos_;
  }

  JsonValue value(int depth) {
    if (depth > kMaxDepth) fail("JSON nested too deeply");
    const char c = peek();
    JsonValue v;
    v.line = line_;
    if (c == '{') return object(std::move(v), depth);
    if (c == '[') return array(std::move(v), depth);
    if (c == '"') {
      v.type = JsonValue::Type::String;
      v.text = string();
      return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      v.type = JsonValue::Type::Number;
      v.text = number();
      return v;
    }
    for (auto [word, type] : {std::pair{"true", JsonValue::Type::Bool},
                              {"false", JsonValue::Type::Bool},
                              {"null", JsonValue::Type::Null}})
      if (text_.substr(pos_, std::string_view(word).size()) == word) {
        pos_ += std::string_view(word).size();
        v.type = type;
        v.text = word;
        return v;
      }
    fail(fmt::format("unexpected '{}' where a JSON value belongs", c));
  }

  JsonValue object(JsonValue v, int depth) {
    v.type = JsonValue::Type::Object;
    ++pos_;
    if (peek() == '}') return ++pos_, v;
    for (;;) {
      if (peek() != '"') fail("expected a quoted member name");
      std::string key = string();
      expect(':');
      v.keys.push_back(std::move(key));
      v.items.push_back(value(depth + 1));
      if (peek() == '}') return ++pos_, v;
      expect(',');
    }
  }

  JsonValue array(JsonValue v, int depth) {
    v.type = JsonValue::Type::Array;
    ++pos_;
    if (peek() == ']') return ++pos_, v;
    for (;;) {
      v.items.push_back(value(depth + 1));
      if (peek() == ']') return ++pos_, v;
      expect(',');
    }
  }

  std::string number() {
    const size_t start = pos_;
    auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      if (pos_ == from) fail("malformed number");
    };
    if (text_[pos_] == '-') ++pos_;
    digits();
    if (pos_ < text_.size() && text_[pos_] == '.') ++pos_, digits();
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      digits();
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  // Escapes other than \uXXXX outside ASCII are all spvsim writes; \u beyond ASCII is
  // refused rather than mis-decoded (no argument name or value needs it).
  std::string string() {
    ++pos_;
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (c == '\n') fail("line break inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated string");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u':
          out += unicodeEscape();
          break;
        default:
          fail(fmt::format("unknown escape '\\{}'", e));
      }
    }
  }

  // The four hex digits of a backslash-u escape.
  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("short \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      const int d = h >= '0' && h <= '9'   ? h - '0'
                    : h >= 'a' && h <= 'f' ? h - 'a' + 10
                    : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                           : -1;
      if (d < 0) fail("malformed \\u escape");
      code = code * 16 + d;
    }
    return code;
  }

  // A backslash-u escape as UTF-8: clients that write ASCII-only JSON (Python's json.dumps) escape
  // every other character, those beyond U+FFFF as a surrogate pair (RFC 8259 section 7).
  // A surrogate without its pair is no character: U+FFFD, as the writer does for bytes
  // that are not UTF-8.
  std::string unicodeEscape() {
    unsigned code = hex4();
    if (code >= 0xd800 && code < 0xdc00 && text_.substr(pos_, 2) == "\\u") {
      const size_t at = pos_;
      pos_ += 2;
      const unsigned low = hex4();
      if (low >= 0xdc00 && low < 0xe000)
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      else
        pos_ = at;  // not a pair: the second escape is read on its own
    }
    if (code >= 0xd800 && code < 0xe000) code = 0xfffd;
    return utf8(code);
  }

  static std::string utf8(unsigned code) {
    std::string out;
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xc0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xe0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    }
    return out;
  }

  std::string_view text_;
  const std::string& name_;
  size_t pos_ = 0;
  uint64_t line_;
};

}  // namespace

JsonValue parseJson(std::string_view text, const std::string& name, uint64_t firstLine) {
  return Reader(text, name, firstLine).document();
}

JsonValue jsonString(std::string text) {
  JsonValue v;
  v.type = JsonValue::Type::String;
  v.text = std::move(text);
  return v;
}

JsonValue jsonNumber(int64_t number) {
  JsonValue v;
  v.type = JsonValue::Type::Number;
  v.text = std::to_string(number);
  return v;
}

JsonValue jsonBool(bool value) {
  JsonValue v;
  v.type = JsonValue::Type::Bool;
  v.text = value ? "true" : "false";
  return v;
}

JsonValue jsonArray() {
  JsonValue v;
  v.type = JsonValue::Type::Array;
  return v;
}

JsonValue jsonObject() {
  JsonValue v;
  v.type = JsonValue::Type::Object;
  return v;
}

JsonValue& setMember(JsonValue& object, std::string_view key, JsonValue value) {
  for (size_t i = 0; i < object.keys.size(); ++i)
    if (object.keys[i] == key) {
      object.items[i] = std::move(value);
      return object;
    }
  object.keys.emplace_back(key);
  object.items.push_back(std::move(value));
  return object;
}

namespace {

// Strings from modules and files may hold any bytes: the DAP client gets valid UTF-8.
void writeString(std::string_view s, std::string& out) { out += spirv::jsonStringLiteral(s); }

void write(const JsonValue& v, std::string& out) {
  switch (v.type) {
    case JsonValue::Type::Null:
      out += "null";
      return;
    case JsonValue::Type::Bool:
    case JsonValue::Type::Number:
      out += v.text;
      return;
    case JsonValue::Type::String:
      writeString(v.text, out);
      return;
    case JsonValue::Type::Array:
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        write(v.items[i], out);
      }
      out += ']';
      return;
    case JsonValue::Type::Object:
      out += '{';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        writeString(v.keys[i], out);
        out += ':';
        write(v.items[i], out);
      }
      out += '}';
      return;
  }
}

}  // namespace

std::string writeJson(const JsonValue& value) {
  std::string out;
  write(value, out);
  return out;
}

}  // namespace spvsim::tools

#include "src/exec/ops/printf_format.h"

#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

namespace spvsim::ops {
namespace {

enum class Length { None, HH, H, HL, L };

// One conversion specification: %[flags][width][.precision][vN][length]conversion.
struct Spec {
  std::string flags;
  std::optional<int> width, precision;
  bool widthStar = false, precisionStar = false;
  uint32_t vector = 0;  // 0: not a vector conversion
  Length length = Length::None;
  char conversion = 0;
};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::optional<int> parseNumber(std::string_view f, size_t& i) {
  if (i >= f.size() || !isDigit(f[i])) return std::nullopt;
  long v = 0;
  while (i < f.size() && isDigit(f[i])) {
    v = v * 10 + (f[i++] - '0');
    if (v > (1 << 20)) return std::nullopt;
  }
  return int(v);
}

// Parses after a '%'; `i` ends after the conversion character.
bool parseSpec(std::string_view f, size_t& i, Spec& s) {
  while (i < f.size() && f[i] != 0 && std::strchr("-+ #0", f[i])) s.flags += f[i++];
  s.widthStar = i < f.size() && f[i] == '*';
  if (s.widthStar)
    ++i;
  else
    s.width = parseNumber(f, i);
  if (i < f.size() && f[i] == '.') {
    ++i;
    s.precisionStar = i < f.size() && f[i] == '*';
    if (s.precisionStar)
      ++i;
    else
      s.precision = parseNumber(f, i).value_or(0);
  }
  if (i < f.size() && f[i] == 'v') {
    ++i;
    std::optional<int> n = parseNumber(f, i);
    if (!n || (*n != 2 && *n != 3 && *n != 4 && *n != 8 && *n != 16)) return false;
    s.vector = uint32_t(*n);
  }
  static constexpr std::pair<std::string_view, Length> kLengths[] = {
      {"hh", Length::HH}, {"hl", Length::HL}, {"h", Length::H}, {"l", Length::L}};
  for (const auto& [text, length] : kLengths) {
    if (f.substr(i, text.size()) != text) continue;
    s.length = length;
    i += text.size();
    break;
  }
  if (i >= f.size()) return false;
  s.conversion = f[i++];
  return true;
}

uint32_t lengthBytes(Length l) {
  switch (l) {
    case Length::HH:
      return 1;
    case Length::H:
      return 2;
    case Length::HL:
      return 4;
    case Length::L:
      return 8;
    case Length::None:
      return 0;
  }
  return 0;
}

uint64_t rawElement(const PrintfArg& a, uint32_t k) {
  uint64_t v = 0;
  std::memcpy(&v, a.data + size_t(k) * a.elementBytes, a.elementBytes);
  return v;
}

int64_t signExtend(uint64_t v, uint32_t bytes) {
  if (bytes >= 8) return int64_t(v);
  const unsigned shift = 64 - 8 * bytes;
  return int64_t(v << shift) >> shift;
}

double floatElement(const PrintfArg& a, uint32_t k) {
  const uint8_t* p = a.data + size_t(k) * a.elementBytes;
  if (a.elementBytes == 2) {
    _Float16 h;
    std::memcpy(&h, p, 2);
    return double(h);
  }
  if (a.elementBytes == 4) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  double d;
  std::memcpy(&d, p, 8);
  return d;
}

template <class... A>
void appendf(std::string& out, const std::string& spec, A... args) {
  int n = std::snprintf(nullptr, 0, spec.c_str(), args...);
  if (n <= 0) return;
  size_t at = out.size();
  out.resize(at + size_t(n) + 1);
  std::snprintf(out.data() + at, size_t(n) + 1, spec.c_str(), args...);
  out.resize(at + size_t(n));
}

class Formatter {
 public:
  Formatter(const std::vector<PrintfArg>& args, const PrintfStringReader& read, std::string& out)
      : args_(args), read_(read), out_(out) {}

  bool conversion(Spec& s) {
    if (!resolveStars(s)) return false;
    switch (s.conversion) {
      case 'd':
      case 'i':
      case 'o':
      case 'u':
      case 'x':
      case 'X':
        return integer(s);
      case 'a':
      case 'A':
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
        return floating(s);
      case 'c':
        return character(s);
      case 's':
        return string(s);
      case 'p':
        return pointer(s);
      default:
        return false;
    }
  }

 private:
  const PrintfArg* take() { return next_ < args_.size() ? &args_[next_++] : nullptr; }

  // `*` width and precision come from int arguments before the value.
  bool takeInt(int& v) {
    const PrintfArg* a = take();
    if (!a || a->isFloat || a->components != 1) return false;
    v = int(signExtend(rawElement(*a, 0), a->elementBytes));
    return true;
  }

  bool resolveStars(Spec& s) {
    int v = 0;
    if (s.widthStar) {
      if (!takeInt(v)) return false;
      if (v < 0) s.flags += '-';
      s.width = v < 0 ? -v : v;
    }
    if (s.precisionStar) {
      if (!takeInt(v)) return false;
      if (v >= 0) s.precision = v;
    }
    return true;
  }

  // "%<flags><width>.<precision>" plus `tail`.
  static std::string hostSpec(const Spec& s, const std::string& tail, bool precision = true) {
    std::string r = "%" + s.flags;
    if (s.width) r += std::to_string(*s.width);
    if (precision && s.precision) r += "." + std::to_string(*s.precision);
    return r + tail;
  }

  // The value argument: a vector of exactly s.vector components, or a scalar.
  const PrintfArg* value(const Spec& s) {
    const PrintfArg* a = take();
    if (!a) return nullptr;
    uint32_t want = s.vector ? s.vector : 1;
    return a->components == want ? a : nullptr;
  }

  template <class F>
  void elements(const Spec& s, F formatOne) {
    for (uint32_t k = 0; k < (s.vector ? s.vector : 1); ++k) {
      if (k) out_ += ',';
      formatOne(k);
    }
  }

  bool integer(const Spec& s) {
    const PrintfArg* a = value(s);
    if (!a || a->isFloat) return false;
    if (s.length == Length::HL && !s.vector) return false;
    uint32_t bytes = lengthBytes(s.length);
    if (s.vector && bytes && bytes != a->elementBytes) return false;
    if (!bytes) bytes = s.vector ? a->elementBytes : 4;
    const bool isSigned = s.conversion == 'd' || s.conversion == 'i';
    const std::string spec = hostSpec(s, std::string("ll") + s.conversion);
    elements(s, [&](uint32_t k) {
      uint64_t v = rawElement(*a, k);
      if (isSigned) {
        appendf(out_, spec, (long long)signExtend(v, bytes));
      } else {
        uint64_t mask = bytes >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1;
        appendf(out_, spec, (unsigned long long)(v & mask));
      }
    });
    return true;
  }

  bool floating(const Spec& s) {
    const PrintfArg* a = value(s);
    if (!a || !a->isFloat) return false;
    if (s.length == Length::HH) return false;
    if (!s.vector && s.length != Length::None && s.length != Length::L) return false;
    uint32_t bytes = lengthBytes(s.length);
    if (s.vector && bytes && bytes != a->elementBytes) return false;
    const std::string spec = hostSpec(s, std::string(1, s.conversion));
    elements(s, [&](uint32_t k) { appendf(out_, spec, floatElement(*a, k)); });
    return true;
  }

  bool character(const Spec& s) {
    if (s.vector || s.length != Length::None) return false;
    const PrintfArg* a = value(s);
    if (!a || a->isFloat) return false;
    appendf(out_, hostSpec(s, "c", false), int(uint8_t(rawElement(*a, 0))));
    return true;
  }

  static bool isAddress(const PrintfArg* a) {
    return a && !a->isFloat && a->components == 1 && (a->isPointer || a->elementBytes == 8);
  }

  bool string(const Spec& s) {
    if (s.vector || s.length != Length::None) return false;
    const PrintfArg* a = value(s);
    std::string text;
    if (!isAddress(a) || !read_(rawElement(*a, 0), text)) return false;
    appendf(out_, hostSpec(s, "s"), text.c_str());
    return true;
  }

  bool pointer(const Spec& s) {
    if (s.vector || s.length != Length::None) return false;
    const PrintfArg* a = value(s);
    if (!isAddress(a)) return false;
    char text[32];
    const uint64_t address = a->hasAddress ? a->address : rawElement(*a, 0);
    std::snprintf(text, sizeof text, "0x%llx", (unsigned long long)address);
    Spec padOnly;
    if (s.flags.find('-') != std::string::npos) padOnly.flags = "-";
    padOnly.width = s.width;
    appendf(out_, hostSpec(padOnly, "s"), static_cast<const char*>(text));
    return true;
  }

  const std::vector<PrintfArg>& args_;
  const PrintfStringReader& read_;
  std::string& out_;
  size_t next_ = 0;
};

}  // namespace

bool formatPrintf(std::string_view format, const std::vector<PrintfArg>& args,
                  const PrintfStringReader& readString, std::string& out) {
  std::string text;
  Formatter formatter(args, readString, text);
  for (size_t i = 0; i < format.size();) {
    char c = format[i++];
    if (c != '%') {
      text += c;
      continue;
    }
    if (i < format.size() && format[i] == '%') {
      text += '%';
      ++i;
      continue;
    }
    Spec s;
    if (!parseSpec(format, i, s) || !formatter.conversion(s)) return false;
  }
  out += text;
  return true;
}

}  // namespace spvsim::ops

#include "src/values/element_type.h"

#include <array>
#include <charconv>

namespace spvsim::values {
namespace {

struct ScalarRow {
  Scalar scalar;
  std::string_view name;
  uint32_t size;
};

constexpr std::array<ScalarRow, 12> kScalars{{
    {Scalar::Char, "char", 1},
    {Scalar::UChar, "uchar", 1},
    {Scalar::Short, "short", 2},
    {Scalar::UShort, "ushort", 2},
    {Scalar::Int, "int", 4},
    {Scalar::UInt, "uint", 4},
    {Scalar::Long, "long", 8},
    {Scalar::ULong, "ulong", 8},
    {Scalar::Half, "half", 2},
    {Scalar::Float, "float", 4},
    {Scalar::Double, "double", 8},
    {Scalar::SizeT, "size_t", 8},
}};

const ScalarRow& row(Scalar s) { return kScalars[static_cast<size_t>(s)]; }

bool isVectorWidth(uint32_t n) { return n == 2 || n == 3 || n == 4 || n == 8 || n == 16; }

}  // namespace

uint32_t scalarSize(Scalar s) { return row(s).size; }
std::string_view scalarName(Scalar s) { return row(s).name; }

bool isFloating(Scalar s) { return s == Scalar::Half || s == Scalar::Float || s == Scalar::Double; }

bool isSignedInteger(Scalar s) {
  return s == Scalar::Char || s == Scalar::Short || s == Scalar::Int || s == Scalar::Long;
}

std::string ElementType::name() const {
  std::string n(scalarName(scalar));
  if (lanes > 1) n += std::to_string(lanes);
  return n;
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (const ScalarRow& r : kScalars) {
    if (name.substr(0, r.name.size()) != r.name) continue;
    std::string_view digits = name.substr(r.name.size());
    if (digits.empty()) return ElementType{r.scalar, 1};
    if (r.scalar == Scalar::SizeT || digits[0] == '0') continue;
    uint32_t lanes = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), lanes);
    if (ec == std::errc() && end == digits.data() + digits.size() && isVectorWidth(lanes))
      return ElementType{r.scalar, lanes};
  }
  return std::nullopt;
}

std::string pointeeTypeName(std::string_view type) {
  if (const size_t open = type.find('['); open != std::string_view::npos)
    type = type.substr(0, open);
  while (!type.empty() && (type.back() == '*' || type.back() == ' ')) type.remove_suffix(1);
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view q :
         {"const ", "volatile ", "restrict ", "__global ", "__local ", "__constant ", "__private ",
          "global ", "local ", "constant ", "private "})
      if (type.substr(0, q.size()) == q) {
        type.remove_prefix(q.size());
        stripped = true;
      }
    while (!type.empty() && type.front() == ' ') type.remove_prefix(1);
  }
  constexpr std::string_view kUnsigned = "unsigned ";
  if (type.substr(0, kUnsigned.size()) == kUnsigned)
    return "u" + std::string(type.substr(kUnsigned.size()));
  return std::string(type);
}

}  // namespace spvsim::values

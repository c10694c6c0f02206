#include "src/values/text_util.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>

#include "spirv/error.h"
#include "src/files/input_file.h"

namespace spvsim::values {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    out.push_back(trim(s.substr(start, at == std::string_view::npos ? at : at - start)));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

bool parseUnsigned(std::string_view s, uint64_t& out) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && end == s.data() + s.size();
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view withoutUtf8Bom(std::string_view text) {
  constexpr std::string_view kBom = "\xef\xbb\xbf";
  return text.substr(0, kBom.size()) == kBom ? text.substr(kBom.size()) : text;
}

std::string readTextFile(const std::string& path) { return files::readInputFile(path); }

}  // namespace spvsim::values

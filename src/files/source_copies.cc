#include "src/files/source_copies.h"

#include <filesystem>

namespace spvsim::files {

namespace {
constexpr std::string_view kFromMemory = "<stdin>";  // clang's name for its standard input
}  // namespace

void SourceCopies::addProgram(std::string shownAs, std::string path) {
  copies_.push_back({std::string(kFromMemory), std::move(shownAs), std::move(path)});
}

void SourceCopies::addHeader(std::string name, std::string path) {
  std::string shownAs = std::filesystem::path(name).filename().string();
  copies_.push_back({std::move(name), std::move(shownAs), std::move(path)});
}

const SourceCopy* SourceCopies::find(std::string_view modulePath) const {
  const std::string path = std::filesystem::path(modulePath).lexically_normal().generic_string();
  const std::string_view last = std::string_view(path).substr(path.find_last_of('/') + 1);
  const SourceCopy* best = nullptr;
  for (const SourceCopy& c : copies_) {
    const bool matches = c.name == kFromMemory
                             ? last == kFromMemory
                             : path == c.name || (path.size() > c.name.size() &&
                                                  path.compare(path.size() - c.name.size(),
                                                               c.name.size(), c.name) == 0 &&
                                                  path[path.size() - c.name.size() - 1] == '/');
    if (matches && (!best || c.name.size() > best->name.size())) best = &c;
  }
  return best;
}

const SourceCopy* SourceCopies::named(std::string_view name) const {
  for (const SourceCopy& c : copies_)
    if (c.shownAs == name || (c.name != kFromMemory && c.name == name)) return &c;
  return nullptr;
}

const SourceCopy* SourceCopies::program() const {
  for (const SourceCopy& c : copies_)
    if (c.name == kFromMemory) return &c;
  return nullptr;
}

}  // namespace spvsim::files

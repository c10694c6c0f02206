// The compile cache: OpenCL C compiled once is not compiled again while nothing that
// decides the module changed. An entry is found by a hash of its key (the source, the
// options, the headers given in memory, the working directory, and the identity of every
// tool and of spvsim itself) and used only when its stored key is equal and every file
// the compiler read (from clang's dependency list: included headers, the OpenCL C
// header) still has the size and content hash it had. A file that had not changed for two
// seconds when the entry was written is recorded with its identity on disk too (device,
// inode, size, modification and change times): while that is the same, the file is not
// read again (any write sets the change time, which nobody can set back).
//
// Location: $SPVSIM_CACHE_DIR, else $XDG_CACHE_HOME/spvsim, else $HOME/.cache/spvsim;
// SPVSIM_CACHE=off (or 0) turns it off. Entries are written atomically (rename), so
// concurrent spvsim processes share it safely; unreadable or foreign entries are misses.
// At most kMaxEntries are kept, the least recently used removed first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spvsim::compiler {

// What a compilation produced, as the cache keeps it.
struct CachedCompile {
  std::vector<uint32_t> words;
  std::string log;
  std::vector<std::string> commands;
  std::vector<std::string> notes;
  std::vector<std::string> dependencies;  // files the compiler read (absolute paths)
};

class CompileCache {
 public:
  static constexpr size_t kMaxEntries = 512;

  // The cache at the configured location, or nullopt when it is turned off or no
  // location can be made.
  static std::optional<CompileCache> open();
  explicit CompileCache(std::string directory) : dir_(std::move(directory)) {}

  std::optional<CachedCompile> find(const std::string& key) const;
  // Best effort: a cache that cannot be written is only slower.
  void store(const std::string& key, const CachedCompile& entry) const;

  const std::string& directory() const { return dir_; }

 private:
  std::string dir_;
};

// "size:hash" of a file's content (empty when it cannot be read): how entries check
// their dependencies, and how keys name tools.
std::string fileFingerprint(const std::string& path);

// The identity of the executable or shared library that holds spvsim's compile driver
// (its path, size and modification time), so that rebuilding spvsim starts afresh.
std::string selfIdentity();

}  // namespace spvsim::compiler

#include "src/compiler/compile_cache.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>

namespace spvsim::compiler {
namespace {

namespace fs = std::filesystem;

// Format 3: entry names and fingerprints by hashBytes (format 2 hashed a byte at a time;
// its entries are not found, or read as a miss, and pruned in time).
constexpr std::string_view kMagic = "spvsim-compile-cache 3\n";

// How long before an entry is written a dependency must have last changed for the entry to
// trust its stat identity (below): file times are kept at the kernel's tick, so a file
// rewritten within one tick of the entry could keep the times the entry saw.
constexpr int64_t kSettledNanoseconds = int64_t{2} * 1000 * 1000 * 1000;

// A file's identity on disk, "device:inode:size:mtime:ctime" (empty when it cannot be
// read). Any write changes the ctime to the time of the write, which no one can set back
// (a replaced file also has another inode): where the identity is one recorded after the
// file had settled, the content is the one fingerprinted then.
std::string statIdentity(const std::string& path, bool settledOnly) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "";
  const int64_t ctime = int64_t(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  if (settledOnly) {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    if (int64_t(now.tv_sec) * 1000000000 + now.tv_nsec - ctime < kSettledNanoseconds) return "";
  }
  return fmt::format("{}:{}:{}:{}.{}:{}", st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec,
                     st.st_mtim.tv_nsec, ctime);
}

// FNV-1a's step over `data` from `seed`, taken a 64-bit word at a time (then the last
// bytes one by one), and mixed at the end (MurmurHash3's finaliser) so that every input
// bit reaches every output bit. Two different seeds give the 128-bit entry name. Keys are
// compared in full on lookup, so the hash only needs to spread entries; each step is a
// bijection of the state, so keys of one length that differ in one word never collide.
// (A byte at a time was a chain of 60,000 dependent multiplies over a 30 KB key, the
// prelude being part of it: 0.1 ms of every `spvsim run` of a .cl file.)
uint64_t hashBytes(std::string_view data, uint64_t seed) {
  constexpr uint64_t kPrime = 0x100000001b3ull;
  uint64_t h = seed;
  size_t i = 0;
  for (; i + sizeof(uint64_t) <= data.size(); i += sizeof(uint64_t)) {
    uint64_t word;
    std::memcpy(&word, data.data() + i, sizeof word);
    h = (h ^ word) * kPrime;
  }
  for (; i < data.size(); ++i) h = (h ^ static_cast<unsigned char>(data[i])) * kPrime;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

std::string entryName(const std::string& key) {
  return fmt::format("{:016x}{:016x}.entry", hashBytes(key, 0xcbf29ce484222325ull),
                     hashBytes(key, 0x84222325cbf29ce4ull));
}

// Length-prefixed fields, so any bytes round-trip.
void putString(std::string& out, std::string_view s) {
  out += fmt::format("{}\n", s.size());
  out += s;
}
void putStrings(std::string& out, const std::vector<std::string>& v) {
  out += fmt::format("{}\n", v.size());
  for (const std::string& s : v) putString(out, s);
}

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool number(uint64_t& n) {
    const size_t nl = data_.find('\n', at_);
    if (nl == std::string_view::npos || nl == at_ || nl - at_ > 19) return false;
    n = 0;
    for (size_t i = at_; i < nl; ++i) {
      if (data_[i] < '0' || data_[i] > '9') return false;
      n = n * 10 + (data_[i] - '0');
    }
    at_ = nl + 1;
    return true;
  }
  bool string(std::string& s) {
    uint64_t n = 0;
    if (!number(n) || n > data_.size() - at_) return false;
    s.assign(data_.substr(at_, n));
    at_ += n;
    return true;
  }
  bool strings(std::vector<std::string>& v) {
    uint64_t n = 0;
    if (!number(n) || n > data_.size()) return false;
    v.resize(n);
    for (std::string& s : v)
      if (!string(s)) return false;
    return true;
  }
  bool atEnd() const { return at_ == data_.size(); }

 private:
  std::string_view data_;
  size_t at_ = 0;
};

std::string serialize(const std::string& key, const CachedCompile& e) {
  std::string out(kMagic);
  putString(out, key);
  std::vector<std::string> fingerprints, identities;
  for (const std::string& d : e.dependencies) {
    fingerprints.push_back(fileFingerprint(d));
    identities.push_back(statIdentity(d, true));
  }
  putStrings(out, e.dependencies);
  putStrings(out, fingerprints);
  putStrings(out, identities);
  putString(out, e.log);
  putStrings(out, e.commands);
  putStrings(out, e.notes);
  putString(out, std::string_view(reinterpret_cast<const char*>(e.words.data()),
                                  e.words.size() * sizeof(uint32_t)));
  return out;
}

std::optional<CachedCompile> deserialize(std::string_view data, const std::string& key) {
  if (data.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  Reader r(data.substr(kMagic.size()));
  std::string storedKey, words;
  std::vector<std::string> fingerprints, identities;
  CachedCompile e;
  if (!r.string(storedKey) || storedKey != key || !r.strings(e.dependencies) ||
      !r.strings(fingerprints) || fingerprints.size() != e.dependencies.size() ||
      !r.strings(identities) || identities.size() != e.dependencies.size() || !r.string(e.log) ||
      !r.strings(e.commands) || !r.strings(e.notes) || !r.string(words) || !r.atEnd() ||
      words.size() % sizeof(uint32_t) != 0)
    return std::nullopt;
  // A dependency whose settled identity is unchanged is not read again (the OpenCL C
  // header alone is 900 KB); any other is fingerprinted.
  for (size_t i = 0; i < fingerprints.size(); ++i) {
    if (!identities[i].empty() && statIdentity(e.dependencies[i], false) == identities[i]) continue;
    if (fingerprints[i].empty() || fileFingerprint(e.dependencies[i]) != fingerprints[i])
      return std::nullopt;
  }
  e.words.resize(words.size() / sizeof(uint32_t));
  std::memcpy(e.words.data(), words.data(), words.size());
  return e;
}

// The whole file, read at once into a string of its size.
std::optional<std::string> readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;
  const std::streamoff size = in.tellg();
  if (size < 0) return std::nullopt;
  std::string data(size_t(size), '\0');
  in.seekg(0);
  if (!in.read(data.data(), size)) return std::nullopt;
  return data;
}

// Removes the least recently used entries beyond kMaxEntries.
void prune(const fs::path& dir) {
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".entry") entries.emplace_back(e.last_write_time(ec), e.path());
  if (entries.size() <= CompileCache::kMaxEntries) return;
  std::sort(entries.begin(), entries.end());
  for (size_t i = 0; i + CompileCache::kMaxEntries < entries.size(); ++i)
    fs::remove(entries[i].second, ec);
}

std::optional<std::string> configuredDirectory() {
  const char* off = std::getenv("SPVSIM_CACHE");
  if (off && (std::string_view(off) == "off" || std::string_view(off) == "0")) return std::nullopt;
  if (const char* d = std::getenv("SPVSIM_CACHE_DIR"); d && *d) return std::string(d);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fmt::format("{}/spvsim", x);
  if (const char* h = std::getenv("HOME"); h && *h) return fmt::format("{}/.cache/spvsim", h);
  return std::nullopt;
}

}  // namespace

std::optional<CompileCache> CompileCache::open() {
  const auto dir = configuredDirectory();
  if (!dir) return std::nullopt;
  std::error_code ec;
  fs::create_directories(*dir, ec);
  if (!fs::is_directory(*dir, ec) || access(dir->c_str(), W_OK | X_OK) != 0) return std::nullopt;
  return CompileCache(*dir);
}

std::optional<CachedCompile> CompileCache::find(const std::string& key) const {
  const fs::path path = fs::path(dir_) / entryName(key);
  const auto data = readAll(path);
  if (!data) return std::nullopt;
  auto entry = deserialize(*data, key);
  std::error_code ec;
  if (entry) fs::last_write_time(path, fs::file_time_type::clock::now(), ec);  // recently used
  return entry;
}

void CompileCache::store(const std::string& key, const CachedCompile& entry) const {
  const fs::path path = fs::path(dir_) / entryName(key);
  // Unique per process and thread: concurrent stores of one key must not share a file.
  const fs::path temp =
      fs::path(dir_) / fmt::format("{}.{}.{:x}.tmp", entryName(key), getpid(),
                                   std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(temp, std::ios::binary);
    const std::string data = serialize(key, entry);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out.flush()) {
      std::error_code ec;
      fs::remove(temp, ec);
      return;
    }
  }
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) fs::remove(temp, ec);
  prune(dir_);
}

std::string fileFingerprint(const std::string& path) {
  const auto data = readAll(path);
  if (!data) return "";
  return fmt::format("{}:{:016x}", data->size(), hashBytes(*data, 0xcbf29ce484222325ull));
}

std::string selfIdentity() {
  // dladdr names the shared library (the OpenCL runtime) holding this code; for the
  // main program it may give only argv[0], so /proc/self/exe stands in then.
  Dl_info info{};
  std::string name = "/proc/self/exe";
  if (dladdr(reinterpret_cast<void*>(&selfIdentity), &info) && info.dli_fname &&
      info.dli_fname[0] == '/')
    name = info.dli_fname;
  std::error_code ec;
  const std::string path = fs::canonical(name, ec).string();
  struct stat st {};
  if (ec || stat(path.c_str(), &st) != 0) return name;
  return fmt::format("{} {} {}.{}", path, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

}  // namespace spvsim::compiler

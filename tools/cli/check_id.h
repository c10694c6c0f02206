// Stable ids of `spvsim check`'s configurations (src/DESIGN.md "The oracle"), the same on
// every machine and in every run, so that shards, result files and merges agree on them.
// A 64-bit FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/): byte-wise, endian-free,
// a few lines; ids name configurations, they are not a defence against forgery.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/cli/arg_value.h"
#include "tools/cli/check_compare.h"

namespace spvsim::tools {

constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ull;
constexpr uint64_t kFnvPrime = 0x100000001b3ull;

// FNV-1a 64 of `bytes`, continuing from `state` (so a long input hashes in pieces).
uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t state = kFnvOffsetBasis);
uint64_t fnv1a64(std::string_view text, uint64_t state = kFnvOffsetBasis);

// 16 lowercase hex digits.
std::string hex64(uint64_t value);

// The digest of an argument's contents as comparison sees them (canonicalContents).
uint64_t contentDigest(const Contents& contents);

// The NDRange as the id sees it (src/exec/launch_types.h's NDRange, which this library
// does not link).
struct IdRange {
  std::array<uint64_t, 3> global{1, 1, 1}, local{1, 1, 1}, offset{0, 0, 0};
  bool localGiven = false;  // else "auto": spvsim picks the local size
};

// The hash state after the launch's part of every id: the text "spvsim-check-id 1\n",
// the module's words (little-endian bytes), and lines naming the kernel, the NDRange and
// each argument (kind, text, element type and count, local bytes, then its bytes); in a
// sweep (spvsim check DIR) then "sweep-path PATH\n", PATH relative to DIR, so that two
// identical launches at different places of a corpus are different launches.
uint64_t launchHash(std::span<const uint32_t> words, std::string_view kernel, const IdRange& range,
                    const std::vector<ArgValue>& args, std::string_view sweepPath = "");

// A configuration's fields, in order: ("sub_group_size", "8"), ("schedule", "round-robin").
// A dimension added later leaves its field out at the value that runs used before it
// existed, so existing configurations keep their ids.
using ConfigFields = std::vector<std::pair<std::string, std::string>>;

// "NAME=VALUE\n" per field.
std::string configText(const ConfigFields& fields);

// The id: FNV-1a 64 continued from launchHash over configText, as hex64.
std::string configId(uint64_t launch, const ConfigFields& fields);

}  // namespace spvsim::tools

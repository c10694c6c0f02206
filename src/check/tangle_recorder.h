// What each lane's sub-group operations returned, for `spvsim check` to say where a
// reconvergence-dependent result starts (src/DESIGN.md "Reconvergence"): the launch is run
// again under ipdom and under the random reconvergence that changed its results, each with
// this recorder, and the first operation whose result differs is named with its line.
//
// The values of the instructions that move values between lanes
// (spirv::movesValuesBetweenLanes: ballots, shuffles, broadcasts, reductions, scans, block
// reads, elect) are what a tangle decides; everything else a lane computes follows from
// them and from memory. Work-group collectives are left out: they see the whole work-group
// whatever the tangle.
//
// Cost: an instrumented kernel (ObserverFactory::instrument), only for these instructions,
// a copy of each active lane's result per execution, and a serial launch. Used only for
// the two extra runs of a located finding, never by `run`.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "spirv/module.h"
#include "src/exec/observer.h"

namespace spvsim::check {

// One lane's result of one execution of a recorded instruction.
struct TangleResult {
  uint32_t src = 0;  // spirv::Instruction::index
  spirv::Id type = 0;
  uint64_t workGroup = 0;  // linear id
  std::array<uint64_t, 3> groupId{0, 0, 0};
  uint32_t subGroup = 0;
  uint32_t lane = 0;
  uint32_t occurrence = 0;  // the lane's n-th execution of the instruction, from 0
  uint64_t offset = 0;      // its bytes in TangleLog::bytes
  uint32_t size = 0;
};

// The results of one launch, in the order the lanes produced them (up to `limit`).
class TangleLog {
 public:
  explicit TangleLog(size_t limit) : limit_(limit) {}

  const std::vector<TangleResult>& results() const { return results_; }
  const uint8_t* bytesOf(const TangleResult& r) const { return bytes_.data() + r.offset; }
  // More results came than `limit`: the later ones were not kept.
  bool truncated() const { return truncated_; }
  size_t limit() const { return limit_; }

  // Called by the instrumented kernel (one host thread: the recorder's launch is serial).
  void record(uint32_t src, spirv::Id type, const WorkGroupContext& wg, uint32_t subGroup,
              uint32_t lane, const uint8_t* value, uint32_t size);

 private:
  size_t limit_;
  bool truncated_ = false;
  std::vector<TangleResult> results_;
  std::vector<uint8_t> bytes_;
  // Executions so far per (sub-group, lane, instruction) of the work-group `current_`.
  uint64_t current_ = ~uint64_t(0);
  std::unordered_map<uint64_t, uint32_t> occurrences_;
};

// An observer factory whose launches record into `log`.
std::shared_ptr<const ObserverFactory> tangleRecorder(std::shared_ptr<TangleLog> log);

// The first result of `a` (in its order) that `b` lacks or has with other bytes; where
// every result of `a` is in `b` alike, the first result of `b` that `a` lacks. nullopt:
// the logs agree (as far as both were kept).
struct TangleDifference {
  const TangleResult* a = nullptr;  // nullptr: `a` has no such result
  const TangleResult* b = nullptr;  // nullptr: `b` has no such result
};
std::optional<TangleDifference> firstDifference(const TangleLog& a, const TangleLog& b);

}  // namespace spvsim::check

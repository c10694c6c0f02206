// Which work-groups of a debugged launch have finished, in memory that follows what the
// session did, not how many work-groups the launch has: every group below `first` (the
// lowest unfinished one) plus those finished out of order above it. A bit per work-group
// took 512 MiB for 2^32 groups, and std::bad_alloc for more.
#pragma once

#include <cstdint>
#include <set>

namespace spvsim::debugger {

class FinishedGroups {
 public:
  // `count` work-groups, none finished.
  void reset(uint64_t count) {
    count_ = count;
    first_ = 0;
    above_.clear();
  }
  void mark(uint64_t linear) {
    if (linear < first_ || linear >= count_) return;
    above_.insert(linear);
    // Finished groups directly above `first_` join the run below it.
    while (!above_.empty() && *above_.begin() == first_) {
      above_.erase(above_.begin());
      ++first_;
    }
  }
  bool finished(uint64_t linear) const { return linear < first_ || above_.count(linear) != 0; }
  // The lowest unfinished work-group; count() when every one has finished.
  uint64_t firstUnfinished() const { return first_; }
  uint64_t unfinished() const { return count_ - first_ - above_.size(); }
  uint64_t count() const { return count_; }

 private:
  uint64_t count_ = 0;
  uint64_t first_ = 0;
  std::set<uint64_t> above_;  // finished, above first_
};

}  // namespace spvsim::debugger

#include "tools/cli/check_verdict.h"

#include <fmt/format.h>

#include <algorithm>

namespace spvsim::tools {

std::string CheckRun::schedule() const {
  return seed ? fmt::format("random:{}", *seed) : "round-robin";
}

std::string CheckRun::name() const {
  return fmt::format("sub-group size {}, {}", subGroupSize, schedule());
}

std::string className(size_t index) {
  std::string name;
  for (size_t n = index + 1; n > 0; n = (n - 1) / 26) name.insert(name.begin(), 'A' + (n - 1) % 26);
  return name;
}

namespace {

bool compared(const ArgValue& arg, ArgMode mode) {
  return arg.holdsData() && mode != ArgMode::Ignore;
}

class Judge {
 public:
  Judge(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes,
        const std::vector<ExpectedArg>& expect)
      : runs_(runs), modes_(modes), expect_(expect) {}

  CheckVerdicts judge() {
    contents_.resize(runs_.size());
    v_.runClass.assign(runs_.size(), -1);
    for (size_t r = 0; r < runs_.size(); ++r)
      if (!runs_[r].aborted) classify(r);
    for (uint32_t size : sizes()) scheduleDependence(size);
    sizeDependence();
    for (size_t c = 0; c < v_.classes.size(); ++c) compareWithExpect(c);
    for (size_t r = 0; r < runs_.size(); ++r) v_.cells.push_back(cells(r));
    return std::move(v_);
  }

 private:
  const std::vector<ArgValue>& args(size_t run) const { return *runs_[run].args; }
  bool unordered(size_t arg) const { return modes_[arg] == ArgMode::Unordered; }
  size_t rep(size_t cls) const { return v_.classes[cls].front(); }

  void classify(size_t r) {
    for (size_t i = 0; i < args(r).size(); ++i)
      contents_[r].push_back(compared(args(r)[i], modes_[i])
                                 ? canonicalContents(args(r)[i], unordered(i))
                                 : Contents{});
    for (size_t c = 0; c < v_.classes.size(); ++c)
      if (contents_[rep(c)] == contents_[r]) {
        v_.runClass[r] = static_cast<int>(c);
        v_.classes[c].push_back(r);
        return;
      }
    v_.runClass[r] = static_cast<int>(v_.classes.size());
    v_.classes.push_back({r});
  }

  // The sub-group sizes of the runs that finished, in run order.
  std::vector<uint32_t> sizes() const {
    std::vector<uint32_t> out;
    for (size_t r = 0; r < runs_.size(); ++r)
      if (v_.runClass[r] >= 0 &&
          std::find(out.begin(), out.end(), runs_[r].subGroupSize) == out.end())
        out.push_back(runs_[r].subGroupSize);
    return out;
  }

  // The classes of the finished runs of one sub-group size, in order of first appearance.
  std::vector<size_t> classesOfSize(uint32_t size) const {
    std::vector<size_t> out;
    for (size_t r = 0; r < runs_.size(); ++r)
      if (v_.runClass[r] >= 0 && runs_[r].subGroupSize == size &&
          std::find(out.begin(), out.end(), size_t(v_.runClass[r])) == out.end())
        out.push_back(v_.runClass[r]);
    return out;
  }

  // "argument 1 (...): element 3: class A 5, class B 7; argument 2 ..."
  std::string differences(size_t a, size_t b) const {
    std::string out;
    for (size_t i = 0; i < args(rep(a)).size(); ++i) {
      if (!compared(args(rep(a))[i], modes_[i])) continue;
      const auto d = firstDifference(args(rep(a))[i], contents_[rep(a)][i], contents_[rep(b)][i],
                                     unordered(i));
      if (d)
        out += (out.empty() ? "" : "; ") + describeDifference(i, args(rep(a))[i], *d, unordered(i),
                                                              "class " + className(a),
                                                              "class " + className(b));
    }
    return out;
  }

  // "class A (round-robin, random:2)": the schedules of one size that gave class `c`.
  std::string classAtSize(size_t c, uint32_t size) const {
    std::vector<std::string> schedules;
    for (size_t r : v_.classes[c])
      if (runs_[r].subGroupSize == size) schedules.push_back(runs_[r].schedule());
    return fmt::format("class {} ({})", className(c), fmt::join(schedules, ", "));
  }

  // Results must not depend on how sub-groups interleave: a race, or an order the memory
  // model leaves open (atomics; --unordered when that is intended).
  void scheduleDependence(uint32_t size) {
    const std::vector<size_t> classes = classesOfSize(size);
    if (classes.size() < 2) return;
    std::vector<std::string> listed, diffs;
    for (size_t c : classes) listed.push_back(classAtSize(c, size));
    for (size_t k = 1; k < classes.size(); ++k)
      diffs.push_back(differences(classes[0], classes[k]));
    v_.findings.push_back(
        {true, "scheduling-dependent",
         fmt::format("at sub-group size {} the schedules give {} different results: {}; {}", size,
                     classes.size(), fmt::join(listed, ", "), fmt::join(diffs, "; "))});
  }

  // Results may legitimately depend on the sub-group size (get_sub_group_size() is part of
  // a kernel's input): a warning per further result among the sizes whose schedules agree.
  void sizeDependence() {
    std::vector<size_t> seen;
    std::vector<std::vector<uint32_t>> sizesOf;
    for (uint32_t size : sizes()) {
      const std::vector<size_t> classes = classesOfSize(size);
      if (classes.size() != 1) continue;
      const auto at = std::find(seen.begin(), seen.end(), classes[0]);
      if (at != seen.end()) {
        sizesOf[at - seen.begin()].push_back(size);
        continue;
      }
      seen.push_back(classes[0]);
      sizesOf.push_back({size});
    }
    for (size_t k = 1; k < seen.size(); ++k)
      v_.findings.push_back(
          {false, "sub-group-size-dependent",
           fmt::format("class {} (sub-group size {}) differs from class {} (sub-group size {}): {}",
                       className(seen[k]), fmt::join(sizesOf[k], ", "), className(seen[0]),
                       fmt::join(sizesOf[0], ", "), differences(seen[0], seen[k]))});
  }

  std::string runsOf(size_t c) const {
    const std::vector<size_t>& rs = v_.classes[c];
    std::vector<std::string> numbers;
    for (size_t r : rs) numbers.push_back(std::to_string(r + 1));
    return fmt::format("run{} {} (class {}; first: {})", rs.size() == 1 ? "" : "s",
                       fmt::join(numbers, ", "), className(c), runs_[rs.front()].name());
  }

  void compareWithExpect(size_t c) {
    for (const ExpectedArg& e : expect_) {
      if (modes_[e.index] == ArgMode::Ignore) continue;
      const Contents want = canonicalContents(e.value, unordered(e.index));
      const auto d = firstDifference(e.value, want, contents_[rep(c)][e.index], unordered(e.index));
      if (d)
        v_.findings.push_back(
            {true, "expect-mismatch",
             fmt::format("{}: {}", runsOf(c),
                         describeDifference(e.index, e.value, *d, unordered(e.index), "expected",
                                            "actual"))});
    }
  }

  const ExpectedArg* expected(size_t arg) const {
    for (const ExpectedArg& e : expect_)
      if (e.index == arg) return &e;
    return nullptr;
  }

  std::vector<std::string> cells(size_t r) const {
    std::vector<std::string> out;
    for (size_t i = 0; i < args(r).size(); ++i) out.push_back(cell(r, i));
    return out;
  }

  std::string cell(size_t r, size_t i) const {
    if (!args(r)[i].holdsData()) return "";
    if (runs_[r].aborted) return "aborted";
    if (modes_[i] == ArgMode::Ignore) return "ignored";
    if (const ExpectedArg* e = expected(i))
      return canonicalContents(e->value, unordered(i)) == contents_[r][i] ? "matches expect"
                                                                          : "mismatch";
    return contents_[r][i] == contents_[rep(0)][i] ? "same" : "differs from A";
  }

  const std::vector<CheckRun>& runs_;
  const std::vector<ArgMode>& modes_;
  const std::vector<ExpectedArg>& expect_;
  std::vector<std::vector<Contents>> contents_;  // [run][argument]; empty when not compared
  CheckVerdicts v_;
};

}  // namespace

CheckVerdicts judgeRuns(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes,
                        const std::vector<ExpectedArg>& expect) {
  return Judge(runs, modes, expect).judge();
}

}  // namespace spvsim::tools

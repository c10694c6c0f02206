#include "tools/cli/check_verdict.h"

#include <fmt/format.h>

#include <algorithm>

#include "tools/cli/check_id.h"

namespace spvsim::tools {

std::string CheckRun::schedule() const {
  return seed ? fmt::format("random:{}", *seed) : "round-robin";
}

std::string CheckRun::label() const {
  return fmt::format("{}{}{}{}", schedule(),
                     reconvergence ? fmt::format(", reconvergence random:{}", *reconvergence) : "",
                     relaxed ? fmt::format(", memory model relaxed:{}", *relaxed) : "",
                     unoptimized ? ", -O0 build" : "");
}

std::string CheckRun::name() const {
  return fmt::format("sub-group size {}, {}", subGroupSize, label());
}

std::string className(size_t index) {
  std::string name;
  for (size_t n = index + 1; n > 0; n = (n - 1) / 26) name.insert(name.begin(), 'A' + (n - 1) % 26);
  return name;
}

RunOutput runOutput(const ArgValue& arg, ArgMode mode, size_t index, const ArgValue* expected) {
  RunOutput out{argShape(arg), 0, std::nullopt, std::nullopt};
  if (mode == ArgMode::Ignore) return out;
  const bool unordered = mode == ArgMode::Unordered;
  Contents contents = canonicalContents(arg, unordered);
  out.digest = contentDigest(contents);
  if (expected) {
    const ArgShape shape = argShape(*expected);
    const auto d =
        firstDifference(shape, canonicalContents(*expected, unordered), contents, unordered);
    out.expect = d ? describeDifference(index, shape, *d, unordered, "expected", "actual") : "";
  }
  if (contents.bytes.size() <= kRecordedContentBytes) out.contents = std::move(contents);
  return out;
}

namespace {

class Judge {
 public:
  Judge(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes)
      : runs_(runs), modes_(modes) {}

  CheckVerdicts judge() {
    v_.runClass.assign(runs_.size(), -1);
    for (size_t r = 0; r < runs_.size(); ++r)
      if (!runs_[r].aborted && !runs_[r].unoptimized) classify(r);
    for (uint32_t size : sizes()) scheduleDependence(size);
    for (uint32_t size : sizes()) reconvergenceDependence(size);
    for (uint32_t size : sizes()) memoryModelDependence(size);
    sizeDependence();
    for (size_t c = 0; c < v_.classes.size(); ++c) compareWithExpect(c);
    for (size_t r = 0; r < runs_.size(); ++r) v_.cells.push_back(cells(r));
    return std::move(v_);
  }

 private:
  const std::optional<RunOutput>& output(size_t run, size_t arg) const {
    return runs_[run].outputs[arg];
  }
  bool compared(size_t run, size_t arg) const {
    return output(run, arg) && modes_[arg] != ArgMode::Ignore;
  }
  bool unordered(size_t arg) const { return modes_[arg] == ArgMode::Unordered; }
  size_t rep(size_t cls) const { return v_.classes[cls].front(); }
  size_t argCount() const { return modes_.size(); }

  // Runs with the same digest of every compared argument are one class.
  bool sameResults(size_t a, size_t b) const {
    for (size_t i = 0; i < argCount(); ++i)
      if (compared(a, i) && output(a, i)->digest != output(b, i)->digest) return false;
    return true;
  }

  void classify(size_t r) {
    for (size_t c = 0; c < v_.classes.size(); ++c)
      if (sameResults(rep(c), r)) {
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

  // What a run varies besides the sub-group size: the schedule alone (ipdom, sequential
  // consistency), random reconvergence, or the relaxed memory model; each is judged
  // against the first.
  enum class Variant { Schedule, Reconvergence, Relaxed };
  Variant variantOf(size_t r) const {
    return runs_[r].reconvergence ? Variant::Reconvergence
           : runs_[r].relaxed     ? Variant::Relaxed
                                  : Variant::Schedule;
  }

  // The classes of the finished runs of one sub-group size and variant, in order of first
  // appearance.
  std::vector<size_t> classesOfSize(uint32_t size, Variant variant = Variant::Schedule) const {
    std::vector<size_t> out;
    for (size_t r = 0; r < runs_.size(); ++r)
      if (v_.runClass[r] >= 0 && runs_[r].subGroupSize == size && variantOf(r) == variant &&
          std::find(out.begin(), out.end(), size_t(v_.runClass[r])) == out.end())
        out.push_back(v_.runClass[r]);
    return out;
  }

  // "argument 1 (...): element 3: class A 5, class B 7; argument 2 ..."
  std::string differences(size_t a, size_t b) const {
    std::string out;
    for (size_t i = 0; i < argCount(); ++i) {
      if (!compared(rep(a), i)) continue;
      const std::string d = difference(i, a, b);
      if (!d.empty()) out += (out.empty() ? "" : "; ") + d;
    }
    return out;
  }

  std::string difference(size_t i, size_t a, size_t b) const {
    const RunOutput& oa = *output(rep(a), i);
    const RunOutput& ob = *output(rep(b), i);
    if (oa.digest == ob.digest) return "";
    const std::string nameA = "class " + className(a), nameB = "class " + className(b);
    if (!oa.contents || !ob.contents)
      return fmt::format(
          "argument {} ({}{}): {} and {} differ (contents over {} bytes are compared by "
          "digest: {:016x}, {:016x})",
          i, oa.shape.typeText, unordered(i) ? ", unordered" : "", nameA, nameB,
          kRecordedContentBytes, oa.digest, ob.digest);
    const auto d = firstDifference(oa.shape, *oa.contents, *ob.contents, unordered(i));
    return d ? describeDifference(i, oa.shape, *d, unordered(i), nameA, nameB) : "";
  }

  // "class A (round-robin, random:2)": the schedules of one size that gave class `c`.
  std::string classAtSize(size_t c, uint32_t size) const {
    std::vector<std::string> schedules;
    for (size_t r : v_.classes[c])
      if (runs_[r].subGroupSize == size) schedules.push_back(runs_[r].label());
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
    std::vector<size_t> runs;
    for (size_t r = 0; r < runs_.size(); ++r)
      if (v_.runClass[r] >= 0 && runs_[r].subGroupSize == size && variantOf(r) == Variant::Schedule)
        runs.push_back(r);
    v_.findings.push_back(
        {true, "scheduling-dependent",
         fmt::format("at sub-group size {} the schedules give {} different results: {}; {}", size,
                     classes.size(), fmt::join(listed, ", "), fmt::join(diffs, "; ")),
         runs});
  }

  // Which lanes run together after divergence is the device's choice (src/DESIGN.md,
  // "Reconvergence"): a result that changes under random reconvergence counts on one the
  // specs do not promise. A warning (an error with --strict), judged only where the
  // schedules agree (else scheduling-dependent already says the results are not fixed).
  void reconvergenceDependence(uint32_t size) {
    const std::vector<size_t> ipdom = classesOfSize(size);
    if (ipdom.size() != 1) return;
    std::vector<size_t> runs;
    std::vector<std::string> listed, diffs;
    for (size_t c : classesOfSize(size, Variant::Reconvergence)) {
      if (c == ipdom[0]) continue;
      listed.push_back(classAtSize(c, size));
      diffs.push_back(differences(ipdom[0], c));
      for (size_t r : v_.classes[c])
        if (runs_[r].subGroupSize == size) runs.push_back(r);
    }
    if (listed.empty()) return;
    // Where the first differing run's sub-group operations part from ipdom's.
    const std::string& trace = runs_[runs.front()].reconvergenceTrace;
    v_.findings.push_back(
        {false, "reconvergence-dependent",
         fmt::format("at sub-group size {} random reconvergence gives {} other result{} than "
                     "ipdom's {}: {}; {}{}",
                     size, listed.size(), listed.size() == 1 ? "" : "s",
                     classAtSize(ipdom[0], size), fmt::join(listed, ", "), fmt::join(diffs, "; "),
                     trace.empty() ? "" : "; " + trace),
         runs});
  }

  // Under the relaxed memory model stores become visible later and in other orders, as
  // the OpenCL memory model allows (src/DESIGN.md, "Relaxed memory model"): a result that
  // changes counts on an order the specs do not promise, like a schedule dependence: an
  // error, judged only where the schedules agree.
  void memoryModelDependence(uint32_t size) {
    const std::vector<size_t> sc = classesOfSize(size);
    if (sc.size() != 1) return;
    std::vector<size_t> runs;
    std::vector<std::string> listed, diffs;
    for (size_t c : classesOfSize(size, Variant::Relaxed)) {
      if (c == sc[0]) continue;
      listed.push_back(classAtSize(c, size));
      diffs.push_back(differences(sc[0], c));
      for (size_t r : v_.classes[c])
        if (runs_[r].subGroupSize == size) runs.push_back(r);
    }
    if (listed.empty()) return;
    v_.findings.push_back(
        {true, "memory-model-dependent",
         fmt::format("at sub-group size {} the relaxed memory model gives {} other result{} "
                     "than sequential consistency's {}: {}; {}",
                     size, listed.size(), listed.size() == 1 ? "" : "s", classAtSize(sc[0], size),
                     fmt::join(listed, ", "), fmt::join(diffs, "; ")),
         runs});
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
                       fmt::join(sizesOf[0], ", "), differences(seen[0], seen[k])),
           v_.classes[seen[k]]});
  }

  std::string runsOf(size_t c) const {
    const std::vector<size_t>& rs = v_.classes[c];
    std::vector<std::string> numbers;
    for (size_t r : rs) numbers.push_back(std::to_string(r + 1));
    return fmt::format("run{} {} (class {}; first: {})", rs.size() == 1 ? "" : "s",
                       fmt::join(numbers, ", "), className(c), runs_[rs.front()].name());
  }

  void compareWithExpect(size_t c) {
    for (size_t i = 0; i < argCount(); ++i) {
      if (!compared(rep(c), i)) continue;
      const std::optional<std::string>& expect = output(rep(c), i)->expect;
      if (expect && !expect->empty())
        v_.findings.push_back(
            {true, "expect-mismatch", fmt::format("{}: {}", runsOf(c), *expect), v_.classes[c]});
    }
  }

  std::vector<std::string> cells(size_t r) const {
    std::vector<std::string> out;
    for (size_t i = 0; i < argCount(); ++i) out.push_back(cell(r, i));
    return out;
  }

  std::string cell(size_t r, size_t i) const {
    if (!output(r, i)) return "";
    if (runs_[r].aborted) return "aborted";
    if (runs_[r].unoptimized) return "not judged";
    if (modes_[i] == ArgMode::Ignore) return "ignored";
    if (const std::optional<std::string>& expect = output(r, i)->expect)
      return expect->empty() ? "matches expect" : "mismatch";
    return output(r, i)->digest == output(rep(0), i)->digest ? "same" : "differs from A";
  }

  const std::vector<CheckRun>& runs_;
  const std::vector<ArgMode>& modes_;
  CheckVerdicts v_;
};

}  // namespace

CheckVerdicts judgeRuns(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes) {
  return Judge(runs, modes).judge();
}

}  // namespace spvsim::tools

#include "tools/cli/check_record.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sstream>

#include "spirv/error.h"
#include "tools/cli/check_id.h"

namespace spvsim::tools {
namespace {

JsonValue number(uint64_t n) {
  JsonValue v;
  v.type = JsonValue::Type::Number;
  v.text = std::to_string(n);
  return v;
}

JsonValue strings(const std::vector<std::string>& items) {
  JsonValue a = jsonArray();
  for (const std::string& s : items) a.items.push_back(jsonString(s));
  return a;
}

std::string hexBytes(const std::vector<uint8_t>& bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

const char* modeName(ArgMode m) {
  return m == ArgMode::Ignore ? "ignore" : m == ArgMode::Unordered ? "unordered" : "compare";
}

JsonValue settingsJson(const CheckSettings& s) {
  JsonValue modes = jsonArray();
  for (ArgMode m : s.modes) modes.items.push_back(jsonString(modeName(m)));
  JsonValue o = jsonObject();
  setMember(o, "strict", jsonBool(s.strict));
  setMember(o, "expect", jsonString(s.expect));
  return setMember(o, "modes", std::move(modes));
}

JsonValue outputJson(const RunOutput& out) {
  JsonValue o = jsonObject();
  setMember(o, "type", jsonString(out.shape.type.name()));
  setMember(o, "text", jsonString(out.shape.typeText));
  setMember(o, "count", number(out.shape.count));
  setMember(o, "hex", jsonBool(out.shape.hex));
  setMember(o, "digest", jsonString(hex64(out.digest)));
  if (out.contents) {
    setMember(o, "element_size", number(out.contents->elementSize));
    setMember(o, "contents", jsonString(hexBytes(out.contents->bytes)));
  }
  if (out.expect) setMember(o, "expect", jsonString(*out.expect));
  return o;
}

JsonValue outputsJson(const CheckRun& run) {
  JsonValue a = jsonArray();
  for (const std::optional<RunOutput>& out : run.outputs)
    a.items.push_back(out ? outputJson(*out) : JsonValue{});
  return a;
}

// Reading: every missing or mistyped member is an input error at the record's line.
class RecordReader {
 public:
  RecordReader(const std::string& name, uint64_t line) : name_(name), line_(line) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw Error(DiagnosticKind::Input,
                fmt::format("{}:{}: not a spvsim check record: {}", name_, line_, message));
  }

  const JsonValue& member(const JsonValue& o, std::string_view key, JsonValue::Type type) const {
    const JsonValue* v = o.type == JsonValue::Type::Object ? o.find(key) : nullptr;
    if (!v || v->type != type) fail(fmt::format("no {} '{}'", typeName(type), key));
    return *v;
  }
  std::string text(const JsonValue& o, std::string_view key) const {
    return member(o, key, JsonValue::Type::String).text;
  }
  bool flag(const JsonValue& o, std::string_view key) const {
    return member(o, key, JsonValue::Type::Bool).text == "true";
  }
  uint64_t count(const JsonValue& o, std::string_view key) const {
    return parseNumber(member(o, key, JsonValue::Type::Number).text, key);
  }
  uint64_t parseNumber(std::string_view s, std::string_view what, int base = 10) const {
    uint64_t n = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n, base);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
      fail(fmt::format("'{}' is not a valid {}", s, what));
    return n;
  }

  CheckSettings settings(const JsonValue& o) const {
    CheckSettings s{flag(o, "strict"), text(o, "expect"), {}};
    for (const JsonValue& m : member(o, "modes", JsonValue::Type::Array).items) {
      if (m.type != JsonValue::Type::String) fail("a mode is not a string");
      if (m.text == "compare")
        s.modes.push_back(ArgMode::Compare);
      else if (m.text == "ignore")
        s.modes.push_back(ArgMode::Ignore);
      else if (m.text == "unordered")
        s.modes.push_back(ArgMode::Unordered);
      else
        fail(fmt::format("unknown mode '{}'", m.text));
    }
    return s;
  }

  std::vector<uint8_t> bytes(const std::string& hex) const {
    if (hex.size() % 2) fail("contents of an odd number of hex digits");
    std::vector<uint8_t> out(hex.size() / 2);
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = uint8_t(parseNumber(std::string_view(hex).substr(2 * i, 2), "hex byte", 16));
    return out;
  }

  std::optional<RunOutput> output(const JsonValue& o) const {
    if (o.type == JsonValue::Type::Null) return std::nullopt;
    RunOutput out;
    const auto type = parseElementType(text(o, "type"));
    if (!type) fail(fmt::format("unknown element type '{}'", text(o, "type")));
    out.shape = {*type, flag(o, "hex"), count(o, "count"), text(o, "text")};
    out.digest = parseNumber(text(o, "digest"), "digest", 16);
    if (o.find("contents"))
      out.contents = Contents{count(o, "element_size"), bytes(text(o, "contents"))};
    if (o.find("expect")) out.expect = text(o, "expect");
    return out;
  }

  CheckRun run(const JsonValue& o) const {
    CheckRun r;
    r.subGroupSize = static_cast<uint32_t>(count(o, "sub_group_size"));
    const std::string schedule = text(o, "schedule");
    if (schedule.starts_with("random:"))
      r.seed = parseNumber(std::string_view(schedule).substr(7), "seed");
    else if (schedule != "round-robin")
      fail(fmt::format("unknown schedule '{}'", schedule));
    if (o.find("reconvergence")) {  // absent: ipdom (records before the dimension)
      const std::string reconvergence = text(o, "reconvergence");
      if (!reconvergence.starts_with("random:"))
        fail(fmt::format("unknown reconvergence '{}'", reconvergence));
      r.reconvergence =
          parseNumber(std::string_view(reconvergence).substr(7), "reconvergence seed");
      if (o.find("reconvergence_trace")) r.reconvergenceTrace = text(o, "reconvergence_trace");
    }
    if (o.find("build")) {  // absent: as the launch was built (records before the dimension)
      if (text(o, "build") != "-O0") fail(fmt::format("unknown build '{}'", text(o, "build")));
      r.unoptimized = true;
    }
    if (o.find("memory_model")) {  // absent: sequential consistency
      const std::string model = text(o, "memory_model");
      if (!model.starts_with("relaxed:")) fail(fmt::format("unknown memory model '{}'", model));
      r.relaxed = parseNumber(std::string_view(model).substr(8), "memory model seed");
    }
    r.aborted = flag(o, "aborted");
    r.errors = count(o, "errors");
    r.warnings = count(o, "warnings");
    for (const JsonValue& out : member(o, "outputs", JsonValue::Type::Array).items)
      r.outputs.push_back(output(out));
    return r;
  }

 private:
  static std::string_view typeName(JsonValue::Type t) {
    switch (t) {
      case JsonValue::Type::String:
        return "string";
      case JsonValue::Type::Number:
        return "number";
      case JsonValue::Type::Bool:
        return "true/false";
      case JsonValue::Type::Array:
        return "array";
      default:
        return "object";
    }
  }
  const std::string& name_;
  uint64_t line_;
};

}  // namespace

std::string CheckRecord::verdict() const {
  if (run.aborted) return "aborted";
  bool mismatch = false;
  for (const auto& out : run.outputs) mismatch |= out && out->expect && !out->expect->empty();
  return run.errors || mismatch ? "error" : run.warnings ? "warning" : "pass";
}

std::string recordLine(const CheckRecord& r) {
  JsonValue o = jsonObject();
  setMember(o, "id", jsonString(r.id));
  setMember(o, "launch", jsonString(r.launch));
  setMember(o, "launch_hash", jsonString(r.launchHash));
  setMember(o, "sweep", jsonString(r.sweep));
  setMember(o, "index", number(r.index));
  setMember(o, "position", number(r.position));
  setMember(o, "configurations", number(r.configurations));
  setMember(o, "sub_group_size", number(r.run.subGroupSize));
  setMember(o, "schedule", jsonString(r.run.schedule()));
  if (r.run.reconvergence)
    setMember(o, "reconvergence", jsonString(fmt::format("random:{}", *r.run.reconvergence)));
  if (r.run.relaxed)
    setMember(o, "memory_model", jsonString(fmt::format("relaxed:{}", *r.run.relaxed)));
  if (r.run.unoptimized) setMember(o, "build", jsonString("-O0"));
  if (!r.run.reconvergenceTrace.empty())
    setMember(o, "reconvergence_trace", jsonString(r.run.reconvergenceTrace));
  setMember(o, "verdict", jsonString(r.verdict()));
  setMember(o, "aborted", jsonBool(r.run.aborted));
  setMember(o, "errors", number(r.run.errors));
  setMember(o, "warnings", number(r.run.warnings));
  setMember(o, "settings", settingsJson(r.settings));
  setMember(o, "outputs", outputsJson(r.run));
  JsonValue diagnostics = jsonArray();
  diagnostics.items = r.diagnostics;
  setMember(o, "diagnostics", std::move(diagnostics));
  setMember(o, "diagnostic_lines", strings(r.diagnosticLines));
  setMember(o, "stdout", jsonString(r.output));
  return writeJson(o);
}

CheckRecord parseRecord(std::string_view line, const std::string& name, uint64_t lineNumber) {
  const JsonValue o = parseJson(line, name, lineNumber);
  const RecordReader in(name, lineNumber);
  CheckRecord r;
  r.id = in.text(o, "id");
  r.launch = in.text(o, "launch");
  r.launchHash = in.text(o, "launch_hash");
  r.sweep = in.text(o, "sweep");
  r.index = in.count(o, "index");
  r.position = in.count(o, "position");
  r.configurations = in.count(o, "configurations");
  if (r.position >= r.configurations)
    in.fail(fmt::format("position {} of {} configurations", r.position, r.configurations));
  r.settings = in.settings(in.member(o, "settings", JsonValue::Type::Object));
  r.run = in.run(o);
  if (r.run.outputs.size() != r.settings.modes.size())
    in.fail("'outputs' and the settings' 'modes' differ in length");
  r.diagnostics = in.member(o, "diagnostics", JsonValue::Type::Array).items;
  for (const JsonValue& l : in.member(o, "diagnostic_lines", JsonValue::Type::Array).items) {
    if (l.type != JsonValue::Type::String) in.fail("a diagnostic line is not a string");
    r.diagnosticLines.push_back(l.text);
  }
  if (r.diagnosticLines.size() != r.diagnostics.size())
    in.fail("'diagnostics' and 'diagnostic_lines' differ in length");
  r.output = in.text(o, "stdout");
  return r;
}

namespace {

std::string readWhole(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return "";
    throw Error(DiagnosticKind::Input, fmt::format("cannot read '{}': {}", path, strerror(errno)));
  }
  if (S_ISDIR(st.st_mode))
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot use '{}' as a results file: it is a folder", path));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw Error(DiagnosticKind::Input, fmt::format("cannot read '{}'", path));
  return text.str();
}

}  // namespace

ResultsFile readResults(const std::string& path, std::ostream& err) {
  const std::string text = readWhole(path);
  ResultsFile out;
  uint64_t lineNumber = 0;
  for (size_t start = 0; start < text.size();) {
    ++lineNumber;
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      // An append interrupted part-way: the configuration had not finished being recorded.
      err << fmt::format(
          "warning: {}:{}: the last line is incomplete (an interrupted run?); it is ignored "
          "and its configuration runs again\n",
          path, lineNumber);
      out.incompleteAt = start;
      break;
    }
    const std::string_view line(text.data() + start, end - start);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos)
      out.records.push_back(parseRecord(line, path, lineNumber));
    start = end + 1;
  }
  return out;
}

ResultsAppender::ResultsAppender(const std::string& path, std::optional<uint64_t> incompleteAt)
    : path_(path) {
  fd_ = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw Error(DiagnosticKind::Input, fmt::format("cannot write '{}': {}", path, strerror(errno)));
  // Appending after an incomplete line would glue the next record onto it.
  if (incompleteAt && ftruncate(fd_, static_cast<off_t>(*incompleteAt)) != 0) {
    const int e = errno;
    close(fd_);
    throw Error(DiagnosticKind::Input, fmt::format("cannot write '{}': {}", path, strerror(e)));
  }
}

ResultsAppender::~ResultsAppender() { close(fd_); }

void ResultsAppender::append(const CheckRecord& record) {
  const std::string line = recordLine(record) + '\n';
  const ssize_t n = write(fd_, line.data(), line.size());
  if (n != static_cast<ssize_t>(line.size()))
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot write '{}': {}", path_,
                            n < 0 ? strerror(errno) : "a short write (a full disk?)"));
}

}  // namespace spvsim::tools

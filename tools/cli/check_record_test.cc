// spvsim check's result records and results files: a record reads back as it was written,
// an interrupted append (an incomplete last line) is skipped with a warning and cut off
// before the next append, and a file that is not records is one clear input error.
#include "tools/cli/check_record.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "spirv/error.h"

namespace spvsim::tools {
namespace {

CheckRecord sampleRecord(const std::string& id, uint64_t position) {
  CheckRecord r;
  r.id = id;
  r.launch = "k.sim";
  r.launchHash = "00000000000000ab";
  r.index = position;
  r.position = position;
  r.configurations = 4;
  r.settings = {true, "", {ArgMode::Compare, ArgMode::Unordered, ArgMode::Ignore}};
  r.run.subGroupSize = 16;
  r.run.seed = 2;
  r.run.errors = 1;
  RunOutput out;
  out.shape = {*parseElementType("int"), false, 2, "int[2]"};
  out.digest = 0x0123456789abcdefull;
  out.contents = Contents{4, {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}};
  out.expect = "";
  r.run.outputs = {out, std::nullopt, RunOutput{out.shape, 0, std::nullopt, std::nullopt}};
  r.diagnostics.push_back(
      parseJson(R"({"kind": "data-race", "severity": "error", "message": "m"})", "test"));
  r.diagnosticLines.push_back("error: data-race: m");
  r.output = position == 0 ? "arg0 int[2] = 1 -1\n" : "";
  return r;
}

std::string path(const std::string& name) { return ::testing::TempDir() + "/" + name; }

std::string readFile(const std::string& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CheckRecord, ReadsBackAsWritten) {
  const CheckRecord r = sampleRecord("00000000000000aa", 0);
  const std::string line = recordLine(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const CheckRecord back = parseRecord(line, "f.jsonl", 1);
  EXPECT_EQ(back.id, r.id);
  EXPECT_EQ(back.settings, r.settings);
  EXPECT_EQ(back.run.subGroupSize, 16u);
  EXPECT_EQ(back.run.seed, std::optional<uint64_t>(2));
  EXPECT_EQ(back.run.errors, 1u);
  ASSERT_EQ(back.run.outputs.size(), 3u);
  EXPECT_EQ(back.run.outputs[0]->digest, 0x0123456789abcdefull);
  EXPECT_EQ(back.run.outputs[0]->contents, r.run.outputs[0]->contents);
  EXPECT_EQ(back.run.outputs[0]->expect, std::optional<std::string>(""));
  EXPECT_EQ(back.run.outputs[0]->shape.typeText, "int[2]");
  EXPECT_FALSE(back.run.outputs[1]);
  EXPECT_FALSE(back.run.outputs[2]->contents);
  EXPECT_EQ(back.diagnosticLines, r.diagnosticLines);
  EXPECT_EQ(back.output, "arg0 int[2] = 1 -1\n");
  EXPECT_EQ(back.verdict(), "error");  // one error diagnostic
  EXPECT_EQ(recordLine(back), line);
}

TEST(ResultsFile, AbsentFileHasNoRecords) {
  std::ostringstream err;
  const ResultsFile f = readResults(path("absent.jsonl"), err);
  EXPECT_TRUE(f.records.empty());
  EXPECT_FALSE(f.incompleteAt);
  EXPECT_EQ(err.str(), "");
}

TEST(ResultsFile, IncompleteLastLineIsSkippedThenCutOffBeforeAppending) {
  const std::string p = path("incomplete.jsonl");
  const std::string first = recordLine(sampleRecord("00000000000000aa", 0));
  const std::string second = recordLine(sampleRecord("00000000000000bb", 1));
  std::ofstream(p) << first << '\n' << second.substr(0, 40);  // the append was interrupted
  std::ostringstream err;
  const ResultsFile f = readResults(p, err);
  ASSERT_EQ(f.records.size(), 1u);
  EXPECT_EQ(f.records[0].id, "00000000000000aa");
  EXPECT_EQ(f.incompleteAt, std::optional<uint64_t>(first.size() + 1));
  EXPECT_EQ(err.str(), "warning: " + p +
                           ":2: the last line is incomplete (an interrupted run?); it is "
                           "ignored and its configuration runs again\n");
  {
    ResultsAppender append(p, f.incompleteAt);
    append.append(sampleRecord("00000000000000bb", 1));
  }
  EXPECT_EQ(readFile(p), first + '\n' + second + '\n');
}

TEST(ResultsFile, AppendKeepsEarlierLines) {
  const std::string p = path("append.jsonl");
  std::remove(p.c_str());
  {
    ResultsAppender append(p, std::nullopt);
    append.append(sampleRecord("00000000000000aa", 0));
  }
  {
    ResultsAppender append(p, std::nullopt);
    append.append(sampleRecord("00000000000000bb", 1));
  }
  std::ostringstream err;
  const ResultsFile f = readResults(p, err);
  ASSERT_EQ(f.records.size(), 2u);
  EXPECT_EQ(f.records[1].id, "00000000000000bb");
}

std::string inputError(const std::string& p) {
  std::ostringstream err;
  try {
    readResults(p, err);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Input);
    return e.what();
  }
  return "no error";
}

TEST(ResultsFile, MalformedLinesAndFoldersAreInputErrors) {
  const std::string p = path("malformed.jsonl");
  std::ofstream(p) << recordLine(sampleRecord("00000000000000aa", 0)) << "\n\n{\"id\": 5}\n";
  EXPECT_EQ(inputError(p), p + ":3: not a spvsim check record: no string 'id'");
  std::ofstream(p) << "{\"id\": \n";
  EXPECT_EQ(inputError(p).rfind(p + ":1: ", 0), 0u) << inputError(p);
  const std::string dir = path("results_dir.jsonl");
  mkdir(dir.c_str(), 0755);
  EXPECT_EQ(inputError(dir), "cannot use '" + dir + "' as a results file: it is a folder");
}

}  // namespace
}  // namespace spvsim::tools

#include "src/profile/profile_report.h"

#include <gtest/gtest.h>

namespace spvsim::profile {
namespace {

TEST(ProfileReport, EscapesHtml) {
  EXPECT_EQ(escapeHtml("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
}

TEST(ProfileReport, QuotesJson) {
  EXPECT_EQ(jsonString("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  // A byte that is not UTF-8 becomes U+FFFD: the report stays valid UTF-8.
  EXPECT_EQ(jsonString("f\xff.cl"), "\"f\xef\xbf\xbd.cl\"");
}

TEST(ProfileReport, UtilisationIsLanesOverSlots) {
  EXPECT_DOUBLE_EQ(utilisation(Counts{4, 10, 0}, 4), 10.0 / 16.0);
  EXPECT_DOUBLE_EQ(utilisation(Counts{0, 0, 0}, 4), 0.0);
}

// Instructions fold by SPIR-V index (several lowered pcs may come from one), lines by
// file:line, instructions without line info are left out of the lines.
TEST(ProfileReport, FoldsPcsIntoInstructionsAndLines) {
  LaunchProfile p;
  p.subGroupSize = 4;
  p.instructions = {{7, 0, "OpIAdd", "%a = OpIAdd %uint %b %c", "k.cl:3", "k", false},
                    {5, 0, "OpLoad", "%b = OpLoad %uint %p", "k.cl:3", "k", false},
                    {9, 0, "OpReturn", "OpReturn", "", "k", false}};
  p.pcSource = {1, 0, 0, 2};
  p.counts = {{2, 8, 0}, {2, 4, 0}, {2, 4, 0}, {2, 8, 0}};
  const auto rows = instructionRows(p);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].info.index, 5u);
  EXPECT_EQ(rows[1].info.index, 7u);
  EXPECT_EQ(rows[1].counts.executions, 4u);
  EXPECT_EQ(rows[1].counts.laneExecutions, 8u);
  const auto lines = lineRows(rows);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].file, "k.cl");
  EXPECT_EQ(lines[0].line, 3u);
  EXPECT_EQ(lines[0].instructions, 2u);
  EXPECT_EQ(lines[0].counts.executions, 6u);
  EXPECT_EQ(lines[0].counts.laneExecutions, 16u);
}

// The conflict degree: distinct 4-byte words per bank, the most in any bank; lanes on one
// word share it (broadcast).
TEST(ProfileReport, ConflictDegreeCountsDistinctWordsPerBank) {
  std::vector<uint64_t> words;
  EXPECT_EQ(conflictDegree(words, 32), 0u);
  for (uint64_t l = 0; l < 16; ++l) words.push_back(l);  // stride 1: 16 banks
  EXPECT_EQ(conflictDegree(words, 32), 1u);
  words.clear();
  for (uint64_t l = 0; l < 16; ++l) words.push_back(l * 32);  // stride 32: all in bank 0
  EXPECT_EQ(conflictDegree(words, 32), 16u);
  words.clear();
  for (uint64_t l = 0; l < 16; ++l) words.push_back(l * 2);  // stride 2: 16 banks of 32
  EXPECT_EQ(conflictDegree(words, 32), 1u);
  EXPECT_EQ(conflictDegree(words, 16), 2u);  // 0 and 16, 2 and 18, ... share banks
  words.assign(16, 5);                       // one word, every lane: a broadcast
  EXPECT_EQ(conflictDegree(words, 32), 1u);
  words = {0, 0, 32, 32, 64, 1};  // words 0, 32, 64 in bank 0; 1 in bank 1
  EXPECT_EQ(conflictDegree(words, 32), 3u);
}

TEST(ProfileReport, CoalescingRowsFoldPcsAndPutTheLeastEfficientFirst) {
  LaunchProfile p;
  p.subGroupSize = 16;
  p.instructions = {{7, 0, "OpLoad", "%a = OpLoad", "k.cl:3", "k", false},
                    {9, 0, "OpStore", "OpStore", "k.cl:4", "k", false},
                    {11, 0, "OpIAdd", "%b = OpIAdd", "k.cl:4", "k", false}};
  p.pcSource = {0, 0, 1, 2};
  p.coalescing = {{1, 16, 64, 1}, {1, 16, 64, 15}, {2, 32, 128, 2}, {}};
  const auto rows = coalescingRows(p);
  ASSERT_EQ(rows.size(), 2u);  // the add touched no global memory
  EXPECT_EQ(rows[0].info.index, 7u);
  EXPECT_EQ(rows[0].counts.lines, 16u);
  EXPECT_DOUBLE_EQ(efficiency(rows[0].counts), 128.0 / (16 * 64));
  EXPECT_EQ(rows[1].info.index, 9u);
  EXPECT_DOUBLE_EQ(efficiency(rows[1].counts), 1.0);
}

TEST(ProfileReport, BankRowsPutTheHighestAverageDegreeFirst) {
  LaunchProfile p;
  p.instructions = {{7, 0, "OpLoad", "a", "", "k", false}, {9, 0, "OpStore", "b", "", "k", false}};
  p.pcSource = {0, 1};
  p.bankConflicts = {{4, 64, 4, 1}, {2, 32, 17, 16}};
  const auto rows = bankRows(p);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].info.index, 9u);
  EXPECT_DOUBLE_EQ(averageDegree(rows[0].counts), 8.5);
  EXPECT_EQ(rows[0].counts.maxDegree, 16u);
  EXPECT_DOUBLE_EQ(averageDegree(rows[1].counts), 1.0);
}

// Per line where the module has line information, else per instruction; lowest first.
TEST(ProfileReport, DivergenceRowsByLineOrInstruction) {
  std::vector<InstructionRow> rows = {{{5, 0, "OpLoad", "a", "k.cl:3", "k", false}, {4, 16, 0}},
                                      {{6, 0, "OpLoad", "b", "k.cl:5", "k", false}, {4, 4, 0}},
                                      {{7, 0, "OpLoad", "c", "k.cl:7", "k", false}, {0, 0, 0}}};
  auto byLine = divergenceRows(rows, lineRows(rows));
  ASSERT_EQ(byLine.size(), 2u);  // line 7 never ran
  EXPECT_TRUE(byLine[0].byLine);
  EXPECT_EQ(byLine[0].where(), "k.cl:5");
  EXPECT_DOUBLE_EQ(utilisation(byLine[0].counts, 4), 0.25);
  for (auto& r : rows) r.info.line.clear();
  auto byInstruction = divergenceRows(rows, lineRows(rows));
  ASSERT_EQ(byInstruction.size(), 2u);
  EXPECT_FALSE(byInstruction[0].byLine);
  EXPECT_EQ(byInstruction[0].where(), "b");
}

TEST(ProfileReport, ThreadLayoutOrdersRowsByTheirFirstWorkGroup) {
  LaunchProfile p;
  p.threads.resize(3);
  p.threads[0].thread = 0;  // began first, ran 2 and 3
  p.threads[0].groups = {{{2, 0, 0}, 2, 1, 0, 5}, {{3, 0, 0}, 3, 1, 5, 9}};
  p.threads[1].thread = 1;  // ran 0, 1 and 4
  p.threads[1].groups = {
      {{0, 0, 0}, 0, 1, 0, 5}, {{1, 0, 0}, 1, 1, 5, 9}, {{4, 0, 0}, 4, 1, 9, 12}};
  p.threads[2].thread = 2;  // ran none
  p.timeline = {{{3, 0, 0}, 3, 0, 1, 0, {}}, {{0, 0, 0}, 0, 0, 1, 1, {}}};
  const ThreadLayout layout = threadLayout(p);
  ASSERT_EQ(layout.rows.size(), 3u);
  EXPECT_EQ(layout.rows[0].timeline, &p.threads[1]);
  EXPECT_EQ(layout.rows[0].thread, 0u);  // renumbered in row order
  EXPECT_EQ(layout.rows[1].timeline, &p.threads[0]);
  EXPECT_EQ(layout.rows[1].thread, 1u);
  EXPECT_EQ(layout.rows[2].timeline, &p.threads[2]);
  EXPECT_EQ(layout.rowOf, (std::vector<uint32_t>{1, 0, 2}));
  ASSERT_EQ(layout.subGroups.size(), 2u);
  EXPECT_EQ(layout.subGroups[0]->linearGroup, 0u);
  EXPECT_EQ(groupRanges(*layout.rows[0].timeline, 10), "0-1, 4");
  EXPECT_EQ(groupRanges(*layout.rows[0].timeline, 1), "0-1, ...");
}

// Unquoted attribute values that end right before "/>" take the slash ("10/"), an invalid
// length: the timeline legend's swatches were invisible. No value in the page may be
// written so.
TEST(ProfileReport, HtmlHasNoUnquotedValueBeforeASelfClosingSlash) {
  LaunchProfile p;
  p.kernel = "k";
  p.subGroupSize = 4;
  p.clock = 10;
  p.timeline.resize(1);
  p.timeline[0].segments.push_back({});
  const std::string html = profileHtml({&p}, [](const std::string&) { return std::string(); });
  ASSERT_NE(html.find("Host-thread timeline"), std::string::npos);
  EXPECT_NE(html.find("<rect class=\"running\" width=\"12\" height=\"10\"/>"), std::string::npos);
  for (size_t at = html.find("/>"); at != std::string::npos; at = html.find("/>", at + 2))
    EXPECT_EQ(html[at - 1], '"') << html.substr(at > 60 ? at - 60 : 0, 64);
}

// Every attribute value in the page is quoted (outside the script): an unquoted one ends at
// the first space or '>' and takes a following '/' (above), and a value from the module
// could hold either.
TEST(ProfileReport, HtmlQuotesEveryAttributeValue) {
  LaunchProfile p;
  p.kernel = "k";
  p.subGroupSize = 4;
  p.clock = 10;
  p.instructions = {{7, 0, "OpLoad", "%a = OpLoad", "k.cl:3", "k", false},
                    {9, 0, "OpStore", "OpStore", "k.cl:4", "k", true}};
  p.pcSource = {0, 1};
  p.counts = {{2, 8, 0}, {2, 6, 1}};
  p.coalescing = {{2, 8, 32, 2}, {}};
  p.bankConflicts = {{}, {2, 6, 3, 2}};
  p.threads.resize(1);
  p.threads[0].steps = 10;
  p.threads[0].groups = {{{0, 0, 0}, 0, 1, 0, 10}};
  p.timeline = {{{0, 0, 0}, 0, 0, 4, 0, {{SubGroupPhase::Running, 0, 10}}}};
  const std::string html = profileHtml({&p}, [](const std::string&) { return std::string(); });
  ASSERT_NE(html.find("<tr class=\"coalescing\">"), std::string::npos);
  ASSERT_NE(html.find("<tr class=\"banks\">"), std::string::npos);
  ASSERT_NE(html.find("<rect class=\"group\""), std::string::npos);
  size_t tags = 0;
  for (size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
    if (html.compare(at, 7, "<script") == 0) at = html.find("</script>", at);
    if (html.compare(at, 6, "<style") == 0) at = html.find("</style>", at);
    const size_t end = html.find('>', at);
    ASSERT_NE(end, std::string::npos);
    bool quoted = false;
    for (size_t i = at; i < end; ++i) {
      if (html[i] == '"') quoted = !quoted;
      if (!quoted && html[i] == '=') EXPECT_EQ(html[i + 1], '"') << html.substr(at, end - at + 1);
    }
    ++tags;
  }
  EXPECT_GT(tags, 100u);
}

}  // namespace
}  // namespace spvsim::profile

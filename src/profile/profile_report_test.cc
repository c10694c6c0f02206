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
  ASSERT_NE(html.find("Sub-group timeline"), std::string::npos);
  EXPECT_NE(html.find("<rect class=\"running\" width=\"12\" height=\"10\"/>"), std::string::npos);
  for (size_t at = html.find("/>"); at != std::string::npos; at = html.find("/>", at + 2))
    EXPECT_EQ(html[at - 1], '"') << html.substr(at > 60 ? at - 60 : 0, 64);
}

}  // namespace
}  // namespace spvsim::profile

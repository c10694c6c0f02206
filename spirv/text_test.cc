// Module text in messages: one line whatever a name or string holds.
#include "spirv/text.h"

#include <gtest/gtest.h>

namespace spvsim::spirv {
namespace {

TEST(EscapeText, ControlCharactersAreEscaped) {
  EXPECT_EQ(escapeText("plain name_1"), "plain name_1");
  EXPECT_EQ(escapeText("two\nlines"), "two\\nlines");
  EXPECT_EQ(escapeText("a\tb\rc"), "a\\tb\\rc");
  EXPECT_EQ(escapeText("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(escapeText(std::string("nul\0byte", 8)), "nul\\x00byte");
  EXPECT_EQ(escapeText("del\x7f"), "del\\x7f");
}

TEST(EscapeText, Utf8IsKeptAndBrokenBytesAreEscaped) {
  EXPECT_EQ(escapeText("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(escapeText("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(escapeText("cut \xe2\x82"), "cut \\xe2\\x82");            // truncated sequence
  EXPECT_EQ(escapeText("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(escapeText("\xc2\x85next line"), "\\xc2\\x85next line");  // C1 control NEL
  EXPECT_EQ(escapeText("back\\slash"), "back\\slash");
}

TEST(EscapeText, EscapingTwiceChangesNothing) {
  const std::string once = escapeText("\x1b]0;title\x07\n\xff\xc2\x85");
  EXPECT_EQ(once, "\\x1b]0;title\\x07\\n\\xff\\xc2\\x85");
  EXPECT_EQ(escapeText(once), once);
}

TEST(EscapeText, LongTextIsCutWithAnEllipsis) {
  EXPECT_EQ(escapeText("short", 5), "short");
  EXPECT_EQ(escapeText("longer", 5), "longe...");
  // A 2-byte character that would straddle the cut is left out whole.
  EXPECT_EQ(escapeText("abcd\xc3\xa9", 5), "abcd...");
  EXPECT_EQ(escapeText("abc\xc3\xa9z", 5), "abc\xc3\xa9...");
  // Control characters and stray bytes count one byte each, before escaping.
  EXPECT_EQ(escapeText("\n\n\n\xff\n\n", 4), "\\n\\n\\n\\xff...");
}

TEST(MarkupText, ReferencesAndNoControlCharacters) {
  EXPECT_EQ(markupText("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(markupText(std::string("a\tb\nc\x01"
                                   "d\x1b\x7f",
                                   9)),
            "a\tb\nc?d?\x7f");
  EXPECT_EQ(markupText("\xc3\xa9"), "\xc3\xa9");  // UTF-8 passes as it is
}

TEST(JsonStringLiteral, EscapesWhatJsonNeeds) {
  EXPECT_EQ(jsonStringLiteral("plain"), "\"plain\"");
  EXPECT_EQ(jsonStringLiteral("q\"b\\"), "\"q\\\"b\\\\\"");
  EXPECT_EQ(jsonStringLiteral("a\nb\rc\td"), "\"a\\nb\\rc\\td\"");
  EXPECT_EQ(jsonStringLiteral(std::string("\x1b[0m\0\x7f", 6)), "\"\\u001b[0m\\u0000\\u007f\"");
  EXPECT_EQ(jsonStringLiteral("\xc2\x85"), "\"\\u0085\"");  // C1 NEL, kept exact
}

TEST(JsonStringLiteral, InvalidUtf8BecomesReplacementCharacters) {
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(jsonStringLiteral("caf\xc3\xa9 \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
  EXPECT_EQ(jsonStringLiteral("a\xff"
                              "b"),
            "\"a" + fffd + "b\"");
  EXPECT_EQ(jsonStringLiteral("\xc0\xaf"), "\"" + fffd + fffd + "\"");             // overlong '/'
  EXPECT_EQ(jsonStringLiteral("\xed\xa0\x80"), "\"" + fffd + fffd + fffd + "\"");  // surrogate
  EXPECT_EQ(jsonStringLiteral("cut \xe2\x82"), "\"cut " + fffd + fffd + "\"");
  // No UTF-8 sequence starts with F5..FF (RFC 3629: they would encode beyond U+10FFFF),
  // even when continuation bytes follow (found by fuzz_dap).
  EXPECT_EQ(jsonStringLiteral("\xf5\xbc\x90"), "\"" + fffd + fffd + fffd + "\"");
  EXPECT_EQ(jsonStringLiteral("\xf8\x88\x80\x80"), "\"" + fffd + fffd + fffd + fffd + "\"");
  EXPECT_EQ(escapeText("\xf5\xbc\x90"), "\\xf5\\xbc\\x90");
}

}  // namespace
}  // namespace spvsim::spirv

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

}  // namespace
}  // namespace spvsim::spirv

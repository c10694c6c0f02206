// Which copy stands for a path of a module's line information (src/files/source_copies.h).
#include "src/files/source_copies.h"

#include <gtest/gtest.h>

namespace spvsim::files {
namespace {

TEST(SourceCopies, ProgramFromMemoryAndHeadersByTheirIncludeNames) {
  SourceCopies copies;
  EXPECT_EQ(copies.find("/work/<stdin>"), nullptr);
  copies.addProgram("app.cl", "/b/app.cl");
  copies.addHeader("util.h", "/b/headers/util.h");
  copies.addHeader("inc/util.h", "/b/headers/inc/util.h");

  const SourceCopy* program = copies.find("/home/me/<stdin>");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(program->path, "/b/app.cl");
  EXPECT_EQ(program->shownAs, "app.cl");
  EXPECT_EQ(copies.find("<stdin>"), program);

  // The compile driver's temporary include folder, gone since: the longest name wins.
  const SourceCopy* nested = copies.find("/tmp/spvsim-Ab12/include/inc/util.h");
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(nested->path, "/b/headers/inc/util.h");
  EXPECT_EQ(nested->shownAs, "util.h");
  EXPECT_EQ(copies.find("/tmp/spvsim-Ab12/include/./inc//util.h"), nested);  // normalised
  EXPECT_EQ(copies.find("/tmp/spvsim-Ab12/include/util.h")->path, "/b/headers/util.h");
  EXPECT_EQ(copies.find("util.h")->path, "/b/headers/util.h");

  // Only whole components match.
  EXPECT_EQ(copies.find("/tmp/myutil.h"), nullptr);
  EXPECT_EQ(copies.find("/tmp/util.hpp"), nullptr);
  EXPECT_EQ(copies.find("/tmp/stdin"), nullptr);
  EXPECT_EQ(copies.find(""), nullptr);
}

// What a user types (`list app.cl:3`, `list inc/util.h:1`): the shown name or the include
// name; the program's copy is the one added by addProgram.
TEST(SourceCopies, NamedByUsers) {
  SourceCopies copies;
  EXPECT_EQ(copies.program(), nullptr);
  copies.addHeader("inc/util.h", "/b/headers/inc/util.h");
  copies.addProgram("app.cl", "/b/app.cl");
  ASSERT_NE(copies.program(), nullptr);
  EXPECT_EQ(copies.program()->path, "/b/app.cl");
  EXPECT_EQ(copies.named("app.cl"), copies.program());
  EXPECT_EQ(copies.named("util.h")->path, "/b/headers/inc/util.h");
  EXPECT_EQ(copies.named("inc/util.h")->path, "/b/headers/inc/util.h");
  EXPECT_EQ(copies.named("<stdin>"), nullptr);  // clang's name, not the user's
  EXPECT_EQ(copies.named("other.cl"), nullptr);
  EXPECT_EQ(copies.named("util"), nullptr);
}

}  // namespace
}  // namespace spvsim::files

// Parsing debugger expressions: C precedence, literal types (C's rules for the type of
// an integer constant), and malformed text.
#include "src/debugger/debug_expr.h"

#include <gtest/gtest.h>

#include "src/debugger/debug_expr_node.h"

namespace spvsim::debugger {
namespace {

using Kind = ExprNode::Kind;

TEST(DebugExpr, PrecedenceFollowsC) {
  // 1 + 2 * 3 == 7 && !x: && at the top, == below it, + below that, * deepest.
  const Expression e = Expression::parse(" 1 + 2 * 3 == 7 && !x ");
  EXPECT_EQ(e.text(), "1 + 2 * 3 == 7 && !x");
  const ExprNode& top = e.root();
  ASSERT_EQ(top.kind, Kind::Binary);
  EXPECT_EQ(top.text, "&&");
  EXPECT_EQ(top.a->text, "==");
  EXPECT_EQ(top.a->a->text, "+");
  EXPECT_EQ(top.a->a->b->text, "*");
  EXPECT_EQ(top.b->kind, Kind::Unary);
  EXPECT_EQ(top.b->text, "!");
  // Left associative: 8 - 2 - 1 is (8 - 2) - 1; << binds looser than +.
  const Expression f = Expression::parse("8 - 2 - 1");
  EXPECT_EQ(f.root().a->text, "-");
  EXPECT_EQ(Expression::parse("1 << 2 + 3").root().text, "<<");
  EXPECT_EQ(Expression::parse("a & b == c").root().text, "&");  // == binds tighter
  EXPECT_EQ(Expression::parse("a <= b").root().text, "<=");
  EXPECT_EQ(Expression::parse("a < b").root().text, "<");
  EXPECT_EQ(Expression::parse("a || b && c").root().text, "||");
}

TEST(DebugExpr, PostfixForms) {
  const Expression e = Expression::parse("in[i + 1].y@3");  // root() lives as long as e
  const ExprNode& r = e.root();
  ASSERT_EQ(r.kind, Kind::At);
  EXPECT_EQ(r.b->integer, 3u);
  ASSERT_EQ(r.a->kind, Kind::Member);
  EXPECT_EQ(r.a->text, "y");
  ASSERT_EQ(r.a->a->kind, Kind::Index);
  EXPECT_EQ(r.a->a->a->text, "in");
  EXPECT_EQ(Expression::parse("%23").root().id, 23u);
  EXPECT_EQ(Expression::parse("$lane").root().kind, Kind::Lane);
  EXPECT_EQ(Expression::parse("a[b[1]]").root().b->kind, Kind::Index);
}

TEST(DebugExpr, LiteralTypesFollowC) {
  auto type = [](const char* text) { return Expression::parse(text).root().arith; };
  auto is = [](Arith a, Arith::Kind k, uint32_t w, bool s) {
    return a.kind == k && a.width == w && a.isSigned == s;
  };
  using K = Arith::Kind;
  EXPECT_TRUE(is(type("7"), K::Int, 32, true));
  EXPECT_TRUE(is(type("2147483647"), K::Int, 32, true));
  EXPECT_TRUE(is(type("2147483648"), K::Int, 64, true));   // decimal: int, long, ulong
  EXPECT_TRUE(is(type("0xffffffff"), K::Int, 32, false));  // hex may be unsigned int
  EXPECT_TRUE(is(type("7u"), K::Int, 32, false));
  EXPECT_TRUE(is(type("7l"), K::Int, 64, true));
  EXPECT_TRUE(is(type("7ul"), K::Int, 64, false));
  EXPECT_TRUE(is(type("18446744073709551615"), K::Int, 64, false));
  EXPECT_TRUE(is(type("2.5"), K::Float, 64, true));
  EXPECT_TRUE(is(type("2.5f"), K::Float, 32, true));
  EXPECT_TRUE(is(type("1e3"), K::Float, 64, true));
  EXPECT_EQ(Expression::parse("1e3").root().real, 1000.0);
  EXPECT_EQ(Expression::parse("0x10").root().integer, 16u);
  EXPECT_EQ(Expression::parse("010").root().integer, 8u);  // octal, as in C
}

TEST(DebugExpr, MalformedTextIsAnError) {
  for (const char* bad : {"", "x +", "(x", "x[1", "x ~ 3", "$foo", "%1x", "%0", "%", "3x", "1.2.3",
                          "x )", "== 3", "18446744073709551616", "x @", "[1]"})
    EXPECT_THROW(Expression::parse(bad), DebugError) << bad;
  // %NAME is an id named as spvsim dis names it, resolved when read.
  EXPECT_EQ(Expression::parse("%in").root().kind, ExprNode::Kind::Id);
  EXPECT_EQ(Expression::parse("%in").root().text, "in");
  // Nesting is bounded (parsing and evaluation recurse): no stack overflow.
  EXPECT_THROW(Expression::parse(std::string(100000, '(') + "1"), DebugError);
  EXPECT_THROW(Expression::parse(std::string(100000, '-') + "1"), DebugError);
  std::string chain = "1";
  for (int k = 0; k < 50000; ++k) chain += "+1";
  EXPECT_THROW(Expression::parse(chain), DebugError);
  EXPECT_NO_THROW(Expression::parse(std::string(200, '(') + "1" + std::string(200, ')')));
  try {
    Expression::parse("x ~ 3");
  } catch (const DebugError& e) {
    EXPECT_STREQ(e.what(), "'x ~ 3' is not a value: unexpected '~ 3'");
  }
}

}  // namespace
}  // namespace spvsim::debugger

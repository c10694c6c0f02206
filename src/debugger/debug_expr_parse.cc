// Parsing debugger expressions: recursive descent over C's precedence levels.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "src/debugger/debug_expr.h"
#include "src/debugger/debug_expr_node.h"
#include "src/values/text_util.h"

namespace spvsim::debugger {
namespace {

using Node = std::shared_ptr<const ExprNode>;

// Binary operators from the loosest level to the tightest; longer spellings first
// within a level so that "<=" is not read as "<".
constexpr const char* kLevels[][4] = {
    {"||", nullptr},     {"&&", nullptr},          {"|", nullptr},         {"^", nullptr},
    {"&", nullptr},      {"==", "!=", nullptr},    {"<=", ">=", "<", ">"}, {"<<", ">>", nullptr},
    {"+", "-", nullptr}, {"*", "/", "%", nullptr},
};
constexpr size_t kLevelCount = sizeof kLevels / sizeof kLevels[0];

// Parsing and evaluation recurse as deep as the expression nests: a bound keeps
// "((((..." and "1+1+1+..." typed or pasted by mistake from exhausting the stack.
constexpr uint32_t kMaxDepth = 256;

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Node parseAll() {
    Node n = binary(0);
    skip();
    if (pos_ != s_.size()) fail(fmt::format("unexpected '{}'", s_.substr(pos_)));
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw DebugError(why); }

  // Sets `n`'s depth from its children's; too deep is an error.
  Node seal(std::shared_ptr<ExprNode> n) const {
    n->depth = 1 + std::max(n->a ? n->a->depth : 0, n->b ? n->b->depth : 0);
    if (n->depth > kMaxDepth || nesting_ > kMaxDepth)
      fail(fmt::format("nested more than {} deep", kMaxDepth));
    return n;
  }

  // Counts the parser's own recursion (operands inside operands) while it lasts.
  struct Nest {
    explicit Nest(Parser& p) : p_(p) {
      if (++p_.nesting_ > kMaxDepth) p_.fail(fmt::format("nested more than {} deep", kMaxDepth));
    }
    ~Nest() { --p_.nesting_; }
    Parser& p_;
  };

  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }

  bool peek(std::string_view op) {
    skip();
    return s_.substr(pos_, op.size()) == op;
  }

  // `op` here, and not the start of a longer operator ("&" in "&&", "<" in "<<").
  bool takeOperator(std::string_view op) {
    if (!peek(op)) return false;
    const char next = pos_ + op.size() < s_.size() ? s_[pos_ + op.size()] : '\0';
    if (op.size() == 1 && std::strchr("&|<>", op[0]) && next == op[0]) return false;
    if ((op == "<" || op == ">") && next == '=') return false;
    pos_ += op.size();
    return true;
  }

  Node binary(size_t level) {
    if (level == kLevelCount) return unary();
    Node left = binary(level + 1);
    for (;;) {
      const char* matched = nullptr;
      for (const char* op : kLevels[level])
        if (op && takeOperator(op)) {
          matched = op;
          break;
        }
      if (!matched) return left;
      auto n = std::make_shared<ExprNode>();
      n->kind = ExprNode::Kind::Binary;
      n->text = matched;
      n->a = left;
      n->b = binary(level + 1);
      left = seal(n);
    }
  }

  Node unary() {
    const Nest nest(*this);
    skip();
    if (pos_ < s_.size() && std::strchr("-!~+", s_[pos_]) && s_[pos_] != '\0') {
      const char op = s_[pos_++];
      Node operand = unary();
      if (op == '+') return operand;
      auto n = std::make_shared<ExprNode>();
      n->kind = ExprNode::Kind::Unary;
      n->text = std::string(1, op);
      n->a = operand;
      return seal(n);
    }
    return postfix(primary());
  }

  Node postfix(Node base) {
    for (;;) {
      skip();
      if (pos_ >= s_.size()) return base;
      const char c = s_[pos_];
      auto n = std::make_shared<ExprNode>();
      n->a = base;
      if (c == '[') {
        ++pos_;
        n->kind = ExprNode::Kind::Index;
        n->b = binary(0);
        if (!takeOperator("]")) fail("a '[' without its ']'");
      } else if (c == '@') {
        ++pos_;
        n->kind = ExprNode::Kind::At;
        n->b = primary();
      } else if (c == '.' && pos_ + 1 < s_.size() && isIdentStart(s_[pos_ + 1])) {
        ++pos_;
        const size_t start = pos_;
        while (pos_ < s_.size() && isIdentChar(s_[pos_])) ++pos_;
        n->kind = ExprNode::Kind::Member;
        n->text = std::string(s_.substr(start, pos_ - start));
      } else {
        return base;
      }
      base = seal(n);
    }
  }

  Node primary() {
    skip();
    if (pos_ >= s_.size()) fail("a value is missing at the end");
    const char c = s_[pos_];
    auto n = std::make_shared<ExprNode>();
    if (c == '(') {
      ++pos_;
      n->kind = ExprNode::Kind::Paren;
      n->a = binary(0);
      if (!takeOperator(")")) fail("a '(' without its ')'");
      return seal(n);
    }
    if (c == '%') return idNode(n);
    if (c == '$') {
      if (s_.substr(pos_, 5) != "$lane" || (pos_ + 5 < s_.size() && isIdentChar(s_[pos_ + 5])))
        fail(fmt::format("unknown '{}' (the one $ name is $lane)", s_.substr(pos_)));
      pos_ += 5;
      n->kind = ExprNode::Kind::Lane;
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < s_.size() &&
         std::isdigit(static_cast<unsigned char>(s_[pos_ + 1]))))
      return number(n);
    if (isIdentStart(c)) {
      const size_t start = pos_;
      while (pos_ < s_.size() && isIdentChar(s_[pos_])) ++pos_;
      n->text = std::string(s_.substr(start, pos_ - start));
      if (n->text == "true" || n->text == "false") {
        n->kind = ExprNode::Kind::Number;
        n->integer = n->text == "true";
        n->arith = {Arith::Kind::Int, 32, true};
        return n;
      }
      n->kind = ExprNode::Kind::Name;
      return n;
    }
    fail(fmt::format("unexpected '{}'", s_.substr(pos_)));
  }

  // %23, or %in as spvsim dis names ids ([A-Za-z0-9_]; resolved when read).
  Node idNode(std::shared_ptr<ExprNode> n) {
    const size_t start = ++pos_;
    while (pos_ < s_.size() && isIdentChar(s_[pos_])) ++pos_;
    const std::string_view text = s_.substr(start, pos_ - start);
    uint64_t id = 0;
    const bool numeric = !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]));
    if (text.empty() ||
        (numeric && (!values::parseUnsigned(text, id) || id == 0 || id > 0xffffffffu)))
      fail("an id is % and a number or a name as spvsim dis prints it, e.g. %23, %in");
    n->kind = ExprNode::Kind::Id;
    n->id = static_cast<uint32_t>(id);
    if (!numeric) n->text = std::string(text);
    return n;
  }

  // C literals: decimal, 0x hex and 0 octal integers with u/l suffixes (the type is the
  // first of int, uint (hex, octal), long, ulong that holds it); reals with an f suffix
  // for float, else double.
  Node number(std::shared_ptr<ExprNode> n) {
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '.' || s_[pos_] == '_' ||
                                ((s_[pos_] == '+' || s_[pos_] == '-') &&
                                 std::strchr("eE", s_[pos_ - 1]) && !isHex(start))))
      ++pos_;
    n->kind = ExprNode::Kind::Number;
    n->text = std::string(s_.substr(start, pos_ - start));
    const std::string& t = n->text;
    const bool hex = isHex(start);
    if (!hex && t.find_first_of(".eE") != std::string::npos) return real(n);
    std::string digits = t;
    bool isUnsigned = false, isLong = false;
    while (!digits.empty() && std::strchr("uUlL", digits.back())) {
      (std::toupper(digits.back()) == 'U' ? isUnsigned : isLong) = true;
      digits.pop_back();
    }
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(digits.c_str(), &end, 0);
    if (digits.empty() || *end || errno == ERANGE) fail(fmt::format("'{}' is not a number", t));
    n->integer = v;
    const bool decimal = !hex && !(digits.size() > 1 && digits[0] == '0');
    if (!isLong && !isUnsigned && v <= 0x7fffffffull)
      n->arith = {Arith::Kind::Int, 32, true};
    else if (!isLong && (isUnsigned || !decimal) && v <= 0xffffffffull)
      n->arith = {Arith::Kind::Int, 32, false};
    else if (!isUnsigned && v <= 0x7fffffffffffffffull)
      n->arith = {Arith::Kind::Int, 64, true};
    else
      n->arith = {Arith::Kind::Int, 64, false};
    return n;
  }

  bool isHex(size_t start) const {
    return s_.size() > start + 1 && s_[start] == '0' &&
           (s_[start + 1] == 'x' || s_[start + 1] == 'X');
  }

  Node real(std::shared_ptr<ExprNode> n) {
    std::string digits = n->text;
    const bool isFloat = !digits.empty() && (digits.back() == 'f' || digits.back() == 'F');
    if (isFloat) digits.pop_back();
    char* end = nullptr;
    n->real = std::strtod(digits.c_str(), &end);
    if (digits.empty() || *end) fail(fmt::format("'{}' is not a number", n->text));
    n->arith = {Arith::Kind::Float, isFloat ? 32u : 64u, true};
    if (isFloat) n->real = static_cast<float>(n->real);
    return n;
  }

  std::string_view s_;
  size_t pos_ = 0;
  uint32_t nesting_ = 0;
};

}  // namespace

Expression Expression::parse(std::string_view text) {
  text = values::trim(text);
  Expression e;
  e.text_ = std::string(text);
  try {
    e.root_ = Parser(text).parseAll();
  } catch (const DebugError& error) {
    throw DebugError(fmt::format("'{}' is not a value: {}", text, error.what()));
  }
  return e;
}

}  // namespace spvsim::debugger

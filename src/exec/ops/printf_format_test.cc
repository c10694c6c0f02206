// OpenCL C printf formatting. Expected strings follow the C99 printf rules for each
// conversion plus the OpenCL C vector rules (elements joined by ',', every element
// formatted with the same flags, width and precision).
#include "src/exec/ops/printf_format.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>

namespace spvsim::ops {
namespace {

// Keeps argument bytes alive for the PrintfArg views.
class Args {
 public:
  template <class T>
  Args& scalar(T v, bool isPointer = false) {
    return add(&v, sizeof(T), 1, std::is_floating_point_v<T> || std::is_same_v<T, _Float16>,
               isPointer);
  }
  template <class T, size_t N>
  Args& vector(const T (&v)[N]) {
    return add(v, sizeof(T), N, std::is_floating_point_v<T> || std::is_same_v<T, _Float16>, false);
  }
  const std::vector<PrintfArg>& list() {
    for (size_t k = 0; k < args_.size(); ++k) args_[k].data = storage_[k].data();
    return args_;
  }

 private:
  Args& add(const void* p, uint32_t elementBytes, uint32_t n, bool isFloat, bool isPointer) {
    storage_.emplace_back(elementBytes * n);
    std::memcpy(storage_.back().data(), p, elementBytes * n);
    args_.push_back({isFloat, isPointer, elementBytes, n, nullptr});
    return *this;
  }
  std::vector<std::vector<uint8_t>> storage_;
  std::vector<PrintfArg> args_;
};

// Strings live at fake kernel addresses 0x1000 ("hello") and 0x2000 ("right").
bool readString(uint64_t p, std::string& out) {
  if (p == 0x1000)
    out = "hello";
  else if (p == 0x2000)
    out = "right";
  else
    return false;
  return true;
}

std::optional<std::string> format(std::string_view f, Args& args) {
  std::string out = "<";
  if (!formatPrintf(f, args.list(), readString, out)) return std::nullopt;
  return out.substr(1);
}

TEST(PrintfFormat, Integers) {
  Args a;
  a.scalar<uint32_t>(42)
      .scalar<int32_t>(-42)
      .scalar<uint32_t>(4000000000u)
      .scalar<uint32_t>(255)
      .scalar<uint32_t>(48879)
      .scalar<uint32_t>(8);
  EXPECT_EQ(format("%d %i %u %x %X %o", a), "42 -42 4000000000 ff BEEF 10");
  Args b;
  b.scalar<int32_t>(42).scalar<int32_t>(42).scalar<int32_t>(42).scalar<int32_t>(42);
  EXPECT_EQ(format("[%5d] [%-5d] [%05d] [%+d]", b), "[   42] [42   ] [00042] [+42]");
  Args c;
  c.scalar<int64_t>(-1234567890123LL).scalar<uint64_t>(18446744073709551615ull);
  EXPECT_EQ(format("%ld %lu", c), "-1234567890123 18446744073709551615");
  // The uint argument 4294967295 read as a (signed) int is -1.
  Args d;
  d.scalar<uint32_t>(4294967295u);
  EXPECT_EQ(format("%d", d), "-1");
  // hh/h narrow the promoted int: 300 as char is 44, 70000 as short is 4464.
  Args e;
  e.scalar<int32_t>(300).scalar<int32_t>(70000).scalar<int32_t>(-1);
  EXPECT_EQ(format("%hhd %hd %hhx", e), "44 4464 ff");
  Args f;
  f.scalar<uint32_t>(255).scalar<int32_t>(7);
  EXPECT_EQ(format("%#x %.3d", f), "0xff 007");
}

TEST(PrintfFormat, Floats) {
  Args a;
  a.scalar(1.5).scalar(3.14159).scalar(1250.0).scalar(0.0001).scalar(100000.0);
  EXPECT_EQ(format("%f %.2f %e %g %g", a), "1.500000 3.14 1.250000e+03 0.0001 100000");
  Args b;
  b.scalar(1.0).scalar(-0.5).scalar(1e6);
  EXPECT_EQ(format("%a %8.3f %G", b), "0x1p+0   -0.500 1E+06");
  Args c;
  c.scalar(1.0 / 0.0).scalar(-1.0 / 0.0);
  EXPECT_EQ(format("%f %F", c), "inf -INF");
  Args d;  // without double support a float argument is passed as float
  d.scalar(2.25f);
  EXPECT_EQ(format("%.1f", d), "2.2");  // 2.25 ties to even
}

TEST(PrintfFormat, Vectors) {
  Args a;
  int32_t i4[4] = {1, -2, 3, -4};
  a.vector(i4);
  EXPECT_EQ(format("%v4d", a), "1,-2,3,-4");
  Args b;
  float f4[4] = {0.5f, 1.0f, -2.25f, 8.0f};
  b.vector(f4);
  EXPECT_EQ(format("%v4hlf", b), "0.500000,1.000000,-2.250000,8.000000");
  Args c;
  float f4b[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  c.vector(f4b);
  EXPECT_EQ(format("%2.2v4hlf", c), "1.00,2.00,3.00,4.00");
  Args d;
  uint8_t u4[4] = {0xFA, 0xFB, 0xFC, 0xFD};
  d.vector(u4);
  EXPECT_EQ(format("%#v4hhx", d), "0xfa,0xfb,0xfc,0xfd");
  Args e;
  uint8_t u2[2] = {7, 250};
  e.vector(u2);
  EXPECT_EQ(format("%v2hhu %%", e), "7,250 %");
  Args f;
  int64_t l2[2] = {600000000000LL, -600000000000LL};
  f.vector(l2);
  EXPECT_EQ(format("%+v2ld", f), "+600000000000,-600000000000");
  Args g;
  int16_t s3[3] = {-1, 2, 3};
  g.vector(s3).vector(s3);
  EXPECT_EQ(format("%v3hd|%v3hx", g), "-1,2,3|ffff,2,3");
  Args h;
  _Float16 h2[2] = {_Float16(0.5), _Float16(-1.0)};
  h.vector(h2);
  EXPECT_EQ(format("%v2hg", h), "0.5,-1");
  Args k;
  double d2[2] = {0.25, 4.0};
  k.vector(d2);
  EXPECT_EQ(format("%v2lf", k), "0.250000,4.000000");
}

TEST(PrintfFormat, StringsCharsPointers) {
  Args a;
  a.scalar<uint64_t>(0x1000, true)
      .scalar<uint64_t>(0x2000, true)
      .scalar<int32_t>('o')
      .scalar<int32_t>('k');
  EXPECT_EQ(format("[%s] [%10s] %c%c", a), "[hello] [     right] ok");
  Args b;
  b.scalar<uint64_t>(0x1000, true).scalar<uint64_t>(0x1000, true);
  EXPECT_EQ(format("[%.3s] [%-7s]", b), "[hel] [hello  ]");
  Args c;
  c.scalar<uint64_t>(0x2000000000001234ull, true).scalar<uint64_t>(0xabc, true);
  EXPECT_EQ(format("%p [%8p]", c), "0x2000000000001234 [   0xabc]");
  Args d;
  d.scalar<int32_t>(6).scalar<int32_t>(2).scalar(3.14159).scalar<int32_t>(-4).scalar<int32_t>(7);
  EXPECT_EQ(format("[%*.*f] [%*d]", d), "[  3.14] [7   ]");
}

TEST(PrintfFormat, BadFormats) {
  Args none;
  EXPECT_EQ(format("100%", none), std::nullopt);
  EXPECT_EQ(format("%d", none), std::nullopt);  // missing argument
  EXPECT_EQ(format("%q", none), std::nullopt);
  Args f;
  f.scalar(1.0);
  EXPECT_EQ(format("%d", f), std::nullopt);  // double for an integer conversion
  Args i;
  i.scalar<int32_t>(1);
  EXPECT_EQ(format("%f", i), std::nullopt);
  EXPECT_EQ(format("%hld", i), std::nullopt);  // hl needs a vector
  EXPECT_EQ(format("%v4d", i), std::nullopt);  // a scalar for a vector
  EXPECT_EQ(format("%v5d", i), std::nullopt);
  EXPECT_EQ(format("%lc", i), std::nullopt);
  Args v;
  float f4[4] = {1, 2, 3, 4};
  v.vector(f4);
  EXPECT_EQ(format("%v2hlf", v), std::nullopt);  // wrong component count
  EXPECT_EQ(format("%v4lf", v), std::nullopt);   // l is double, the argument float
  EXPECT_EQ(format("%v4hld", v), std::nullopt);
  EXPECT_EQ(format("%f", v), std::nullopt);
  Args s;
  s.scalar<uint64_t>(0x3000, true);
  EXPECT_EQ(format("%s", s), std::nullopt);  // unreadable string
  Args ok;
  ok.scalar<int32_t>(1).scalar<int32_t>(2);
  EXPECT_EQ(format("only %d", ok), "only 1");  // excess arguments are ignored
  EXPECT_EQ(format("no conversions", none), "no conversions");
}

}  // namespace
}  // namespace spvsim::ops

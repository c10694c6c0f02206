// OpenCL.std math instructions end to end: OpenCL C kernels compiled with clang-15 +
// llvm-spirv-15 at test time, run through spvsim::Program. Expected values are the
// host's double-precision libm result rounded once to the element type (the spec's
// correctly rounded value, up to libm's own error), or edge cases written out from the
// OpenCL C specification ("Additional Requirements Beyond C99 TC2").
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;
using testing::sameFloat;

constexpr double kPi = 3.14159265358979323846;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

struct UnaryCase {
  const char* name;
  std::function<double(double)> ref;
};

// One kernel computing every function in `cases` on each input element of type `type`.
template <class T>
std::vector<T> runUnary(const std::string& type, const std::vector<UnaryCase>& cases,
                        std::vector<T> in, const std::string& pragma = "") {
  std::string body;
  for (size_t j = 0; j < cases.size(); ++j)
    body += "  out[i * " + std::to_string(cases.size()) + " + " + std::to_string(j) +
            "] = " + cases[j].name + "(x);\n";
  const std::string src = pragma + "kernel void k(global const " + type + "* in, global " + type +
                          "* out) {\n  size_t i = get_global_id(0);\n  " + type + " x = in[i];\n" +
                          body + "}\n";
  auto p = loadOpenCl(src, "unary_" + type);
  std::vector<T> out(in.size() * cases.size());
  auto r = run(*p, "k", in.size(), in, out);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  return out;
}

const std::vector<UnaryCase>& unaryCases() {
  static const std::vector<UnaryCase> cases = {
      {"acos", [](double x) { return std::acos(x); }},
      {"acosh", [](double x) { return std::acosh(x); }},
      {"acospi", [](double x) { return std::acos(x) / kPi; }},
      {"asin", [](double x) { return std::asin(x); }},
      {"asinh", [](double x) { return std::asinh(x); }},
      {"asinpi", [](double x) { return std::asin(x) / kPi; }},
      {"atan", [](double x) { return std::atan(x); }},
      {"atanh", [](double x) { return std::atanh(x); }},
      {"atanpi", [](double x) { return std::atan(x) / kPi; }},
      {"cbrt", [](double x) { return std::cbrt(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},
      {"erfc", [](double x) { return std::erfc(x); }},
      {"erf", [](double x) { return std::erf(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"exp2", [](double x) { return std::exp2(x); }},
      {"exp10", [](double x) { return std::pow(10.0, x); }},
      {"expm1", [](double x) { return std::expm1(x); }},
      {"fabs", [](double x) { return std::fabs(x); }},
      {"floor", [](double x) { return std::floor(x); }},
      {"lgamma", [](double x) { return std::lgamma(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"log2", [](double x) { return std::log2(x); }},
      {"log10", [](double x) { return std::log10(x); }},
      {"log1p", [](double x) { return std::log1p(x); }},
      {"logb", [](double x) { return std::logb(x); }},
      {"rint", [](double x) { return std::nearbyint(x); }},
      {"round", [](double x) { return std::round(x); }},
      {"rsqrt", [](double x) { return 1 / std::sqrt(x); }},
      {"sin", [](double x) { return std::sin(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"tgamma", [](double x) { return std::tgamma(x); }},
      {"trunc", [](double x) { return std::trunc(x); }},
      {"native_sin", [](double x) { return std::sin(x); }},
      {"native_exp", [](double x) { return std::exp(x); }},
      {"native_sqrt", [](double x) { return std::sqrt(x); }},
      {"native_recip", [](double x) { return 1 / x; }},
      {"half_log2", [](double x) { return std::log2(x); }},
      {"half_rsqrt", [](double x) { return 1 / std::sqrt(x); }},
  };
  return cases;
}

const std::vector<float> kFloatInputs = {0.5f,  -0.25f,  0.75f, 1e-3f, -0.9f, 1.5f, 2.5f,  10.0f,
                                         -3.7f, 100.25f, 7.0f,  0.0f,  -0.0f, kInf, -kInf, kNan};

TEST(OpenclMath, FloatUnaryFunctionsAreCorrectlyRounded) {
  const auto& cases = unaryCases();
  auto out = runUnary<float>("float", cases, kFloatInputs);
  for (size_t i = 0; i < kFloatInputs.size(); ++i)
    for (size_t j = 0; j < cases.size(); ++j)
      EXPECT_TRUE(sameFloat(float(cases[j].ref(kFloatInputs[i])), out[i * cases.size() + j]))
          << cases[j].name << "(" << kFloatInputs[i] << ")";
}

TEST(OpenclMath, HalfUnaryFunctionsAreCorrectlyRounded) {
  const std::vector<UnaryCase> cases(unaryCases().begin(), unaryCases().begin() + 37);
  std::vector<_Float16> in;
  for (float f : kFloatInputs) in.push_back(_Float16(f));
  auto out =
      runUnary<_Float16>("half", cases, in, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
  for (size_t i = 0; i < in.size(); ++i)
    for (size_t j = 0; j < cases.size(); ++j)
      EXPECT_TRUE(sameFloat(_Float16(cases[j].ref(double(in[i]))), out[i * cases.size() + j]))
          << cases[j].name << "(" << double(in[i]) << ")";
}

// Double results are evaluated in the host's extended type; allow 1 ulp against the
// double libm reference.
TEST(OpenclMath, DoubleUnaryFunctionsWithinOneUlp) {
  const std::vector<UnaryCase> cases(unaryCases().begin(), unaryCases().begin() + 37);
  const std::vector<double> in = {0.5, -0.25, 0.75, 1e-3, -0.9, 1.5, 2.5, 10.0, -3.7, 100.25};
  auto out = runUnary<double>("double", cases, in);
  for (size_t i = 0; i < in.size(); ++i)
    for (size_t j = 0; j < cases.size(); ++j) {
      double e = cases[j].ref(in[i]), a = out[i * cases.size() + j];
      if (std::isnan(e)) {
        EXPECT_TRUE(std::isnan(a)) << cases[j].name << "(" << in[i] << ") = " << a;
        continue;
      }
      double ulp = std::nextafter(std::fabs(e), INFINITY) - std::fabs(e);
      EXPECT_LE(std::fabs(e - a), ulp) << cases[j].name << "(" << in[i] << ")";
    }
}

// A kernel `k(in, out)` with body text using x = in[i], y = in[i + n] style arguments.
template <class T>
std::vector<T> runBody(const std::string& params, const std::string& body, size_t global,
                       std::vector<T>& in, size_t outSize, const char* name) {
  const std::string src = "kernel void k(global const " + params + "* in, global " + params +
                          "* out) {\n  size_t i = get_global_id(0);\n" + body + "\n}\n";
  auto p = loadOpenCl(src, name);
  std::vector<T> out(outSize);
  auto r = run(*p, "k", global, in, out);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  return out;
}

// Lanes leave the loop after 1..5 iterations, so later iterations run sin, exp and a
// float4 log under a partial mask (whole registers go through libmvec via a copy there);
// at -O2 the loop's results are used after it with no phi, so each lane must keep its own.
TEST(OpenclMath, FloatFunctionsUnderAPartialMaskKeepExitedLanesValues) {
  std::vector<float> in(40);
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0.3f * float(i) - 5.0f;
  auto out =
      runBody<float>("float",
                     "float x = in[i], s = 0, e = 0; float4 l = 0; int n = 0;\n"
                     "for (;;) {\n"
                     "  float y = x + n;\n"
                     "  s = sin(y); e = exp(y); l = log((float4)(y, fabs(y) * 0.5f, 2, 0.5f));\n"
                     "  if (++n > (int)(i % 5)) break;\n"
                     "}\n"
                     "out[6*i] = s; out[6*i+1] = e; vstore4(l, 0, out + 6*i+2);",
                     in.size(), in, 6 * in.size(), "partial_mask");
  for (size_t i = 0; i < in.size(); ++i) {
    const float y = in[i] + float(i % 5);
    const double l[] = {std::log(double(y)), std::log(double(std::fabs(y) * 0.5f)), std::log(2.0),
                        std::log(0.5)};
    EXPECT_TRUE(sameFloat(float(std::sin(double(y))), out[6 * i])) << i;
    EXPECT_TRUE(sameFloat(float(std::exp(double(y))), out[6 * i + 1])) << i;
    for (int c = 0; c < 4; ++c) EXPECT_TRUE(sameFloat(float(l[c]), out[6 * i + 2 + c])) << i;
  }
}

TEST(OpenclMath, PiScaledFunctionsHaveExactZerosAndInfinities) {
  std::vector<float> in = {1.0f, -2.0f, 0.5f, 1.5f, -0.5f, 3.0f, 2.5f, -0.0f, 0.25f, kInf};
  auto out = runBody<float>("float",
                            "out[3*i] = sinpi(in[i]); out[3*i+1] = cospi(in[i]);"
                            " out[3*i+2] = tanpi(in[i]);",
                            in.size(), in, 3 * in.size(), "pi_scaled");
  const float s = float(std::sqrt(0.5));
  // x:        1    -2    0.5   1.5   -0.5  3     2.5    -0     0.25   inf
  const float sinpi[] = {0.0f, -0.0f, 1, -1, -1, 0.0f, 1, -0.0f, s, kNan};
  const float cospi[] = {-1, 1, 0.0f, 0.0f, 0.0f, -1, 0.0f, 1, s, kNan};
  const float tanpi[] = {-0.0f, -0.0f, kInf, -kInf, -kInf, -0.0f, kInf, -0.0f, 1, kNan};
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_TRUE(sameFloat(sinpi[i], out[3 * i])) << "sinpi(" << in[i] << ")";
    EXPECT_TRUE(sameFloat(cospi[i], out[3 * i + 1])) << "cospi(" << in[i] << ")";
    EXPECT_TRUE(sameFloat(tanpi[i], out[3 * i + 2])) << "tanpi(" << in[i] << ")";
  }
}

TEST(OpenclMath, BinaryFunctions) {
  // Pairs (x, y) at in[2i], in[2i+1].
  std::vector<float> in = {3, 4, -3, 2, kNan, 2, 7, 2, 1, kNan, -8, 0.5f};
  const int n = 6;
  auto out = runBody<float>(
      "float",
      "float x = in[2*i], y = in[2*i+1]; global float* o = out + 14*i;\n"
      "o[0] = fmax(x, y); o[1] = fmin(x, y); o[2] = hypot(x, y); o[3] = maxmag(x, y);\n"
      "o[4] = minmag(x, y); o[5] = fdim(x, y); o[6] = copysign(x, y); o[7] = fmod(x, y);\n"
      "o[8] = remainder(x, y); o[9] = atan2(x, y); o[10] = pow(x, y); o[11] = powr(x, y);\n"
      "o[12] = nextafter(x, y); o[13] = atan2pi(x, y);",
      n, in, 14 * n, "binary");
  auto at = [&](int i, int k) { return out[14 * i + k]; };
  // (3, 4)
  EXPECT_TRUE(sameFloat(4.0f, at(0, 0)));
  EXPECT_TRUE(sameFloat(3.0f, at(0, 1)));
  EXPECT_TRUE(sameFloat(5.0f, at(0, 2)));
  EXPECT_TRUE(sameFloat(4.0f, at(0, 3)));
  EXPECT_TRUE(sameFloat(3.0f, at(0, 4)));
  EXPECT_TRUE(sameFloat(0.0f, at(0, 5)));
  EXPECT_TRUE(sameFloat(-1.0f, at(0, 8)));  // 3 - 1 * 4
  EXPECT_TRUE(sameFloat(81.0f, at(0, 10)));
  EXPECT_TRUE(sameFloat(81.0f, at(0, 11)));
  EXPECT_TRUE(sameFloat(3.0f + 0x1p-22f, at(0, 12)));  // ulp of 3 is 2^-22
  EXPECT_TRUE(sameFloat(float(std::atan2(3.0, 4.0)), at(0, 9)));
  EXPECT_TRUE(sameFloat(float(std::atan2(3.0, 4.0) / kPi), at(0, 13)));
  // (-3, 2): maxmag keeps the larger magnitude, minmag the smaller.
  EXPECT_TRUE(sameFloat(-3.0f, at(1, 3)));
  EXPECT_TRUE(sameFloat(2.0f, at(1, 4)));
  EXPECT_TRUE(sameFloat(3.0f, at(1, 6)));
  EXPECT_TRUE(sameFloat(-1.0f, at(1, 7)));  // fmod takes the sign of x
  EXPECT_TRUE(sameFloat(1.0f, at(1, 8)));   // -3/2 = -1.5 rounds to even -2: -3 + 4
  EXPECT_TRUE(sameFloat(kNan, at(1, 11)));  // powr(x < 0, y) is NaN
  EXPECT_TRUE(sameFloat(9.0f, at(1, 10)));
  // (NaN, 2) and (1, NaN): fmax/fmin return the non-NaN argument.
  EXPECT_TRUE(sameFloat(2.0f, at(2, 0)));
  EXPECT_TRUE(sameFloat(2.0f, at(2, 1)));
  EXPECT_TRUE(sameFloat(1.0f, at(4, 0)));
  EXPECT_TRUE(sameFloat(1.0f, at(4, 1)));
  EXPECT_TRUE(sameFloat(kNan, at(4, 11)));  // powr(x, NaN)
  EXPECT_TRUE(sameFloat(1.0f, at(4, 10)));  // pow(1, NaN) is 1 (C99)
  // (7, 2)
  EXPECT_TRUE(sameFloat(1.0f, at(3, 7)));
  EXPECT_TRUE(sameFloat(-1.0f, at(3, 8)));             // 3.5 rounds to even 4
  EXPECT_TRUE(sameFloat(7.0f - 0x1p-21f, at(3, 12)));  // toward 2; ulp below 8 is 2^-21
  // (-8, 0.5)
  EXPECT_TRUE(sameFloat(kNan, at(5, 10)));  // pow of a negative x with non-integer y
  EXPECT_TRUE(sameFloat(kNan, at(5, 11)));
}

TEST(OpenclMath, PownPowrRootnEdgeCases) {
  std::vector<float> x = {kNan, 0.0f, -0.0f, -0.0f, -8.0f, -8.0f, 27.0f, 2.0f, 0.0f, kInf, 1.0f};
  std::vector<int> n = {0, -3, -3, 2, 3, 2, 3, 0, 0, 0, 5};
  std::vector<float> out(3 * x.size());
  auto p = loadOpenCl(
      "kernel void k(global const float* x, global const int* n, global float* o) {\n"
      "  size_t i = get_global_id(0);\n"
      "  o[3*i] = pown(x[i], n[i]); o[3*i+1] = rootn(x[i], n[i]);"
      "  o[3*i+2] = powr(x[i], (float)n[i]);\n}\n",
      "pown");
  auto r = run(*p, "k", x.size(), x, n, out);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const float pown[] = {1, kInf, -kInf, 0.0f, -512, 64, 19683, 1, 1, 1, 1};
  const float rootn[] = {kNan, kInf, -kInf, 0.0f, -2, kNan, 3, kNan, kNan, kNan, 1};
  const float powr[] = {kNan, kInf, kInf, 0.0f, kNan, kNan, 19683, 1, kNan, kNan, 1};
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_TRUE(sameFloat(pown[i], out[3 * i])) << "pown(" << x[i] << ", " << n[i] << ")";
    EXPECT_TRUE(sameFloat(rootn[i], out[3 * i + 1])) << "rootn(" << x[i] << ", " << n[i] << ")";
    EXPECT_TRUE(sameFloat(powr[i], out[3 * i + 2])) << "powr(" << x[i] << ", " << n[i] << ")";
  }
}

TEST(OpenclMath, IlogbNanFmaLdexp) {
  std::vector<float> in = {8.0f, 0.0f, kNan, kInf, 0x1p-140f, 1.5f};
  std::vector<int> ilogb(in.size()), nanBits(in.size());
  std::vector<float> ldexp(4 * in.size()), fma(in.size());
  auto p = loadOpenCl(
      "kernel void k(global const float* x, global int* il, global uint* nb, global float4* "
      "ld, global float* f) {\n"
      "  size_t i = get_global_id(0);\n"
      "  il[i] = ilogb(x[i]); nb[i] = as_uint(nan((uint)i));\n"
      "  ld[i] = ldexp((float4)(x[i], 1.0f, -3.0f, 0.75f), (int)i - 2);\n"
      "  f[i] = fma(x[i], 3.0f, 1.0f);\n}\n",
      "ilogb");
  auto r = run(*p, "k", in.size(), in, ilogb, nanBits, ldexp, fma);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const int expectIlogb[] = {3, INT_MIN, INT_MAX, INT_MAX, -140, 0};
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(expectIlogb[i], ilogb[i]) << in[i];
    EXPECT_EQ(0x7fc00000u | uint32_t(i), uint32_t(nanBits[i]));
    const float k = std::ldexp(1.0f, int(i) - 2);
    EXPECT_TRUE(sameFloat(in[i] * k, ldexp[4 * i]));
    EXPECT_TRUE(sameFloat(1.0f * k, ldexp[4 * i + 1]));
    EXPECT_TRUE(sameFloat(-3.0f * k, ldexp[4 * i + 2]));
    EXPECT_TRUE(sameFloat(0.75f * k, ldexp[4 * i + 3]));
  }
  EXPECT_TRUE(sameFloat(25.0f, fma[0]));
  EXPECT_TRUE(sameFloat(5.5f, fma[5]));
}

// fma rounds once: (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly, which a separate
// multiply (rounding the product to 1) would lose.
TEST(OpenclMath, FmaRoundsOnce) {
  std::vector<float> in = {1.0f + 0x1p-23f, 1.0f - 0x1p-23f, -1.0f};
  std::vector<float> out(1);
  auto p = loadOpenCl(
      "kernel void k(global const float* v, global float* o) { o[0] = fma(v[0], v[1], v[2]); }",
      "fma_once");
  auto r = run(*p, "k", 1, in, out);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_TRUE(sameFloat(-0x1p-46f, out[0]));
}

// The same with every lane active (the path that may use the CPU's FMA instructions) and
// in a partly active sub-group, for float, float4 and double: each lane's result rounds
// once, (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 and (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104.
TEST(OpenclMath, FmaRoundsOnceInEveryLane) {
  std::vector<float> in = {1.0f + 0x1p-23f, 1.0f - 0x1p-23f, -1.0f};
  std::vector<double> ind = {1.0 + 0x1p-52, 1.0 - 0x1p-52, -1.0};
  std::vector<float> out(16 * 4 + 16, 0.0f);
  std::vector<double> outd(16, 0.0);
  auto p = loadOpenCl(
      "kernel void k(global const float* v, global const double* d, global float* o,\n"
      "              global double* od) {\n"
      "  size_t i = get_global_id(0);\n"
      "  float4 x = (float4)(v[0]), y = (float4)(v[1]), z = (float4)(v[2]);\n"
      "  vstore4(fma(x, y, z), i, o);\n"
      "  if (i % 3 != 1) o[64 + i] = mad(v[0], v[1], v[2]);  // mad may fuse: fma here\n"
      "  od[i] = fma(d[0], d[1], d[2]);\n}\n",
      "fma_every_lane");
  auto r = run(*p, "k", 16, in, ind, out, outd);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (int i = 0; i < 64; ++i) EXPECT_TRUE(sameFloat(-0x1p-46f, out[i])) << i;
  for (int i = 0; i < 16; ++i)
    EXPECT_TRUE(sameFloat(i % 3 != 1 ? -0x1p-46f : 0.0f, out[64 + i])) << i;
  for (int i = 0; i < 16; ++i) EXPECT_EQ(-0x1p-104, outd[i]) << i;
}

// Pointer outputs to private, global and local memory.
TEST(OpenclMath, PointerOutputFunctions) {
  std::vector<float> in = {-1e-10f, 2.75f, -kInf, -3.5f, 7.0f, -0.5f, 0.0f, 8.0f};
  const size_t n = in.size();
  std::vector<float> f(6 * n);
  std::vector<int> k(3 * n);
  auto p = loadOpenCl(
      "kernel void k(global const float* in, global float* f, global int* k) {\n"
      "  size_t i = get_global_id(0); float x = in[i], w; int e; local float l[8];\n"
      "  f[6*i] = fract(x, &w); f[6*i+1] = w;\n"
      "  f[6*i+2] = modf(x, f + 6*i + 3);\n"
      "  f[6*i+4] = sincos(x, &l[i]); barrier(CLK_LOCAL_MEM_FENCE); f[6*i+5] = l[i];\n"
      "  k[3*i+1] = (int)(frexp(x, &e) * 16.0f); k[3*i] = e;\n"
      "  float r = remquo(x, 0.5f, &e); k[3*i+2] = e * 100 + (int)(r * 8.0f);\n}\n",
      "pointer_out");
  auto r = run(*p, "k", n, in, f, k);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const float below1 = 0x1.fffffep-1f;
  // x:             -1e-10   2.75   -inf   -3.5  7    -0.5   0     8
  const float fract[] = {below1, 0.75f, -0.0f, 0.5f, 0, 0.5f, 0, 0};
  const float floorv[] = {-1, 2, -kInf, -4, 7, -1, 0, 8};
  const float modf[] = {-1e-10f, 0.75f, -0.0f, -0.5f, 0, -0.5f, 0, 0};
  const float whole[] = {-0.0f, 2, -kInf, -3, 7, -0.0f, 0, 8};
  const int exps[] = {-33, 2, 0, 2, 3, 0, 0, 4};
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(sameFloat(fract[i], f[6 * i])) << "fract(" << in[i] << ")";
    EXPECT_TRUE(sameFloat(floorv[i], f[6 * i + 1])) << "fract iptr (" << in[i] << ")";
    EXPECT_TRUE(sameFloat(modf[i], f[6 * i + 2])) << "modf(" << in[i] << ")";
    EXPECT_TRUE(sameFloat(whole[i], f[6 * i + 3])) << "modf iptr (" << in[i] << ")";
    EXPECT_TRUE(sameFloat(float(std::sin(double(in[i]))), f[6 * i + 4]));
    EXPECT_TRUE(sameFloat(float(std::cos(double(in[i]))), f[6 * i + 5]));
    if (std::isfinite(in[i])) EXPECT_EQ(exps[i], k[3 * i]) << "frexp(" << in[i] << ")";
  }
  EXPECT_EQ(int(0.6875f * 16), k[3 * 1 + 1]);  // 2.75 = 0.6875 * 2^2
  // remquo(x, 0.5): quotient round-to-even(x / 0.5), remainder x - q * 0.5.
  EXPECT_EQ(6 * 100 + (int)(-0.25f * 8), k[3 * 1 + 2]);  // 2.75/0.5 = 5.5 -> 6, r = -0.25
  EXPECT_EQ(-7 * 100, k[3 * 3 + 2]);                     // -3.5/0.5 = -7
  EXPECT_EQ(14 * 100, k[3 * 4 + 2]);
  EXPECT_EQ(-1 * 100, k[3 * 5 + 2]);
}

// remquo keeps 7 quotient bits with the sign of x/y: 200 = 128 + 72.
TEST(OpenclMath, RemquoKeepsSevenQuotientBits) {
  std::vector<float> in = {200.0f, -200.0f, 1000.5f, 3e30f};
  std::vector<int> quo(in.size());
  std::vector<float> rem(in.size());
  auto p = loadOpenCl(
      "kernel void k(global const float* x, global float* r, global int* q) {\n"
      "  size_t i = get_global_id(0); int e; r[i] = remquo(x[i], i == 2 ? 0.5f : 1.0f, &e);"
      " q[i] = e;\n}\n",
      "remquo7");
  auto r = run(*p, "k", in.size(), in, rem, quo);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(72, quo[0]);
  EXPECT_EQ(-72, quo[1]);
  EXPECT_EQ(2001 % 128, quo[2]);  // 1000.5 / 0.5 = 2001 exactly
  EXPECT_TRUE(sameFloat(0.0f, rem[2]));
  // 3e30f is an integer multiple of 2^78 (its ulp), so the quotient's low bits are 0.
  EXPECT_EQ(0, quo[3]);
}

TEST(OpenclMath, LgammaRSign) {
  std::vector<float> in = {-0.5f, 3.0f, -2.5f};
  std::vector<float> v(in.size());
  std::vector<int> s(in.size());
  auto p = loadOpenCl(
      "kernel void k(global const float* x, global float* v, global int* s) {\n"
      "  size_t i = get_global_id(0); int t; v[i] = lgamma_r(x[i], &t); s[i] = t; }\n",
      "lgamma_r");
  auto r = run(*p, "k", in.size(), in, v, s);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  // Gamma(-0.5) = -2 sqrt(pi); Gamma(3) = 2; Gamma(-2.5) = -8 sqrt(pi) / 15.
  EXPECT_TRUE(sameFloat(float(std::log(2 * std::sqrt(kPi))), v[0]));
  EXPECT_TRUE(sameFloat(float(std::log(2.0)), v[1]));
  EXPECT_TRUE(sameFloat(float(std::log(8 * std::sqrt(kPi) / 15)), v[2]));
  EXPECT_EQ(-1, s[0]);
  EXPECT_EQ(1, s[1]);
  EXPECT_EQ(-1, s[2]);
}

TEST(OpenclMath, OutOfBoundsPointerOutputIsReported) {
  std::vector<float> in(8, 2.5f), out(8), whole(4);
  auto p = loadOpenCl(
      "kernel void k(global const float* in, global float* out, global float* w) {\n"
      "  size_t i = get_global_id(0); out[i] = fract(in[i], w + i); }\n",
      "fract_oob");
  auto r = run(*p, "k", 8, in, out, whole);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds);
  EXPECT_EQ((std::vector<uint32_t>{4, 5, 6, 7}), r.diagnostics[0].lanes);
  for (float o : out) EXPECT_EQ(0.5f, o);
  for (float w : whole) EXPECT_EQ(2.0f, w);
}

TEST(OpenclMath, MisalignedPointerOutputIsReported) {
  std::vector<float> in(2, 2.5f), out(2), whole(4);
  auto p = loadOpenCl(
      "kernel void k(global const float* in, global float* out, global char* w) {\n"
      "  size_t i = get_global_id(0); out[i] = fract(in[i], (global float*)(w + 4 * i + i)); }\n",
      "fract_misaligned");
  auto r = run(*p, "k", 2, in, out, whole);
  ASSERT_EQ(1u, r.diagnostics.size()) << testing::describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::MisalignedAccess);
  EXPECT_EQ((std::vector<uint32_t>{1}), r.diagnostics[0].lanes);
  EXPECT_EQ(2.0f, whole[0]);
}

// Vectors: float16 and float3 (padded); clang splats the scalar of fmax(float16, float).
TEST(OpenclMath, VectorForms) {
  std::vector<float> in(16), max(16), root(16), hyp(4);
  for (int c = 0; c < 16; ++c) in[c] = 0.25f * float(c) - 1.5f;
  auto p = loadOpenCl(
      "kernel void k(global const float16* in, global float16* m, global float16* r,"
      " global float3* h) {\n"
      "  float16 v = *in; *m = fmax(v, 0.5f); *r = copysign(sqrt(fabs(v)), v);\n"
      "  *h = hypot(v.s012, v.s345); }\n",
      "vectors");
  auto r = run(*p, "k", 1, in, max, root, hyp);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (int c = 0; c < 16; ++c) {
    EXPECT_TRUE(sameFloat(std::fmax(in[c], 0.5f), max[c]));
    EXPECT_TRUE(sameFloat(std::copysign(std::sqrt(std::fabs(in[c])), in[c]), root[c]));
  }
  for (int c = 0; c < 3; ++c)
    EXPECT_TRUE(sameFloat(float(std::hypot(double(in[c]), double(in[c + 3]))), hyp[c]));
}

TEST(OpenclMath, DoubleAndHalfVectors) {
  std::vector<double> d = {0.5, 2.0, -8.0, 27.0};
  std::vector<_Float16> h = {_Float16(0.5), _Float16(-2.0), _Float16(3.0), _Float16(100.0)};
  auto p = loadOpenCl(
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "kernel void k(global double2* d, global half4* h) {\n"
      "  d[1] = cbrt(d[1]); d[0] = fmin(d[0], 1.0);\n"
      "  h[0] = ldexp(h[0], 3); }\n",
      "dh");
  auto r = run(*p, "k", 1, d, h);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(0.5, d[0]);
  EXPECT_EQ(1.0, d[1]);
  EXPECT_EQ(-2.0, d[2]);
  EXPECT_EQ(3.0, d[3]);
  EXPECT_EQ(4.0, double(h[0]));
  EXPECT_EQ(-16.0, double(h[1]));
  EXPECT_EQ(24.0, double(h[2]));
  EXPECT_EQ(800.0, double(h[3]));
}

// ---- Special cases of OpenCL C 7.5.1 for float and double, at -O0 and -O2 ----------
// Arguments go through buffers as bit patterns (signalling NaNs included, which no
// literal could carry intact), results come back as bits.

struct BinaryCase {
  double x, y, expected;
};

template <class T>
using BitsOf = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

template <class T>
T fromBits(BitsOf<T> b) {
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// out[i] = F(in[2i], in[2i+1]) for F one of the OpenCL C binary functions.
template <class T>
std::vector<T> runBinaryBits(const std::string& function, const std::vector<BitsOf<T>>& in,
                             const char* opt) {
  const bool dbl = sizeof(T) == 8;
  const std::string t = dbl ? "double" : "float", u = dbl ? "ulong" : "uint";
  const std::string src = "kernel void k(global const " + u + "* in, global " + u +
                          "* out) {\n  size_t i = get_global_id(0);\n  out[i] = as_" + u + "(" +
                          function + "(as_" + t + "(in[2*i]), as_" + t + "(in[2*i+1])));\n}\n";
  auto p = Program::load(testing::compileOpenCL(src, opt));
  std::vector<BitsOf<T>> input = in, out(in.size() / 2);
  auto r = run(*p, "k", out.size(), input, out);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  std::vector<T> values;
  for (BitsOf<T> b : out) values.push_back(fromBits<T>(b));
  return values;
}

template <class T>
void expectBinary(const std::string& function, const std::vector<BinaryCase>& cases) {
  std::vector<BitsOf<T>> in;
  for (const BinaryCase& c : cases) {
    in.push_back(testing::bitsOf(T(c.x)));
    in.push_back(testing::bitsOf(T(c.y)));
  }
  for (const char* opt : {"-O0", "-O2"}) {
    std::vector<T> out = runBinaryBits<T>(function, in, opt);
    ASSERT_EQ(out.size(), cases.size());
    for (size_t i = 0; i < cases.size(); ++i)
      EXPECT_TRUE(sameFloat(T(cases[i].expected), out[i]))
          << function << "(" << cases[i].x << ", " << cases[i].y << ") at " << opt
          << (sizeof(T) == 8 ? " double" : " float");
  }
}

constexpr double kDInf = std::numeric_limits<double>::infinity();
constexpr double kDNan = std::numeric_limits<double>::quiet_NaN();
constexpr double k2p63 = 9223372036854775808.0;  // 2^63: an even integer

// pow's special cases, OpenCL C 7.5.1 (C99 F.9.4.4), in the order the spec lists them.
const std::vector<BinaryCase> kPowCases = {
    {0.0, -3, kDInf},      {-0.0, -3, -kDInf},     {0.0, -2, kDInf},    {-0.0, -2, kDInf},
    {-0.0, -kDInf, kDInf}, {0.0, 3, 0.0},          {-0.0, 3, -0.0},     {-0.0, 2, 0.0},
    {-0.0, 0.5, 0.0},      {-1, kDInf, 1},         {-1, -kDInf, 1},     {1, kDNan, 1},
    {1, -kDInf, 1},        {kDNan, 0.0, 1},        {kDInf, -0.0, 1},    {-2, 0.5, kDNan},
    {0.5, -kDInf, kDInf},  {-2, -kDInf, 0.0},      {0.5, kDInf, 0.0},   {-2, kDInf, kDInf},
    {-kDInf, -3, -0.0},    {-kDInf, -2, 0.0},      {-kDInf, -0.5, 0.0}, {-kDInf, 3, -kDInf},
    {-kDInf, 2, kDInf},    {-kDInf, 0.5, kDInf},   {kDInf, -1, 0.0},    {kDInf, 0.5, kDInf},
    {-kDInf, -k2p63, 0.0}, {-kDInf, k2p63, kDInf}, {kDNan, 2, kDNan},   {2, kDNan, kDNan},
    {-2, 3, -8},           {-2, -2, 0.25},
};

// powr, OpenCL C 7.5.1.
const std::vector<BinaryCase> kPowrCases = {
    {0.0, -2, kDInf},    {-0.0, -3, kDInf},   {0.0, -kDInf, kDInf}, {-0.0, 2, 0.0},
    {0.0, 0.5, 0.0},     {1, 3.5, 1},         {-2, 2, kDNan},       {0.0, 0.0, kDNan},
    {-0.0, -0.0, kDNan}, {kDInf, 0.0, kDNan}, {1, kDInf, kDNan},    {1, -kDInf, kDNan},
    {2, kDNan, kDNan},   {kDNan, 2, kDNan},   {kDInf, -1, 0.0},     {2, 0.0, 1},
    {4, 0.5, 2},
};

TEST(OpenclMathSpecialCases, PowAndPowrFloat) {
  expectBinary<float>("pow", kPowCases);
  expectBinary<float>("powr", kPowrCases);
}

TEST(OpenclMathSpecialCases, PowAndPowrDouble) {
  expectBinary<double>("pow", kPowCases);
  expectBinary<double>("powr", kPowrCases);
}

// pown(x, n), OpenCL C 7.5.1: n is an int, so it goes through a second buffer.
template <class T>
void expectPown() {
  const bool dbl = sizeof(T) == 8;
  const std::string t = dbl ? "double" : "float";
  const std::vector<T> x = {T(kDNan), T(kDInf),  T(0.0),    T(0.0),    T(-0.0), T(0.0), T(-0.0),
                            T(-0.0),  T(-kDInf), T(-kDInf), T(-kDInf), T(-2),   T(2)};
  const std::vector<int32_t> n = {0, 0, 0, -3, -3, -2, 2, 3, -3, 3, 2, 3, -2};
  const std::vector<T> expected = {1,        1,      1,       T(kDInf), T(-kDInf),
                                   T(kDInf), T(0.0), T(-0.0), T(-0.0),  T(-kDInf),
                                   T(kDInf), -8,     T(0.25)};
  for (const char* opt : {"-O0", "-O2"}) {
    auto p = Program::load(testing::compileOpenCL(
        "kernel void k(global const " + t + "* x, global const int* n, global " + t +
            "* o) {\n  size_t i = get_global_id(0);\n  o[i] = pown(x[i], n[i]);\n}\n",
        opt));
    std::vector<T> in = x, out(x.size());
    std::vector<int32_t> ns = n;
    auto r = run(*p, "k", x.size(), in, ns, out);
    ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
    for (size_t i = 0; i < x.size(); ++i)
      EXPECT_TRUE(sameFloat(expected[i], out[i]))
          << "pown(" << x[i] << ", " << n[i] << ") at " << opt << " " << t;
  }
}

TEST(OpenclMathSpecialCases, PownFloatAndDouble) {
  expectPown<float>();
  expectPown<double>();
}

// fmax, fmin, maxmag, minmag with a quiet or signalling NaN return the other argument
// (OpenCL C 7.5.1: "If one argument is a NaN, fmax() returns the other argument").
template <class T>
void expectNanArgumentsGiveTheOther() {
  using U = BitsOf<T>;
  const bool dbl = sizeof(T) == 8;
  const U sNan1 = dbl ? U(0x7ff0000000000001ull) : U(0x7f800001u);
  const U sNan2 = dbl ? U(0xfff4000000000000ull) : U(0xffa00000u);
  const U qNan = testing::bitsOf(std::numeric_limits<T>::quiet_NaN());
  const U three = testing::bitsOf(T(3)), minusTwo = testing::bitsOf(T(-2));
  const std::vector<U> in = {sNan1,    three, three, sNan1, sNan2, minusTwo,
                             minusTwo, sNan2, qNan,  three, three, qNan};
  const std::vector<T> expected = {3, 3, -2, -2, 3, 3};
  for (const char* f : {"fmax", "fmin", "maxmag", "minmag"})
    for (const char* opt : {"-O0", "-O2"}) {
      std::vector<T> out = runBinaryBits<T>(f, in, opt);
      for (size_t i = 0; i < expected.size(); ++i)
        EXPECT_TRUE(sameFloat(expected[i], out[i]))
            << f << " case " << i << " at " << opt << (dbl ? " double" : " float");
    }
}

TEST(OpenclMathSpecialCases, SignallingNanArgumentsGiveTheOtherFloat) {
  expectNanArgumentsGiveTheOther<float>();
}

TEST(OpenclMathSpecialCases, SignallingNanArgumentsGiveTheOtherDouble) {
  expectNanArgumentsGiveTheOther<double>();
}

}  // namespace
}  // namespace spvsim

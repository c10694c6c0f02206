// .sim text written by the writer's functions (the ICD's capture, runtime/capture_sim.cc)
// and read back token by token by SimText (the command line's reader underneath
// tools/cli/sim_file.cc); expected text and values worked by hand.
#include "src/formats/sim_text.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "spirv/error.h"
#include "src/values/scalar_codec.h"

namespace spvsim::formats {
namespace {

using values::Scalar;

template <typename T>
std::vector<uint8_t> bytesOf(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  size_t i = 0;
  for (T v : values) std::memcpy(out.data() + sizeof(T) * i++, &v, sizeof(T));
  return out;
}

SimHeader header(std::optional<uint64_t> size, std::optional<Scalar> type) {
  SimHeader h;
  h.size = size;
  h.type = type;
  return h;
}

TEST(SimText, WriterTextByHand) {
  EXPECT_EQ(simSetupText({"module.spv", "saxpy", {8, 1, 1}, {4, 1, 1}}),
            "module.spv\nsaxpy\n8 1 1\n4 1 1\n");
  SimHeader out = header(32, Scalar::Float);
  out.ro = true;
  out.dump = true;
  EXPECT_EQ(simHeaderText(out), "<size=32 float ro dump>");
  EXPECT_EQ(simHeaderText(header(16, std::nullopt)), "<size=16>");  // local memory
  SimHeader null;
  null.null = true;
  EXPECT_EQ(simHeaderText(null), "<null>");
  SimHeader all = header(8, Scalar::UInt);
  all.fill = "7";
  all.hex = all.wo = all.noinit = true;
  EXPECT_EQ(simHeaderText(all), "<size=8 uint fill=7 noinit wo hex>");

  const std::vector<uint8_t> f = bytesOf<float>({2.5f, 0.1f, -0.0f});
  EXPECT_EQ(simValuesText(Scalar::Float, f.data(), f.size()), "2.5 0.100000001 -0\n");
  const std::vector<uint8_t> d = bytesOf<double>({0.1});
  EXPECT_EQ(simValuesText(Scalar::Double, d.data(), d.size()), "0.10000000000000001\n");
  const std::vector<uint8_t> c = bytesOf<int8_t>({-128, 127});
  EXPECT_EQ(simValuesText(Scalar::Char, c.data(), c.size()), "-128 127\n");
  const std::vector<uint8_t> u = bytesOf<uint64_t>({std::numeric_limits<uint64_t>::max()});
  EXPECT_EQ(simValuesText(Scalar::ULong, u.data(), u.size()), "18446744073709551615\n");
  const std::vector<uint8_t> s = bytesOf<int16_t>({-2});
  EXPECT_EQ(simValuesText(Scalar::Short, s.data(), s.size()), "-2\n");
  EXPECT_EQ(simValuesText(Scalar::Int, nullptr, 0), "");  // an empty buffer: no line

  std::vector<uint8_t> seventeen;
  for (int32_t i = 0; i < 17; ++i) {
    const auto b = bytesOf<int32_t>({i});
    seventeen.insert(seventeen.end(), b.begin(), b.end());
  }
  EXPECT_EQ(simValuesText(Scalar::Int, seventeen.data(), seventeen.size()),
            "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n16\n");  // 16 to a line
}

TEST(SimText, WriterScalarOfTypeNames) {
  EXPECT_EQ(simScalarOf("float", false), Scalar::Float);
  EXPECT_EQ(simScalarOf("uint4", false), Scalar::UInt);  // vectors: their scalar
  EXPECT_EQ(simScalarOf("const float4*", true), Scalar::Float);
  EXPECT_EQ(simScalarOf("const volatile ulong*", true), Scalar::ULong);
  EXPECT_EQ(simScalarOf("void*", true), Scalar::UChar);          // as Oclgrind reads it
  EXPECT_EQ(simScalarOf("struct point*", true), Scalar::UChar);  // likewise
  EXPECT_FALSE(simScalarOf("struct point", false).has_value());  // no .sim form
  EXPECT_FALSE(simScalarOf("half", false).has_value());          // not written
  EXPECT_FALSE(simScalarOf("size_t", false).has_value());
}

// One launch of every argument form the writer produces, read back with the reader.
TEST(SimText, RoundTrip) {
  const std::vector<uint8_t> a = bytesOf<float>({2.5f});
  const std::vector<uint8_t> x = bytesOf<float>({0.1f, -1e-30f, 3.40282347e38f, 1.0f / 3});
  const std::vector<uint8_t> n = bytesOf<int64_t>({-1, std::numeric_limits<int64_t>::min()});
  SimHeader ha = header(4, Scalar::Float);
  SimHeader hx = header(16, Scalar::Float);
  hx.dump = true;
  SimHeader hn = header(16, Scalar::Long);
  hn.wo = hn.dump = true;
  SimHeader hl = header(64, std::nullopt);
  SimHeader hnull;
  hnull.null = true;
  const SimSetup setup{"module.spv", "k", {64, 2, 1}, {16, 2, 1}};
  const std::string text = "# spvsim capture of kernel k\n" + simSetupText(setup) +
                           simHeaderText(ha) + "\n" + simValuesText(Scalar::Float, a.data(), 4) +
                           simHeaderText(hx) + "\n" + simValuesText(Scalar::Float, x.data(), 16) +
                           simHeaderText(hn) + "\n" + simValuesText(Scalar::Long, n.data(), 16) +
                           simHeaderText(hl) + "\n" + simHeaderText(hnull) + "\n";

  SimText in(text, "launch.sim");
  const SimSetup read = in.readSetup();
  EXPECT_EQ(read.program, "module.spv");
  EXPECT_EQ(read.kernel, "k");
  EXPECT_EQ(read.global, setup.global);
  EXPECT_EQ(read.local, setup.local);

  auto values = [&](Scalar s, size_t count) {
    std::vector<uint8_t> out(count * values::scalarSize(s));
    for (size_t i = 0; i < count; ++i)
      values::storeLiteral(s, in.token("a value"), out.data() + i * values::scalarSize(s));
    return out;
  };
  const SimHeader ra = in.parseHeader(in.headerText());
  EXPECT_EQ(ra.text, "<size=4 float>");
  EXPECT_EQ(ra.size, 4u);
  EXPECT_EQ(ra.type, Scalar::Float);
  EXPECT_EQ(values(Scalar::Float, 1), a);

  const SimHeader rx = in.parseHeader(in.headerText());
  EXPECT_EQ(rx.size, 16u);
  EXPECT_TRUE(rx.dump);
  EXPECT_FALSE(rx.ro || rx.wo || rx.hex || rx.noinit || rx.null);
  EXPECT_EQ(values(Scalar::Float, 4), x);  // bit for bit

  const SimHeader rn = in.parseHeader(in.headerText());
  EXPECT_EQ(rn.type, Scalar::Long);
  EXPECT_TRUE(rn.wo && rn.dump);
  EXPECT_FALSE(rn.ro);
  EXPECT_EQ(values(Scalar::Long, 2), n);

  const SimHeader rl = in.parseHeader(in.headerText());
  EXPECT_EQ(rl.size, 64u);
  EXPECT_FALSE(rl.type.has_value());  // the reader takes the parameter's

  const SimHeader rnull = in.parseHeader(in.headerText());
  EXPECT_TRUE(rnull.null);
  EXPECT_FALSE(rnull.size.has_value());
  EXPECT_FALSE(in.skipSpace());  // nothing after the last argument
}

TEST(SimText, ReaderErrorsNameTheLine) {
  auto message = [](const std::string& text, auto read) -> std::string {
    SimText in(text, "t.sim");
    try {
      read(in);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), DiagnosticKind::Input);
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message("p.cl\nk\n8 1 1\n4 0 1\n", [](SimText& in) { in.readSetup(); }),
            "t.sim:4: expected a local size (a positive number), found '0' (local size)");
  EXPECT_EQ(message("<size=4 float", [](SimText& in) { in.headerText(); }),
            "t.sim:1: missing '>' at the end of the argument header ()");
  EXPECT_EQ(message("", [](SimText& in) { in.parseHeader("size=4 float int"); }),
            "t.sim:1: the argument type is given twice ()");
  EXPECT_EQ(message("", [](SimText& in) { in.parseHeader("size=4 frobnicate"); }),
            "t.sim:1: unknown header token 'frobnicate' ()");
}

}  // namespace
}  // namespace spvsim::formats

#include "tools/cli/output.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "src/exec/diagnostics.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/error_text.h"
#include "tools/cli/json_value.h"
#include "tools/cli/test_util.h"

namespace spvsim::tools {
namespace {

using testing::bytesOf;

TEST(DumpLine, AsDesignMdShowsIt) {
  EXPECT_EQ(formatDumpLine(2, parseArgSpec("buffer:int[8]=range(0)")),
            "arg2 int[8] = 0 1 2 3 4 5 6 7");
}

// DESIGN.md: "arg0 image2d RGBA,UNORM_INT8[4,2] = ..." with the channel values in memory
// order, normalized types as stored integers.
TEST(DumpLine, Images) {
  EXPECT_EQ(formatDumpLine(0, parseArgSpec("image2d:RGBA,UNORM_INT8[2,1]=values(0,0,0,255,255,0,"
                                           "0,255)")),
            "arg0 image2d RGBA,UNORM_INT8[2,1] = 0 0 0 255 255 0 0 255");
  EXPECT_EQ(formatDumpLine(1, parseArgSpec("image3d:R,FLOAT[1,2,2]=range(0,0.5)")),
            "arg1 image3d R,FLOAT[1,2,2] = 0 0.5 1 1.5");
  EXPECT_EQ(formatDumpLine(2, parseArgSpec("image1d_array:RG,SNORM_INT8[1,2]=values(-1,2,3,-4)")),
            "arg2 image1d_array RG,SNORM_INT8[1,2] = -1 2 3 -4");
  EXPECT_EQ(formatDumpLine(3, parseArgSpec("image2d_array:R,HALF_FLOAT[1,1,2]=fill(1.5)")),
            "arg3 image2d_array R,HALF_FLOAT[1,1,2] = 1.5 1.5");
}

TEST(DumpLine, FloatsVectorsAndHex) {
  EXPECT_EQ(formatDumpLine(0, parseArgSpec("buffer:float[3]=values(0.1,2.5,-1e20)")),
            "arg0 float[3] = 0.1 2.5 -1e+20");
  EXPECT_EQ(formatDumpLine(1, parseArgSpec("buffer:uint4[2]=range(1)")),
            "arg1 uint4[2] = (1,2,3,4) (5,6,7,8)");
  EXPECT_EQ(formatDumpLine(3, parseArgSpec("buffer:float3[2]=range(0,0.5)")),
            "arg3 float3[2] = (0,0.5,1) (1.5,2,2.5)");
  EXPECT_EQ(formatDumpLine(4, parseArgSpec("buffer:half[2]=values(1.5,0.1)")),
            "arg4 half[2] = 1.5 0.099975586");
  ArgValue hex = parseArgSpec("buffer:ushort[2]=values(255,4096)");
  hex.hex = true;
  EXPECT_EQ(formatDumpLine(5, hex), "arg5 ushort[2] = 0x00ff 0x1000");
  EXPECT_EQ(formatDumpLine(6, parseArgSpec("buffer:char[2]=values(-1,65)")),
            "arg6 char[2] = -1 65");
}

// `spvsim run --dump` writes a line in chunks: the same text as formatDumpLine, whatever
// the size (a 1 MiB float buffer's text is many chunks) and however many threads format
// it (more than 65536 elements: blocks of 65536 on up to `threads` threads, in rounds;
// a last block that is not whole; more threads than blocks).
TEST(DumpLine, WrittenInChunksAsFormatted) {
  for (const char* spec : {"buffer:float[262144]=range(0,0.37)", "buffer:int[3]=range(-1)",
                           "buffer:uint2[40000]=random(3)", "image2d:R,FLOAT[512,300]=range(1)",
                           "buffer:int[200001]=range(-100000)", "buffer:float3[70000]=random(5)"}) {
    const ArgValue a = parseArgSpec(spec);
    const std::string expected = formatDumpLine(7, a) + "\n";
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
      std::ostringstream out;
      writeDumpLine(out, 7, a, threads);
      EXPECT_EQ(out.str(), expected) << spec << " on " << threads << " threads";
    }
  }
}

TEST(JsonReport, DiagnosticsAndBuffers) {
  std::vector<ArgValue> args = {parseArgSpec("float:2"), parseArgSpec("buffer:int[3]=range(0)"),
                                parseArgSpec("local:16"),
                                parseArgSpec("buffer:float2[1]=values(1.5,inf)")};
  EXPECT_EQ(formatJsonReport({"{\"kind\": \"a\"}", "{\"kind\": \"b\"}"}, args),
            "{\"diagnostics\": [\n"
            "  {\"kind\": \"a\"},\n"
            "  {\"kind\": \"b\"}\n"
            "],\n"
            "\"buffers\": {\n"
            "  \"arg1\": [0,1,2],\n"
            "  \"arg3\": [[1.5,\"Infinity\"]]\n"
            "}}\n");
}

TEST(JsonReport, Empty) {
  EXPECT_EQ(formatJsonReport({}, {parseArgSpec("int:1")}),
            "{\"diagnostics\": [],\n\"buffers\": {}}\n");
}

TEST(ErrorText, KindsThatArePartOfTheMessage) {
  EXPECT_EQ(formatError(DiagnosticKind::Usage, "missing --global"), "error: missing --global");
  EXPECT_EQ(formatError(DiagnosticKind::Input, "cannot open 'x'"), "error: cannot open 'x'");
  EXPECT_EQ(formatError(DiagnosticKind::InvalidModule, "truncated module header"),
            "error: invalid-module: truncated module header");
  EXPECT_EQ(formatError(DiagnosticKind::Unsupported, "unsupported: capability Shader"),
            "error: unsupported: capability Shader");
}

// Names quoted in a message cannot split, colour or cut it; compiler output keeps its
// lines (each escaped).
TEST(ErrorText, MessagesAreEscaped) {
  EXPECT_EQ(formatError(DiagnosticKind::Input, "t.sim:5: unexpected 'a\x1b[2J\nb\xff'"),
            "error: t.sim:5: unexpected 'a\\x1b[2J\\nb\\xff'");
  EXPECT_EQ(formatError(DiagnosticKind::OutOfMemory, "the host ran out of memory"),
            "error: out-of-memory: the host ran out of memory");
  EXPECT_EQ(formatError(DiagnosticKind::Compile, "k.cl:1: error: x\nk.cl:2: \x1b[1mnote\n"),
            "error: k.cl:1: error: x\nk.cl:2: \\x1b[1mnote\n");
}

// A kernel's diagnostic is one line without a newline, whatever its message, kernel name,
// source line and instruction hold: the CLI, check, the debugger and the ICD print it as
// it is.
TEST(ErrorText, KernelDiagnosticsAreOneLine) {
  Diagnostic d;
  d.kind = DiagnosticKind::OutOfBounds;
  d.message = "load of 4 bytes\nat 'x\n'\n";
  d.kernel = "k\n";
  d.workGroup = std::array<uint64_t, 3>{1, 0, 0};
  d.subGroup = 2;
  d.lanes = {3, 4, 5};
  d.line = "a.cl:7\n";
  d.instruction = "%1 = OpLoad %int %2\n";
  EXPECT_EQ(formatText(d),
            "error: out-of-bounds: load of 4 bytes\\nat 'x\\n'\\n [kernel k\\n, work-group "
            "(1,0,0), sub-group 2, lanes 3-5, at a.cl:7\\n, in `%1 = OpLoad %int %2\\n`]");
}

// what() is a C string: a NUL in a message is written out rather than ending it.
TEST(ErrorText, NulInAMessageDoesNotCutIt) {
  const Error e(DiagnosticKind::Input, std::string("name 'a\0b' here", 15));
  EXPECT_EQ(std::string(e.what()), "name 'a\\x00b' here");
}

// The DAP adapter's messages: valid UTF-8 whatever a name holds.
TEST(ErrorText, JsonIsValidUtf8) {
  EXPECT_EQ(writeJson(jsonString("a\xff\x1b\xc3\xa9")), "\"a\xef\xbf\xbd\\u001b\xc3\xa9\"");
}

// DAP clients that write ASCII-only JSON (Python's json.dumps) escape every other
// character: BMP characters as one backslash-u escape, the others as a surrogate pair
// (RFC 8259 section 7). Expected UTF-8 bytes from the Unicode code points by hand.
TEST(JsonText, UnicodeEscapesAreReadAsUtf8) {
  EXPECT_EQ(parseJson(R"("caf\u00e9")", "t").text, "caf\xc3\xa9");          // U+00E9
  EXPECT_EQ(parseJson(R"("\u20AC")", "t").text, "\xe2\x82\xac");            // U+20AC
  EXPECT_EQ(parseJson(R"("\ud83d\ude00")", "t").text, "\xf0\x9f\x98\x80");  // U+1F600
  EXPECT_EQ(parseJson(R"("\u0041\u0000b")", "t").text, std::string("A\0b", 3));
  // A surrogate without its pair is no character: U+FFFD, and the next escape stands alone.
  EXPECT_EQ(parseJson(R"("\ud83dx")", "t").text, "\xef\xbf\xbdx");
  EXPECT_EQ(parseJson(R"("\ude00")", "t").text, "\xef\xbf\xbd");
  EXPECT_EQ(parseJson(R"("\ud83d\u0041")", "t").text,
            "\xef\xbf\xbd"
            "A");
  EXPECT_THROW(parseJson(R"("\u12")", "t"), Error);
  EXPECT_THROW(parseJson(R"("\u12g4")", "t"), Error);
}

// What the adapter writes, its own reader reads back: the same text where it was UTF-8.
TEST(JsonText, WrittenStringsReadBack) {
  for (const std::string s : {std::string("plain"), std::string("tab\tnl\n\x01\x7f"),
                              std::string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
                              std::string("c1 \xc2\x85 nel"), std::string("nul \0 in", 9)})
    EXPECT_EQ(parseJson(writeJson(jsonString(s)), "t").text, s);
}

}  // namespace
}  // namespace spvsim::tools

// Fuzz targets fuzz_dap and fuzz_dap_session: `spvsim dap`'s input side: the Debug Adapter
// Protocol's framing (dap::MessageReader), the JSON reader and the adapter's request handling
// (dap::Adapter::handle), as `spvsim dap` reads a client's bytes.
//
// Input: byte 0 chooses the adapter (bit 0 set: `--port`'s, with the token kToken, so
// requests before an authenticated launch are refused; clear: stdio's, trusting its
// client); byte 1 is the size of the pieces the bytes arrive in (0: all at once); the rest
// is the byte stream from the client.
//
// Checked beyond "no crash":
// - the frames (messages and errors) do not depend on how the bytes arrive: the stream
//   fed whole and in pieces gives the same frames;
// - every message the adapter sends is valid UTF-8 and JSON its own reader reads back,
//   an object with "seq" and "type";
// - with a token, nothing but `initialize` is answered with success before a launch
//   carrying the token.
//
// fuzz_dap skips launches (and attach, restart): framing, JSON and every request without a
// session, fast enough for millions of inputs. fuzz_dap_session also launches: the
// requests then reach a debug session. Launches run the kernel below (a loop whose trip count
// differs per lane, so the lanes diverge) with its OpLine information for breakpoints: a launch's
// "program" must be "k.spv", which the target replaces by its own copy of the module. Guard (what
// would reach the user's files rather than the adapter): launches naming another program, giving
// "cwd", with arguments that name a path or an option outside kLaunchOptions, or with an NDRange
// dimension over 256 are skipped; every launch runs with an instruction budget (10^4 per
// work-group) and a memory limit of its own.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/error.h"
#include "tools/cli/json_value.h"
#include "tools/dap/dap_adapter.h"
#include "tools/dap/dap_protocol.h"
#include "tools/fuzz/fuzz_input.h"

namespace spvsim::fuzz::dap_input {

namespace fs = std::filesystem;
using spvsim::tools::JsonValue;
namespace dap = spvsim::tools::dap;

inline constexpr const char* kToken = "0123456789abcdef0123456789abcdef";
constexpr size_t kMaxMessages = 64;

// kernel void k(global uint *out, uint n)   (k.cl, lines 1-6)
//   i = get_global_id(0); s = 0
//   for (j = 0; j < i + n; ++j) s = s * 3 + j
//   out[i] = (i & 1) ? s : ~s
constexpr const char* kKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "k" %gid
       %file = OpString "k.cl"
               OpSource OpenCL_C 120000
               OpName %main "k"
               OpName %out "out"
               OpName %n "n"
               OpName %s "s"
               OpName %j "j"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
       %void = OpTypeVoid
    %v3ulong = OpTypeVector %ulong 3
  %ptr_in_v3 = OpTypePointer Input %v3ulong
%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
       %fnty = OpTypeFunction %void %ptr_cw_uint %uint
        %gid = OpVariable %ptr_in_v3 Input
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
       %main = OpFunction %void None %fnty
        %out = OpFunctionParameter %ptr_cw_uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpLine %file 2 0
          %g = OpLoad %v3ulong %gid Aligned 32
         %gx = OpCompositeExtract %ulong %g 0
          %i = OpUConvert %uint %gx
               OpLine %file 3 0
      %limit = OpIAdd %uint %i %n
               OpBranch %header
     %header = OpLabel
          %j = OpPhi %uint %uint_0 %entry %j_next %body
          %s = OpPhi %uint %uint_0 %entry %s_next %body
               OpLine %file 3 0
       %more = OpULessThan %bool %j %limit
               OpBranchConditional %more %body %exit
       %body = OpLabel
               OpLine %file 4 0
         %s3 = OpIMul %uint %s %uint_3
     %s_next = OpIAdd %uint %s3 %j
     %j_next = OpIAdd %uint %j %uint_1
               OpBranch %header
       %exit = OpLabel
               OpLine %file 5 0
        %odd = OpBitwiseAnd %uint %i %uint_1
     %is_odd = OpINotEqual %bool %odd %uint_0
      %not_s = OpNot %uint %s
          %r = OpSelect %uint %is_odd %s %not_s
        %dst = OpInBoundsPtrAccessChain %ptr_cw_uint %out %gx
               OpStore %dst %r Aligned 4
               OpLine %file 6 0
               OpReturn
               OpFunctionEnd
)";

// Options a fuzzed launch may give: the launch's shape, arguments and checkers; nothing
// that writes or reads a file, or lifts the limits the target sets.
constexpr std::string_view kLaunchOptions[] = {
    "--arg",
    "--global",
    "--global-offset",
    "--local",
    "--kernel",
    "--schedule",
    "--sub-group-size",
    "--check-races",
    "--check-undefined",
    "--check-uninitialized",
    "--build-options",
    "--unordered",
    "--quiet",
    "--strict",
    "--ignore",
    "--max-device-enqueues",
};

// The kernel's module, written once per process into a temporary folder.
class Fixture {
 public:
  Fixture() {
    dir_ = makeTempFolder("spvsim-fuzz-dap");
    spvtools::SpirvTools tools(SPV_ENV_OPENCL_1_2);
    std::vector<uint32_t> words;
    FUZZ_CHECK(tools.Assemble(kKernel, &words), "the kernel assembles");
    module_ = (dir_ / "k.spv").string();
    std::ofstream(module_, std::ios::binary)
        .write(reinterpret_cast<const char*>(words.data()),
               static_cast<std::streamsize>(words.size() * 4));
  }
  ~Fixture() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const std::string& module() const { return module_; }

 private:
  fs::path dir_;
  std::string module_;
};

// A value of --global, --local or --global-offset ("64", "8,8", "4x4"): at most 256 in
// each dimension, so that a launch's work stays within what one input may take.
inline bool smallShape(std::string_view value) {
  uint64_t n = 0;
  for (char c : value) {
    if (c >= '0' && c <= '9') {
      n = n * 10 + static_cast<uint64_t>(c - '0');
      if (n > 256) return false;
    } else {
      n = 0;
    }
  }
  return true;
}

inline bool allowedLaunchWord(const std::string& word) {
  if (word.find('/') != std::string::npos || word.find("file(") != std::string::npos || word == "-")
    return false;
  if (word.empty() || word[0] != '-') return true;  // a value
  const std::string_view name = std::string_view(word).substr(0, word.find('='));
  for (std::string_view o : kLaunchOptions)
    if (name == o) return true;
  return false;
}

// The message to hand the adapter: `body` itself, or a launch made to run the fixture
// within limits; nullopt when the guard skips it.
inline std::optional<std::string> admissible(const std::string& body, const Fixture& fixture) {
  JsonValue message;
  try {
    message = spvsim::tools::parseJson(body, "fuzz");
  } catch (const spvsim::Error&) {
    return body;  // the adapter answers it as malformed
  }
  const JsonValue* command = message.find("command");
  const JsonValue* args = message.find("arguments");
  if (!command || command->text != "launch" || !args || args->type != JsonValue::Type::Object)
    return body;
  const JsonValue* program = args->find("program");
  if (args->find("cwd") || !program || program->text != "k.spv") return std::nullopt;
  JsonValue launch = *args;
  JsonValue list = spvsim::tools::jsonArray();
  if (const JsonValue* given = args->find("args")) {
    if (given->type != JsonValue::Type::Array) return body;  // refused by the adapter
    std::string previous;
    for (const JsonValue& a : given->items) {
      if (a.type == JsonValue::Type::String) {
        if (!allowedLaunchWord(a.text)) return std::nullopt;
        const bool shape = previous == "--global" || previous == "--local" ||
                           previous == "--global-offset" || a.text.rfind("--global=", 0) == 0 ||
                           a.text.rfind("--local=", 0) == 0;
        if (shape && !smallShape(a.text)) return std::nullopt;
        previous = a.text;
      }
      list.items.push_back(a);
    }
  }
  for (const char* w : {"--instruction-budget", "10000", "--max-memory", "64M"})
    list.items.push_back(spvsim::tools::jsonString(w));
  spvsim::tools::setMember(launch, "program", spvsim::tools::jsonString(fixture.module()));
  spvsim::tools::setMember(launch, "args", std::move(list));
  spvsim::tools::setMember(message, "arguments", std::move(launch));
  return spvsim::tools::writeJson(message);
}

// Whether `body` is a launch or attach request whose arguments carry kToken.
inline bool carriesToken(const std::string& body) {
  try {
    const JsonValue message = spvsim::tools::parseJson(body, "fuzz");
    const JsonValue* command = message.find("command");
    const JsonValue* args = message.find("arguments");
    const JsonValue* token = args ? args->find("token") : nullptr;
    return command && (command->text == "launch" || command->text == "attach") && token &&
           token->type == JsonValue::Type::String && token->text == kToken;
  } catch (const spvsim::Error&) {
    return false;
  }
}

// fuzz_dap: requests that would start a session (launch, attach, restart) are skipped.
inline std::optional<std::string> withoutSession(const std::string& body) {
  try {
    const JsonValue message = spvsim::tools::parseJson(body, "fuzz");
    const JsonValue* command = message.find("command");
    if (command &&
        (command->text == "launch" || command->text == "attach" || command->text == "restart"))
      return std::nullopt;
  } catch (const spvsim::Error&) {
  }
  return body;
}

inline bool validUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += n;
  }
  return true;
}

inline std::vector<dap::Frame> framesOf(std::string_view bytes, size_t piece) {
  dap::MessageReader reader;
  std::vector<dap::Frame> frames;
  size_t at = 0;
  do {
    const size_t n = piece == 0 ? bytes.size() : std::min(piece, bytes.size() - at);
    reader.feed(bytes.substr(at, n));
    at += n;
    for (dap::Frame f = reader.next(); f.kind != dap::Frame::Kind::NeedMore; f = reader.next())
      frames.push_back(std::move(f));
  } while (at < bytes.size());
  return frames;
}

// What the adapter sent, checked as it is sent.
struct Client {
  bool tokenMode = false;
  bool tokenGiven = false;  // a launch or attach carrying kToken was handed to the adapter

  void receive(const JsonValue& m) {
    const std::string text = spvsim::tools::writeJson(m);
    if (spvsim::fuzz::verbose()) std::fprintf(stderr, "sent: %s\n", text.c_str());
    FUZZ_CHECK(validUtf8(text), "the adapter sends valid UTF-8");
    JsonValue back;
    try {
      back = spvsim::tools::parseJson(text, "sent");
    } catch (const spvsim::Error& e) {
      std::fprintf(stderr, "%s\n%s\n", e.what(), text.c_str());
      FUZZ_CHECK(false, "the adapter's messages read back as JSON");
    }
    const JsonValue* type = back.find("type");
    FUZZ_CHECK(type && back.find("seq"), "a message has seq and type");
    if (!tokenMode || type->text != "response") return;
    const JsonValue* command = back.find("command");
    const JsonValue* success = back.find("success");
    if (!command || !success || success->text != "true") return;
    FUZZ_CHECK(tokenGiven || command->text == "initialize",
               "with a token, only initialize succeeds before a launch carrying it");
  }
};

}  // namespace spvsim::fuzz::dap_input

namespace spvsim::fuzz {

using namespace dap_input;

// One input; `sessions`: whether launches run (fuzz_dap_session) or are skipped (fuzz_dap).
inline int dapInput(const uint8_t* data, size_t size, bool sessions) {
  static const Fixture fixture;
  if (size < 2) return 0;
  const bool tokenMode = data[0] & 1;
  const size_t piece = data[1];
  const std::string_view stream(reinterpret_cast<const char*>(data + 2), size - 2);

  const std::vector<dap::Frame> frames = framesOf(stream, piece);
  const std::vector<dap::Frame> whole = framesOf(stream, 0);
  FUZZ_CHECK(frames.size() == whole.size(), "as many frames however the bytes arrive");
  for (size_t i = 0; i < frames.size(); ++i)
    FUZZ_CHECK(frames[i].kind == whole[i].kind && frames[i].body == whole[i].body,
               "the same frames however the bytes arrive");

  Client client;
  client.tokenMode = tokenMode;
  volatile std::sig_atomic_t interrupt = 0;
  dap::Adapter adapter([&](const JsonValue& m) { client.receive(m); }, &interrupt,
                       tokenMode ? std::optional<std::string>(kToken) : std::nullopt);
  for (size_t i = 0; i < frames.size() && i < kMaxMessages; ++i) {
    if (frames[i].kind == dap::Frame::Kind::Error) {
      adapter.protocolError(frames[i].body);
      continue;
    }
    const std::optional<std::string> message =
        sessions ? admissible(frames[i].body, fixture) : withoutSession(frames[i].body);
    if (!message) continue;
    client.tokenGiven = client.tokenGiven || carriesToken(*message);
    if (!adapter.handle(*message)) break;
  }
  return 0;
}

}  // namespace spvsim::fuzz

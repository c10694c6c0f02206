#include "tools/dap/dap_protocol.h"

#include <gtest/gtest.h>

namespace spvsim::tools::dap {
namespace {

using Kind = Frame::Kind;

TEST(DapFraming, FrameWritesTheLengthInBytes) {
  EXPECT_EQ(frame("{}"), "Content-Length: 2\r\n\r\n{}");
  EXPECT_EQ(frame("\"\xc3\xa9\""), "Content-Length: 4\r\n\r\n\"\xc3\xa9\"");  // é: 2 bytes
}

TEST(DapFraming, MessagesSplitAnywhereComeOutWhole) {
  const std::string stream = frame("{\"a\":1}") + frame("[2,3]");
  for (size_t cut = 0; cut <= stream.size(); ++cut) {
    MessageReader r;
    std::vector<std::string> got;
    for (std::string_view part :
         {std::string_view(stream).substr(0, cut), std::string_view(stream).substr(cut)}) {
      r.feed(part);
      for (Frame f = r.next(); f.kind != Kind::NeedMore; f = r.next()) {
        ASSERT_EQ(f.kind, Kind::Message) << "cut at " << cut << ": " << f.body;
        got.push_back(f.body);
      }
    }
    EXPECT_EQ(got, (std::vector<std::string>{"{\"a\":1}", "[2,3]"})) << "cut at " << cut;
    EXPECT_EQ(r.buffered(), 0u);
  }
}

TEST(DapFraming, PartialHeaderWaits) {
  MessageReader r;
  r.feed("Content-Len");
  EXPECT_EQ(r.next().kind, Kind::NeedMore);
  r.feed("gth: 3\r\n");
  EXPECT_EQ(r.next().kind, Kind::NeedMore);
  r.feed("\r\nab");
  EXPECT_EQ(r.next().kind, Kind::NeedMore);  // 2 of 3 body bytes
  r.feed("c");
  const Frame f = r.next();
  EXPECT_EQ(f.kind, Kind::Message);
  EXPECT_EQ(f.body, "abc");
}

TEST(DapFraming, OtherHeaderFieldsAndCaseAreAccepted) {
  MessageReader r;
  r.feed("content-length:2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}");
  const Frame f = r.next();
  EXPECT_EQ(f.kind, Kind::Message);
  EXPECT_EQ(f.body, "{}");
}

TEST(DapFraming, BadLengthsAreErrorsAndReadingResumes) {
  for (const char* bad :
       {"Content-Length: abc\r\n\r\n", "Content-Length: -1\r\n\r\n", "Content-Length: 12x\r\n\r\n",
        "Content-Length: \r\n\r\n", "Content-Length: 99999999999999999999\r\n\r\n",
        "Content-Length: 1000000000\r\n\r\n", "Content-Type: x\r\n\r\n", "garbage\r\n\r\n"}) {
    MessageReader r;
    r.feed(std::string(bad) + frame("{}"));
    const Frame e = r.next();
    EXPECT_EQ(e.kind, Kind::Error) << bad;
    EXPECT_FALSE(e.body.empty());
    const Frame f = r.next();  // the next message still arrives
    EXPECT_EQ(f.kind, Kind::Message) << bad;
    EXPECT_EQ(f.body, "{}") << bad;
  }
}

TEST(DapFraming, EndlessHeaderIsAnErrorNotUnboundedBuffering) {
  MessageReader r;
  r.feed(std::string(kMaxHeader + 1, 'x'));
  EXPECT_EQ(r.next().kind, Kind::Error);
  EXPECT_EQ(r.buffered(), 0u);
  r.feed(frame("1"));
  EXPECT_EQ(r.next().body, "1");
}

// Every frame `bytes` gives, fed in pieces of `piece` bytes (0: at once).
std::vector<Frame> framesOf(const std::string& bytes, size_t piece) {
  MessageReader r;
  std::vector<Frame> out;
  for (size_t at = 0; at < bytes.size() || (piece == 0 && at == 0);) {
    const size_t n = piece == 0 ? bytes.size() : std::min(piece, bytes.size() - at);
    r.feed(std::string_view(bytes).substr(at, n));
    at += n;
    for (Frame f = r.next(); f.kind != Kind::NeedMore; f = r.next()) out.push_back(f);
  }
  return out;
}

// A header block is too long by where its empty line is, not by how its bytes arrived: a
// block that ends just within the limit is read even when its empty line arrives in
// pieces after the limit's byte, and one that ends past it is an error fed at once too.
TEST(DapFraming, HeaderLimitDependsOnTheBytesNotOnHowTheyArrive) {
  const std::string within = std::string(kMaxHeader - 17, ' ') +
                             "Content-Length: 2\r\n\r\n{}";  // empty line at kMaxHeader
  const std::string beyond = "X-Pad: " + std::string(kMaxHeader, 'p') + "\r\n" + frame("{}");
  for (size_t piece : {0, 1, 3, 7, 4096, 8193}) {
    const std::vector<Frame> a = framesOf(within, piece);
    ASSERT_EQ(a.size(), 1u) << piece;
    EXPECT_EQ(a[0].kind, Kind::Message) << piece;
    EXPECT_EQ(a[0].body, "{}") << piece;
    const std::vector<Frame> b = framesOf(beyond, piece);
    ASSERT_FALSE(b.empty()) << piece;
    EXPECT_EQ(b[0].kind, Kind::Error) << piece;
    const std::vector<Frame> whole = framesOf(beyond, 0);
    ASSERT_EQ(b.size(), whole.size()) << piece;
    for (size_t i = 0; i < b.size(); ++i) {
      EXPECT_EQ(b[i].kind, whole[i].kind) << piece << " frame " << i;
      EXPECT_EQ(b[i].body, whole[i].body) << piece << " frame " << i;
    }
  }
}

TEST(DapToken, IsThirtyTwoHexDigitsAndFreshEachTime) {
  const std::string a = randomToken(), b = randomToken();
  for (const std::string& t : {a, b}) {
    EXPECT_EQ(t.size(), 32u) << t;  // 128 bits
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos) << t;
  }
  // Two equal draws of 128 random bits: probability 2^-128.
  EXPECT_NE(a, b);
}

TEST(DapToken, OnlyTheWholeTokenMatches) {
  const std::string token = "0123456789abcdef0123456789abcdef";
  EXPECT_TRUE(sameToken(token, token));
  EXPECT_FALSE(sameToken(token, token.substr(0, 31)));  // a prefix
  EXPECT_FALSE(sameToken(token, token + "0"));          // a longer one
  EXPECT_FALSE(sameToken(token, "1123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(sameToken(token, "0123456789abcdef0123456789abcdee"));
  EXPECT_FALSE(sameToken(token, ""));
  EXPECT_FALSE(sameToken(token, std::string(32, '\0')));
  EXPECT_FALSE(sameToken("", ""));  // no token is never a match
}

}  // namespace
}  // namespace spvsim::tools::dap

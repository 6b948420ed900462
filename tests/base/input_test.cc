// base/input.h: the bounded reader every command uses (`-`, `@path`, text),
// the empty-input rule, the OS reasons, and the text checks.
#include "shardbridge/base/input.h"
#include "base/temp_dir.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace shardbridge {
namespace {

using test_support::TempDir;

TEST(ReadInput, TextIsItself) {
  auto r = readInput("{replicated}", {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->text, "{replicated}");
  EXPECT_EQ(r->name, "<input>");
}

TEST(ReadInput, EmptyAndBlankAreErrors) {
  for (const char* text : {"", " ", "\n\t\r "}) {
    auto r = readInput(text, {});
    ASSERT_FALSE(r) << "'" << text << "'";
    EXPECT_EQ(r.error().code, ErrorCode::kParse);
    EXPECT_EQ(r.error().message, "empty input");
  }
  InputOptions allow;
  allow.allowEmpty = true;
  auto r = readInput("", allow);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text, "");
}

TEST(ReadInput, FileByAtPath) {
  TempDir dir;
  std::string bytes("\x08\x01\x00\xff", 4);
  std::string p = dir.write("s.pb", bytes);
  auto r = readInput("@" + p, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->text, bytes);
  EXPECT_EQ(r->name, p);
  auto empty = readInput("@" + dir.write("empty", ""), {});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message, "empty input");
}

TEST(ReadInput, OsReasons) {
  TempDir dir;
  auto missing = readInput("@" + dir.path() + "/none", {});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
  EXPECT_EQ(missing.error().message,
            "cannot open '" + dir.path() + "/none': No such file or directory");
  auto directory = readInputFile(dir.path(), {});
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().message, "cannot read '" + dir.path() + "': Is a directory");
  auto nothing = readInputFile("", {});
  ASSERT_FALSE(nothing);
  EXPECT_EQ(nothing.error().message, "cannot open '': No such file or directory");
}

TEST(ReadInput, LimitOnARegularFileIsCheckedBeforeReading) {
  TempDir dir;
  std::string p = dir.write("big", std::string(101, 'x'));
  InputOptions options;
  options.limit = 100;
  auto r = readInputFile(p, options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "'" + p + "' is larger than 100 bytes, the input limit");
  options.limit = 101;
  EXPECT_TRUE(readInputFile(p, options));
}

TEST(ReadInput, ARegularFileIsHeldAtItsSize) {
  // Read whole, the string must not have doubled to look for the end: a
  // 500 MB module would hold a gigabyte (and be zeroed twice) before any
  // pass ran. Sizes below, at and above the reader's 64 KiB first step.
  TempDir dir;
  for (size_t size : {size_t{1000}, size_t{65536}, size_t{300001}}) {
    std::string bytes(size, 'x');
    for (size_t i = 0; i < size; i += 97) bytes[i] = static_cast<char>('a' + i % 26);
    std::string p = dir.write("f" + std::to_string(size), bytes);
    auto r = readInputFile(p, {});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->text, bytes);
    EXPECT_LE(r->text.capacity(), std::max<size_t>(size, 65536)) << size;
    // At the limit exactly, and one byte under it.
    InputOptions options;
    options.limit = size;
    auto exact = readInputFile(p, options);
    ASSERT_TRUE(exact) << exact.error().message;
    EXPECT_EQ(exact->text, bytes);
    options.limit = size - 1;
    EXPECT_FALSE(readInputFile(p, options));
  }
}

TEST(ReadInput, EndlessInputStopsAtTheLimitPlusOne) {
  // /dev/zero never ends: the read must stop after limit + 1 bytes.
  InputOptions options;
  options.limit = 1000;
  auto r = readInputFile("/dev/zero", options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "'/dev/zero' is larger than 1000 bytes, the input limit");
}

TEST(ReadInput, PipeIsReadWhole) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string data(200000, 'a');  // more than one pipe buffer and one read chunk
  pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    size_t done = 0;
    while (done < data.size()) {
      ssize_t n = ::write(fds[1], data.data() + done, data.size() - done);
      if (n <= 0) ::_exit(1);
      done += static_cast<size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  auto r = readAllFrom(fds[0], "<pipe>", data.size());
  ::close(fds[0]);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, data);
  int status = 0;
  ::waitpid(child, &status, 0);
}

TEST(ReadInput, TextArgumentOverTheLimit) {
  InputOptions options;
  options.limit = 3;
  auto r = readInput("abcd", options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "<input> is larger than 3 bytes, the input limit");
}

TEST(CheckText, LocatesTheFirstBadByte) {
  EXPECT_TRUE(checkText("module {\n\t}\r\n"));
  EXPECT_TRUE(checkText("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"));
  auto nul = checkText(std::string_view("ab\0c", 4));
  ASSERT_FALSE(nul);
  EXPECT_EQ(nul.error().message, "text contains a NUL byte");
  EXPECT_EQ(nul.error().offset, 2u);
  auto ctrl = checkText("a\x01");
  ASSERT_FALSE(ctrl);
  EXPECT_EQ(ctrl.error().message, "text contains the control byte \\x01");
  // Overlong, surrogate, past U+10FFFF, truncated, lone continuation.
  for (const char* bad : {"x\xc0\xaf", "x\xed\xa0\x80", "x\xf4\x90\x80\x80", "x\xe2\x86", "x\x80"}) {
    auto r = checkText(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().offset, 1u) << bad;
  }
  EXPECT_EQ(checkText("x\xff").error().message, "text is not valid UTF-8 (byte \\xff)");
}

// checkText tests eight printable-or-newline bytes at a time (src/base/input.cc); a
// byte at a time, the same rules must give the same verdict, message and
// offset wherever the first bad byte falls.
Status checkTextByteByByte(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c < 0x80) return checkText(text.substr(i, 1)).error().shifted(i);
    size_t n = validUtf8Length(text.substr(i));
    if (n == 0) return checkText(text.substr(i, 1)).error().shifted(i);
    i += n;
  }
  return okStatus();
}

RC_GTEST_PROP(CheckText, WordAtATimeAgreesWithByteAtATime, ()) {
  // Mostly printable text with, now and then, a newline, a tab, a control
  // byte, DEL, UTF-8 (whole or cut) or a NUL, at any alignment.
  const std::vector<std::string> pieces = {"module", " ", "{", "\n", "\t", "tensor<8xf32>", "\x01", "\x7f",
                                           "\xc3\xa9", "\xe2\x86\x92", "\xc3", "\xff", std::string(1, '\0'),
                                           "\x1f", "~", "\x20",
                                           // bytes a bit away from '\n' (0x0a), which the word test admits
                                           "\v", "\r", "\x0e", "\x08", "\x8a", "*", "\n\n\n\n\n\n\n\n"};
  std::string text;
  for (const std::string& p : *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(pieces))) text += p;
  Status fast = checkText(text);
  Status slow = checkTextByteByByte(text);
  RC_ASSERT(fast.has_value() == slow.has_value());
  if (!fast) {
    RC_ASSERT(fast.error().message == slow.error().message);
    RC_ASSERT(fast.error().offset == slow.error().offset);
  }
}

TEST(EscapeBytes, KeepsUtf8AndEscapesTheRest) {
  EXPECT_EQ(escapeBytes("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(escapeBytes(std::string_view("a\0b\xff\x1b[31m", 9)), "a\\x00b\\xff\\x1b[31m");
  EXPECT_EQ(escapeBytes("tab\tok"), "tab\tok");
  EXPECT_EQ(firstInvalidUtf8("ok\xc3\xa9"), std::string_view::npos);
  EXPECT_EQ(firstInvalidUtf8("ok\xc3"), 2u);
}

}  // namespace
}  // namespace shardbridge

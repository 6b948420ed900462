// renderDiagnostic's layout (base/diagnostic.h), MLIR's: the error line,
// the source line and caret, then the note line when there is a note.
#include "shardbridge/base/diagnostic.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace shardbridge {
namespace {

TEST(RenderDiagnosticTest, LocatedErrorHasSourceLineAndCaret) {
  Error e = makeError(ErrorCode::kParse, "expected ','", 3);
  EXPECT_EQ(renderDiagnostic(e, "ab  cd"),
            "<input>:1:4: error: expected ','\n"
            "ab  cd\n"
            "   ^\n");
  EXPECT_FALSE(e.hasNote());
}

TEST(RenderDiagnosticTest, NoteLineFollowsTheCaret) {
  Error e = makeError(ErrorCode::kParse, "expected ','", 2).withNote("while parsing x", 4);
  EXPECT_TRUE(e.hasNote());
  EXPECT_TRUE(e.hasNoteOffset());
  EXPECT_EQ(renderDiagnostic(e, "ab\ncdef", "f.mlir"),
            "f.mlir:1:3: error: expected ','\n"
            "ab\n"
            "  ^\n"
            "f.mlir:2:2: note: while parsing x\n");
}

TEST(RenderDiagnosticTest, NoteWithoutOffsetAndErrorWithoutOffset) {
  Error located = makeError(ErrorCode::kParse, "bad", 0).withNote("context");
  EXPECT_FALSE(located.hasNoteOffset());
  EXPECT_EQ(renderDiagnostic(located, "x"),
            "<input>:1:1: error: bad\n"
            "x\n"
            "^\n"
            "<input>: note: context\n");
  Error unlocated = makeError(ErrorCode::kInvalid, "bad").withNote("context", 0);
  EXPECT_EQ(renderDiagnostic(unlocated, "x"),
            "<input>: error: bad\n"
            "<input>:1:1: note: context\n");
}

TEST(RenderDiagnosticTest, AnEmptyNoteIsNoNote) {
  Error e = makeError(ErrorCode::kParse, "bad", 0).withNote("", 0);
  EXPECT_FALSE(e.hasNote());
  EXPECT_EQ(e.noteOffset, Error::kNoOffset);
  EXPECT_EQ(renderDiagnostic(e, "x"), "<input>:1:1: error: bad\nx\n^\n");
}

TEST(RenderDiagnosticTest, MessageLineBreaksStayAndOtherBytesAreEscaped) {
  // XLA's Validate continues its message on a new line (hlo_sharding.h).
  Error e = makeError(ErrorCode::kInvalid, "bad\n\tNote: While validating \x1b[31m");
  EXPECT_EQ(renderDiagnostic(e, ""),
            "<input>: error: bad\n"
            "\tNote: While validating \\x1b[31m\n");
  EXPECT_EQ(escapeMessage("a\nb\x7f\n"), "a\nb\\x7f\n");
  Error noted = makeError(ErrorCode::kParse, "m").withNote("n\x01");
  EXPECT_EQ(renderDiagnostic(noted, ""), "<input>: error: m\n<input>: note: n\\x01\n");
}

TEST(ErrorTest, ShiftedMovesBothOffsets) {
  Error e = makeError(ErrorCode::kParse, "m", 1).withNote("n", 2).shifted(10);
  EXPECT_EQ(e.offset, 11u);
  EXPECT_EQ(e.noteOffset, 12u);
  Error unlocated = makeError(ErrorCode::kParse, "m").withNote("n").shifted(10);
  EXPECT_EQ(unlocated.offset, Error::kNoOffset);
  EXPECT_EQ(unlocated.noteOffset, Error::kNoOffset);
}

TEST(LineIndex, EdgesAnswerAsLineColAt) {
  for (std::string_view text : {std::string_view(""), std::string_view("\n"), std::string_view("ab"),
                                std::string_view("a\n\nb\n"), std::string_view("\r\n x")}) {
    LineIndex lines(text);
    for (size_t at = 0; at <= text.size() + 2; ++at) {
      LineCol want = lineColAt(text, at);
      LineCol got = lines.at(at);
      EXPECT_EQ(got.line, want.line) << at;
      EXPECT_EQ(got.column, want.column) << at;
    }
  }
}

RC_GTEST_PROP(LineIndex, AnyOffsetOfAnyTextAnswersAsLineColAt, ()) {
  std::string text = *rc::gen::container<std::string>(rc::gen::element('a', '\n', ' ', '\r', '\t'));
  LineIndex lines(text);
  auto offsets = *rc::gen::container<std::vector<size_t>>(rc::gen::inRange<size_t>(0, text.size() + 3));
  for (size_t at : offsets) {
    LineCol want = lineColAt(text, at);
    LineCol got = lines.at(at);
    RC_ASSERT(got.line == want.line);
    RC_ASSERT(got.column == want.column);
  }
}

}  // namespace
}  // namespace shardbridge

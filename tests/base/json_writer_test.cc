// JsonWriter: layout, escaping (RFC 8259 §7) and the U+FFFD replacement of
// bytes that are not UTF-8.
#include "shardbridge/base/json_writer.h"

#include <gtest/gtest.h>

namespace shardbridge {
namespace {

TEST(JsonWriter, NestedLayout) {
  JsonWriter w;
  w.beginObject();
  w.key("a").value(int64_t{1});
  w.key("b").beginArray().value("x").value(true).null().endArray();
  w.key("c").beginObject().endObject();
  w.key("d").beginArray().endArray();
  w.endObject();
  EXPECT_EQ(w.finish(),
            "{\n  \"a\": 1,\n  \"b\": [\n    \"x\",\n    true,\n    null\n  ],\n"
            "  \"c\": {},\n  \"d\": []\n}\n");
}

TEST(JsonWriter, InlineContainersStayOnOneLine) {
  JsonWriter w;
  w.beginObject();
  w.key("dims").beginArray(JsonWriter::kInline).value(int64_t{2}).value(int64_t{1}).endArray();
  w.key("axes").beginArray(JsonWriter::kInline);
  w.beginObject().key("name").value("x").key("size").value(int64_t{4}).endObject();
  w.beginObject().endObject();
  w.endArray();
  w.key("empty").beginArray(JsonWriter::kInline).endArray();
  w.endObject();
  EXPECT_EQ(w.finish(),
            "{\n  \"dims\": [2, 1],\n  \"axes\": [{\"name\": \"x\", \"size\": 4}, {}],\n"
            "  \"empty\": []\n}\n");
}

TEST(JsonWriter, TopLevelScalarAndRaw) {
  JsonWriter w;
  w.beginArray().raw("{\"k\":2}").value(int64_t{-9223372036854775807 - 1}).endArray();
  EXPECT_EQ(w.finish(), "[\n  {\"k\":2},\n  -9223372036854775808\n]\n");
}

TEST(JsonWriter, EscapesControlAndQuotes) {
  EXPECT_EQ(JsonWriter::quote("a\"b\\c\n\t\r\x01\x7f"), "\"a\\\"b\\\\c\\n\\t\\r\\u0001\\u007f\"");
}

TEST(JsonWriter, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(JsonWriter::quote("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"),
            "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"");
  // A lone continuation byte, an overlong '/', a UTF-16 surrogate, a cut sequence.
  EXPECT_EQ(JsonWriter::quote("\x80"), "\"\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonWriter::quote("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonWriter::quote("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonWriter::quote("a\xE2\x82"), "\"a\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

TEST(JsonWriter, FinishResets) {
  JsonWriter w;
  w.value("x");
  EXPECT_EQ(w.finish(), "\"x\"\n");
  w.value(false);
  EXPECT_EQ(w.finish(), "false\n");
}

}  // namespace
}  // namespace shardbridge

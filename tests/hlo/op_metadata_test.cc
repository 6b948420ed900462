// Tests for OpMetadata printing (XLA's OpMetadataToString order and escaping).
#include "shardbridge/hlo/op_metadata.h"

#include <gtest/gtest.h>

namespace shardbridge::hlo {
namespace {

TEST(OpMetadataTest, PrintsNonDefaultFieldsInOrder) {
  OpMetadata md;
  EXPECT_EQ(printOpMetadata(md), "");
  md.opName = "a";
  EXPECT_EQ(printOpMetadata(md), "op_name=\"a\"");
  md.stackFrameId = 2;
  md.schedulingName = "raw\"x";
  md.deduplicatedName = "d";
  md.profileType = {1, 2};
  md.sourceEndColumn = 7;
  md.sourceColumn = 6;
  md.sourceEndLine = 5;
  md.sourceLine = 4;
  md.sourceFile = "f.py";
  md.opType = "Add";
  md.metadataPayload = std::string("p");
  md.sizeOfGeneratedCodeInBytes = 99;  // never printed
  md.profileInfoBytes = "xx";          // never printed
  EXPECT_EQ(printOpMetadata(md),
            "op_type=\"Add\" op_name=\"a\" source_file=\"f.py\" source_line=4 source_end_line=5 "
            "source_column=6 source_end_column=7 profile_type={1,2} deduplicated_name=\"d\" "
            "scheduling_name=\"raw\"x\" stack_frame_id=2 metadata_payload=\"p\"");
  md = OpMetadata();
  md.metadataPayload = int64_t{5};  // the id alternative has no text form
  EXPECT_EQ(printOpMetadata(md), "");
}

TEST(OpMetadataTest, CEscape) {
  EXPECT_EQ(cEscape("plain/text_1"), "plain/text_1");
  EXPECT_EQ(cEscape("a\"b'c\\d"), "a\\\"b\\'c\\\\d");
  EXPECT_EQ(cEscape("\n\r\t"), "\\n\\r\\t");
  EXPECT_EQ(cEscape(std::string("\x01\x7f\xff", 3)), "\\001\\177\\377");
  EXPECT_EQ(cEscape(std::string("\0", 1)), "\\000");
}

TEST(OpMetadataTest, ProfileTypes) {
  EXPECT_TRUE(isValidProfileType(0));
  EXPECT_TRUE(isValidProfileType(3));
  EXPECT_FALSE(isValidProfileType(4));
  EXPECT_FALSE(isValidProfileType(-1));
}

}  // namespace
}  // namespace shardbridge::hlo

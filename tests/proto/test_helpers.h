// Helpers several proto test files share (their unity batches would
// otherwise hold two definitions of one name).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/pb/wire.h"

namespace shardbridge::proto::test_helpers {

// The OpSharding a text-format message spells; a test failure (and an empty
// message) if it does not parse.
inline wire::OpSharding pbtxt(const std::string& s) {
  auto p = parseOpShardingText(s);
  EXPECT_TRUE(p.has_value()) << s << ": " << p.error().message;
  return p ? *p : wire::OpSharding();
}

// The HloSharding `s` spells; a test failure (and a default sharding) if it
// does not parse.
inline hlo::HloSharding text(const std::string& s) {
  auto r = hlo::parseSharding(s);
  EXPECT_TRUE(r.has_value()) << s << ": " << r.error().message;
  return r ? *r : hlo::HloSharding();
}

}  // namespace shardbridge::proto::test_helpers

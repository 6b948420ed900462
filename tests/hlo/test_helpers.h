// Helpers several hlo test files share (their unity batches would otherwise
// hold two definitions of one name).
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/text.h"

namespace shardbridge::hlo::test_helpers {

// The sharding `text` spells; a test failure (and an empty sharding) if it
// does not parse.
inline HloSharding parse(const char* text) {
  auto s = parseSharding(text);
  EXPECT_TRUE(s.has_value()) << text << ": " << s.error().message;
  return s.has_value() ? *s : HloSharding();
}

// A generated permutation of [0, n).
inline std::vector<int> genPerm(size_t n) {
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[*rc::gen::inRange<size_t>(0, i)]);
  return perm;
}

}  // namespace shardbridge::hlo::test_helpers

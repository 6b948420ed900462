// The few MLIR types the verifier needs to know about a value: ranked and
// unranked tensors, tokens, tuples, and anything else as "not shaped".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"

namespace shardbridge {

struct MlirType {
  enum class Kind : uint8_t {
    kRankedTensor,    // tensor<8x?x16xf32>
    kUnrankedTensor,  // tensor<*xf32>
    kToken,           // !stablehlo.token
    kTuple,           // tuple<tensor<2xf32>, !stablehlo.token>
    kOther,           // any other type (f32, !foo.bar, ...): not shaped
  };
  static constexpr int64_t kDynamic = -1;  // a `?` dimension

  Kind kind = Kind::kOther;
  std::vector<int64_t> shape;       // kRankedTensor only
  std::string elementType;          // "f32" for tensors
  std::vector<MlirType> elements;   // kTuple only
  std::string text;                 // the type as written, whitespace-normalised

  bool isShaped() const { return kind == Kind::kRankedTensor || kind == Kind::kUnrankedTensor; }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
};

// Parses an MLIR type as written in StableHLO: `tensor<8x16xf32>`,
// `tensor<?x4xbf16>`, `tensor<f32>` (rank 0), `tensor<*xf32>`,
// `tensor<8xf32, #enc>` (encoding ignored), `!stablehlo.token`,
// `tuple<...>` (nested), `f32`, `!dialect.anything<...>`. Errors carry the
// offset of the offending byte. Nesting depth is bounded.
Result<MlirType> parseMlirType(std::string_view text);

}  // namespace shardbridge

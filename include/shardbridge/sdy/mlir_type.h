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
//
// Accepted beyond the above: `!mhlo.token` (a token); `vector<4x[8]xf32>` and
// `memref<4x?xf32, layout>` / `memref<*xf32>`, which MLIR also counts as
// shaped, as kRankedTensor / kUnrankedTensor; `complex<T>`, the builtin
// integer (`i8`, `si32`, `ui64`) and float (`bf16`, `f32`, `f8E4M3FN`, ...)
// keywords, `index` and `none` as kOther. Unknown bare keywords are rejected
// (`unknown type 'tenosr'`), as are tensors of tensors, tuples or tokens.
// Dialect type bodies, encodings and layouts are kept as text with balanced
// brackets. Nesting (types and brackets) is limited to 64 levels.
//
// `text` is the type re-spelled: no blanks inside `tensor<...>` except
// `", "` before an encoding, `", "` between tuple elements, leading zeros of
// sizes dropped, and in opaque bodies runs of blanks folded to one (none just
// inside brackets or before a comma). parseMlirType(t.text) gives t back.
//   parseMlirType(" tensor< 8 x ? x f32 >")  -> ranked {8, kDynamic}, "f32",
//                                               text "tensor<8x?xf32>"
//   parseMlirType("tuple<f32,!stablehlo.token>") -> text
//                                               "tuple<f32, !stablehlo.token>"
//   parseMlirType("tensor<8f32>") -> error "expected 'x' after dimension
//                                    size, got 'f'" at offset 8
Result<MlirType> parseMlirType(std::string_view text);

}  // namespace shardbridge

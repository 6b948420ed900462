// Finding the shardings of an HLO module text dump: the `sharding={...}`
// attributes of its instructions, as XLA prints a module
// (`HloModule::ToString`, `--xla_dump_to` files):
//
//   HloModule jit_f, entry_computation_layout={(f32[8,16]{1,0})->f32[8,16]{1,0}}
//
//   ENTRY %main.3 (Arg_0.1: f32[8,16]) -> f32[8,16] {
//     %Arg_0.1 = f32[8,16]{1,0} parameter(0), sharding={devices=[2,4]<=[8]}
//     ROOT %neg.2 = f32[8,16]{1,0} negate(f32[8,16]{1,0} %Arg_0.1), sharding={replicated}
//   }
//
//   scanHloDump(text)->shardings
//     -> [{line 4, column 49, computation "%main.3", instruction "%Arg_0.1",
//          opcode "parameter", parameterNumber 0, shapeText "f32[8,16]{1,0}", ...},
//         {line 5, ..., instruction "%neg.2", root true, ...}]
//
// Accepted (token based, as XLA's HloParser, whitespace and newlines free):
//   module      ::= 'HloModule' NAME (',' ATTR)* computation*
//                 | computation+                      (a module without header)
//   computation ::= ['ENTRY'] NAME [signature] '{' instruction* '}'
//                   signature: anything up to the body `{`, with balanced
//                   (), [] and strings; a `{` right after `]` is a layout
//   instruction ::= ['ROOT'] NAME '=' SHAPE OPCODE '(' operands ')' (',' ATTR)*
//   ATTR        ::= KEY '=' VALUE   VALUE: a string, or a run of bytes with
//                   balanced (), [], {} and strings, ending at a top-level
//                   ',' or blank
// NAME may carry XLA's `%` prefix or not (newer dumps drop it); it is
// reported as written. Strings ("..." with backslash escapes) and comments
// (`/* ... */`, `// ...` to the end of the line) are skipped everywhere, so
// `sharding=` inside metadata, backend_config, frontend_attributes values
// or comments is never taken. Only the attribute whose key is exactly
// `sharding` counts; its value must be `{...}` and is parsed with
// hlo::parseSharding.
//
// Errors (kParse, never an abort), each at the byte offset of the token at
// fault: an instruction or computation that is cut off (`unexpected end of
// input`), a missing `=` / `(` / `{`, brackets nested deeper than
// `maxNesting`, a mismatched closing bracket, an unterminated string or
// comment, and the error of a sharding that does not parse, at its offset
// inside the whole text (sharding start + offset inside the sharding).
// One linear pass; memory proportional to the number of shardings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/shape.h"

namespace shardbridge::hlo {

// One `sharding={...}` attribute of an instruction.
struct DumpSharding {
  size_t offset = 0;  // byte offset of the sharding's `{`
  size_t length = 0;  // bytes of the `{...}` text
  size_t line = 1;    // 1-based line and column (bytes) of the `{`
  size_t column = 1;
  std::string computation;  // the enclosing computation, as written ("%main.5")
  bool entry = false;       // whether that computation is the ENTRY one
  std::string instruction;  // "%dot.3" (as written)
  std::string opcode;       // "dot", "custom-call", "parameter", ...
  std::string shapeText;    // the instruction's shape as written, "f32[8,16]{1,0}"
  // parseShape(shapeText), nullopt when it does not parse (an element type
  // this model does not know); the ranks of the values come from here.
  std::optional<Shape> shape;
  bool root = false;                      // the instruction is ROOT
  std::optional<int64_t> parameterNumber;  // N of `parameter(N)`
  HloSharding sharding;                   // the parsed sharding (metadata kept)
};

struct HloDump {
  std::string moduleName;  // NAME after `HloModule`, empty without header
  std::vector<DumpSharding> shardings;  // in text order
};

struct DumpScanOptions {
  // Inputs longer than this are rejected before scanning.
  size_t maxInputBytes = size_t{1} << 30;
  // Deepest bracket nesting accepted inside an attribute value, operand
  // list or signature.
  size_t maxNesting = 256;
};

// Whether `text` looks like an HLO module dump: after blanks and comments it
// starts with `HloModule` or `ENTRY` (a word, followed by a blank).
bool looksLikeHloDump(std::string_view text);

// Scans `text` (an HLO module) for the shardings of its instructions.
Result<HloDump> scanHloDump(std::string_view text, const DumpScanOptions& options = {});

}  // namespace shardbridge::hlo

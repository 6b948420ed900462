// Whether a text is an MLIR module at all, before `convert` rewrites it:
// the module passes copy every byte they do not rewrite, so an HLO text
// dump, a pbtxt or plain text would otherwise come back unchanged with
// success.
//
//   checkMlirModule("module {\n}")          -> ok
//   checkMlirModule("HloModule m\n...")     -> error at 1:1 "not an MLIR module: it starts with
//                                              'HloModule' (an HLO text dump: `shardbridge list` reads those)"
//   checkMlirModule("module {\0}")          -> error at 1:9 "text contains a NUL byte"
#pragma once

#include <string_view>

#include "shardbridge/base/result.h"

namespace shardbridge::module {

// Accepts text whose first significant token (after blanks and `//`
// comments) can start an MLIR file: `module`, a dialect op name such as
// `func.func` or `sdy.mesh` (an identifier with a dot), an attribute or type
// alias (`#name`, `!name`), a generic op (`"`), a value definition (`%`), or a
// `{-#` resource block. Rejects (kParse, located): text that is not valid
// UTF-8 or holds a NUL or control byte (base/input.h checkText), blank
// text ("empty input"), and any other first token.
Status checkMlirModule(std::string_view text);

}  // namespace shardbridge::module

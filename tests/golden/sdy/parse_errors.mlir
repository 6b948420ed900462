// Parse errors of `shardbridge sdy`: the whole diagnostic on stderr. The error
// is MLIR's first diagnostic at MLIR's place, the note the parameter context
// Shardy's parsers add (docs/sdy_parse_errors.md, where the sources are named).

// MLIR has no entry point for other text: shardbridge's own message.
// expected-error {{expected '#sdy.mesh', '#sdy.sharding', '#sdy.sharding_per_value' or 'sdy.mesh', got '#sdy.foo'}}
// expected-error-at {{1:1}}
// STDERR: <input>:1:1: error: expected '#sdy.mesh', '#sdy.sharding', '#sdy.sharding_per_value' or 'sdy.mesh', got '#sdy.foo'
// STDERR: #sdy.foo<[]>
// STDERR: ^
#sdy.foo<[]>

// -----
// MLIR's generic parser: parseLess (AsmParserImpl.h), placed by emitWrongTokenError just after the name.
// expected-error {{expected '<'}}
// expected-error-at {{1:10}}
// STDERR: <input>:1:10: error: expected '<'
// STDERR: #sdy.mesh["a"=2]
// STDERR:          ^
#sdy.mesh["a"=2]

// -----
// Sdy_MeshAxis's name is a StringRefParameter: AsmParser::parseString; the tablegen'd parameter context (AttrOrTypeFormatGen.cpp) is the note.
// expected-error {{expected string}}
// expected-error-at {{1:12}}
// STDERR: <input>:1:12: error: expected string
// STDERR: #sdy.mesh<[a=2]>
// STDERR:            ^
// STDERR: <input>:1:12: note: failed to parse Sdy_Mesh parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`
#sdy.mesh<[a=2]>

// -----
// Sdy_MeshAxis's `=`: parseEqual.
// expected-error {{expected '='}}
// expected-error-at {{1:15}}
// STDERR: <input>:1:15: error: expected '='
// STDERR: #sdy.mesh<["a"2]>
// STDERR:               ^
// STDERR: <input>:1:15: note: failed to parse Sdy_Mesh parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`
#sdy.mesh<["a"2]>

// -----
// AsmParser::parseInteger (OpImplementation.h): a float is no integer.
// expected-error {{expected integer value}}
// expected-error-at {{1:16}}
// STDERR: <input>:1:16: error: expected integer value
// STDERR: #sdy.mesh<["a"=1.5]>
// STDERR:                ^
// STDERR: <input>:1:16: note: failed to parse Sdy_Mesh parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`
#sdy.mesh<["a"=1.5]>

// -----
// Parser::parseOptionalInteger (Parser.cpp).
// expected-error {{integer value too large}}
// expected-error-at {{1:16}}
// STDERR: <input>:1:16: error: integer value too large
// STDERR: #sdy.mesh<["a"=99999999999999999999]>
// STDERR:                ^
// STDERR: <input>:1:16: note: failed to parse Sdy_Mesh parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`
#sdy.mesh<["a"=99999999999999999999]>

// -----
// The `]` after $axes in Sdy_Mesh's format: no parameter context, no note.
// expected-error {{expected ']'}}
// expected-error-at {{1:17}}
// STDERR: <input>:1:17: error: expected ']'
// STDERR: #sdy.mesh<["a"=2 "b"=2]>
// STDERR:                 ^
#sdy.mesh<["a"=2 "b"=2]>

// -----
// The `device_ids` keyword: AsmParserImpl::parseKeyword, at the token.
// expected-error {{expected 'device_ids'}}
// expected-error-at {{1:20}}
// STDERR: <input>:1:20: error: expected 'device_ids'
// STDERR: #sdy.mesh<["a"=2], devices=[1, 0]>
// STDERR:                    ^
#sdy.mesh<["a"=2], devices=[1, 0]>

// -----
// At least one device id (FieldParser of a list, DialectImplementation.h).
// expected-error {{expected integer value}}
// expected-error-at {{1:27}}
// STDERR: <input>:1:27: error: expected integer value
// STDERR: #sdy.mesh<[], device_ids=[]>
// STDERR:                           ^
// STDERR: <input>:1:27: note: failed to parse Sdy_Mesh parameter 'device_ids' which is to be a `::llvm::ArrayRef<int64_t>`
#sdy.mesh<[], device_ids=[]>

// -----
// Sdy_Mesh's `]` after the device ids.
// expected-error {{expected ']'}}
// expected-error-at {{1:33}}
// STDERR: <input>:1:33: error: expected ']'
// STDERR: #sdy.mesh<["a"=2], device_ids=[0 1]>
// STDERR:                                 ^
#sdy.mesh<["a"=2], device_ids=[0 1]>

// -----
// MLIR's scan of the pretty body (DialectSymbolParser.cpp parseDialectSymbolBody), located at the last string it lexed.
// expected-error {{unbalanced '<' character in pretty dialect name}}
// expected-error-at {{1:12}}
// STDERR: <input>:1:12: error: unbalanced '<' character in pretty dialect name
// STDERR: #sdy.mesh<["a"=2]
// STDERR:            ^
#sdy.mesh<["a"=2]

// -----
// mlir::parseAttribute's check for trailing text (DialectSymbolParser.cpp parseSymbol).
// expected-error {{found trailing characters: '>'}}
// expected-error-at {{1:19}}
// STDERR: <input>:1:19: error: found trailing characters: '>'
// STDERR: #sdy.mesh<["a"=2]>>
// STDERR:                   ^
#sdy.mesh<["a"=2]>>

// -----
// The lexer's errors stand alone: no note.
// expected-error {{expected '"' in string literal}}
// expected-error-at {{1:18}}
// STDERR: <input>:1:18: error: expected '"' in string literal
// STDERR: #sdy.mesh<["a=2]>
// STDERR:                  ^
#sdy.mesh<["a=2]>

// -----
// expected-error {{unknown escape in string literal}}
// expected-error-at {{1:14}}
// STDERR: <input>:1:14: error: unknown escape in string literal
// STDERR: #sdy.mesh<["a\q"=2]>
// STDERR:              ^
#sdy.mesh<["a\q"=2]>

// -----
// shardbridge's lexer names the byte.
// expected-error {{unexpected character '$'}}
// expected-error-at {{1:12}}
// STDERR: <input>:1:12: error: unexpected character '$'
// STDERR: #sdy.mesh<[$]>
// STDERR:            ^
#sdy.mesh<[$]>

// -----
// OpAsmParser::parseSymbolName, for Sdy_MeshOp's $sym_name (ops.td).
// expected-error {{expected valid '@'-identifier for symbol name}}
// expected-error-at {{1:10}}
// STDERR: <input>:1:10: error: expected valid '@'-identifier for symbol name
// STDERR: sdy.mesh mesh = <[]>
// STDERR:          ^
sdy.mesh mesh = <[]>

// -----
// expected-error {{@ identifier expected to start with letter or '_'}}
// expected-error-at {{1:11}}
// STDERR: <input>:1:11: error: @ identifier expected to start with letter or '_'
// STDERR: sdy.mesh @1 = <[]>
// STDERR:           ^
sdy.mesh @1 = <[]>

// -----
// parseMeshOrRef (parsers.cc): MLIR's generic parser reads a string attribute, then Shardy's message follows, past it.
// expected-error {{invalid kind of attribute specified}}
// expected-error-at {{1:15}}
// STDERR: <input>:1:15: error: invalid kind of attribute specified
// STDERR: #sdy.sharding<"mesh", [{}]>
// STDERR:               ^
// STDERR: <input>:1:21: note: expecting MeshAttr or FlatSymbolRefAttr, got: <<NULL ATTRIBUTE>>
#sdy.sharding<"mesh", [{}]>

// -----
// parseMeshOrRef: MeshAttr's parseLess, then Shardy's context.
// expected-error {{expected '<'}}
// expected-error-at {{1:19}}
// STDERR: <input>:1:19: error: expected '<'
// STDERR: #sdy.sharding<mesh, [{}]>
// STDERR:                   ^
// STDERR: <input>:1:19: note: failed to parse MeshAttr
#sdy.sharding<mesh, [{}]>

// -----
// Sdy_TensorSharding's `,` after the mesh.
// expected-error {{expected ','}}
// expected-error-at {{1:20}}
// STDERR: <input>:1:20: error: expected ','
// STDERR: #sdy.sharding<@mesh [{}]>
// STDERR:                    ^
#sdy.sharding<@mesh [{}]>

// -----
// DimensionShardingAttr::parse (parsers.cc): parseLBrace; the dim_shardings context is the note.
// expected-error {{expected '{'}}
// expected-error-at {{1:23}}
// STDERR: <input>:1:23: error: expected '{'
// STDERR: #sdy.sharding<@mesh, ["a"]>
// STDERR:                       ^
// STDERR: <input>:1:23: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
#sdy.sharding<@mesh, ["a"]>

// -----
// DimensionShardingAttr::parse: parseComma between axes.
// expected-error {{expected ','}}
// expected-error-at {{1:27}}
// STDERR: <input>:1:27: error: expected ','
// STDERR: #sdy.sharding<@mesh, [{"a" "b"}]>
// STDERR:                           ^
// STDERR: <input>:1:28: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
#sdy.sharding<@mesh, [{"a" "b"}]>

// -----
// `?` must close the dimension: parseRBrace.
// expected-error {{expected '}'}}
// expected-error-at {{1:25}}
// STDERR: <input>:1:25: error: expected '}'
// STDERR: #sdy.sharding<@mesh, [{?, "a"}]>
// STDERR:                         ^
// STDERR: <input>:1:25: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
#sdy.sharding<@mesh, [{?, "a"}]>

// -----
// Sdy_SubAxisInfo's format `(` $pre_size `)` $size.
// expected-error {{expected '('}}
// expected-error-at {{1:28}}
// STDERR: <input>:1:28: error: expected '('
// STDERR: #sdy.sharding<@mesh, [{"a":2}]>
// STDERR:                            ^
// STDERR: <input>:1:28: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
#sdy.sharding<@mesh, [{"a":2}]>

// -----
// Sdy_TensorSharding's `]` after the dimensions.
// expected-error {{expected ']'}}
// expected-error-at {{1:25}}
// STDERR: <input>:1:25: error: expected ']'
// STDERR: #sdy.sharding<@mesh, [{} {}]>
// STDERR:                         ^
#sdy.sharding<@mesh, [{} {}]>

// -----
// The pretty body's '<' is never closed.
// expected-error {{unbalanced '<' character in pretty dialect name}}
// expected-error-at {{1:14}}
// STDERR: <input>:1:14: error: unbalanced '<' character in pretty dialect name
// STDERR: #sdy.sharding<@mesh, [{}]
// STDERR:              ^
#sdy.sharding<@mesh, [{}]

// -----
// Priorities: Shardy's wording, just past the word DimensionShardingAttr::parse consumed.
// expected-error {{expecting priority in format 'p<number>', got: phigh}}
// expected-error-at {{1:39}}
// STDERR: <input>:1:39: error: expecting priority in format 'p<number>', got: phigh
// STDERR: #sdy.sharding<@foo, [{"a"}, {"b"}phigh]>
// STDERR:                                       ^
// STDERR: <input>:1:39: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
#sdy.sharding<@foo, [{"a"}, {"b"}phigh]>

// -----
// expected-error {{expecting integer priority, got: p9999999999999999999}}
// expected-error-at {{1:54}}
// STDERR: <input>:1:54: error: expecting integer priority, got: p9999999999999999999
// STDERR: #sdy.sharding<@foo, [{"a"}, {"b"}p9999999999999999999]>
// STDERR:                                                      ^
// STDERR: <input>:1:54: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
#sdy.sharding<@foo, [{"a"}, {"b"}p9999999999999999999]>

// -----
// expected-error {{priorities with leading zeros are not allowed, got: p01}}
// expected-error-at {{1:30}}
// STDERR: <input>:1:30: error: priorities with leading zeros are not allowed, got: p01
// STDERR: #sdy.sharding<@foo, [{"a"}p01, {"b"}]>
// STDERR:                              ^
// STDERR: <input>:1:30: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
#sdy.sharding<@foo, [{"a"}p01, {"b"}]>

// -----
// parseReplicatedAndUnreducedAxes (parsers.cc): parseEqualsAxisList's parseEqual, then Shardy's context.
// expected-error {{expected '='}}
// expected-error-at {{1:35}}
// STDERR: <input>:1:35: error: expected '='
// STDERR: #sdy.sharding<@m, [{}], replicated{"a"}>
// STDERR:                                   ^
// STDERR: <input>:1:35: note: failed to parse Sdy_TensorSharding parameter 'replicated_axes'
#sdy.sharding<@m, [{}], replicated{"a"}>

// -----
// At least one axis: the first is no string.
// expected-error {{expected string}}
// expected-error-at {{1:37}}
// STDERR: <input>:1:37: error: expected string
// STDERR: #sdy.sharding<@m, [{}], replicated={}>
// STDERR:                                     ^
// STDERR: <input>:1:37: note: failed to parse Sdy_TensorSharding parameter 'replicated_axes'
#sdy.sharding<@m, [{}], replicated={}>

// -----
// A reduction other than sum/max/min is not consumed: the '{' is missing.
// expected-error {{expected '{'}}
// expected-error-at {{1:35}}
// STDERR: <input>:1:35: error: expected '{'
// STDERR: #sdy.sharding<@m, [{}], unreduced=avg{"a"}>
// STDERR:                                   ^
// STDERR: <input>:1:35: note: failed to parse Sdy_TensorSharding parameter 'unreduced_axes'
#sdy.sharding<@m, [{}], unreduced=avg{"a"}>

// -----
// Shardy's one-diagnostic error: no note.
// expected-error {{failed to parse Sdy_TensorSharding, expected valid named axis list after comma}}
// expected-error-at {{1:24}}
// STDERR: <input>:1:24: error: failed to parse Sdy_TensorSharding, expected valid named axis list after comma
// STDERR: #sdy.sharding<@m, [{}],>
// STDERR:                        ^
#sdy.sharding<@m, [{}],>

// -----
// expected-error {{failed to parse Sdy_TensorSharding, expected valid named axis list after comma}}
// expected-error-at {{1:43}}
// STDERR: <input>:1:43: error: failed to parse Sdy_TensorSharding, expected valid named axis list after comma
// STDERR: #sdy.sharding<@m, [{}], replicated={"a"}, replicated={"b"}>
// STDERR:                                           ^
#sdy.sharding<@m, [{}], replicated={"a"}, replicated={"b"}>

// -----
// Sdy_TensorShardingPerValue's $shardings: each starts with '<'.
// expected-error {{expected '<'}}
// expected-error-at {{1:26}}
// STDERR: <input>:1:26: error: expected '<'
// STDERR: #sdy.sharding_per_value<[@m, []]>
// STDERR:                          ^
// STDERR: <input>:1:26: note: failed to parse Sdy_TensorShardingPerValue parameter 'shardings' which is to be a `::llvm::ArrayRef<TensorShardingAttr>`
#sdy.sharding_per_value<[@m, []]>

// -----
// An inner sharding's own context wins over the list's.
// expected-error {{expected ','}}
// expected-error-at {{1:36}}
// STDERR: <input>:1:36: error: expected ','
// STDERR: #sdy.sharding_per_value<[<@m, [{"a" "b"}]>]>
// STDERR:                                    ^
// STDERR: <input>:1:37: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
#sdy.sharding_per_value<[<@m, [{"a" "b"}]>]>

// -----
// expected-error {{expected ']'}}
// expected-error-at {{1:34}}
// STDERR: <input>:1:34: error: expected ']'
// STDERR: #sdy.sharding_per_value<[<@m, []> <@m, []>]>
// STDERR:                                  ^
#sdy.sharding_per_value<[<@m, []> <@m, []>]>

// -----
// A wrong token at the start of a line is reported at the end of the line before (Parser.cpp emitWrongTokenError).
// expected-error {{expected ']'}}
// expected-error-at {{1:17}}
// STDERR: <input>:1:17: error: expected ']'
// STDERR: #sdy.mesh<["a"=2
// STDERR:                 ^
#sdy.mesh<["a"=2
  "b"=2]>

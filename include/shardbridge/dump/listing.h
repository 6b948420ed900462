// Listing every sharding of a file (issue 5 item 2, `shardbridge list`):
// each with its place, the HLO string and the named (sdy) form on the mesh
// inferred from all of them together, as XLA's ImportShardingsPass would
// import the module.
//
//   sdy::Context ctx;
//   auto l = listShardings(ctx, hloModuleText).value();
//   l.meshes[0]           -> {"mesh", <["_axis_0"=2, "_axis_1"=4]>}
//   l.shardings[0].place  -> "parameter 0 (%Arg_0.1) in %main.10"
//   l.shardings[0].hlo    -> "{devices=[2,4]<=[8]}"
//   l.shardings[0].sdy    -> "#sdy.sharding<@mesh, [{\"_axis_0\"}, {\"_axis_1\"}]>"
//   printListingText(l)   -> the `shardbridge list` output
//   printListingJson(l, "dump.txt") -> the `shardbridge list --json` output
//
// One row per sharding attribute: a tuple sharding is one row whose named
// form is a `#sdy.sharding_per_value<[...]>`, as sdy writes the shardings
// of a multi-result op (and as `shardbridge import` prints a tuple).
//
// MLIR modules (module/mlir_scan.h): one row per scanned sharding site.
// A file with several modules lists each on its own (its meshes, its rows,
// a mesh inferred over its own mhlo.sharding strings), rows and meshes
// naming their module. `meshes` lists the module's own meshes (sdy.mesh ops, xla.sdy.meshes
// entries) in text order. An sdy site (sdy.sharding, xla.sdy.sharding,
// sdy.sharding_constraint, in_shardings, out_shardings) has its own text,
// parsed, verified against those meshes (and the written value types) and
// printed canonically, as `sdy`, and its export (convert::convertToHloSharding
// with the manual axes of the enclosing sdy.manual_computation ops) printed
// as XLA writes it into mhlo.sharding, metadata included, as `hlo`. An
// mhlo.sharding site (HLO text or serialized OpSharding bytes, as
// module::importModule reads it) has its HLO string as `hlo` and its import
// as `sdy`, onto the mesh inferred over all mhlo.sharding strings of the
// module (or --mesh), appended to `meshes` like an HLO dump's: a
// `#sdy.sharding_per_value` on an op, at the ranks of the written types, as
// module::importModule does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/convert/any_order.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::dump {

// What a file holds, judged by detectInputFormat.
enum class InputFormat : uint8_t {
  kHloModule,  // an HLO module text dump
  kMlir,       // StableHLO / sdy MLIR text
  kProtoBinary,  // one binary xla.OpSharding
  kProtoText,    // one OpSharding in text format
  kProtoJson,    // one OpSharding as JSON
  kShardingText,  // one HLO sharding string `{...}`
};

// "hlo", "mlir", "pb", "pbtxt", "json", "text".
const char* inputFormatName(InputFormat format);

// After blanks and `//` comments: `HloModule `/`ENTRY ` is an HLO module;
// `module`, `func.func`, `sdy.mesh`, `#` directly followed by a letter (an
// attribute alias or `#sdy...`), or text without NUL bytes that contains
// `func.func` anywhere is MLIR; anything else is what
// proto::detectShardingFormat says (a `# ` comment is pbtxt's).
InputFormat detectInputFormat(std::string_view data);

// One listed sharding.
struct ListedSharding {
  // Where the sharding text starts: byte offset and length of its text and
  // 1-based line/column. Absent for binary input.
  std::optional<size_t> offset;
  size_t length = 0;
  size_t line = 0;
  size_t column = 0;
  // For people: "%dot.3 in %main.5", "ROOT %tuple.9 in %main.10",
  // "parameter 0 (%Arg_0.1) in %main.10", "OpSharding", "sharding".
  std::string place;
  // HLO rows: the computation, instruction and opcode as written, the
  // instruction's shape text; empty otherwise (MLIR rows included).
  std::string computation;
  std::string instruction;
  std::string opcode;
  std::string shape;
  std::optional<int64_t> parameter;  // N of a `parameter(N)` instruction
  bool root = false;
  bool entry = false;  // in the ENTRY computation
  // The attribute that held it: "sharding" (HLO), or for MLIR rows
  // "sdy.sharding", "mhlo.sharding", ...; empty for a sharding file.
  std::string attribute;
  hlo::HloSharding sharding;
  // The ranks the values were imported with, one per value (the shape's
  // leaves when known, else each leaf's own rank: a tiled leaf's data rank,
  // a V3 leaf's dim count, else 0). MLIR rows: the written types' ranks
  // when known, else each sharding's own (an sdy sharding's dim count);
  // empty when an sdy site does not parse.
  std::vector<int64_t> ranks;
  // printSharding(sharding, metadata?); MLIR sdy rows: the export, with
  // metadata; empty when the sdy site has no export (then `error`).
  std::string hlo;
  // The named form (`#sdy.sharding<...>` or `#sdy.sharding_per_value<...>`),
  // or empty with `error` saying why there is none.
  std::string sdy;
  std::string error;
  // In an MLIR file with several modules, the module it is in: `@NAME`, or
  // `#N` (1-based) for an unnamed one; empty otherwise.
  std::string module;
};

struct ListedMesh {
  std::string name;  // without '@'
  sdy::MeshAttr mesh;
  std::string module;  // as ListedSharding::module
};

struct Listing {
  InputFormat format = InputFormat::kHloModule;
  std::string module;  // the HloModule name, if any
  // `@mesh` (inferred, or --mesh) first, then `@single_device_<id>` ones.
  // Empty when there is no sharding or the inference failed.
  std::vector<ListedMesh> meshes;
  std::string meshError;  // why no mesh could be inferred; empty otherwise
  std::vector<ListedSharding> shardings;
  // An MLIR file with several modules: each module's label (as
  // ListedSharding::module), in text order; empty otherwise.
  std::vector<std::string> modules;
};

struct ListOptions {
  // Print metadata in the HLO strings.
  bool includeMetadata = false;
  // Import onto this mesh, called `meshName`, instead of the inferred one.
  std::optional<sdy::MeshAttr> mesh;
  std::string meshName = "mesh";
  // Beyond upstream: device orders upstream aborts on (any_order.h).
  convert::AnyOrderOptions anyOrder{true};
};

// Lists every sharding of `data`. Errors: the file does not parse (kParse,
// with the byte offset into `data` when the format is textual); for MLIR,
// scanMlir's errors, a module mesh that does not parse or verify, or a mesh
// name defined twice (located). A sharding that cannot be read, verified,
// exported or imported is not an error: its row carries `error`.
Result<Listing> listShardings(sdy::Context& ctx, std::string_view data,
                              const ListOptions& options = {});

// The text form: one `sdy.mesh @NAME = <...>` line per mesh, then one line
// per sharding with four tab-separated fields (for a file with several
// modules, this for each module after a `// module LABEL` line):
//   LINE:COL <tab> PLACE <tab> HLO <tab> NAMED
// LINE:COL is `-` for binary input; NAMED is `error: MESSAGE` when the row
// has no named form. No field holds a tab or newline (they are printed as
// blanks), so `cut -s -f3` gives the HLO strings.
std::string printListingText(const Listing& listing);

// The JSON form (docs/json.md, `list --json`).
std::string printListingJson(const Listing& listing, std::string_view file);

}  // namespace shardbridge::dump

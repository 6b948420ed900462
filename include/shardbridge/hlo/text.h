// The HLO sharding text: XLA's `sharding={...}` syntax, parsed and printed.
//
//   auto s = parseSharding("{devices=[2,2]<=[2,2]T(0,1)}").value();
//   printSharding(s)          -> "{devices=[2,2]<=[4]}"
//   parseSharding("{devices=[2,1,2]3,2,1,0 last_tile_dims={replicated}}")
//       .value().toString()   -> "{devices=[2,1,2]2,3,0,1 last_tile_dim_replicate}"
//
// Accepted (as XLA's HloParserImpl::ParseSharding):
//   sharding ::= '{' leaf-body | '{' [leaf (',' leaf)*] '}'     (tuple; `{}` empty)
//   leaf     ::= '{' token* '}'    tokens in any order, whitespace separated:
//                replicated manual unknown unreduced maximal last_tile_dim_replicate
//                device=INT  devices=TILE  metadata=MD  last_tile_dims={TYPE,...}
//                shard_as INT  shard_like INT
//   TILE     ::= '[' INT,... ']' ( INT,...  |  '<=' '[' INT,... ']' ['T(' INT,... ')'] )
//   MD       ::= '{' k=v ... '}' | '{' '{' ... '}' (',' '{' ... '}')* '}'
// Comments (`/*...*/`, `//...`) and whitespace are skipped anywhere.
// Duplicate or negative device ids are accepted (validate() rejects them).
//
// Rejected with XLA's message where XLA has one, and with a located error
// where XLA would abort or read out of bounds: last_tile_dim_replicate together
// with a non-empty last_tile_dims, a V1 device count that differs from the
// dims product, a perm that is not a permutation, a reshape product that
// differs from the dims product, dims < 1, more than 2^31 devices, integer
// overflow, an iota mixed with a device list. Tuples cannot nest (XLA's
// grammar), so nesting depth is bounded by construction. V3 named shardings
// (`{mesh[...], ...}`, `{maximal_mesh[...]}`, `{single_device[...]}`) are
// parsed by named_text.cc (see named_sharding.h), also as tuple elements.
//
// Every error carries the byte offset of the offending token.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::hlo {

struct ShardingParseOptions {
  // Inputs longer than this are rejected before lexing.
  size_t maxInputBytes = size_t{64} << 20;
  // Tuples of more elements are rejected where the first extra one starts
  // (bounded memory: each leaf costs far more than its text).
  size_t maxTupleLeaves = size_t{1} << 16;
};

// Parses one sharding (leaf or tuple); only whitespace/comments may follow.
Result<HloSharding> parseSharding(std::string_view text, const ShardingParseOptions& options = {});

// XLA's HloSharding::ToString(includeMetadata).
std::string printSharding(const HloSharding& sharding, bool includeMetadata = false);

}  // namespace shardbridge::hlo

// HloSharding's printer (XLA's HloSharding::Print) and the names it uses.
#include "shardbridge/hlo/hlo_sharding.h"

#include "shardbridge/hlo/named_sharding.h"

#include <string>

namespace shardbridge::hlo {

namespace {

void printMetadataSuffix(const std::vector<OpMetadata>& md, std::string& out) {
  if (md.empty()) return;
  out += " metadata={";
  if (md.size() == 1) {
    printOpMetadata(md.front(), out);
  } else {
    for (size_t i = 0; i < md.size(); ++i) {
      if (i) out += ", ";
      out += '{';
      printOpMetadata(md[i], out);
      out += '}';
    }
  }
  out += '}';
}

}  // namespace

const char* subgroupTypeName(OpShardingType type) {
  switch (type) {
    case OpShardingType::kManual: return "manual";
    case OpShardingType::kMaximal: return "maximal";
    case OpShardingType::kReplicated: return "replicated";
    case OpShardingType::kUnreduced: return "unreduced";
    default: return "error_type.";
  }
}

std::string ShardGroup::toString() const {
  if (shardLike) return "shard_like " + std::to_string(id);
  if (shardAs) return "shard_as " + std::to_string(id);
  return "";
}

// ---------------------------------------------------------------------------
// Printing (XLA's HloSharding::Print)

void HloSharding::print(std::string& out, bool includeMetadata) const {
  if (isTuple()) {
    out += '{';
    for (size_t i = 0; i < tupleElements_.size(); ++i) {
      if (i != 0) {
        out += ", ";
        if (i % 5 == 0) {
          out += "/*index=";
          out += std::to_string(i);
          out += "*/";
        }
      }
      tupleElements_[i].print(out, includeMetadata);
    }
    out += '}';
    return;
  }
  if (kind_ == Kind::kNamed) {
    named_->print(out, includeMetadata);
    return;
  }
  auto suffix = [&] {
    if (shardGroup_.shardLike || shardGroup_.shardAs) {
      out += ' ';
      out += shardGroup_.toString();
    }
    if (includeMetadata) printMetadataSuffix(metadata_, out);
    out += '}';
  };
  switch (kind_) {
    case Kind::kReplicated: out += "{replicated"; return suffix();
    case Kind::kManual: out += "{manual"; return suffix();
    case Kind::kUnknown: out += "{unknown"; return suffix();
    case Kind::kUnreduced: out += "{unreduced"; return suffix();
    case Kind::kSingleDevice:
      out += "{maximal device=";
      out += std::to_string(tileAssignment_.first());
      return suffix();
    default: break;
  }
  out += '{';
  tileAssignment_.print(out);
  if (replicateOnLastTileDim_) out += " last_tile_dim_replicate";
  if (!subgroupTypes_.empty()) {
    out += " last_tile_dims={";
    for (size_t i = 0; i < subgroupTypes_.size(); ++i) {
      if (i) out += ", ";
      out += subgroupTypeName(subgroupTypes_[i]);
    }
    out += '}';
  }
  suffix();
}

std::string HloSharding::toString(bool includeMetadata) const {
  std::string out;
  out.reserve(128);
  print(out, includeMetadata);
  return out;
}

}  // namespace shardbridge::hlo

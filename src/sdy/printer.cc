// Canonical text of sdy attributes, byte-identical to upstream Shardy's
// printers (printers.cc and the assembly formats of attrs.td): `", "` between
// list elements, no spaces inside `"a"=2`, `"a":(2)2` or `}p1`, `replicated`
// before `unreduced`, and a SUM reduction printed without a keyword.
#include <string>

#include "sdy/lexer.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy {
namespace {

constexpr const char* kNullAttr = "<<NULL ATTRIBUTE>>";

// MLIR's string escaping (llvm::printEscapedString): a backslash doubles,
// a quote and every byte outside printable ASCII become `\XX`.
void appendEscaped(std::string& out, std::string_view bytes) {
  static const char kHex[] = "0123456789ABCDEF";
  for (char c : bytes) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\\') {
      out += "\\\\";
    } else if (u >= 0x20 && u < 0x7f && c != '"') {
      out += c;
    } else {
      out += '\\';
      out += kHex[u >> 4];
      out += kHex[u & 0xf];
    }
  }
}

void appendQuoted(std::string& out, std::string_view name) {
  out += '"';
  appendEscaped(out, name);
  out += '"';
}

// `@name` when the name is a bare identifier, else `@"quoted"`, as MLIR
// prints symbol references.
void appendSymbol(std::string& out, std::string_view name) {
  out += '@';
  bool bare = !name.empty() &&
              ((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') ||
               name[0] == '_');
  for (char c : name) bare = bare && lexer::isIdentifierChar(c);
  if (bare) {
    out += name;
  } else {
    appendQuoted(out, name);
  }
}

void appendAxisRef(std::string& out, AxisRefAttr axis) {
  if (!axis) {
    out += kNullAttr;
    return;
  }
  appendQuoted(out, axis.name());
  if (SubAxisInfoAttr info = axis.subAxisInfo()) {
    out += ":(" + std::to_string(info.preSize()) + ")" + std::to_string(info.size());
  }
}

void appendAxisList(std::string& out, std::span<const AxisRefAttr> axes) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    appendAxisRef(out, axes[i]);
  }
}

// <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
void appendMeshBody(std::string& out, MeshAttr mesh) {
  if (!mesh) {
    out += kNullAttr;
    return;
  }
  out += "<[";
  auto axes = mesh.axes();
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    appendQuoted(out, axes[i].name());
    out += "=" + std::to_string(axes[i].size());
  }
  out += "]";
  auto ids = mesh.deviceIds();
  if (!ids.empty()) {
    out += ", device_ids=[";
    for (size_t i = 0; i < ids.size(); ++i) {
      if (i) out += ", ";
      out += std::to_string(ids[i]);
    }
    out += "]";
  }
  out += ">";
}

// {"a", ?}p1, {?}, {}
void appendDimSharding(std::string& out, DimensionShardingAttr dim) {
  if (!dim) {
    out += kNullAttr;
    return;
  }
  out += "{";
  appendAxisList(out, dim.axes());
  if (dim.isOpen()) out += dim.emptyAxes() ? "?" : ", ?";
  out += "}";
  if (auto priority = dim.priority()) out += "p" + std::to_string(*priority);
}

// <@mesh, [{"a"}, {}], replicated={"c"}, unreduced=max{"d"}>
void appendShardingBody(std::string& out, TensorShardingAttr sharding) {
  if (!sharding) {
    out += kNullAttr;
    return;
  }
  out += "<";
  MeshOrRef meshOrRef = sharding.meshOrRef();
  if (meshOrRef.isRef()) {
    appendSymbol(out, meshOrRef.refName());
  } else if (meshOrRef.isInline()) {
    out += "mesh";
    appendMeshBody(out, meshOrRef.inlineMeshAttr());
  } else {
    out += kNullAttr;
  }
  out += ", [";
  auto dims = sharding.dimShardings();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ", ";
    appendDimSharding(out, dims[i]);
  }
  out += "]";
  if (!sharding.replicatedAxes().empty()) {
    out += ", replicated={";
    appendAxisList(out, sharding.replicatedAxes());
    out += "}";
  }
  if (!sharding.unreducedAxes().empty()) {
    out += ", unreduced=";
    if (sharding.reductionOp() != ReductionOp::kSum) out += reductionOpName(sharding.reductionOp());
    out += "{";
    appendAxisList(out, sharding.unreducedAxes());
    out += "}";
  }
  out += ">";
}

// The form found inside an MLIR string attribute: the canonical text escaped
// once more, so `"` reads `\22` and `\` reads `\\`.
std::string finish(std::string text, const PrintOptions& options) {
  if (!options.escapeQuotes) return text;
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (char c : text) {
    if (c == '"') {
      out += "\\22";
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string printMesh(MeshAttr mesh, const PrintOptions& options) {
  std::string out = options.withPrefix ? "#sdy.mesh" : "";
  appendMeshBody(out, mesh);
  return finish(std::move(out), options);
}

std::string printMeshSymbol(const MeshSymbol& symbol, const PrintOptions& options) {
  std::string out = "sdy.mesh ";
  appendSymbol(out, symbol.name);
  out += " = ";
  appendMeshBody(out, symbol.mesh);
  return finish(std::move(out), options);
}

std::string printTensorSharding(TensorShardingAttr sharding, const PrintOptions& options) {
  std::string out = options.withPrefix ? "#sdy.sharding" : "";
  appendShardingBody(out, sharding);
  return finish(std::move(out), options);
}

std::string printTensorShardingPerValue(TensorShardingPerValueAttr shardings,
                                        const PrintOptions& options) {
  std::string out = options.withPrefix ? "#sdy.sharding_per_value" : "";
  if (!shardings) {
    out += kNullAttr;
    return finish(std::move(out), options);
  }
  out += "<[";
  auto list = shardings.shardings();
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) out += ", ";
    appendShardingBody(out, list[i]);
  }
  out += "]>";
  return finish(std::move(out), options);
}

std::string printAxisRef(AxisRefAttr axis, const PrintOptions& options) {
  std::string out;
  appendAxisRef(out, axis);
  return finish(std::move(out), options);
}

std::string printAttribute(const AnyAttr& attr, const PrintOptions& options) {
  if (const auto* mesh = std::get_if<MeshAttr>(&attr)) return printMesh(*mesh, options);
  if (const auto* symbol = std::get_if<MeshSymbol>(&attr)) return printMeshSymbol(*symbol, options);
  if (const auto* sharding = std::get_if<TensorShardingAttr>(&attr)) {
    return printTensorSharding(*sharding, options);
  }
  return printTensorShardingPerValue(std::get<TensorShardingPerValueAttr>(attr), options);
}

std::string printSymbolRef(std::string_view name) {
  std::string out;
  appendSymbol(out, name);
  return out;
}

}  // namespace shardbridge::sdy

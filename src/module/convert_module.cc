#include "shardbridge/module/convert_module.h"

#include "module/convert_module_detail.h"

namespace shardbridge::module_detail {

Result<std::vector<std::pair<std::string, std::pair<std::string, size_t>>>> splitMeshDict(
    std::string_view d) {
  std::vector<std::pair<std::string, std::pair<std::string, size_t>>> out;
  size_t p = 0;
  auto ws = [&] {
    while (p < d.size() && (d[p] == ' ' || d[p] == '\t' || d[p] == '\n' || d[p] == '\r')) ++p;
  };
  auto err = [&](std::string what) {
    return makeError(ErrorCode::kParse, "expected " + what + " in xla.sdy.meshes", p);
  };
  ws();
  if (p >= d.size() || d[p] != '{') return err("'{'");
  ++p;
  ws();
  if (p < d.size() && d[p] == '}') return out;
  while (true) {
    ws();
    std::string name;
    if (p < d.size() && d[p] == '"') {
      size_t b = ++p;
      while (p < d.size() && d[p] != '"') ++p;
      if (p >= d.size()) return err("'\"'");
      name = std::string(d.substr(b, p - b));
      ++p;
    } else {
      size_t b = p;
      while (p < d.size() && (std::isalnum(static_cast<unsigned char>(d[p])) || d[p] == '_' ||
                              d[p] == '.' || d[p] == '$' || d[p] == '-'))
        ++p;
      if (p == b) return err("a mesh name");
      name = std::string(d.substr(b, p - b));
    }
    ws();
    if (p >= d.size() || d[p] != '=') return err("'='");
    ++p;
    ws();
    size_t b = p;
    int depth = 0;
    bool inString = false;
    for (; p < d.size(); ++p) {
      char c = d[p];
      if (inString) {
        if (c == '\\') ++p;
        else if (c == '"') inString = false;
        continue;
      }
      if (c == '"') inString = true;
      else if (c == '<' || c == '[' || c == '(' || c == '{') ++depth;
      else if (c == '>' || c == ']' || c == ')' || (c == '}' && depth > 0)) --depth;
      else if (depth == 0 && (c == ',' || c == '}')) break;
      if (depth > 64) return err("less nesting");
    }
    if (p >= d.size()) return err("',' or '}'");
    size_t e = p;
    while (e > b && (d[e - 1] == ' ' || d[e - 1] == '\t' || d[e - 1] == '\n')) --e;
    out.push_back({std::move(name), {std::string(d.substr(b, e - b)), b}});
    if (d[p] == '}') break;
    ++p;
  }
  return out;
}

}  // namespace shardbridge::module_detail

namespace shardbridge::module {

using convert_detail::isBlank;

Result<hlo::HloSharding> readMhloSharding(std::string_view value) {
  size_t i = 0;
  while (i < value.size() && isBlank(value[i])) ++i;
  if (i < value.size() && value[i] == '{') return hlo::parseSharding(value);
  auto s = proto::readSharding(value, proto::ShardingFormat::kProtoBinary);
  if (!s) {
    Error e = s.error();
    e.message = "mhlo.sharding is neither HLO sharding text nor a serialized OpSharding: " + e.message;
    e.dropOffsets();
    return e;
  }
  return std::move(s->sharding);
}

}  // namespace shardbridge::module

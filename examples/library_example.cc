// The README's library example, built and run by CTest so it stays true.
#include <iostream>

#include "shardbridge/base/diagnostic.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/proto/op_sharding.h"
#include "shardbridge/sdy/text.h"

int main() {
  using namespace shardbridge;
  sdy::Context ctx;  // owns and uniques attributes; thread-safe
  sdy::MeshAttr mesh = *sdy::parseMesh(ctx, R"(<["x"=8, "y"=4]>)");
  auto text = R"(#sdy.sharding<@mesh, [{"y"}, {"x":(2)2}]>)";
  auto sharding = sdy::parseTensorSharding(ctx, text);
  if (!sharding) return std::cerr << renderDiagnostic(sharding.error(), text), 1;

  // sdy -> HloSharding, as OpenXLA's exporter writes it (verifies first).
  auto lookup = [&](std::string_view) { return mesh; };
  auto hlo = convert::convertToHloSharding(*sharding, lookup);
  if (!hlo) return std::cerr << hlo.error().message << "\n", 1;
  std::cout << hlo->toString() << "\n";  // {devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}

  // The xla.OpSharding bytes XLA would serialise, and back.
  auto bytes = proto::printOpSharding(*hlo, proto::ProtoFormat::kBinary);
  auto back = proto::parseOpSharding(*bytes, proto::ProtoFormat::kBinary);

  // HloSharding -> sdy on the same mesh (rank 2, closed dims).
  auto named = convert::convertToSdySharding(ctx, *back, mesh, sdy::MeshOrRef::ref(ctx, "mesh"),
                                             {}, /*rank=*/2, /*openDims=*/false);
  if (!named) return std::cerr << named.error().message << "\n", 1;
  std::cout << sdy::printTensorSharding(*named) << "\n";  // the input again
  return sdy::printTensorSharding(*named) == text ? 0 : 1;
}

// A C++ program using the installed shardbridge library. Built by
// examples/consumer/CMakeLists.txt (find_package) and, in CTest, with
//   g++ -std=c++20 main.cc $(pkg-config --cflags --libs shardbridge)
#include <shardbridge/convert/export.h>
#include <shardbridge/convert/import.h>
#include <shardbridge/proto/op_sharding.h>
#include <shardbridge/sdy/text.h>
#include <shardbridge/version.h>

#include <iostream>

int main() {
  using namespace shardbridge;
  sdy::Context ctx;
  auto mesh = sdy::parseMesh(ctx, R"(<["x"=2, "y"=4]>)");
  auto sharding = sdy::parseTensorSharding(ctx, R"(#sdy.sharding<@mesh, [{"y"}, {"x"}]>)");
  if (!mesh || !sharding) return 1;

  // sdy -> HloSharding -> xla.OpSharding bytes -> HloSharding -> sdy.
  auto hlo = convert::convertToHloSharding(*sharding, [&](std::string_view) { return *mesh; });
  if (!hlo) return std::cerr << hlo.error().message << "\n", 1;
  auto bytes = proto::printOpSharding(*hlo, proto::ProtoFormat::kBinary);
  auto read = proto::parseOpSharding(*bytes, proto::ProtoFormat::kBinary);
  auto back = convert::convertToSdySharding(ctx, *read, *mesh, sdy::MeshOrRef::ref(ctx, "mesh"), {},
                                            /*rank=*/2, /*openDims=*/false);
  if (!back) return std::cerr << back.error().message << "\n", 1;

  std::cout << "shardbridge " << versionString() << "\n"
            << hlo->toString() << "\n"                   // {devices=[4,2]<=[2,4]T(1,0)}
            << sdy::printTensorSharding(*back) << "\n";  // the input again
  return *back == *sharding ? 0 : 1;
}

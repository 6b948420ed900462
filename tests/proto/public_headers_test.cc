// The installed-header contract (issue 11 item 1): every header under
// include/shardbridge/ is installed except those under
// include/shardbridge/proto/pb/, and no installed header may include a
// generated .pb.h or name protobuf types, so a consumer never sees our
// `shardbridge.wire` messages (docs/development.md, "The proto package").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kInclude = fs::path(SB_SOURCE_DIR) / "include" / "shardbridge";
const fs::path kInternal = kInclude / "proto" / "pb";

bool isInternal(const fs::path& header) {
  auto rel = header.lexically_relative(kInternal);
  return !rel.empty() && *rel.begin() != "..";
}

// Lines of `header` that include a generated header or a protobuf header, or
// name the generated namespace or protobuf's outside a `//` comment (comments
// may say where the protobuf types are).
std::vector<std::string> protobufUses(const fs::path& header) {
  static const std::regex kUse(
      R"re(^\s*#\s*include\s*[<"][^>"]*(\.pb\.h|google/protobuf/)[^>"]*[>"]|\bwire::|google::protobuf)re");
  std::ifstream in(header);
  std::vector<std::string> hits;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::string code = line.substr(0, line.find("//"));
    if (std::regex_search(code, kUse)) hits.push_back(header.string() + ":" + std::to_string(n) + ": " + line);
  }
  return hits;
}

std::vector<fs::path> headers() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(kInclude)) {
    if (entry.is_regular_file() && entry.path().extension() == ".h") out.push_back(entry.path());
  }
  return out;
}

TEST(PublicHeaders, NoInstalledHeaderExposesProtobuf) {
  std::vector<fs::path> all = headers();
  ASSERT_FALSE(all.empty()) << "no headers under " << kInclude;
  size_t installed = 0;
  std::string offenders;
  for (const fs::path& h : all) {
    if (isInternal(h)) continue;
    ++installed;
    for (const std::string& hit : protobufUses(h)) offenders += hit + "\n";
  }
  EXPECT_GT(installed, 0u);
  EXPECT_EQ(offenders, "") << "move these headers to include/shardbridge/proto/pb/";
}

// The check above is only as good as its pattern: it must see the internal
// headers' uses, which are real.
TEST(PublicHeaders, PatternFindsTheInternalHeadersUses) {
  ASSERT_TRUE(fs::is_directory(kInternal));
  for (const char* name : {"convert.h", "wire.h", "named_sharding_proto.h"}) {
    EXPECT_FALSE(protobufUses(kInternal / name).empty()) << name;
  }
  EXPECT_TRUE(isInternal(kInternal / "wire.h"));
  EXPECT_FALSE(isInternal(kInclude / "proto" / "op_sharding.h"));
  EXPECT_FALSE(isInternal(kInclude / "proto" / "pbx" / "a.h"));
}

}  // namespace

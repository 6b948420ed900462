// Rendering of the show grid: the terminal text (golden, colour off; the
// expected pictures were checked by eye against the tile layout) and the
// SVG / HTML (well-formed XML, checked by a small strict parser below).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include <cctype>
#include <string>
#include <vector>

#include "shardbridge/hlo/text.h"
#include "shardbridge/view/grid.h"
#include "shardbridge/view/render_svg.h"
#include "shardbridge/view/render_text.h"

namespace shardbridge::view {
namespace {

using I64s = std::vector<int64_t>;

// A strict XML well-formedness check, enough for what renderSvg writes: one
// optional XML declaration, then elements with quoted attributes (no
// duplicates), balanced tags, and text whose only `&` start the five
// predefined entities or numeric references; no `<` in attribute values or
// text. Returns "" when well-formed, else what is wrong.
class XmlChecker {
 public:
  explicit XmlChecker(std::string_view s) : s_(s) {}

  std::string check() {
    if (s_.substr(0, 5) == "<?xml") {
      size_t end = s_.find("?>");
      if (end == std::string_view::npos) return "unterminated declaration";
      i_ = end + 2;
    }
    skipSpace();
    if (i_ >= s_.size() || s_[i_] != '<') return "no root element";
    std::string error = element();
    if (!error.empty()) return error;
    skipSpace();
    if (i_ != s_.size()) return "content after the root element at " + std::to_string(i_);
    return "";
  }

 private:
  void skipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  static bool nameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.';
  }
  std::string name(std::string& out) {
    size_t start = i_;
    while (i_ < s_.size() && nameChar(s_[i_])) ++i_;
    if (i_ == start) return "expected a name at " + std::to_string(start);
    out = std::string(s_.substr(start, i_ - start));
    return "";
  }
  std::string entities(std::string_view text, size_t at) {
    for (size_t k = 0; k < text.size(); ++k) {
      if (text[k] == '<') return "'<' in text or attribute at " + std::to_string(at + k);
      if (text[k] != '&') continue;
      size_t semi = text.find(';', k);
      if (semi == std::string_view::npos) return "unterminated entity at " + std::to_string(at + k);
      std::string_view ent = text.substr(k + 1, semi - k - 1);
      bool ok = ent == "amp" || ent == "lt" || ent == "gt" || ent == "quot" || ent == "apos" ||
                (ent.size() > 1 && ent[0] == '#');
      if (!ok) return "unknown entity &" + std::string(ent) + "; at " + std::to_string(at + k);
    }
    return "";
  }
  std::string element() {
    ++i_;  // '<'
    std::string tag;
    if (auto e = name(tag); !e.empty()) return e;
    std::vector<std::string> attrs;
    while (true) {
      skipSpace();
      if (i_ >= s_.size()) return "unterminated tag <" + tag;
      if (s_.substr(i_, 2) == "/>") {
        i_ += 2;
        return "";
      }
      if (s_[i_] == '>') {
        ++i_;
        break;
      }
      std::string attr;
      if (auto e = name(attr); !e.empty()) return e;
      for (const auto& a : attrs)
        if (a == attr) return "duplicate attribute " + attr;
      attrs.push_back(attr);
      if (i_ >= s_.size() || s_[i_] != '=') return "attribute " + attr + " without '='";
      ++i_;
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) return "unquoted attribute " + attr;
      char q = s_[i_++];
      size_t end = s_.find(q, i_);
      if (end == std::string_view::npos) return "unterminated attribute " + attr;
      if (auto e = entities(s_.substr(i_, end - i_), i_); !e.empty()) return e;
      i_ = end + 1;
    }
    // Content until the matching close tag.
    while (true) {
      size_t lt = s_.find('<', i_);
      if (lt == std::string_view::npos) return "unclosed <" + tag + ">";
      if (auto e = entities(s_.substr(i_, lt - i_), i_); !e.empty()) return e;
      i_ = lt;
      if (s_.substr(i_, 2) == "</") {
        i_ += 2;
        std::string close;
        if (auto e = name(close); !e.empty()) return e;
        if (close != tag) return "</" + close + "> closes <" + tag + ">";
        skipSpace();
        if (i_ >= s_.size() || s_[i_] != '>') return "bad close tag " + close;
        ++i_;
        return "";
      }
      if (auto e = element(); !e.empty()) return e;
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

TEST(XmlChecker, CatchesMistakes) {
  EXPECT_EQ(XmlChecker("<a x=\"1\"><b/></a>").check(), "");
  EXPECT_NE(XmlChecker("<a><b></a>").check(), "");
  EXPECT_NE(XmlChecker("<a x=1/>").check(), "");
  EXPECT_NE(XmlChecker("<a>1 < 2</a>").check(), "");
  EXPECT_NE(XmlChecker("<a>&nbsp;</a>").check(), "");
  EXPECT_NE(XmlChecker("<a x=\"1\" x=\"2\"/>").check(), "");
}

TileLayout layoutOf(const char* hlo, I64s dims) {
  return computeTiles(hlo::parseSharding(hlo).value(), dims).value();
}

TEST(RenderText, Rank2Golden) {
  TileLayout t = layoutOf("{devices=[2,2]<=[4]}", {4, 8});
  Grid g = buildGrid(t).value();
  TextOptions o;
  o.width = 21;
  EXPECT_EQ(renderText(g, o),
            "┌─────────┬─────────┐\n"
            "│    0    │    1    │\n"
            "│         │         │\n"
            "├─────────┼─────────┤\n"
            "│    2    │    3    │\n"
            "│         │         │\n"
            "└─────────┴─────────┘\n");
}

TEST(RenderText, Rank3SlicesAndUnevenColumns) {
  // dim 2: 5 over 2 shards -> 3 and 2 wide, so the 19 inner columns split
  // 11.4 : 7.6 -> 11 and 7 (rounded down); the height
  // 18 / 5 / 2.5 = 1.44 rounds to 1 line.
  TileLayout t = layoutOf("{devices=[2,1,2,2]<=[8] last_tile_dim_replicate}", {2, 1, 5});
  Grid g = buildGrid(t).value();
  TextOptions o;
  o.width = 22;
  EXPECT_EQ(renderText(g, o),
            "[0:1, :, :]\n"
            "┌───────────┬───────┐\n"
            "│    0,1    │  2,3  │\n"
            "└───────────┴───────┘\n"
            "\n"
            "[1:2, :, :]\n"
            "┌───────────┬───────┐\n"
            "│    4,5    │  6,7  │\n"
            "└───────────┴───────┘\n");
}

TEST(RenderText, WrapsLongDeviceListsAndColours) {
  auto s = hlo::parseSharding("{devices=[2,8]0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15 "
                              "last_tile_dim_replicate}")
               .value();
  TileLayout t = computeTiles(s, I64s{2}).value();
  Grid g = buildGrid(t).value();
  TextOptions o;
  o.width = 12;
  std::string text = renderText(g, o);
  // Two tiles of 8 devices in 5-wide cells: one id per line.
  EXPECT_NE(text.find("│ 10, │ 11, │\n│ 12, │ 13, │"), std::string::npos) << text;
  EXPECT_EQ(text.find("\x1b["), std::string::npos);
  o.color = true;
  std::string colored = renderText(g, o);
  EXPECT_NE(colored.find("\x1b[48;5;"), std::string::npos);
  EXPECT_NE(colored.find("\x1b[0m"), std::string::npos);
}

// fuzz/corpus/view/huge_dim_overflow.txt: a dim near 2^63 made the height
// from the aspect ratio overflow int64 (undefined behaviour, caught by
// UBSan). The height is now clamped before it is converted: at most
// min(3 * rows, 24) text lines, and the SVG's maximum grid height.
TEST(RenderText, DimsNear2To63DoNotOverflow) {
  TileLayout t = layoutOf("{devices=[2,1]<=[2]}", {INT64_MAX, 1});
  Grid g = buildGrid(t).value();
  TextOptions o;
  o.width = 20;
  std::string text = renderText(g, o);
  // 2 rows of tiles: 6 content lines plus 3 border lines.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 9) << text;
  std::string svg = renderSvg(g, "huge");
  EXPECT_EQ(XmlChecker(svg).check(), "");
}

TEST(RenderSvg, WellFormedForAllRanks) {
  const std::vector<std::pair<const char*, I64s>> cases = {
      {"{replicated}", {}},
      {"{devices=[4]<=[4]}", {10}},
      {"{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}", {16, 32}},
      {"{devices=[2,2,2,2]<=[16] last_tile_dim_replicate}", {4, 8, 16}},
      {"{devices=[2,1,3,2]<=[12]}", {2, 5, 6, 4}},
  };
  for (const auto& [hlo, dims] : cases) {
    TileLayout t = computeTiles(hlo::parseSharding(hlo).value(), dims, 4).value();
    Grid g = buildGrid(t).value();
    // The title holds `<=`, `'` and `&`: all must be escaped.
    std::string title = std::string(hlo) + " & 'x' <\"y\">";
    std::string svg = renderSvg(g, title);
    EXPECT_EQ(XmlChecker(svg).check(), "") << hlo << "\n" << svg;
    EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
    std::string html = renderHtml(g, title);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    size_t start = html.find("<svg"), end = html.find("</svg>");
    ASSERT_NE(start, std::string::npos);
    EXPECT_EQ(XmlChecker(html.substr(start, end + 6 - start)).check(), "");
  }
  EXPECT_EQ(xmlEscape("<a & 'b' \"c\">"), "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;");
}

}  // namespace
}  // namespace shardbridge::view

// A small streaming JSON writer, used for the commands' `--json` output
// (docs/json.md). Output is deterministic: keys in the order written,
// two-space indentation, one trailing newline from finish().
//
//   JsonWriter w;
//   w.beginObject();
//   w.key("hlo").value("{replicated}");
//   w.key("devices").beginArray().value(int64_t{0}).value(int64_t{1}).endArray();
//   w.endObject();
//   std::string text = w.finish();
//
// Strings are escaped per RFC 8259; bytes that are not valid UTF-8 are
// written as U+FFFD so the document always parses. Misuse (a value where a
// key is due, unbalanced ends) is a programming error of the caller, caught
// by the tests, not by checks on user data.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardbridge {

class JsonWriter {
 public:
  // kBlock puts each member on its own indented line; kInline keeps the
  // container on one line (`[2, 1, 2]`, `{"name": "x", "size": 2}`), and so
  // everything nested in it.
  enum Layout { kBlock, kInline };

  JsonWriter& beginObject(Layout layout = kBlock);
  JsonWriter& endObject();
  JsonWriter& beginArray(Layout layout = kBlock);
  JsonWriter& endArray();
  // The key of the next member of the current object.
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(int64_t v);
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(bool v);
  JsonWriter& null();
  // An array of integers, e.g. dims or device ids.
  JsonWriter& values(std::span<const int64_t> list, Layout layout = kBlock);
  // Writes `json` as it is: an already serialised JSON value (for example
  // protobuf's JSON form of an OpSharding). The caller guarantees validity.
  JsonWriter& raw(std::string_view json);
  // The document, with a final newline.
  std::string finish();

  // `s` as a JSON string literal, quotes included.
  static std::string quote(std::string_view s);

 private:
  void beforeValue();
  void open(char bracket, Layout layout);
  void close(char bracket);
  void newline();

  std::string out_;
  struct Open {
    bool hasMember = false;
    bool inlined = false;
  };
  // One entry per open container.
  std::vector<Open> open_;
  bool afterKey_ = false;
};

}  // namespace shardbridge

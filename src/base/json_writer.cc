#include "shardbridge/base/json_writer.h"

#include "shardbridge/base/input.h"

#include <cstdio>
#include <string>

namespace shardbridge {

std::string JsonWriter::quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; ++i; continue;
      case '\\': out += "\\\\"; ++i; continue;
      case '\n': out += "\\n"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
      continue;
    }
    size_t n = validUtf8Length(s.substr(i));
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not UTF-8
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  out += '"';
  return out;
}

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(2 * open_.size(), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (open_.empty()) return;  // the top-level value
  Open& top = open_.back();
  if (top.hasMember) out_ += ',';
  if (top.inlined) {
    if (top.hasMember) out_ += ' ';
  } else {
    newline();
  }
  top.hasMember = true;
}

void JsonWriter::open(char bracket, Layout layout) {
  beforeValue();
  out_ += bracket;
  bool inlined = layout == kInline || (!open_.empty() && open_.back().inlined);
  open_.push_back(Open{false, inlined});
}

void JsonWriter::close(char bracket) {
  Open top = open_.back();
  open_.pop_back();
  if (top.hasMember && !top.inlined) newline();
  out_ += bracket;
}

JsonWriter& JsonWriter::beginObject(Layout layout) {
  open('{', layout);
  return *this;
}

JsonWriter& JsonWriter::endObject() {
  close('}');
  return *this;
}

JsonWriter& JsonWriter::beginArray(Layout layout) {
  open('[', layout);
  return *this;
}

JsonWriter& JsonWriter::endArray() {
  close(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  beforeValue();
  out_ += quote(name);
  out_ += ": ";
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  beforeValue();
  out_ += quote(s);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
  beforeValue();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  beforeValue();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  beforeValue();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::values(std::span<const int64_t> list, Layout layout) {
  beginArray(layout);
  for (int64_t v : list) value(v);
  return endArray();
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  beforeValue();
  out_.append(json);
  return *this;
}

std::string JsonWriter::finish() {
  std::string result = std::move(out_);
  result += '\n';
  out_.clear();
  open_.clear();
  afterKey_ = false;
  return result;
}

}  // namespace shardbridge

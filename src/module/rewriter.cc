#include "module/rewriter.h"

#include <algorithm>
#include <cstdint>

#include "base/huge_pages.h"
#include "module/text_lex.h"

namespace shardbridge::module {

size_t OffsetMap::toOld(size_t n) const {
  // The last piece starting at or before n.
  auto it = std::upper_bound(pieces_.begin(), pieces_.end(), n,
                             [](size_t v, const Piece& p) { return v < p.newBegin; });
  if (it == pieces_.begin()) return n;
  --it;
  if (n >= it->newEnd && it + 1 == pieces_.end()) return it->oldBegin + (it->copied ? it->newEnd - it->newBegin : 0);
  return it->copied ? it->oldBegin + (n - it->newBegin) : it->oldBegin;
}

void Rewriter::add(const Edit& e) { edits_.push_back({e.span, e.text, seq_++, e.origin}); }

Result<std::string> Rewriter::apply(OffsetMap* map) const {
  std::vector<const Edit*> order;
  order.reserve(edits_.size());
  for (const Edit& e : edits_) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const Edit* a, const Edit* b) {
    if (a->span.begin != b->span.begin) return a->span.begin < b->span.begin;
    // An insertion before a replacement at the same offset.
    if (a->span.empty() != b->span.empty()) return a->span.empty();
    return a->seq < b->seq;
  });
  // An edit inside a span an earlier edit already replaces (a use renamed
  // in an op that is erased) has nothing left to change.
  auto covered = [](const Edit* e, TextSpan last) {
    return !last.empty() && e->span.begin >= last.begin && e->span.end <= last.end &&
           !(e->span.empty() && e->span.begin == last.end);
  };
  // The output's exact size first: a module's text is the largest thing
  // held, and a reserve of the text plus every edit's new text (the removed
  // bytes not taken off) held a sixth more than the output of the
  // shard-map export.
  size_t size = text_.size();
  {
    size_t p = 0;
    TextSpan last{0, 0};
    for (const Edit* e : order) {
      if (covered(e, last)) continue;
      if (e->span.begin < p)
        return makeError(ErrorCode::kInternal,
                         "overlapping rewrites at byte " + std::to_string(e->span.begin), e->span.begin);
      if (e->span.end < e->span.begin || e->span.end > text_.size())
        return makeError(ErrorCode::kInternal, "a rewrite past the end of the text at byte " +
                                                   std::to_string(e->span.begin), e->span.begin);
      size = size - e->span.size() + e->text.size();
      p = e->span.end;
      if (!e->span.empty()) last = e->span;
    }
  }
  std::string out;
  out.reserve(size);
  base::adviseHugePages(out.data(), out.capacity());
  size_t p = 0;
  TextSpan last{0, 0};
  for (const Edit* e : order) {
    if (covered(e, last)) continue;
    if (map && e->span.begin > p) map->pieces_.push_back({out.size(), out.size() + e->span.begin - p, p, true});
    out.append(text_.substr(p, e->span.begin - p));
    if (map && !e->text.empty())
      map->pieces_.push_back({out.size(), out.size() + e->text.size(),
                              e->origin != kNoOrigin ? e->origin : e->span.begin, false});
    out.append(e->text);
    p = e->span.end;
    if (!e->span.empty()) last = e->span;
  }
  if (map) map->pieces_.push_back({out.size(), out.size() + text_.size() - p, p, true});
  out.append(text_.substr(p));
  return out;
}

Result<std::string> Rewriter::take(OffsetMap* map) {
  if (edits_.size() != 1 || edits_[0].span.begin != 0 || edits_[0].span.end > text_.size()) return apply(map);
  // The pieces apply gives: the edit's text, then the copy of the rest (a
  // module's closing newline, or nothing).
  Edit& e = edits_[0];
  size_t end = e.span.end;
  if (map) {
    if (!e.text.empty()) map->pieces_.push_back({0, e.text.size(), e.origin != kNoOrigin ? e.origin : 0, false});
    map->pieces_.push_back({e.text.size(), e.text.size() + text_.size() - end, end, true});
  }
  std::string out = std::move(e.text);
  out.append(text_.substr(end));
  return out;
}

std::string printAttrKey(std::string_view key) {
  bool bare = !key.empty() && module_lex::isIdentStart(key[0]);
  for (char c : key) bare = bare && module_lex::isIdentChar(c);
  if (bare) return std::string(key);
  return "\"" + std::string(key) + "\"";
}

void DictEditor::set(std::string_view key, std::string value) {
  removes_.erase(std::remove(removes_.begin(), removes_.end(), key), removes_.end());
  for (auto& s : sets_)
    if (s.first == key) {
      s.second = std::move(value);
      return;
    }
  sets_.push_back({std::string(key), std::move(value)});
}

void DictEditor::remove(std::string_view key) {
  sets_.erase(std::remove_if(sets_.begin(), sets_.end(), [&](const auto& s) { return s.first == key; }), sets_.end());
  removes_.push_back(std::string(key));
}

namespace {
std::string entryText(const std::string& key, const std::string& value) {
  return value.empty() ? printAttrKey(key) : printAttrKey(key) + " = " + value;
}
}  // namespace

std::string DictEditor::render() const {
  // Kept entries in their order (values replaced), new keys at their sorted place.
  std::vector<std::string> parts;
  std::vector<std::pair<std::string, std::string>> fresh;
  for (const auto& s : sets_)
    if (!dict_.find(s.first)) fresh.push_back(s);
  size_t next = 0;
  std::sort(fresh.begin(), fresh.end());
  for (const AttrEntry& e : dict_.entries) {
    while (next < fresh.size() && fresh[next].first < e.name) {
      parts.push_back(entryText(fresh[next].first, fresh[next].second));
      ++next;
    }
    if (std::find(removes_.begin(), removes_.end(), e.name) != removes_.end()) continue;
    const std::string* v = nullptr;
    for (const auto& s : sets_)
      if (s.first == e.name) v = &s.second;
    parts.push_back(v ? std::string(e.key.in(text_)) + (v->empty() ? "" : " = " + *v)
                      : std::string(e.whole.in(text_)));
  }
  for (; next < fresh.size(); ++next) parts.push_back(entryText(fresh[next].first, fresh[next].second));
  if (parts.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += ", ";
    out += parts[i];
  }
  return out + "}";
}

void DictEditor::commit(Rewriter& rw, size_t insertAt, bool keepEmpty) const {
  if (!changed()) return;
  std::string body = render();
  if (!dict_.present()) {
    if (!body.empty()) rw.insert(insertAt, " " + body);
    return;
  }
  if (body.empty() && !keepEmpty) {
    size_t b = dict_.whole.begin;
    while (b > 0 && (text_[b - 1] == ' ' || text_[b - 1] == '\t')) --b;
    rw.erase({b, dict_.whole.end});
    return;
  }
  rw.replace(dict_.whole, body.empty() ? "{}" : body);
}

void insertDict(Rewriter& rw, const OpTree& tree, const OpNode& op, const std::string& body) {
  (void)tree;
  if (op.name == "stablehlo.constant" || op.name == "sdy.constant") {
    rw.insert(op.nameSpan.end, " " + body);
  } else if (op.name == "stablehlo.while" && !op.generic && !op.signature.empty()) {
    rw.insert(op.signature.end, " attributes " + body);
  } else if (!op.signature.empty()) {
    rw.insert(op.signature.begin, body + " ");
  } else if (!op.loc.empty()) {
    rw.insert(op.loc.begin, body + " ");
  } else {
    rw.insert(op.whole.end, " " + body);
  }
}

}  // namespace shardbridge::module

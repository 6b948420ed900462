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

FreshNames::FreshNames(const OpTree& tree) : tree_(&tree) {}

namespace {
size_t nameHash(std::string_view s) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return static_cast<size_t>(h ^ (h >> 29));
}
}  // namespace

bool FreshNames::insert(std::string_view name) {
  if (2 * (usedCount_ + 1) > used_.size()) {
    std::vector<std::string_view> old = std::move(used_);
    used_.assign(std::max<size_t>(64, old.size() * 2), std::string_view());
    usedCount_ = 0;
    for (std::string_view n : old)
      if (!n.empty()) insert(n);
  }
  size_t mask = used_.size() - 1;
  for (size_t i = nameHash(name) & mask;; i = (i + 1) & mask) {
    if (used_[i].empty()) {
      used_[i] = name;
      ++usedCount_;
      return true;
    }
    if (used_[i] == name) return false;
  }
}

void FreshNames::collect() {
  // On the first name asked for: most passes that hold a FreshNames find
  // nothing to rewrite in most modules.
  const OpTree& tree = *tree_;
  tree_ = nullptr;
  std::string_view t = tree.text;
  // Two slots an op (a module has about one value name an op, so the table
  // starts under half full and rarely grows); it was four, a table as large
  // as the module's text whose zeroing was a fifth of a large export's page
  // faults.
  size_t slots = 64;
  while (slots < 2 * tree.ops.size()) slots *= 2;
  used_.assign(slots, std::string_view());
  for (const OpNode& op : tree.ops) {
    for (const ResultDef& r : op.resultDefs)
      if (!r.name.empty()) insert(r.name.in(t));
    for (const ValueDef& a : op.funcArgs())
      if (!a.name.empty()) insert(a.name.in(t));
    for (const Region& r : op.regions)
      for (const Block& b : r.blocks)
        for (const ValueDef& a : b.arguments)
          if (!a.name.empty()) insert(a.name.in(t));
  }
}

bool FreshNames::claim(const std::string& name) {
  // The table holds views: of the tree's text, or of the kept copy.
  if (insert(given_.emplace_back(name))) return true;
  given_.pop_back();
  return false;
}

std::string FreshNames::next(std::string_view stem) {
  if (tree_) collect();
  std::string base = "%" + std::string(stem);
  if (claim(base)) return base;
  int& i = nextSuffix_[base];
  while (true) {
    std::string n = base + "_" + std::to_string(i++);
    if (claim(n)) return n;
  }
}

}  // namespace shardbridge::module

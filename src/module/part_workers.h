// What both ways of running a module in parts (module_parts.h) share: the
// threads (parts run on worker threads, at most a window ahead of the join,
// and are joined in order on the calling thread, so that the output is built
// as the parts come in and at most a window of part outputs is held at
// once), the sum of the parts' timings and the output's reservation.
#pragma once
#include <algorithm>
#include <string>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "base/huge_pages.h"
#include "shardbridge/module/convert_module.h"

namespace shardbridge::module {

// Adds a part's step timings to `sum` (a step is skipped when every part
// skipped it). False when the two lists are not of the same steps.
inline bool addTimings(std::vector<PassTiming>& sum, const std::vector<PassTiming>& part) {
  if (part.size() != sum.size()) return false;
  for (size_t s = 0; s < part.size(); ++s) {
    PassTiming& to = sum[s];
    const PassTiming& t = part[s];
    if (to.name != t.name) return false;
    to.skipped = to.skipped && t.skipped;
    to.parsed = to.parsed || t.parsed;
    to.applied = to.applied || t.applied;
    to.prefilter += t.prefilter;
    to.parse += t.parse;
    to.run += t.run;
    to.apply += t.apply;
  }
  return true;
}

// Reserves `text` for the output of an input of `inputBytes`, which is
// about as much larger than its input as the first part's output
// (`partOut` bytes from `partIn`): once, so that it is not copied as it
// grows; huge pages advised.
inline void reserveOutput(std::string& text, size_t partOut, size_t partIn, size_t inputBytes) {
  double ratio = static_cast<double>(partOut) / static_cast<double>(std::max<size_t>(partIn, 1));
  text.reserve(static_cast<size_t>(ratio * 1.05 * static_cast<double>(inputBytes)) + (size_t{1} << 16));
  base::adviseHugePages(text.data(), text.capacity());
}

// Runs `run(k)` for every k in [0, parts) and calls `join(k, result)` for
// each in order of k on this thread. R is what run returns; it has a
// `bool ok`. Stops at the first result that is not ok or the first join
// that returns false, and returns false then (the later parts are not
// run). With threads <= 1 every part runs on this thread.
template <class R, class Run, class Join>
bool runPartsInOrder(size_t parts, unsigned threads, Run&& run, Join&& join) {
  threads = static_cast<unsigned>(std::min<size_t>(threads, parts));
  if (threads <= 1) {
    for (size_t k = 0; k < parts; ++k) {
      R r = run(k);
      if (!r.ok || !join(k, std::move(r))) return false;
    }
    return true;
  }
  // Workers take parts in order, at most `window` ahead of the join.
  const size_t window = 2 * static_cast<size_t>(threads);
  std::mutex m;
  std::condition_variable cv;
  size_t next = 0, joined = 0;
  bool stop = false;
  std::vector<std::optional<R>> results(parts);
  auto work = [&] {
    while (true) {
      size_t k;
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return stop || next >= parts || next < joined + window; });
        if (stop || next >= parts) return;
        k = next++;
      }
      R r = run(k);
      std::lock_guard lock(m);
      if (!r.ok) stop = true;
      results[k] = std::move(r);
      cv.notify_all();
    }
  };
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < threads; ++i) workers.emplace_back(work);
  bool ok = true;
  for (size_t k = 0; k < parts && ok; ++k) {
    std::optional<R> r;
    {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return results[k].has_value() || stop; });
      if (!results[k]) {
        ok = false;
        break;
      }
      r = std::move(results[k]);
      results[k].reset();
      joined = k + 1;
      cv.notify_all();
    }
    ok = r->ok && join(k, std::move(*r));
  }
  {
    std::lock_guard lock(m);
    stop = true;
    cv.notify_all();
  }
  for (std::thread& w : workers) w.join();
  return ok;
}

}  // namespace shardbridge::module

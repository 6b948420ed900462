#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (ASan + UBSan; the asan preset,
# which scripts/test.sh has already built) and runs each for
# SECONDS (default 30) on a scratch copy of its seed corpus, as many at once
# as there are cores (SB_FUZZ_JOBS overrides), so every target gets its full
# time and the run takes about targets / cores * SECONDS. Any crash, leak,
# sanitizer report or timeout fails the run; the reproducer is left in
# build/asan/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
jobs="${SB_FUZZ_JOBS:-$(nproc)}"
bash scripts/build.sh asan
out=build/asan/fuzz
mkdir -p "$out/artifacts"
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# fuzz_one NAME: runs one target; writes "ok" or "failed" to $results/NAME.
fuzz_one() {
  local name="$1" short="${1%_fuzz}" work
  work=$(mktemp -d)
  if [ -d "fuzz/corpus/$short" ]; then cp -r "fuzz/corpus/$short/." "$work/"; fi
  if "$out/$name" "$work" -max_total_time="$seconds" -max_len=65536 \
       -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$out/artifacts/${short}-" >"$out/$name.log" 2>&1; then
    echo ok >"$results/$name"
  else
    echo failed >"$results/$name"
  fi
  rm -rf "$work"
}

names=()
for src in fuzz/*_fuzz.cc; do names+=("$(basename "$src" .cc)"); done
echo "== fuzzing ${#names[@]} targets for ${seconds}s each, ${jobs} at a time"
running=0
for name in "${names[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$name" &
  running=$((running + 1))
done
wait || true

status=0
for name in "${names[@]}"; do
  if [ "$(cat "$results/$name" 2>/dev/null)" = ok ]; then
    echo "$name: $(grep -E 'stat::number_of_executed_units' "$out/$name.log" | tail -1 || true)"
  else
    echo "FAILED: $name (log: $out/$name.log)"
    tail -40 "$out/$name.log"
    status=1
  fi
done
exit $status

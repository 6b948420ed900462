#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (ASan + UBSan) and runs each for
# SECONDS (default 30) on a scratch copy of its seed corpus. Any crash, leak,
# sanitizer report or timeout fails the run; the reproducer is left in
# build/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
bash scripts/build.sh fuzz
mkdir -p build/fuzz/artifacts
status=0
for src in fuzz/*_fuzz.cc; do
  name=$(basename "$src" .cc)
  short=${name%_fuzz}
  work=$(mktemp -d)
  if [ -d "fuzz/corpus/$short" ]; then cp -r "fuzz/corpus/$short/." "$work/"; fi
  echo "== fuzzing $name for ${seconds}s"
  if ! "build/fuzz/fuzz/$name" "$work" -max_total_time="$seconds" -max_len=65536 \
       -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="build/fuzz/artifacts/${short}-" >"build/fuzz/$name.log" 2>&1; then
    echo "FAILED: $name (log: build/fuzz/$name.log)"
    tail -40 "build/fuzz/$name.log"
    status=1
  else
    grep -E 'stat::number_of_executed_units|Done [0-9]+ runs' "build/fuzz/$name.log" | tail -1 || true
  fi
  rm -rf "$work"
done
exit $status

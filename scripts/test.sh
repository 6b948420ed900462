#!/usr/bin/env bash
# The README's second command: builds and runs the whole test suite.
#   1. GCC release build: unit, golden, property, CLI and consumer tests.
#   2. clang-14 build with AddressSanitizer + UndefinedBehaviorSanitizer: the
#      same suite, and each libFuzzer target once over its seed corpus.
#   3. Each libFuzzer target of that build fuzzed for a short run.
# SB_FUZZ_SECONDS sets the length of step 3 per target (default 10; 0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

echo "== release build and tests"
bash scripts/build.sh release
ctest --preset release -j "$(nproc)"

echo "== sanitizer build and tests"
bash scripts/build.sh asan
ctest --preset asan -j "$(nproc)"

fuzz_seconds="${SB_FUZZ_SECONDS:-10}"
if [ "$fuzz_seconds" != "0" ]; then
  echo "== fuzz targets, ${fuzz_seconds}s each"
  bash scripts/fuzz.sh "$fuzz_seconds"
fi
echo "== all tests passed"

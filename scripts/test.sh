#!/usr/bin/env bash
# The README's second command: builds and runs the whole test suite.
#   1. GCC release build: unit, golden, property and CLI tests, fuzz corpus replay.
#   2. The same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
#   3. Each libFuzzer target (clang-14, ASan + UBSan) for a short run.
# SB_FUZZ_SECONDS sets the length of step 3 per target (default 20; 0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

echo "== release build and tests"
bash scripts/build.sh release
ctest --preset release -j "$(nproc)"

echo "== sanitizer build and tests"
bash scripts/build.sh asan
ctest --preset asan -j "$(nproc)"

fuzz_seconds="${SB_FUZZ_SECONDS:-20}"
if [ "$fuzz_seconds" != "0" ]; then
  echo "== fuzz targets, ${fuzz_seconds}s each"
  bash scripts/fuzz.sh "$fuzz_seconds"
fi
echo "== all tests passed"

#!/usr/bin/env bash
# Configures and builds one CMake preset: release (default) or asan (clang-14
# with ASan + UBSan, the tests and the libFuzzer targets).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
jobs="${SB_JOBS:-$(nproc)}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs"

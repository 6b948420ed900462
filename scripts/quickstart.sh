#!/usr/bin/env bash
# The README's first command: installs what is missing, builds shardbridge and
# runs it on the bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh release
bin=build/release/shardbridge

echo "== shardbridge sdy: parse, verify and print the bundled sharding"
echo "\$ shardbridge sdy --mesh \"\$(cat examples/mesh.mlir)\" @examples/sharding.mlir"
"$bin" sdy --mesh "$(cat examples/mesh.mlir)" @examples/sharding.mlir

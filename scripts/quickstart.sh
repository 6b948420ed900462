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

echo
echo "== shardbridge hlo: read the bundled binary xla.OpSharding, print it as XLA does and as V3"
echo "\$ shardbridge hlo --metadata @examples/op_sharding.pb"
"$bin" hlo --metadata @examples/op_sharding.pb
echo "\$ shardbridge hlo --to v3 @examples/op_sharding.pb"
"$bin" hlo --to v3 @examples/op_sharding.pb

#!/usr/bin/env bash
# The README's first command: installs what is missing, builds shardbridge and
# runs its main jobs on the bundled examples (examples/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh release
bin=build/release/shardbridge

# Prints the command as it could be pasted (arguments with special
# characters in single quotes), then runs it.
run() {
  local shown="" a
  for a in "$@"; do
    if [[ "$a" =~ [^A-Za-z0-9_./=:@,-] ]]; then shown+=" '$a'"; else shown+=" $a"; fi
  done
  echo "\$ shardbridge${shown}"
  "$bin" "$@"
  echo
}

echo "== convert: the JAX-style StableHLO module's sdy shardings as the mhlo.sharding strings XLA writes"
run convert --to hlo examples/jax_module.mlir
echo "== convert: a shard_map, a reshard, a collective and a constant, lowered as XLA's export pipeline does"
run convert --to hlo examples/jax_shard_map_module.mlir
echo "== convert: its mhlo.sharding twin imported back to sdy, with the inferred mesh"
run convert --to sdy examples/jax_module_mhlo.mlir
echo "== list: every sharding of an HLO text dump, with its place and named form"
run list examples/jax_module.hlo.txt
echo "== explain: a V2 sharding on the mesh it was written for"
run explain '{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}' \
  --mesh '<["x"=8, "y"=4]>' --shape 'f32[16,32]'
echo "== show: a rank-3 sharding drawn as tiles (dim 0 becomes slices)"
run show '{devices=[2,4,2,2]<=[2,2,8]T(1,0,2) last_tile_dim_replicate}' --shape 'f32[4,10,16]' \
  --width 60
echo "== hlo: the bundled binary xla.OpSharding, as XLA prints it"
run hlo --metadata @examples/op_sharding.pb

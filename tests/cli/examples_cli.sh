#!/usr/bin/env bash
# Every single-sharding command on the bundled binary OpSharding
# (examples/op_sharding.pb, `{devices=[4,2]<=[2,4]T(1,0) shard_like 3}` with
# metadata). The expectations come from issue 4's "Done when" 1: on the mesh
# x=2, y=4 that tile assignment is `[{"y"}, {"x"}]` (device (i, j) = 4j + i,
# so dim 0 runs over "y", the minor axis, and dim 1 over "x"). The module
# examples are covered by tests/golden/module/, tests/golden/dump/ and
# tests/cli/{convert,list}_cli.sh.
#   examples_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="$2"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"
pb="@$src/examples/op_sharding.pb"
mesh='<["x"=2, "y"=4]>'

expect "hlo" 0 '{devices=[4,2]<=[2,4]T(1,0) shard_like 3 metadata={op_type="dot" op_name="layer1/dot" source_file="model.py" source_line=42}}' \
  -- hlo --metadata "$pb"
expect "import" 0 '#sdy.sharding<@mesh, [{"y"}, {"x"}]>' -- import --mesh "$mesh" "$pb"
expect "export back" 0 '{devices=[4,2]<=[2,4]T(1,0)}' -- export --mesh "$mesh" '#sdy.sharding<@mesh, [{"y"}, {"x"}]>'

out="$("$bin" explain "$pb" --mesh "$mesh" --shape 'f32[8,16]')"
[[ $? -eq 0 ]] || fail "explain: exit code"
for want in 'sdy:           #sdy.sharding<@mesh, [{"y"}, {"x"}]>' "PartitionSpec: P('y', 'x')" \
            '  4      [0,1] [0,8]  [2,8]       [0:2, 8:16]' '  3      [3,0] [6,0]  [2,8]       [6:8, 0:8]'; do
  [[ "$out" == *"$want"* ]] || fail "explain: no line '$want' in: $out"
done

# The grid: rows are dim 0 (tiles of "y": devices 0..3 down the first
# column), columns dim 1 (tiles of "x": device 4 beside device 0).
out="$("$bin" show "$pb" --shape 'f32[8,16]' --color never --width 40)"
[[ $? -eq 0 ]] || fail "show: exit code"
[[ "$(grep -c '│        [0-7]         │        [0-7]         │' <<<"$out")" == 4 ]] || fail "show: $out"
[[ "$out" == *'│        0         │        4         │'* && "$out" == *'│        3         │        7         │'* ]] ||
  fail "show: device placement: $out"
"$bin" show "$pb" --shape 'f32[8,16]' --svg "$tmp/g.svg" >/dev/null || fail "show --svg: exit code"
grep -q '^<svg' "$tmp/g.svg" || fail "show --svg: no <svg> element"

finish examples

#!/usr/bin/env bash
# CLI checks for `shardbridge export`: exit codes, stdout, stderr diagnostics,
# and the stdin (`-`) and @file input conventions. Expected outputs come from
# issue 4 ("Done when") and docs/upstream.md § Worked export examples (see tests/golden/convert/export.mlir).
#   export_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

# expect_stderr NAME EXPECTED: the whole stderr of the last expect.
expect_stderr() {
  if [[ "$(cat "$tmp/stderr")" != "$2" ]]; then
    fail "$1"
    echo "    expected:"; echo "$2" | sed 's/^/      /'
    echo "    actual:"; sed 's/^/      /' "$tmp/stderr"
  fi
}

mesh='<["x"=2, "y"=4]>'
expect "issue 4 done-when 1" 0 '{devices=[4,2]<=[2,4]T(1,0)}' -- \
  export --mesh "$mesh" '#sdy.sharding<@mesh, [{"y"}, {"x"}]>'
expect "issue 4 done-when 2" 0 '{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}' -- \
  export --mesh '<["x"=8, "y"=4]>' '#sdy.sharding<@mesh, [{"y"}, {"x":(2)2}]>'

# One line, newline-terminated.
"$bin" export --mesh "$mesh" '#sdy.sharding<@mesh, [{"y"}, {"x"}]>' >"$tmp/out.txt" 2>/dev/null
if [[ "$(od -An -c "$tmp/out.txt" | tr -d ' \n')" != '{devices=[4,2]<=[2,4]T(1,0)}\n' ]]; then
  fail "output is one newline-terminated line"
fi

printf '%s\n' '#sdy.sharding<@mesh, [{"y"}, {"x"}]>' >"$tmp/stdin.txt"
stdin_file="$tmp/stdin.txt" expect "stdin input" 0 '{devices=[4,2]<=[2,4]T(1,0)}' -- \
  export --mesh "$mesh" -

printf '%s' '#sdy.sharding_per_value<[<@m, [{"x"}, {}]>, <@m, [{}, {"y"}]>]>' >"$tmp/attr.mlir"
expect "@file input, per-value tuple (docs/upstream.md export example 1 geometry)" 0 \
  '{{devices=[2,1,4]<=[8] last_tile_dim_replicate}, {devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}}' -- \
  export --mesh "m=$mesh" "@$tmp/attr.mlir"

expect "missing @file exits 1" 1 "" -- export --mesh "$mesh" "@$tmp/does-not-exist"

expect "unknown axis exits 1" 1 "" -- export --mesh "$mesh" '#sdy.sharding<@mesh, [{}, {"z"}]>'
expect_stderr "unknown axis diagnostic" \
  $'<input>:1:28: error: unknown axis name: "z"\n#sdy.sharding<@mesh, [{}, {"z"}]>\n                           ^'

expect "bad --mesh is rendered against the option" 1 "" -- \
  export --mesh 'm=<["a"=0]>' '#sdy.sharding<@m, []>'
expect_stderr "--mesh diagnostic" \
  $'--mesh:1:9: error: axis size must be at least 1, got: 0\nm=<["a"=0]>\n        ^'

expect "unknown manual axis exits 1" 1 "" -- \
  export --mesh "$mesh" --manual-axes z '#sdy.sharding<@mesh, [{"x"}, {}]>'
expect_stderr "unknown manual axis diagnostic" '--manual-axes: error: unknown manual axis: "z"'

expect "empty --manual-axes name is a usage error" 2 "" -- \
  export --mesh "$mesh" --manual-axes 'x,' '#sdy.sharding<@mesh, [{"x"}, {}]>'
expect_stderr "empty --manual-axes message" \
  "shardbridge export: error: empty axis name in --manual-axes 'x,'"

expect "two --mesh of one name is a usage error" 2 "" -- \
  export --mesh "$mesh" --mesh "$mesh" '#sdy.sharding<@mesh, [{"x"}, {}]>'
expect_stderr "duplicate --mesh message" "shardbridge export: error: two --mesh options named 'mesh'"

expect "unknown flag is a usage error" 2 "" -- export --no-such-flag '#sdy.sharding<@mesh, []>'
expect "missing SHARDING is a usage error" 2 "" -- export --mesh "$mesh"

expect "--v3 with manual axes (lit @free_axis_inside_in_out_shardings_manual_computation)" 0 \
  "{mesh['i'=2,'j'=2], [{'i', ?}, {?}], manual={'j'}}" -- \
  export --v3 --mesh '<["i"=2, "j"=2]>' --manual-axes j '#sdy.sharding<@mesh, [{"i", ?}, {?}]>'

finish export

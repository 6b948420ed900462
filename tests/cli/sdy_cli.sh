#!/usr/bin/env bash
# CLI checks for `shardbridge sdy`: exit codes, stdout, stderr diagnostics,
# and the stdin (`-`) and @file input conventions.
#   sdy_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="${2:-.}"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

sharding='#sdy.sharding<@mesh, [{"a", ?}p1, {}], replicated={"c"}>'
expect "canonical sharding prints back" 0 "$sharding" -- \
  sdy --mesh '<["a"=2, "b"=2, "c"=2]>' "$sharding"

expect "iota device ids are dropped" 0 '#sdy.mesh<["a"=2, "b"=2]>' -- \
  sdy '<["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>'

expect "unknown axis exits 1" 1 "" -- \
  sdy --mesh '<["a"=2]>' '#sdy.sharding<@mesh, [{}, {"c"}]>'
expected_err=$'<input>:1:28: error: unknown axis name: "c"\n#sdy.sharding<@mesh, [{}, {"c"}]>\n                           ^'
if [[ "$(cat "$tmp/stderr")" != "$expected_err" ]]; then
  fail "unknown axis diagnostic"
  echo "    expected:"; echo "$expected_err" | sed 's/^/      /'
  echo "    actual:"; sed 's/^/      /' "$tmp/stderr"
fi

printf '%s\n' '#sdy.mesh<["x"=2,"y"=4]>' >"$tmp/stdin.txt"
stdin_file="$tmp/stdin.txt" expect "stdin input" 0 '#sdy.mesh<["x"=2, "y"=4]>' -- sdy -

printf '%s' '#sdy.sharding_per_value<[<@m, [{"x"}]>, <@m, []>]>' >"$tmp/attr.mlir"
expect "@file input" 0 '#sdy.sharding_per_value<[<@m, [{"x"}]>, <@m, []>]>' -- \
  sdy --mesh 'm=<["x"=2]>' "@$tmp/attr.mlir"

expect "missing @file exits 1" 1 "" -- sdy "@$tmp/does-not-exist"

expect "unknown flag is a usage error" 2 "" -- sdy --no-such-flag '#sdy.mesh<[]>'
expect "missing TEXT is a usage error" 2 "" -- sdy

expect "parse error exits 1" 1 "" -- sdy '#sdy.mesh<["a"=2'
# MLIR checks the brackets of `#sdy.mesh<...>` before parsing it
# (docs/sdy_parse_errors.md); the caret is at the last string it lexed.
if ! grep -q "^<input>:1:12: error: unbalanced '\\[' character in pretty dialect name\$" "$tmp/stderr"; then
  fail "parse error diagnostic"
  sed 's/^/    /' "$tmp/stderr"
fi

expect "parse error with a note" 1 "" -- sdy '<["a" 2]>'
printf '%s\n' \
  "<input>:1:6: error: expected '='" \
  '<["a" 2]>' \
  '     ^' \
  "<input>:1:7: note: failed to parse Sdy_Mesh parameter 'axes' which is to be a \`::llvm::ArrayRef<MeshAxisAttr>\`" \
  >"$tmp/want"
if ! cmp -s "$tmp/want" "$tmp/stderr"; then
  fail "note diagnostic"
  diff "$tmp/want" "$tmp/stderr" | sed 's/^/    /'
fi

expect "bad --mesh is rendered against the option" 1 "" -- \
  sdy --mesh 'm=<["a"=0]>' '#sdy.sharding<@m, []>'
if ! grep -q '^--mesh:1:9: error: axis size must be at least 1, got: 0$' "$tmp/stderr"; then
  fail "--mesh diagnostic"
  sed 's/^/    /' "$tmp/stderr"
fi

expect "named meshes resolve by name" 0 '#sdy.sharding<@b, [{"y"}]>' -- \
  sdy --mesh 'a=<["x"=2]>' --mesh 'sdy.mesh @b = <["y"=2]>' '#sdy.sharding<@b, [{"y"}]>'

expect "escaped form" 0 '#sdy.sharding<@mesh, [{"a"}]>' -- \
  sdy --mesh '#sdy.mesh<["a"=2]>' '#sdy.sharding<@mesh, [{\22a\22}]>'

expect "per-value with one --type per value" 0 \
  '#sdy.sharding_per_value<[<@m, [{"x"}]>, <@m, []>]>' -- \
  sdy --mesh 'm=<["x"=2]>' --type 'tensor<8xf32>' --type 'tensor<f32>' \
  '#sdy.sharding_per_value<[<@m, [{"x"}]>, <@m, []>]>'

finish sdy

#!/usr/bin/env bash
# CLI checks for `shardbridge list` that golden files cannot express: files
# by path (the committed examples), binary input, stdin, the file name in
# diagnostics, exit codes 0/1/2, and the shape of the --json document.
#   list_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="${2:-.}"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

# --- examples/jax_module.hlo.txt by path equals the golden's CHECK lines -----
# Case 1 of tests/golden/dump/list_hlo.txt is the example verbatim; its CHECK
# lines (up to the first `// -----`) are the expected output.
want="$(sed -n '1,/^\/\/ -----$/p' "$src/tests/golden/dump/list_hlo.txt" | sed -n 's|^// CHECK: \{0,1\}||p')"
expect "list examples/jax_module.hlo.txt" 0 "$want" -- list "$src/examples/jax_module.hlo.txt"
expect "list @path" 0 "$want" -- list "@$src/examples/jax_module.hlo.txt"
stdin_file="$src/examples/jax_module.hlo.txt" expect "list - (stdin)" 0 "$want" -- list -
# The example file is the golden case's text, byte for byte (but the final newline).
golden_text="$(sed -n '1,/^\/\/ -----$/p' "$src/tests/golden/dump/list_hlo.txt" | grep -v '^//')"
[[ "$golden_text" == "$(cat "$src/examples/jax_module.hlo.txt")" ]] ||
  fail "tests/golden/dump/list_hlo.txt case 1 is not examples/jax_module.hlo.txt"

# cut -f3 gives the HLO strings of the sharding lines (-s skips mesh lines).
hlos="$("$bin" list "$src/examples/jax_module.hlo.txt" | cut -s -f3)"
[[ "$(wc -l <<<"$hlos")" -eq 6 && "$(head -n1 <<<"$hlos")" == "{devices=[2,4]<=[8]}" ]] ||
  fail "cut -s -f3: $hlos"

# --- --json: one document listing every sharding of the dump --------------
"$bin" list --json "$src/examples/jax_module.hlo.txt" >"$tmp/out.json" 2>"$tmp/stderr" ||
  fail "--json exit code $?"
[[ "$(head -c1 "$tmp/out.json")" == "{" && "$(tail -n1 "$tmp/out.json")" == "}" ]] ||
  fail "--json is not one object"
[[ "$(grep -c '^      "place": ' "$tmp/out.json")" -eq 6 ]] || fail "--json: expected 6 shardings"
grep -q "^  \"file\": \"$src/examples/jax_module.hlo.txt\",\$" "$tmp/out.json" || fail "--json: file"
grep -q '^  "format": "hlo",$' "$tmp/out.json" || fail "--json: format"
grep -q '^  "module": "jit_f",$' "$tmp/out.json" || fail "--json: module"
grep -q '^  "mesh_error": null,$' "$tmp/out.json" || fail "--json: mesh_error"
grep -q '"error": "' "$tmp/out.json" && fail "--json: a sharding has an error"
# Balanced brackets outside strings (no string of this document holds one
# unbalanced), and no control bytes.
opens="$(sed 's/"[^"\\]*\(\\.[^"\\]*\)*"//g' "$tmp/out.json" | tr -cd '{[' | wc -c)"
closes="$(sed 's/"[^"\\]*\(\\.[^"\\]*\)*"//g' "$tmp/out.json" | tr -cd '}]' | wc -c)"
[[ "$opens" -eq "$closes" ]] || fail "--json: $opens openers, $closes closers"
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["shardings"]) == 6' \
    "$tmp/out.json" || fail "--json does not parse as JSON"
fi

# --- binary and text OpSharding files ---------------------------------------
named='#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>'
expect "list examples/op_sharding.pb" 0 "$(printf 'sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>\n-\tOpSharding\t{devices=[4,2]<=[2,4]T(1,0) shard_like 3}\t%s' "$named")" -- \
  list "$src/examples/op_sharding.pb"
expect "list examples/op_sharding.pbtxt" 0 "$(printf 'sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>\n4:1\tOpSharding\t{devices=[4,2]<=[2,4]T(1,0) shard_like 3}\t%s' "$named")" -- \
  list "$src/examples/op_sharding.pbtxt"
"$bin" list --json "$src/examples/op_sharding.pb" >"$tmp/pb.json" || fail "--json of .pb"
grep -q '^  "format": "pb",$' "$tmp/pb.json" || fail "--json of .pb: format"
grep -q '^      "line": null,$' "$tmp/pb.json" || fail "--json of .pb: line"

# --- MLIR modules -----------------------------------------------------------
# tests/golden/dump/list_mlir.txt cases 1 and 2 are the example modules
# verbatim; the files themselves list the same lines.
for n in 1 2; do
  example="$src/examples/jax_module.mlir"
  [[ $n -eq 2 ]] && example="$src/examples/jax_module_mhlo.mlir"
  case_text="$(awk -v n=$n '/^\/\/ -----$/ {c++; next} c == n - 1' "$src/tests/golden/dump/list_mlir.txt")"
  [[ "$(grep -v '^//' <<<"$case_text")" == "$(cat "$example")" ]] ||
    fail "tests/golden/dump/list_mlir.txt case $n is not $example"
  want="$(grep '^// CHECK: ' <<<"$case_text" | sed 's|^// CHECK: ||')"
  got="$("$bin" list "$example")" || fail "list $example: exit code $?"
  [[ "$got" == "$want" ]] || fail "list $example: got
$got"
done
# The named forms of the mhlo twin are what `convert --to sdy` writes there.
"$bin" convert --to sdy "$src/examples/jax_module_mhlo.mlir" >"$tmp/twin_sdy.mlir" ||
  fail "convert --to sdy of the twin"
while IFS= read -r named; do
  grep -qF -- "sdy.sharding = $named" "$tmp/twin_sdy.mlir" || fail "twin: $named not in convert --to sdy"
done < <("$bin" list "$src/examples/jax_module_mhlo.mlir" | cut -s -f4)
# The HLO strings of the JAX module are its mhlo twin's (metadata included).
while IFS= read -r hlo; do
  grep -qF -- "${hlo//\"/\\22}" "$src/examples/jax_module_mhlo.mlir" || fail "export: $hlo not in the twin"
done < <("$bin" list "$src/examples/jax_module.mlir" | cut -s -f3)
printf 'module {\n  func.func @f(%%arg0: tensor<8xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8xf32> {\n' >"$tmp/cut.mlir"
"$bin" list "$tmp/cut.mlir" >/dev/null 2>"$tmp/stderr"
rc=$?
[[ $rc -eq 1 ]] || fail "truncated module: exit code $rc"
grep -q "^$tmp/cut.mlir:2:88: error: unexpected end of input" "$tmp/stderr" ||
  fail "truncated module: $(cat "$tmp/stderr")"

# --json meshes: the same entries as `import --json` writes (docs/json.md).
meshes_of() { sed -n '/^  "meshes": \[$/,/^  \],$/p' "$1"; }
"$bin" list --json --inline '{{devices=[2,4]<=[8]}, {maximal device=3}}' >"$tmp/l.json" || fail "list --json --inline"
"$bin" import --json '{{devices=[2,4]<=[8]}, {maximal device=3}}' >"$tmp/i.json" || fail "import --json"
[[ -n "$(meshes_of "$tmp/l.json")" && "$(meshes_of "$tmp/l.json")" == "$(meshes_of "$tmp/i.json")" ]] ||
  fail "list --json meshes differ from import --json: $(meshes_of "$tmp/l.json")"

# --- errors: file:line:col, exit 1; usage errors, exit 2 --------------------
printf 'HloModule m\nENTRY e {\n  p = f32[4]{0} parameter(0), sharding={devices=[2]0,1,2}\n}\n' >"$tmp/bad.hlo"
"$bin" list "$tmp/bad.hlo" >/dev/null 2>"$tmp/stderr"
rc=$?
[[ $rc -eq 1 ]] || fail "malformed dump: exit code $rc"
grep -q "^$tmp/bad.hlo:3:41: error: devices=\[2\] needs 2 device ids, got 3\$" "$tmp/stderr" ||
  fail "malformed dump: $(cat "$tmp/stderr")"
printf 'HloModule m\nENTRY e {\n  p = f32[4]{0} parameter(0' >"$tmp/cut.hlo"
expect "truncated dump" 1 "" -- list "$tmp/cut.hlo"
expect "missing file" 1 "" -- list "$tmp/does-not-exist.hlo"
grep -q "error: cannot open" "$tmp/stderr" || fail "missing file: $(cat "$tmp/stderr")"
expect "no FILE" 2 "" -- list
expect "two --mesh" 2 "" -- list --mesh '<["x"=2]>' --mesh '<["y"=2]>' "$src/examples/op_sharding.pb"
expect "bad --mesh" 1 "" -- list --mesh '<["x"=0]>' "$src/examples/op_sharding.pb"

finish list

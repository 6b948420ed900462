#!/usr/bin/env bash
# --json on errors: the human diagnostic on stderr, a JSON error document on
# stdout (docs/json.md), exit 1; usage errors stay text on stderr, exit 2.
# Usage: json_cli.sh SHARDBRIDGE_BINARY SOURCE_DIR
bin="$1"
source "$(dirname "$0")/lib.bash"

expect "parse error" 1 '{
  "error": {
    "code": "parse",
    "message": "expected '"']'"' to end sharding devices shape",
    "source": "<input>",
    "line": 1,
    "column": 12
  }
}' -- hlo --json '{devices=[2'
if ! grep -q "^<input>:1:12: error: expected ']' to end sharding devices shape" "$tmp/stderr"; then
  fail "parse error: the diagnostic is not on stderr"
fi

# A verifier error of sdy, located in the input.
out="$("$bin" sdy --json --mesh '<["x"=2]>' '#sdy.sharding<@mesh, [{"y"}]>' 2>/dev/null)"
[[ $? -eq 1 ]] || fail "sdy verifier error: exit code"
[[ "$out" == *'"code": "invalid"'*'"line": 1'* ]] || fail "sdy verifier error: $out"
[[ "$out" != *'"note"'* ]] || fail "an error without a note has one: $out"

# An error with a note (an sdy parse error, docs/sdy_parse_errors.md) has a
# `note` member; others have none.
expect "parse error with a note" 1 '{
  "error": {
    "code": "parse",
    "message": "expected '"'='"'",
    "source": "<input>",
    "line": 1,
    "column": 6,
    "note": {
      "message": "failed to parse Sdy_Mesh parameter '"'axes'"' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`",
      "line": 1,
      "column": 7
    }
  }
}' -- sdy --json '<["a" 2]>'

# An error without a position has no line/column members.
out="$("$bin" hlo --json @"$tmp/does-not-exist" 2>/dev/null)"
[[ $? -eq 1 ]] || fail "io error: exit code"
[[ "$out" == *'"code": "io"'* ]] || fail "io error: $out"
[[ "$out" != *'"line"'* ]] || fail "io error has a line: $out"

# explain and show report input errors as JSON too.
for cmd in explain show; do
  out="$("$bin" "$cmd" --json '{devices=[2' 2>/dev/null)"
  [[ $? -eq 1 ]] || fail "$cmd --json error: exit code"
  [[ "$out" == *'"code": "parse"'*'"column": 12'* ]] || fail "$cmd --json error: $out"
done

# Usage errors are not JSON, and --json excludes --to.
expect "usage error" 2 "" -- hlo --json --to pb '{replicated}'

# convert --json: the module as a JSON string and no warnings; with -o the
# module goes to the file and "module" is null.
src="$2"
out="$("$bin" convert --json --to hlo "$src/examples/small_module.mlir")"
[[ $? -eq 0 ]] || fail "convert --json: exit code"
[[ "$out" == *'"to": "hlo"'*'"output": null'*'"warnings": []'*'"module": "module {\n  func.func @main('* ]] ||
  fail "convert --json: $out"
out="$("$bin" convert --json --pass xla-sdy-stablehlo-export-shardings -o "$tmp/out.mlir" "$src/examples/jax_module.mlir" 2>/dev/null)"
[[ $? -eq 0 ]] || fail "convert --json -o: exit code"
[[ "$out" == *'"output": "'"$tmp"'/out.mlir"'*'{"line": 7, "column": 10, "message": "sdy.manual_computation left in sdy form'*'"module": null'* ]] ||
  fail "convert --json -o: $out"
cmp -s "$tmp/out.mlir" <("$bin" convert --pass xla-sdy-stablehlo-export-shardings "$src/examples/jax_module.mlir" 2>/dev/null) ||
  fail "convert --json -o: the file differs from the text output"

# The layout docs/json.md states: explain and show put every array element
# on a line of its own; the other commands keep arrays of numbers or strings
# on one line.
layout() {  # layout NAME split|inline ARGS...: how arrays of numbers or strings are laid out
  local name="$1" want="$2"
  shift 2
  "$bin" "$@" 2>/dev/null | python3 -c '
import re, sys
lines = sys.stdin.read().split("\n")
split = any(l.rstrip().endswith("[") and re.match(r"\s*(-?[0-9]|\")", lines[i + 1])
            for i, l in enumerate(lines[:-1]))
strings = re.compile(r"\"(?:[^\"\\]|\\.)*\"")  # string contents do not count
inline = any(re.search(r"\[(-?[0-9]+|s)(, (-?[0-9]+|s))*\]", strings.sub("s", l)) for l in lines)
sys.exit(0 if (split and not inline) == (sys.argv[1] == "split") and (split or inline) else 1)
' "$want" || fail "$name: arrays are not laid out as docs/json.md says ($want)"
}
layout "explain --json" split explain --json --shape 'f32[8,16]' '{devices=[4,2]<=[2,4]T(1,0)}'
layout "show --json" split show --json --shape 'f32[4,8]' '{devices=[2,2]<=[4]}'
layout "import --json" inline import --json '{devices=[4,2]0,1,2,3,6,7,4,5}' '{maximal device=3}'
layout "hlo --json" inline hlo --json '{devices=[2,2]<=[4] last_tile_dim_replicate}'
layout "list --json" inline list --json "$src/examples/jax_module.hlo.txt"

finish json

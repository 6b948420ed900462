#!/usr/bin/env bash
# CLI checks for `shardbridge hlo` and `shardbridge equal` that golden files
# cannot express: binary output and input, stdin, @file, exit codes 0/1/2.
#   hlo_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="${2:-.}"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

example='{devices=[4,2]<=[2,4]T(1,0) shard_like 3 metadata={op_type="dot" op_name="layer1/dot" source_file="model.py" source_line=42}}'

# --- binary output equals the committed example, byte for byte -------------
"$bin" hlo --to pb "$example" >"$tmp/out.pb" 2>"$tmp/stderr"
rc=$?
if [[ $rc -ne 0 ]]; then
  fail "--to pb exit code $rc"
elif ! cmp -s "$tmp/out.pb" "$src/examples/op_sharding.pb"; then
  fail "--to pb bytes differ from examples/op_sharding.pb"
  xxd "$tmp/out.pb" | sed 's/^/    /'
fi
"$bin" hlo --to pb @"$src/examples/op_sharding.pbtxt" >"$tmp/out2.pb" 2>/dev/null
cmp -s "$tmp/out2.pb" "$src/examples/op_sharding.pb" ||
  fail "--to pb of examples/op_sharding.pbtxt differs from examples/op_sharding.pb"

# {maximal device=7}: 08 01 (type MAXIMAL) 22 01 07 (devices [7]); no newline.
"$bin" hlo --to pb '{maximal device=7}' >"$tmp/max.pb"
[[ "$(xxd -p "$tmp/max.pb")" == "0801220107" ]] || fail "--to pb of {maximal device=7}: $(xxd -p "$tmp/max.pb")"
# {replicated}: every field at its default, zero bytes.
"$bin" hlo --to pb '{replicated}' >"$tmp/rep.pb"
[[ ! -s "$tmp/rep.pb" ]] || fail "--to pb of {replicated} is not empty"
# The empty text-format message prints nothing either.
expect "--to pbtxt of {replicated} is empty" 0 "" -- hlo --to pbtxt '{replicated}'

# --- binary input through @path, detected and forced -------------------------
expect "@path binary input (detected)" 0 "$example" -- hlo --metadata "@$src/examples/op_sharding.pb"
expect "@path binary input (--from pb)" 0 '{devices=[4,2]<=[2,4]T(1,0) shard_like 3}' -- \
  hlo --from pb "@$src/examples/op_sharding.pb"
expect "@path pbtxt input" 0 '{devices=[4,2]<=[2,4]T(1,0) shard_like 3}' -- \
  hlo "@$src/examples/op_sharding.pbtxt"
expect "pb -> pbtxt" 0 "$(grep -v '^#' "$src/examples/op_sharding.pbtxt")" -- \
  hlo --to pbtxt "@$src/examples/op_sharding.pb"
expect "equal: binary vs text" 0 "true" -- equal "@$src/examples/op_sharding.pb" "$example"
# Zero bytes are an error, except with an explicit --from pb, where they are
# XLA's {replicated} (an OpSharding with every field at its default).
expect "empty file is an error" 1 "" -- hlo "@$tmp/rep.pb"
grep -qF "rep.pb: error: empty input" "$tmp/stderr" || fail "empty file: message"
expect "empty file --from pb is {replicated}" 0 "{replicated}" -- hlo --from pb "@$tmp/rep.pb"
printf '\x08\x01' >"$tmp/bad.pb"
expect "binary ladder error exits 1" 1 "" -- hlo "@$tmp/bad.pb"
grep -q 'error: Maximal sharding is expected to have single device assignment, but 0 has provided.' \
  "$tmp/stderr" || fail "binary ladder error message"
printf '\x22\x05\x01' >"$tmp/trunc.pb"
expect "truncated binary exits 1" 1 "" -- hlo --from pb "@$tmp/trunc.pb"
expect "missing @file exits 1" 1 "" -- hlo "@$tmp/does-not-exist"

# --- stdin ----------------------------------------------------------------------
printf '%s\n' '{devices=[2,2]<=[2,2]T(0,1)}' >"$tmp/stdin.txt"
stdin_file="$tmp/stdin.txt" expect "stdin text" 0 '{devices=[2,2]<=[4]}' -- hlo -
stdin_file="$src/examples/op_sharding.pb" expect "stdin binary" 0 \
  '{devices=[4,2]<=[2,4]T(1,0) shard_like 3}' -- hlo -
stdin_file="$tmp/max.pb" expect "equal with stdin" 0 "true" -- equal - '{maximal device=7}'
"$bin" hlo --to pb '{devices=[2,2]3,2,1,0 last_tile_dims={manual}}' |
  "$bin" hlo - >"$tmp/pipe.txt" 2>&1
[[ "$(cat "$tmp/pipe.txt")" == '{devices=[2,2]3,2,1,0 last_tile_dims={manual}}' ]] ||
  fail "--to pb | hlo - round trip: $(cat "$tmp/pipe.txt")"

# --- exit codes -------------------------------------------------------------------
expect "success exits 0" 0 "{replicated}" -- hlo '{replicated}'
expect "equal false exits 0" 0 "false" -- equal '{replicated}' '{manual}'
expect "input error exits 1" 1 "" -- hlo '{devices=[2,2]0,1,2}'
expect "invalid sharding for --shape exits 1" 1 "" -- hlo --shape 'f32[4]' '{devices=[2,2]<=[4]}'
# XLA's Validate message goes on with "\n\tNote: ...": a real line break and
# tab, not an escaped \x0a.
printf '%s\n' \
  '<input>: error: Number of tile assignment dimensions (excluding subgroups) is different than the input rank. sharding={devices=[2,2]<=[4]}, input_shape=f32[4]' \
  $'\tNote: While validating sharding {devices=[2,2]<=[4]} against shape f32[4]' >"$tmp/want"
if ! cmp -s "$tmp/want" "$tmp/stderr"; then
  fail "Validate's note line"
  diff "$tmp/want" "$tmp/stderr" | sed 's/^/    /'
fi
expect "bad --to value exits 2" 2 "" -- hlo --to yaml '{replicated}'
expect "bad --from value exits 2" 2 "" -- hlo --from xml '{replicated}'
expect "--num-devices without --shape exits 2" 2 "" -- hlo --num-devices 4 '{replicated}'
expect "--num-devices not a number exits 2" 2 "" -- hlo --shape 'f32[4]' --num-devices four '{replicated}'
expect "--metadata with --to pbtxt exits 2" 2 "" -- hlo --metadata --to pbtxt '{replicated}'
expect "missing INPUT exits 2" 2 "" -- hlo
expect "equal needs two inputs" 2 "" -- equal '{replicated}'
expect "equal with two stdins exits 2" 2 "" -- equal - -
expect "unknown flag exits 2" 2 "" -- hlo --no-such-flag '{replicated}'

# --- the located diagnostic of an input error -------------------------------------
expect "located pbtxt error" 1 "" -- hlo 'type: OTHER bogus: 1'
# protobuf reports the position just after the field name.
expected_err=$'<input>:1:18: error: Message type "xla.OpSharding" has no field named "bogus".\ntype: OTHER bogus: 1\n                 ^'
if [[ "$(cat "$tmp/stderr")" != "$expected_err" ]]; then
  fail "pbtxt diagnostic"
  echo "    expected:"; echo "$expected_err" | sed 's/^/      /'
  echo "    actual:"; sed 's/^/      /' "$tmp/stderr"
fi

finish hlo

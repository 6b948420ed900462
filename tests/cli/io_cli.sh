#!/usr/bin/env bash
# CLI checks of every input and output path: the reader of base/input.h and
# the writer of base/output.h as the commands use them. Each case asserts the
# exit code, the message and the file system state afterwards. Classes:
# empty input, a directory, a missing file, closed stdin, /dev/zero and
# /dev/urandom (bounded reads; under `ulimit -v` in non-sanitizer builds,
# since ASan cannot run under it), --max-input-bytes, --mesh @FILE, input that
# is not MLIR, NUL bytes and invalid UTF-8, -o through a symlink, a hard link,
# a FIFO (with a timeout and a reader), a device node made with mknod in a
# temporary directory, a directory, `-o -`, a full disk via /dev/full, closed
# stdout, SIGPIPE, SIGTERM during -o, and typos.
#   io_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="$2"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

module="$src/examples/small_module.mlir"
converted="$tmp/converted.mlir"
"$bin" convert --to hlo "$module" >"$converted" || fail "convert --to hlo small_module.mlir"

# expect_err NAME RC MESSAGE -- ARGS...: exit code RC and MESSAGE (a fixed
# string) somewhere on stderr.
expect_err() {
  local name="$1" want_rc="$2" want_msg="$3"
  shift 4
  local rc
  "$bin" "$@" <"${stdin_file:-/dev/null}" >"$tmp/stdout" 2>"$tmp/stderr"
  rc=$?
  if [[ $rc -ne $want_rc ]]; then
    fail "$name: exit code $rc, expected $want_rc"
    sed 's/^/    /' "$tmp/stderr"
  elif ! grep -qF -- "$want_msg" "$tmp/stderr"; then
    fail "$name: stderr lacks '$want_msg'"
    sed 's/^/    /' "$tmp/stderr"
  fi
}

# A sanitizer build cannot run under `ulimit -v` (ASan reserves terabytes of
# address space up front).
sanitized=0
if grep -qa '__asan_init\|__ubsan_handle' "$bin"; then sanitized=1; fi

# --- input ---------------------------------------------------------------
# Done when: `shardbridge hlo ''` prints an error and exits 1.
expect_err "hlo ''" 1 "<input>: error: empty input" -- hlo ''
expect_err "hlo blank" 1 "<input>: error: empty input" -- hlo '  '
: >"$tmp/empty"
expect_err "empty file" 1 "empty: error: empty input" -- hlo "@$tmp/empty"
expect "empty file --from pb is XLA's {replicated}" 0 "{replicated}" -- hlo --from pb "@$tmp/empty"
expect_err "empty stdin" 1 "<stdin>: error: empty input" -- hlo -
expect_err "empty module" 1 "empty: error: empty input" -- convert --to hlo "$tmp/empty"
expect_err "list empty file" 1 "empty: error: empty input" -- list "$tmp/empty"
expect_err "a directory" 1 "shardbridge: error: cannot read '$tmp': Is a directory" -- hlo "@$tmp"
expect_err "equal of two directories" 1 "cannot read '/tmp': Is a directory" -- equal @/tmp @/etc
expect_err "convert a directory" 1 "cannot read '$tmp': Is a directory" -- convert --to hlo "$tmp"
expect_err "list a directory" 1 "cannot read '$tmp': Is a directory" -- list "$tmp"
expect_err "a missing file" 1 "cannot open '$tmp/none': No such file or directory" -- hlo "@$tmp/none"
expect_err "sdy: a missing file" 1 "cannot open '$tmp/none': No such file or directory" -- sdy "@$tmp/none"
expect_err "explain: a missing file" 1 "cannot open '$tmp/none': No such file or directory" -- explain "@$tmp/none"
if [[ $(id -u) -ne 0 ]]; then
  echo '{replicated}' >"$tmp/unreadable"
  chmod 000 "$tmp/unreadable"
  expect_err "an unreadable file" 1 "cannot open '$tmp/unreadable': Permission denied" -- hlo "@$tmp/unreadable"
fi

# Closed stdin (<&-) is an error with the OS reason, not zero bytes.
rc=0
"$bin" hlo - <&- >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
[[ $rc -eq 1 ]] || fail "closed stdin: exit $rc, expected 1"
grep -qF "cannot read <stdin>: Bad file descriptor" "$tmp/stderr" || fail "closed stdin: message"
rc=0
"$bin" convert --to hlo <&- >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
[[ $rc -eq 1 ]] || fail "convert, closed stdin: exit $rc, expected 1"

# Reads stop at the limit plus one byte: endless inputs fail fast.
expect_err "hlo @/dev/zero" 1 "'/dev/zero' is larger than 67108864 bytes, the input limit" -- hlo @/dev/zero
expect_err "hlo @/dev/urandom" 1 "'/dev/urandom' is larger than 67108864 bytes" -- hlo @/dev/urandom
expect_err "list /dev/zero, small limit" 1 "'/dev/zero' is larger than 1000 bytes" -- \
  list --max-input-bytes 1000 /dev/zero
expect_err "convert /dev/zero, small limit" 1 "'/dev/zero' is larger than 1000 bytes" -- \
  convert --to hlo --max-input-bytes 1000 /dev/zero
expect_err "--max-input-bytes on a file" 1 "is larger than 10 bytes, the input limit (--max-input-bytes raises it)" -- \
  convert --to hlo --max-input-bytes 10 "$module"
expect_err "--max-input-bytes on text" 1 "<input> is larger than 3 bytes" -- hlo --max-input-bytes 3 '{replicated}'
expect_err "--max-input-bytes 0" 2 "--max-input-bytes" -- hlo --max-input-bytes 0 '{replicated}'
expect "--max-input-bytes large enough" 0 "{replicated}" -- hlo --max-input-bytes 12 '{replicated}'
if [[ $sanitized -eq 0 ]]; then
  # 400 MB of address space: the 64 MiB sharding limit is reached long before.
  rc=0
  (ulimit -v 400000; exec "$bin" hlo @/dev/zero) >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
  [[ $rc -eq 1 ]] || fail "hlo @/dev/zero under ulimit -v: exit $rc"
  grep -qF "is larger than 67108864 bytes" "$tmp/stderr" || fail "hlo @/dev/zero under ulimit -v: message"
  rc=0
  (ulimit -v 400000; exec "$bin" explain @/dev/urandom) >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
  [[ $rc -eq 1 ]] || fail "explain @/dev/urandom under ulimit -v: exit $rc"
  # A module may be 1 GiB: under 400 MB it ends as an out-of-memory error, not a crash.
  rc=0
  (ulimit -v 400000; exec "$bin" list /dev/zero) >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
  [[ $rc -eq 1 ]] || fail "list /dev/zero under ulimit -v: exit $rc"
  grep -qF "error:" "$tmp/stderr" || fail "list /dev/zero under ulimit -v: message"
fi

# Tuples are bounded: 65,536 elements parse, one more is a located error.
python3 -c "print('{' + ','.join(['{replicated}'] * 65537) + '}')" >"$tmp/tuple.txt"
expect_err "a tuple of 65537 elements" 1 "tuple.txt:1:851970: error: a tuple has more than 65536 elements" -- \
  hlo "@$tmp/tuple.txt"
python3 -c "print('{' + ','.join(['{replicated}'] * 65536) + '}')" >"$tmp/tuple.txt"
rc=0
"$bin" hlo "@$tmp/tuple.txt" >/dev/null 2>&1 || rc=$?
[[ $rc -eq 0 ]] || fail "a tuple of 65536 elements: exit $rc"

# Tuple protos are bounded too: 65,536 elements read, one more is refused
# before protobuf builds a message (bounded memory), in every proto format.
python3 -c "import sys; sys.stdout.buffer.write(b'\x08\x02' + b'\x2a\x00' * 65537)" >"$tmp/tuple.pb"
expect_err "a tuple proto of 65537 elements" 1 \
  "tuple.pb: error: a tuple has more than 65536 elements (counted over every level of nesting)" -- \
  hlo --from pb "@$tmp/tuple.pb"
python3 -c "import sys; sys.stdout.buffer.write(b'\x08\x02' + b'\x2a\x00' * 65536)" >"$tmp/tuple.pb"
"$bin" hlo --from pb --to pb "@$tmp/tuple.pb" >"$tmp/tuple_out.pb" 2>"$tmp/stderr" || fail "a tuple proto of 65536 elements: exit $?"
cmp -s "$tmp/tuple.pb" "$tmp/tuple_out.pb" || fail "a tuple proto of 65536 elements: bytes differ"
python3 -c "print('type: TUPLE' + ' tuple_shardings {}' * 1000000)" >"$tmp/tuple.pbtxt"
expect_err "a pbtxt tuple of 10^6 elements" 1 "a tuple has more than 65536 elements" -- hlo "@$tmp/tuple.pbtxt"
if [[ $sanitized -eq 0 ]]; then
  python3 -c "import sys; sys.stdout.buffer.write(b'\x08\x02' + b'\x2a\x00' * 1000000)" >"$tmp/tuple.pb"
  (ulimit -v 400000; "$bin" hlo --from pb "@$tmp/tuple.pb" >/dev/null 2>"$tmp/stderr"); rc=$?
  [[ $rc -eq 1 ]] || fail "a tuple proto of 10^6 elements under ulimit -v: exit $rc"
  grep -qF "a tuple has more than 65536 elements" "$tmp/stderr" || fail "a tuple proto of 10^6 elements: message"
fi

# --mesh @FILE reads the mesh like any input: 100,000 device ids.
python3 - "$tmp/mesh.txt" <<'EOF'
import sys
n = 100000
ids = list(range(n))
ids[0], ids[1] = ids[1], ids[0]
open(sys.argv[1], "w").write('<["x"=%d], device_ids=[%s]>' % (n, ", ".join(map(str, ids))))
EOF
expect "--mesh @FILE with 100000 device_ids" 0 '#sdy.sharding<@mesh, [{"x"}]>' -- \
  sdy --mesh "@$tmp/mesh.txt" '#sdy.sharding<@mesh, [{"x"}]>'
expect_err "--mesh @missing" 1 "cannot open '$tmp/none'" -- sdy --mesh "@$tmp/none" '#sdy.sharding<@mesh, [{}]>'
printf '<["x"=2, "x"=2]>' >"$tmp/badmesh.txt"
expect_err "--mesh @FILE error names the file" 1 "badmesh.txt:1:" -- \
  sdy --mesh "@$tmp/badmesh.txt" '#sdy.sharding<@mesh, [{}]>'

# convert refuses what is not MLIR, judged by its first significant token.
expect_err "convert an HLO dump" 1 "jax_module.hlo.txt:1:1: error: not an MLIR module: it starts with 'HloModule'" -- \
  convert --to hlo "$src/examples/jax_module.hlo.txt"
printf 'type: OTHER\n' >"$tmp/plain.pbtxt"
expect_err "convert a commented pbtxt" 1 "op_sharding.pbtxt:1:1: error: not an MLIR module: it starts with '#'" -- \
  convert --to sdy "$src/examples/op_sharding.pbtxt"
expect_err "convert a pbtxt" 1 "not an MLIR module: it starts with 'type'" -- \
  convert --to sdy "$tmp/plain.pbtxt"
printf 'hello world\n' >"$tmp/plain.txt"
expect_err "convert plain text" 1 "plain.txt:1:1: error: not an MLIR module: it starts with 'hello'" -- \
  convert --to hlo "$tmp/plain.txt"
printf 'module {\n\0}\n' >"$tmp/nul.mlir"
expect_err "convert: a NUL byte" 1 "nul.mlir:2:1: error: text contains a NUL byte" -- convert --to hlo "$tmp/nul.mlir"
printf '// comment\nmodule {\n}\n' >"$tmp/commented.mlir"
expect "convert: comments before module" 0 "$(cat "$tmp/commented.mlir")" -- convert --to hlo "$tmp/commented.mlir"

# Text with a NUL or invalid UTF-8: a located text error, bytes escaped.
printf 'type: OTHER\0' >"$tmp/nul.txt"
expect_err "hlo: NUL in pbtxt" 1 "nul.txt:1:12: error: text contains a NUL byte" -- hlo "@$tmp/nul.txt"
printf '{devices=[2]0,1 \xff}' >"$tmp/utf8.txt"
expect_err "hlo: invalid UTF-8 in HLO text" 1 "utf8.txt:1:17: error: text is not valid UTF-8 (byte \\xff)" -- \
  hlo "@$tmp/utf8.txt"
expect_err "explain: NUL in text" 1 "nul.txt:1:12: error: text contains a NUL byte" -- explain "@$tmp/nul.txt"
"$bin" hlo "@$tmp/utf8.txt" 2>"$tmp/stderr" >/dev/null
if LC_ALL=C grep -q $'\xff' "$tmp/stderr"; then fail "a raw byte reached the diagnostic"; fi
# Metadata that is not UTF-8 is refused at input, located in HLO text.
expect_err "metadata not UTF-8" 1 "<input>:1:31: error: op_name is not valid UTF-8 (byte \\xff after unescaping)" -- \
  hlo --metadata '{replicated metadata={op_name="a\377"}}'
expect_err "metadata not UTF-8, pbtxt" 1 "metadata op_name is not valid UTF-8 (byte \\xff)" -- \
  hlo 'type: REPLICATED metadata { op_name: "a\377" }'
expect_err "metadata not UTF-8, explain" 1 "op_name is not valid UTF-8" -- \
  explain '{replicated metadata={op_name="a\377"}}'

# libprotobuf's own log lines come as shardbridge diagnostics, never raw.
printf '\x3a\x03\x12\x01\xff' >"$tmp/bad_utf8.pb"
expect_err "pb with a non-UTF-8 op_name" 1 "shardbridge: error: protobuf: String field 'xla.OpMetadata.op_name' contains invalid UTF-8 data" -- \
  hlo "@$tmp/bad_utf8.pb"
grep -qF '[libprotobuf' "$tmp/stderr" && fail "a raw libprotobuf line reached stderr"

# --- output --------------------------------------------------------------
# Done when: a full disk is an error and exit 1, in every command.
for args in "convert --to hlo $module" "hlo {replicated}" "sdy <[\"x\"=2]>" "list $src/examples/jax_module.hlo.txt" \
            "explain {replicated}" "import {replicated}" "equal {replicated} {replicated}" \
            "show {devices=[2]0,1}" "export --mesh <[\"x\"=2]> #sdy.sharding<@mesh,[{\"x\"}]>" "hlo --help"; do
  rc=0
  # shellcheck disable=SC2086
  "$bin" $args >/dev/full 2>"$tmp/stderr" || rc=$?
  [[ $rc -eq 1 ]] || fail "$args > /dev/full: exit $rc, expected 1"
  grep -qF "shardbridge: error: cannot write <stdout>: No space left on device" "$tmp/stderr" ||
    fail "$args > /dev/full: message"
done
# Closed stdout (>&-) is an error too.
rc=0
"$bin" hlo '{replicated}' >&- 2>"$tmp/stderr" || rc=$?
[[ $rc -eq 1 ]] || fail "closed stdout: exit $rc"
grep -qF "cannot write <stdout>: Bad file descriptor" "$tmp/stderr" || fail "closed stdout: message"

# A reader that closes early ends the command by SIGPIPE, as `cat`, silently.
python3 -c "import sys; sys.stdout.write('module {\n' + '// padding line\n' * 400000 + '}\n')" >"$tmp/big.mlir"
rc=$(set -o pipefail; "$bin" convert --to hlo "$tmp/big.mlir" 2>"$tmp/stderr" | head -c 1 >/dev/null; echo $?)
[[ $rc -eq 141 ]] || fail "SIGPIPE: exit $rc, expected 141"
[[ -s "$tmp/stderr" ]] && fail "SIGPIPE: a message on stderr: $(cat "$tmp/stderr")"

out="$tmp/out"
mkdir "$out"
# Done when: -o through a symlink leaves the symlink and writes its target.
echo old >"$out/t.mlir"
ln -s t.mlir "$out/l.mlir"
expect "-o symlink" 0 "" -- convert --to hlo "$module" -o "$out/l.mlir"
[[ -L "$out/l.mlir" ]] || fail "-o symlink: l.mlir is no longer a symlink"
cmp -s "$out/t.mlir" "$converted" || fail "-o symlink: t.mlir does not hold the converted module"
ln -s missing.mlir "$out/dangling.mlir"
expect "-o dangling symlink" 0 "" -- convert --to hlo "$module" -o "$out/dangling.mlir"
[[ -L "$out/dangling.mlir" ]] && cmp -s "$out/missing.mlir" "$converted" || fail "-o dangling symlink: target"

# A regular file keeps its mode; nothing changes when the conversion fails.
echo old >"$out/mode.mlir"
chmod 640 "$out/mode.mlir"
expect "-o keeps the mode" 0 "" -- convert --to hlo "$module" -o "$out/mode.mlir"
[[ $(stat -c %a "$out/mode.mlir") == 640 ]] || fail "-o mode: $(stat -c %a "$out/mode.mlir")"
cmp -s "$out/mode.mlir" "$converted" || fail "-o mode: content"
printf 'module {\n  func.func @f(%%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nowhere, [{"x"}]>}) {\n    return\n  }\n}\n' >"$tmp/bad.mlir"
expect_err "-o, conversion fails" 1 "error:" -- convert --to hlo "$tmp/bad.mlir" -o "$out/mode.mlir"
cmp -s "$out/mode.mlir" "$converted" || fail "-o, conversion fails: the file changed"

# A file with two hard links is written in place: both links see the result.
echo old >"$out/h1"
ln "$out/h1" "$out/h2"
expect "-o hard link" 0 "" -- convert --to hlo "$module" -o "$out/h1"
cmp -s "$out/h2" "$converted" || fail "-o hard link: the other link does not see the result"
[[ $(stat -c %h "$out/h1") -eq 2 ]] || fail "-o hard link: the link was split"

# `-o -` is stdout, not a file named `-`.
expect "-o -" 0 "$(cat "$converted")" -- convert --to hlo "$module" -o -
[[ -e ./- || -e "$out/-" ]] && fail "-o -: a file named '-' was created"

# A directory is an error; a FIFO is written in place, to its reader.
expect_err "-o directory" 1 "shardbridge: error: cannot write '$out': Is a directory" -- \
  convert --to hlo "$module" -o "$out"
mkfifo "$out/fifo"
timeout 10 cat "$out/fifo" >"$tmp/fifo.out" &
reader=$!
rc=0
timeout 10 "$bin" convert --to hlo "$module" -o "$out/fifo" 2>"$tmp/stderr" || rc=$?
wait "$reader"
[[ $rc -eq 0 ]] || fail "-o FIFO: exit $rc"
[[ -p "$out/fifo" ]] || fail "-o FIFO: no longer a FIFO"
cmp -s "$tmp/fifo.out" "$converted" || fail "-o FIFO: the reader did not get the module"

# Device nodes, made in the temporary directory (never the real /dev/null).
if mknod "$out/null" c 1 3 2>/dev/null && mknod "$out/full" c 1 7 2>/dev/null; then
  expect "-o device node (null)" 0 "" -- convert --to hlo "$module" -o "$out/null"
  [[ -c "$out/null" ]] || fail "-o device node: no longer a character device"
  expect_err "-o device node (full)" 1 "shardbridge: error: cannot write '$out/full': No space left on device" -- \
    convert --to hlo "$module" -o "$out/full"
  [[ -c "$out/full" ]] || fail "-o full device: no longer a character device"
  expect_err "show --svg to a full device" 1 "No space left on device" -- \
    show --svg "$out/full" '{devices=[2]0,1}'
else
  echo "note: mknod not permitted here; device node cases skipped"
fi
ls -A "$out" | grep -q '^\.' && fail "a temporary file was left: $(ls -A "$out")"

# SIGTERM while the temporary file exists (SHARDBRIDGE_TEST_HOLD_OUTPUT makes
# the writer wait for a signal once the file is complete): no temporary file
# survives, the target is untouched, and the process ends by the signal.
sig="$tmp/sig"
mkdir "$sig"
echo old >"$sig/out.mlir"
SHARDBRIDGE_TEST_HOLD_OUTPUT=1 "$bin" convert --to hlo "$module" -o "$sig/out.mlir" 2>"$tmp/stderr" &
writer=$!
for _ in $(seq 100); do
  ls -A "$sig" | grep -q '^\.out\.mlir\.' && break
  sleep 0.05
done
ls -A "$sig" | grep -q '^\.out\.mlir\.' || fail "SIGTERM: the temporary file never appeared"
kill -TERM "$writer"
rc=0
wait "$writer" || rc=$?
[[ $rc -eq 143 ]] || fail "SIGTERM: exit $rc, expected 143"
[[ "$(ls -A "$sig")" == "out.mlir" ]] || fail "SIGTERM: left behind: $(ls -A "$sig")"
[[ "$(cat "$sig/out.mlir")" == old ]] || fail "SIGTERM: the target changed"
# A background job of a script starts with SIGINT ignored (and an ignored
# signal is left ignored); env --default-signal gives it back its default.
SHARDBRIDGE_TEST_HOLD_OUTPUT=1 env --default-signal=INT "$bin" convert --to hlo "$module" -o "$sig/out.mlir" 2>"$tmp/stderr" &
writer=$!
for _ in $(seq 100); do
  ls -A "$sig" | grep -q '^\.out\.mlir\.' && break
  sleep 0.05
done
kill -INT "$writer"
wait "$writer"
[[ "$(ls -A "$sig")" == "out.mlir" ]] || fail "SIGINT: left behind: $(ls -A "$sig")"

# --- losses said ----------------------------------------------------------
expect "import {unknown}: output" 0 $'sdy.mesh @mesh = <[]>\n#sdy.sharding<@mesh, []>' -- import '{unknown}'
grep -qxF "<input>: warning: input 1 ({unknown}): {unknown} is imported as replicated: sdy has no unknown sharding" "$tmp/stderr" ||
  fail "import {unknown}: warning"
expect_err "import: MANUAL subgroup" 0 "input 1 ({devices=[2,2]<=[4] last_tile_dims={manual}}): the MANUAL subgroup is dropped" -- \
  import '{devices=[2,2]<=[4] last_tile_dims={manual}}'
expect_err "import: shard_like" 0 "shard_like 3 is dropped: an sdy sharding has no shard groups" -- \
  import '{devices=[2]0,1 shard_like 3}'
expect_err "import: {unreduced} without a mesh" 0 "{unreduced} is imported as replicated" -- import '{unreduced}'
expect_err "import: tuple element" 0 "tuple element 1: {unknown} is imported as replicated" -- import '{{replicated}, {unknown}}'
echo '{unknown}' >"$tmp/unknown.txt"
expect_err "import: warning names the file" 0 "unknown.txt: warning: input 1 ({unknown})" -- import "@$tmp/unknown.txt"
"$bin" import --json '{unknown}' 2>/dev/null | grep -qF '"{unknown} is imported as replicated: sdy has no unknown sharding"' ||
  fail "import --json: warnings"
"$bin" import --json '{replicated}' 2>/dev/null | grep -qF '"warnings": []' || fail "import --json: empty warnings"
expect_err "explain: shard group" 0 "<input>: warning: shard_as 1 is dropped" -- \
  explain '{devices=[2,2]<=[4] shard_as 1}'
for input in '{devices=[2,2]<=[4] shard_as 1}' '{unknown}' '{manual}' '{unreduced}'; do
  "$bin" explain "$input" 2>"$tmp/stderr" >/dev/null
  want=$(sed -n 's/^<input>: warning: //p' "$tmp/stderr")
  [[ -n "$want" ]] || fail "explain $input: no warning on stderr"
  "$bin" explain --json "$input" 2>/dev/null >"$tmp/explain.json"
  python3 - "$tmp/explain.json" "$want" <<'EOF2' || fail "explain --json $input: warnings differ from stderr"
import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit(0 if doc["warnings"] == sys.argv[2].split("\n") else 1)
EOF2
done
"$bin" explain --json '{devices=[2,2]<=[4] last_tile_dims={manual}}' 2>"$tmp/stderr" | grep -qF '"warnings": []' ||
  fail "explain --json: a MANUAL subgroup is listed as manual_axes, no loss"
[[ ! -s "$tmp/stderr" ]] || fail "explain of a MANUAL subgroup: stderr not empty"
expect_err "import: device -1" 1 "<input>: error: device id -1 in {maximal device=-1} is outside [0, 2^63)" -- \
  import '{maximal device=-1}'
expect "hlo keeps reading device -1" 0 "{maximal device=-1}" -- hlo '{maximal device=-1}'

# --- usage ---------------------------------------------------------------
expect_err "mistyped command" 2 "shardbridge: error: unknown command 'hol'; did you mean 'hlo'?" -- hol '{replicated}'
expect_err "mistyped option" 2 "unknown option '--metdata'; did you mean '--metadata'?" -- hlo --metdata '{replicated}'
expect_err "mistyped convert option" 2 "did you mean '--output'?" -- convert --to hlo --ouptut x "$module"
expect_err "help of an unknown command" 2 "unknown command 'nope'" -- help nope
"$bin" help convert >"$tmp/help" 2>&1 || fail "help convert: exit $?"
grep -qF -- "--max-input-bytes" "$tmp/help" || fail "help convert: no --max-input-bytes"
"$bin" help hlo >"$tmp/help_hlo" 2>&1
"$bin" hlo --help >"$tmp/hlo_help" 2>&1
cmp -s "$tmp/help_hlo" "$tmp/hlo_help" || fail "help hlo differs from hlo --help"
# Every command's --help has an example and wraps at 80 columns.
for c in sdy hlo equal export import convert list explain show; do
  "$bin" "$c" --help >"$tmp/help" 2>&1 || fail "$c --help: exit $?"
  grep -q '^Examples\?:' "$tmp/help" || fail "$c --help: no example"
  long=$(awk 'length($0) > 80' "$tmp/help")
  [[ -z "$long" ]] || fail "$c --help: lines over 80 columns: $long"
done
expect_err "--rank absurd" 2 "--rank" -- import --rank 1000000000 '{replicated}'
expect_err "--rank negative" 2 "--rank" -- import --rank -1 '{replicated}'
expect_err "--width absurd" 2 "--width" -- show --width 1000000000 '{replicated}'
expect_err "--num-devices negative" 2 "--num-devices" -- hlo --shape 'f32[4]' --num-devices -4 '{replicated}'

finish io

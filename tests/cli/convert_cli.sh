#!/usr/bin/env bash
# CLI checks for `shardbridge convert` (issue 5 item 1): the examples/ JAX
# module and its mhlo.sharding twin, exit codes, stdin, -o (written only on
# success), the warning about ops left in sdy form, and the round trip
# hlo -> sdy -> hlo without manual axes.
#   convert_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="$2"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

ex="$src/examples/jax_module.mlir"
twin="$src/examples/jax_module_mhlo.mlir"

# --to hlo on the JAX module (the export pipeline): the function signature
# and the ops before the manual computation are byte-identical to the twin,
# which holds what upstream writes (see tests/golden/module/export.mlir and
# export_pipeline.mlir for their sources: stablehlo_export_pipeline.mlir
# rules; the sharding constraint becomes mhlo.copy; the manual-computation
# lowering follows its @call_in_manual_computation_partially_manual case).
"$bin" convert --to hlo "$ex" >"$tmp/hlo.mlir" 2>"$tmp/stderr"
rc=$?
[[ $rc -eq 0 ]] || fail "convert --to hlo examples/jax_module.mlir: exit $rc"
for pattern in 'func.func public @main' '%0 = stablehlo.dot_general' '%1 = stablehlo.add' \
               '%2 = mhlo.copy'; do
  want="$(grep -F -- "$pattern" "$twin")"
  got="$(grep -F -- "$pattern" "$tmp/hlo.mlir")"
  [[ -n "$want" && "$want" == "$got" ]] || { fail "jax_module --to hlo: line '$pattern'"; echo "    want: $want"; echo "    got:  $got"; }
done
# The manual computation lowered: the same sharding strings, in the same
# order, as the twin's copies, custom calls, call and outlined body; manual
# axis "x" as a MANUAL subgroup in the body.
diff <(grep -o 'mhlo.sharding = "[^"]*"' "$twin") <(grep -o 'mhlo.sharding = "[^"]*"' "$tmp/hlo.mlir") >/dev/null ||
  fail "jax_module --to hlo: the sharding strings differ from the twin's"
want_manual='{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}'
grep -qF "stablehlo.multiply %arg3, %arg3 {mhlo.sharding = \"$want_manual\"}" "$tmp/hlo.mlir" ||
  fail "jax_module --to hlo: op in the manual computation"
grep -qF 'stablehlo.custom_call @SPMDFullToShardShape' "$tmp/hlo.mlir" ||
  fail "jax_module --to hlo: @SPMDFullToShardShape"
grep -qF 'func.func private @xla.sdy.inlinable_manual_computation_body(' "$tmp/hlo.mlir" ||
  fail "jax_module --to hlo: the outlined body"
grep -q 'sdy\.mesh\|sdy\.manual_computation\|sdy\.sharding\b\|sdy\.return' "$tmp/hlo.mlir" &&
  fail "jax_module --to hlo: an sdy op or mesh is left"
[[ ! -s "$tmp/stderr" ]] || { fail "jax_module --to hlo: nothing on stderr"; sed 's/^/    /' "$tmp/stderr"; }
# The export-shardings pass alone leaves the manual computation (and its
# mesh) in sdy form, and says so.
"$bin" convert --pass xla-sdy-stablehlo-export-shardings "$ex" >"$tmp/alone.mlir" 2>"$tmp/stderr" ||
  fail "convert --pass xla-sdy-stablehlo-export-shardings"
grep -qF 'sdy.mesh @mesh = <["x"=2, "y"=4]>' "$tmp/alone.mlir" ||
  fail "the mesh a manual computation refers to stays"
grep -qF "jax_module.mlir:7:10: warning: sdy.manual_computation left in sdy form" "$tmp/stderr" ||
  { fail "stderr names the op left in sdy form"; sed 's/^/    /' "$tmp/stderr"; }

# --to sdy on the twin: the inferred mesh (docs/import.md) inserted in the body.
"$bin" convert --to sdy "$twin" >"$tmp/sdy.mlir" 2>"$tmp/stderr" || fail "convert --to sdy twin"
[[ "$(sed -n 2p "$tmp/sdy.mlir")" == '  sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2, "_axis_2"=2]>' ]] ||
  fail "twin --to sdy: inserted mesh line"
grep -qF '%2 = mhlo.copy %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0", "_axis_1", "_axis_2"}, {}]>]>}' "$tmp/sdy.mlir" ||
  fail "twin --to sdy: mhlo.copy"
[[ ! -s "$tmp/stderr" ]] || fail "twin --to sdy: nothing on stderr"

# Round trip without manual axes: to hlo, to sdy, to hlo gives the same text.
grep -v -e 'manual_computation' -e 'stablehlo.multiply' -e 'sdy.return' -e '^    } : ' "$ex" |
  sed 's/return %3, %0/return %2, %0/' >"$tmp/plain.mlir"
"$bin" convert --to hlo "$tmp/plain.mlir" >"$tmp/a.mlir" 2>/dev/null &&
  "$bin" convert --to sdy "$tmp/a.mlir" >"$tmp/b.mlir" &&
  "$bin" convert --to hlo "$tmp/b.mlir" >"$tmp/c.mlir" || fail "round trip: a step failed"
cmp -s "$tmp/a.mlir" "$tmp/c.mlir" || { fail "round trip hlo -> sdy -> hlo"; diff "$tmp/a.mlir" "$tmp/c.mlir" | head; }
grep -q 'sdy\.' "$tmp/a.mlir" && fail "no sdy left after --to hlo without manual computations"

# stdin, as `-` and with no FILE.
stdin_file="$ex" expect "stdin as -" 0 "$(cat "$tmp/hlo.mlir")" -- convert --to hlo -
stdin_file="$ex" expect "stdin without FILE" 0 "$(cat "$tmp/hlo.mlir")" -- convert --to hlo

# -o: written on success (nothing on stdout), untouched on error.
"$bin" convert --to hlo -o "$tmp/out.mlir" "$ex" >"$tmp/stdout" 2>/dev/null || fail "-o: exit code"
cmp -s "$tmp/out.mlir" "$tmp/hlo.mlir" || fail "-o: content"
[[ ! -s "$tmp/stdout" ]] || fail "-o: stdout is empty"
printf 'sdy.mesh @mesh = <["x"=2]>\nfunc.func @f(%%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {\n  return\n}\n' >"$tmp/bad.mlir"
echo keep >"$tmp/existing.mlir"
"$bin" convert --to hlo -o "$tmp/existing.mlir" "$tmp/bad.mlir" >/dev/null 2>"$tmp/stderr"
rc=$?
[[ $rc -eq 1 ]] || fail "bad input: exit $rc, expected 1"
[[ "$(cat "$tmp/existing.mlir")" == keep ]] || fail "-o is not written on error"
"$bin" convert --to hlo -o "$tmp/new.mlir" "$tmp/bad.mlir" >/dev/null 2>&1
[[ ! -e "$tmp/new.mlir" ]] || fail "-o is not created on error"
ls -A "$tmp" | grep -q '^\.' && fail "no temporary file left behind"
grep -qF "$tmp/bad.mlir:2:80: error: sharding doesn't match tensor rank: 2 != 1" "$tmp/stderr" ||
  { fail "located error"; sed 's/^/    /' "$tmp/stderr"; }

# Truncated module: located error, exit 1.
head -c 300 "$ex" >"$tmp/trunc.mlir"
expect "truncated module" 1 "" -- convert --to hlo "$tmp/trunc.mlir"
grep -q "trunc.mlir:[0-9]*:[0-9]*: error: " "$tmp/stderr" || fail "truncated module: located error"

# Usage errors exit 2; a missing file is an input error.
expect "--to missing" 2 "" -- convert "$ex"
expect "--to bad" 2 "" -- convert --to xla "$ex"
expect "--v3 with --to sdy" 2 "" -- convert --to sdy --v3 "$twin"
expect "missing file" 1 "" -- convert --to hlo "$tmp/nope.mlir"

# --pass: upstream names with MLIR's option syntax, run in order; unknown
# names and options are usage errors that list what exists.
"$bin" convert --pass xla-sdy-export-ops --pass xla-sdy-stablehlo-export-shardings "$ex" >"$tmp/p.mlir" 2>/dev/null ||
  fail "--pass twice"
grep -qF '%2 = mhlo.copy %1 {mhlo.sharding = "{devices=[8,1]<=[8]}"}' "$tmp/p.mlir" || fail "--pass: the passes ran in order"
"$bin" convert --pass 'xla-sdy-stablehlo-export-pipeline{keep-hlo-sharding-constraints=true}' "$ex" >"$tmp/k.mlir" ||
  fail "--pass with an option"
grep -qF '%2 = stablehlo.custom_call @Sharding(%1)' "$tmp/k.mlir" || fail "--pass option keep-hlo-sharding-constraints"
cmp -s "$tmp/k.mlir" <("$bin" convert --to hlo --keep-hlo-sharding-constraints "$ex") ||
  fail "--keep-hlo-sharding-constraints is the pipeline option"
"$bin" convert --pass xla-sdy-nope "$ex" >/dev/null 2>"$tmp/stderr"
[[ $? -eq 2 ]] || fail "unknown pass: exit 2"
grep -qF "unknown pass 'xla-sdy-nope'; known: xla-sdy-stablehlo-export-pipeline" "$tmp/stderr" ||
  { fail "unknown pass: the known names"; cat "$tmp/stderr"; }
"$bin" convert --pass 'xla-sdy-export-ops{nope=1}' "$ex" >/dev/null 2>"$tmp/stderr"
[[ $? -eq 2 ]] || fail "unknown option: exit 2"
grep -qF "pass 'xla-sdy-export-ops' has no option 'nope'; options: keep-hlo-sharding-constraints" "$tmp/stderr" ||
  fail "unknown option: the known options"
"$bin" convert --pass help >"$tmp/help.txt" || fail "--pass help"
grep -q '^xla-sdy-stablehlo-export-pipeline (pipeline): ' "$tmp/help.txt" || fail "--pass help lists the pipeline"
expect "--to and --pass" 2 "" -- convert --to hlo --pass xla-sdy-export-ops "$ex"

# --to hlo --round-trip (xla-sdy-round-trip-export-pipeline): mhlo.sharding
# plus the sdy originals in mhlo.frontend_attributes, the manual computation
# as @xla.sdy.GlobalToLocalShape / a call of its outlined body /
# @xla.sdy.LocalToGlobalShape, no sdy.mesh left; the same as --pass; only
# with --to hlo.
"$bin" convert --to hlo --round-trip "$ex" >"$tmp/rt.mlir" 2>"$tmp/stderr" || fail "convert --to hlo --round-trip: exit"
[[ -s "$tmp/stderr" ]] && fail "convert --to hlo --round-trip: no warnings expected"
grep -qF 'attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2, \22y\22=4]>}"}' "$tmp/rt.mlir" ||
  fail "--round-trip: xla.sdy.meshes"
grep -qF '{mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}, {\22y\22}]>"}, mhlo.sharding = "{devices=[2,4]<=[8]}"}' "$tmp/rt.mlir" ||
  fail "--round-trip: an argument's frontend attributes"
for pattern in '@xla.sdy.GlobalToLocalShape(%2) {has_side_effect = true' 'call @xla.sdy.manual_computation_body(' \
               '@xla.sdy.LocalToGlobalShape(' '@xla.sdy.FuncResultSharding(%3)' 'func.func @xla.sdy.manual_computation_body('; do
  grep -qF -- "$pattern" "$tmp/rt.mlir" || fail "--round-trip: '$pattern'"
done
grep -qE '(^|\s)sdy\.(mesh|manual_computation)[ (]' "$tmp/rt.mlir" && fail "--round-trip: sdy ops left"
cmp -s "$tmp/rt.mlir" <("$bin" convert --pass xla-sdy-round-trip-export-pipeline "$ex") ||
  fail "--round-trip is --pass xla-sdy-round-trip-export-pipeline"
"$bin" convert --to hlo --round-trip --v3 "$ex" | grep -qE 'xla\.sdy\.(sharding|meshes) =' &&
  fail "--round-trip --v3: no xla.sdy.sharding / xla.sdy.meshes"
expect "--round-trip with --to sdy" 2 "" -- convert --to sdy --round-trip "$twin"

# The README's shard_map example: no sdy op and no mesh left, the manual
# computation fully manual ({manual} inside), the README shows this output.
"$bin" convert --to hlo "$src/examples/jax_shard_map_module.mlir" >"$tmp/sm.mlir" 2>"$tmp/stderr" ||
  fail "jax_shard_map_module --to hlo"
grep -q 'sdy\.' "$tmp/sm.mlir" | grep -v 'xla.sdy.inlinable' && fail "jax_shard_map_module: sdy left"
[[ "$(grep -c 'sdy\.' "$tmp/sm.mlir")" == "$(grep -c 'xla\.sdy\.inlinable_manual_computation_body' "$tmp/sm.mlir")" ]] ||
  fail "jax_shard_map_module: only the outlined body's name mentions sdy"
grep -qF '%5 = stablehlo.tanh %arg2 {mhlo.sharding = "{manual}"}' "$tmp/sm.mlir" || fail "jax_shard_map_module: body {manual}"
[[ ! -s "$tmp/stderr" ]] || fail "jax_shard_map_module: nothing on stderr"
grep -qF "$(sed -n 3p "$tmp/sm.mlir")" "$src/README.md" || fail "jax_shard_map_module: the README shows the real output"

# Issue 10, Done when: the round-trip export then `--to sdy` gives the JAX
# module back byte for byte (the round-trip import, picked from the module's
# xla.sdy.meshes); the export's own output comes back as an
# sdy.manual_computation; --to hlo, --to sdy, --to hlo is stable.
"$bin" convert --to hlo --round-trip "$ex" | "$bin" convert --to sdy - >"$tmp/back.mlir" 2>"$tmp/stderr" ||
  fail "--to hlo --round-trip | --to sdy"
cmp -s "$tmp/back.mlir" "$ex" || fail "--to hlo --round-trip | --to sdy gives examples/jax_module.mlir back"
"$bin" convert --to sdy "$twin" >"$tmp/raised.mlir" 2>"$tmp/stderr" || fail "--to sdy jax_module_mhlo"
grep -q 'sdy.manual_computation(%2) in_shardings=' "$tmp/raised.mlir" || fail "--to sdy jax_module_mhlo: a manual computation"
grep -q 'SPMDFullToShardShape\|inlinable_manual_computation_body' "$tmp/raised.mlir" && fail "--to sdy jax_module_mhlo: no custom call left"
[[ ! -s "$tmp/stderr" ]] || fail "--to sdy jax_module_mhlo: no warning"
"$bin" convert --to hlo "$tmp/raised.mlir" >"$tmp/h2.mlir" || fail "--to sdy then --to hlo"
cmp -s <(grep -o 'mhlo.sharding = "[^"]*"' "$tmp/h2.mlir") <(grep -o 'mhlo.sharding = "[^"]*"' "$twin") ||
  fail "--to sdy then --to hlo: the twin's shardings, in order"
"$bin" convert --to sdy "$tmp/h2.mlir" | "$bin" convert --to hlo - | cmp -s - "$tmp/h2.mlir" ||
  fail "--to hlo, --to sdy, --to hlo gives the same bytes the second time"
"$bin" convert --pass help | grep -q '^xla-sdy-round-trip-testing-pipeline (pipeline)' || fail "--pass help: testing pipeline"
for p in xla-sdy-stablehlo-import-pipeline xla-sdy-round-trip-import-pipeline xla-sdy-import-shardings \
         xla-sdy-import-constants xla-stablehlo-round-trip-shard-map-import xla-sdy-round-trip-shard-map-import \
         xla-sdy-round-trip-import-shardy-attrs xla-sdy-import-sdy-custom-calls xla-sdy-open-while-free-vars-sharding; do
  "$bin" convert --pass help | grep -q "^$p" || fail "--pass help: $p"
done
"$bin" convert --pass 'xla-sdy-round-trip-import-pipeline{lift-and-dedup-meshes=true enable-constant-import=false}' "$ex" >/dev/null ||
  fail "round-trip import pipeline options"
"$bin" convert --to hlo --round-trip --v3 "$ex" | "$bin" convert --to sdy - | cmp -s - "$ex" ||
  fail "--to hlo --round-trip --v3 | --to sdy gives examples/jax_module.mlir back (the V3 round-trip import)"

# --timing: stdout is what it is without it; stderr lists every step of the
# pipeline in order (a step its prefilter skipped says so), then the totals.
"$bin" convert --to hlo --timing "$ex" >"$tmp/timed.mlir" 2>"$tmp/timing" || fail "convert --timing"
cmp -s "$tmp/timed.mlir" "$tmp/hlo.mlir" || fail "--timing changes nothing on stdout"
steps="$(sed -n 's/^  \([a-z][a-z0-9-]*\)  .*/\1/p' "$tmp/timing" | grep -v '^read$\|^write$\|^other$\|^total$' | tr '\n' ' ')"
[[ "$steps" == "xla-sdy-stablehlo-export-manual-reduction-collectives xla-sdy-export-ops xla-sdy-stablehlo-round-trip-shard-map-export symbol-dce xla-sdy-stablehlo-export-shardings xla-sdy-stablehlo-round-trip-export-callback-custom-calls " ]] ||
  { fail "--timing: the export pipeline's steps in order"; echo "    got: $steps"; }
grep -q '^  xla-sdy-stablehlo-round-trip-export-callback-custom-calls .*skipped' "$tmp/timing" ||
  fail "--timing: a step with nothing to do is skipped"
grep -q '^  xla-sdy-stablehlo-export-manual-reduction-collectives  .*parse  *[0-9.]*  *run  *[0-9.]*' "$tmp/timing" ||
  fail "--timing: the first step that runs parses"
for row in 'read input' 'write output' 'other' 'total'; do
  grep -q "^  $row  *[0-9]*\.[0-9]\{4\}$" "$tmp/timing" || fail "--timing: the '$row' row"
done
"$bin" convert --to hlo --timing --json "$ex" >"$tmp/timed.json" 2>"$tmp/timing" || fail "convert --timing --json"
grep -q '^timing (wall-clock seconds):' "$tmp/timing" || fail "--timing --json: the report on stderr"

# A module cut into parts (docs/module.md "Large modules in parts"): one
# function a part gives the one run's bytes, and --timing says so.
{
  echo 'module @parts {'
  echo '  sdy.mesh @mesh = <["x"=2]>'
  for i in 0 1 2 3; do
    echo "  func.func @f$i(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<16xf32> {"
    echo '    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<8xf32>) {'
    echo '      %1 = stablehlo.negate %a : tensor<8xf32>'
    echo '      sdy.return %1 : tensor<8xf32>'
    echo '    } : (tensor<16xf32>) -> tensor<16xf32>'
    echo '    return %0 : tensor<16xf32>'
    echo '  }'
  done
  echo '}'
} >"$tmp/parts.mlir"
SHARDBRIDGE_PART_BYTES=0 "$bin" convert --to hlo "$tmp/parts.mlir" >"$tmp/whole.out" || fail "parts: the one run"
SHARDBRIDGE_PART_BYTES=1 "$bin" convert --to hlo --timing "$tmp/parts.mlir" >"$tmp/parts.out" 2>"$tmp/timing" ||
  fail "parts: the run in parts"
cmp -s "$tmp/whole.out" "$tmp/parts.out" || fail "parts: the same bytes as one run"
grep -q '^  (in 4 parts on [0-9]* threads' "$tmp/timing" || fail "parts: --timing names the parts"
grep -q '@xla.sdy.inlinable_manual_computation_body_2(' "$tmp/parts.out" || fail "parts: bodies numbered across parts"

finish convert

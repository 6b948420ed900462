#!/usr/bin/env bash
# CLI checks for `shardbridge explain` and `show` that golden files cannot
# express: --svg/--html files, --color, stdin/@file input, exit codes 0/1/2.
#   view_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

rank3='{devices=[2,2,2,2]<=[16] last_tile_dim_replicate}'

# --- files ----------------------------------------------------------------------
"$bin" show --shape f32[4,8,16] --svg "$tmp/s.svg" --html "$tmp/s.html" "$rank3" >/dev/null 2>"$tmp/stderr" ||
  fail "show --svg --html exit code $?"
head -1 "$tmp/s.svg" | grep -q '^<?xml version="1.0" encoding="UTF-8"?>$' || fail "SVG has no XML declaration"
grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$tmp/s.svg" || fail "SVG has no svg root"
grep -q '&lt;=\[16\]' "$tmp/s.svg" || fail "SVG title not escaped"
tail -1 "$tmp/s.svg" | grep -q '^</svg>$' || fail "SVG does not end with </svg>"
[[ "$(grep -c '<rect' "$tmp/s.svg")" -eq 9 ]] || fail "SVG: expected 8 tiles + background = 9 rects"
head -1 "$tmp/s.html" | grep -q '^<!DOCTYPE html>$' || fail "HTML has no doctype"
grep -q '<svg xmlns' "$tmp/s.html" || fail "HTML does not embed the SVG"
if command -v xmllint >/dev/null; then
  xmllint --noout "$tmp/s.svg" || fail "xmllint rejects the SVG"
fi
expect "unwritable --svg" 1 "" -- show --svg /nonexistent/dir/x.svg "$rank3"

# --- what a group is (issue 13 item 5): unreduced and manual devices are
# marked apart from replicas, in the text picture, the SVG and the JSON ----------
out="$("$bin" show '{devices=[2,1,2]<=[4] last_tile_dims={unreduced}}')"
grep -qF "2+3" <<<"$out" || fail "show unreduced: no '2+3' cell"
grep -qxF "cells: '+' joins devices holding partial values of a tile (unreduced, combined by sum)" <<<"$out" ||
  fail "show unreduced: legend"
out="$("$bin" show '{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}')"
grep -qF "0,1|2,3" <<<"$out" || fail "show manual: no '0,1|2,3' cell"
grep -qF "'|' separates devices each holding its own shard (manual)" <<<"$out" || fail "show manual: legend"
out="$("$bin" show '{devices=[2,1,2]<=[4] last_tile_dim_replicate}')"
grep -qF "0,1" <<<"$out" || fail "show replicas: no '0,1' cell"
grep -q '^cells:' <<<"$out" && fail "show replicas: a legend for replicas only"
"$bin" show --svg "$tmp/u.svg" --mesh '<["a"=2, "b"=2]>' '#sdy.sharding<@mesh, [{"a"}, {}], unreduced=max{"b"}>' >/dev/null ||
  fail "show --svg of an unreduced sharding: exit $?"
grep -qF ">0+1<" "$tmp/u.svg" || fail "SVG: no '0+1' cell"
grep -qF "combined by max" "$tmp/u.svg" || fail "SVG: the legend does not name the reduction"
"$bin" show --json '{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}' >"$tmp/g.json"
grep -qF '"manual_group": 2' "$tmp/g.json" && grep -qF '"unreduced_group": 1' "$tmp/g.json" ||
  fail "show --json: manual_group / unreduced_group"

# --- colour -----------------------------------------------------------------------
"$bin" show --color always '{devices=[2]<=[2]}' | grep -q $'\x1b\[48;5;' || fail "--color always has no ANSI colour"
"$bin" show --color auto '{devices=[2]<=[2]}' | grep -q $'\x1b' && fail "--color auto colours a pipe"
"$bin" show '{devices=[2]<=[2]}' | grep -q $'\x1b' && fail "default colours a pipe"

# --- input forms --------------------------------------------------------------------
echo '{devices=[2]<=[2]}' >"$tmp/s.txt"
"$bin" explain "@$tmp/s.txt" | grep -q '^kind:          tiled' || fail "explain @file"
first="$("$bin" explain - <"$tmp/s.txt" | head -1)"
[[ "$first" == "sharding:      {devices=[2]<=[2]}" ]] || fail "explain - (stdin): $first"
printf 'type: OTHER\ntile_assignment_dimensions: 2\ntile_assignment_devices: [1, 0]\n' >"$tmp/s.pbtxt"
"$bin" explain "@$tmp/s.pbtxt" | head -1 | grep -q '{devices=\[2\]1,0}' || fail "explain pbtxt"
"$bin" explain --json --shape f32[3] '{devices=[2]<=[2]}' | grep -q '"input_format": "hlo"' || fail "explain --json"

# --- exit codes -------------------------------------------------------------------
expect "show --rows out of range" 2 "" -- show --rows 3 '{devices=[2,2]<=[4]}'
expect "show --rows = --cols" 2 "" -- show --rows 1 --cols 1 '{devices=[2,2]<=[4]}'
expect "show --color bad" 2 "" -- show --color sometimes '{devices=[2]<=[2]}'
expect "show --width too small" 2 "" -- show --width 3 '{devices=[2]<=[2]}'
expect "explain bad shape" 1 "" -- explain --shape 'f32[2' '{devices=[2]<=[2]}'
expect "explain bad sharding" 1 "" -- explain '{devices=[2]<=[3]}'
expect "explain sdy without --mesh" 1 "" -- explain '#sdy.sharding<@mesh, [{"x"}]>'
expect "show a manual sharding" 1 "" -- show '{manual}'
expect "explain missing argument" 2 "" -- explain

finish "explain/show"

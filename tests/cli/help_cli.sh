#!/usr/bin/env bash
# The help of every command, and `shardbridge --help`: at most 80 columns,
# an example, `help COMMAND` the same as `COMMAND --help`, and option
# descriptions filled to the width (no line broken where the next word
# would have fit: descriptions are wrapped by the CLI, not by hand).
#   help_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

check_filled() {  # check_filled NAME FILE
  python3 - "$2" <<'PY' || fail "$1: option descriptions broken by hand"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
col = 30  # CLI11's description column
bad = 0
for k in range(len(lines) - 1):
    line, nxt = lines[k], lines[k + 1]
    is_option = line.startswith("  ") and not line.startswith("   ") and len(line) > col \
        and line[col - 2:col] == "  " and line[col] != " "
    is_cont = line.startswith(" " * col) and line[col:col + 1] not in ("", " ")
    if not (is_option or is_cont):
        continue
    if not (nxt.startswith(" " * col) and nxt[col:col + 1] not in ("", " ")):
        continue
    word = nxt.split()[0]
    if len(line) + 1 + len(word) <= 80:
        print("  %r then %r" % (line, word))
        bad += 1
sys.exit(1 if bad else 0)
PY
}

"$bin" --help >"$tmp/help" 2>&1 || fail "--help: exit $?"
long=$(awk 'length($0) > 80' "$tmp/help")
[[ -z "$long" ]] || fail "--help: lines over 80 columns: $long"
check_filled "--help" "$tmp/help"
for c in sdy hlo equal export import convert list explain show; do
  "$bin" "$c" --help >"$tmp/help" 2>&1 || fail "$c --help: exit $?"
  grep -q '^Examples\?:' "$tmp/help" || fail "$c --help: no example"
  long=$(awk 'length($0) > 80' "$tmp/help")
  [[ -z "$long" ]] || fail "$c --help: lines over 80 columns: $long"
  check_filled "$c --help" "$tmp/help"
  "$bin" help "$c" >"$tmp/help2" 2>&1 || fail "help $c: exit $?"
  cmp -s "$tmp/help" "$tmp/help2" || fail "help $c differs from $c --help"
done

finish help

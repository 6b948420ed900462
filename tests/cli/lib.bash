# Shared by the tests/cli/*_cli.sh scripts (named .bash so CTest does not run it): source it after setting `bin`.
# Provides $tmp (removed on exit), fail, expect, and finish.

failures=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FAILED: $1"
  failures=$((failures + 1))
}

# expect NAME EXIT_CODE EXPECTED_STDOUT -- ARGS...: runs the binary with ARGS
# (stdin from $stdin_file when set) and compares exit code and stdout.
expect() {
  local name="$1" want_rc="$2" want_out="$3"
  shift 4
  local out rc
  out="$("$bin" "$@" <"${stdin_file:-/dev/null}" 2>"$tmp/stderr")"
  rc=$?
  if [[ $rc -ne $want_rc ]]; then
    fail "$name: exit code $rc, expected $want_rc"
    sed 's/^/    /' "$tmp/stderr"
  elif [[ "$out" != "$want_out" ]]; then
    fail "$name: stdout"
    echo "    expected: $want_out"
    echo "    actual:   $out"
  fi
}

# finish WHAT: the summary line and the exit status.
finish() {
  if [[ $failures -ne 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "all $1 CLI checks passed"
}

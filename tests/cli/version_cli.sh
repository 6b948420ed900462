#!/usr/bin/env bash
# `shardbridge --version`: the version of include/shardbridge/version.h, the
# git description of the build and the protobuf version (issue 11 item 3).
#   version_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="${2:-.}"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"

v() { sed -n "s/^#define SB_VERSION_$1 \([0-9]*\)$/\1/p" "$src/include/shardbridge/version.h"; }
version="$(v MAJOR).$(v MINOR).$(v PATCH)"
out="$("$bin" --version 2>"$tmp/stderr")"
rc=$?
[[ $rc -eq 0 ]] || fail "--version: exit code $rc"
re="^shardbridge ${version//./\\.} \\(git [^ ,]+, protobuf [0-9]+\\.[0-9]+\\.[0-9]+\\)$"
[[ "$out" =~ $re ]] || fail "--version printed '$out', expected 'shardbridge $version (git DESCRIPTION, protobuf X.Y.Z)'"
# The protobuf version is the one pkg-config reports for the headers built against.
if command -v pkg-config >/dev/null && pb="$(pkg-config --modversion protobuf 2>/dev/null)"; then
  [[ "$out" == *"protobuf $pb)" ]] || fail "--version names protobuf other than $pb: '$out'"
fi
finish version

#!/usr/bin/env bash
# `cpack -G DEB` (issue 11 item 2): the three packages hold what they should,
# declare the right Depends, and apt accepts them on this system.
#   deb.sh BUILD_DIR
set -euo pipefail
build=$1
out="$build/consumers/deb"
rm -rf "$out" && mkdir -p "$out"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out" >/dev/null
rm -rf "$out/_CPack_Packages"

fail() { echo "deb.sh: $*" >&2; exit 1; }
one() { compgen -G "$out/$1" | head -1; }
lib=$(one 'libshardbridge1_*.deb') dev=$(one 'libshardbridge-dev_*.deb') cli=$(one 'shardbridge_*.deb')
[ -n "$lib" ] && [ -n "$dev" ] && [ -n "$cli" ] || fail "expected three packages, got: $(ls "$out")"

has() {  # has DEB PATH...: each PATH is in DEB's contents
  local deb=$1; shift
  local contents; contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
  for p in "$@"; do grep -qxF "./$p" <<<"$contents" || fail "$(basename "$deb") lacks /$p"; done
}
lacks() {  # lacks DEB REGEX: no path of DEB matches REGEX
  if dpkg-deb -c "$1" | awk '{print $6}' | grep -E "$2"; then fail "$(basename "$1") holds $2"; fi
}
depends() { dpkg-deb -f "$1" Depends; }

has "$lib" usr/lib/libshardbridge.so.1
lacks "$lib" '\.(h|a)$|/bin/'
has "$dev" usr/include/shardbridge/c_api.h usr/include/shardbridge/version.h \
    usr/include/shardbridge/sdy/text.h usr/lib/libshardbridge.so usr/lib/libshardbridge_base.a \
    usr/lib/libshardbridge_proto_gen.a usr/lib/cmake/shardbridge/shardbridgeConfig.cmake \
    usr/lib/cmake/shardbridge/shardbridgeTargets.cmake usr/lib/pkgconfig/shardbridge.pc \
    usr/lib/pkgconfig/shardbridge-c.pc usr/share/shardbridge/proto/op_sharding.proto
lacks "$dev" '\.pb\.h$|/proto/pb/|/bin/|\.so\.1'
has "$cli" usr/bin/shardbridge
lacks "$cli" '\.(h|a)$|\.so'

for deb in "$lib" "$dev" "$cli"; do echo "$(basename "$deb"): Depends: $(depends "$deb")"; done
grep -q 'libprotobuf32' <<<"$(depends "$lib")" || fail "libshardbridge1 does not depend on libprotobuf32"
grep -q 'libstdc++6' <<<"$(depends "$lib")" || fail "libshardbridge1 does not depend on libstdc++6"
grep -qF 'libshardbridge1 (= ' <<<"$(depends "$dev")" || fail "libshardbridge-dev does not depend on its library"
grep -q 'libprotobuf-dev' <<<"$(depends "$dev")" || fail "libshardbridge-dev does not depend on libprotobuf-dev"
# Nothing more: the CMake package and the pkg-config file need protobuf's
# library and headers only.
[ "$(depends "$dev" | tr -d ' ' | tr ',' '\n' | sed 's/(.*//' | sort | tr '\n' ' ')" = \
  "libprotobuf-dev libshardbridge1 " ] || fail "libshardbridge-dev depends on more than it needs: $(depends "$dev")"
grep -q 'libprotobuf32' <<<"$(depends "$cli")" || fail "shardbridge does not depend on libprotobuf32"

# apt resolves the packages and their Depends on this system.
if command -v apt-get >/dev/null; then
  apt-get install --simulate -qq "$lib" "$dev" "$cli" >/dev/null || fail "apt-get install --simulate refused the packages"
  echo "apt-get install --simulate accepts $(basename "$lib") $(basename "$dev") $(basename "$cli")"
fi

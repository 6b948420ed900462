#!/usr/bin/env bash
# The installed-tree tests (issue 11 item 5): shardbridge used as a
# dependency, against a temporary install prefix only.
#
#   consumers.sh install  BUILD_DIR SOURCE_DIR PREFIX   cmake --install into a fresh PREFIX
#   consumers.sh headers  BUILD_DIR SOURCE_DIR PREFIX   the installed headers compile against PREFIX
#   consumers.sh cmake    BUILD_DIR SOURCE_DIR PREFIX   examples/consumer via find_package
#   consumers.sh pkg-cxx  BUILD_DIR SOURCE_DIR PREFIX   a C++ program via pkg-config shardbridge
#   consumers.sh pkg-c    BUILD_DIR SOURCE_DIR PREFIX   a C11 program via pkg-config shardbridge-c
#
# Nothing here may see the build or source tree's headers or libraries:
# compilers get only the prefix (through CMAKE_PREFIX_PATH or pkg-config)
# and the system's directories.
set -euo pipefail
mode=$1 build=$2 src=$3 prefix=$4
work="$build/consumers/$mode"
CXX=${CXX:-g++}
CC=${CC:-gcc}

fail() { echo "consumers.sh $mode: $*" >&2; exit 1; }

case "$mode" in
  install)
    rm -rf "$prefix"
    cmake --install "$build" --prefix "$prefix" >/dev/null
    # No generated protobuf header, nothing of the internal proto/pb/ folder.
    if find "$prefix" -name '*.pb.h' -o -path '*/proto/pb/*' | grep .; then
      fail "installed a header that exposes protobuf's generated types"
    fi
    for f in bin/shardbridge include/shardbridge/c_api.h include/shardbridge/version.h \
             lib/pkgconfig/shardbridge.pc lib/pkgconfig/shardbridge-c.pc \
             lib/cmake/shardbridge/shardbridgeConfig.cmake share/shardbridge/proto/op_sharding.proto; do
      [ -e "$prefix/$f" ] || fail "missing $f"
    done
    "$prefix/bin/shardbridge" --version
    ;;

  headers)
    rm -rf "$work" && mkdir -p "$work"
    # Every installed header in one translation unit, compiled against the
    # prefix alone: nothing installed includes a header that is not (a
    # generated .pb.h, an internal proto/pb/ header would not be found). One
    # unit rather than one per header keeps this to seconds in CI.
    (cd "$prefix/include" && find shardbridge -name '*.h' | sort) > "$work/headers"
    [ -s "$work/headers" ] || fail "no headers installed"
    sed 's/.*/#include <&>/' "$work/headers" > "$work/all.cc"
    "$CXX" -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I"$prefix/include" "$work/all.cc" \
      || fail "the installed headers do not compile against the installed tree alone"
    # The C API header and version.h are plain C11.
    for h in shardbridge/c_api.h shardbridge/version.h; do
      printf '#include <%s>\nint sb_header_check;\n' "$h" > "$work/one.c"
      "$CC" -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" "$work/one.c" \
        || fail "$h is not C11"
    done
    echo "$(wc -l < "$work/headers") headers compile against $prefix"
    ;;

  cmake)
    rm -rf "$work"
    cmake -S "$src/examples/consumer" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release \
          -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
          -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_COMPILER="$CC" >/dev/null
    cmake --build "$work" >/dev/null
    out=$("$work/consumer")
    echo "$out"
    grep -qxF '{devices=[4,2]<=[2,4]T(1,0)}' <<<"$out" || fail "unexpected output"
    # The C target through the CMake package too (RPATH points into the prefix).
    "$work/consumer_c" >/dev/null
    ;;

  pkg-cxx)
    rm -rf "$work" && mkdir -p "$work"
    export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
    # shellcheck disable=SC2046
    "$CXX" -std=c++20 -O1 "$src/examples/consumer/main.cc" -o "$work/consumer" \
        $(pkg-config --cflags --libs shardbridge)
    out=$("$work/consumer")
    echo "$out"
    grep -qxF '#sdy.sharding<@mesh, [{"y"}, {"x"}]>' <<<"$out" || fail "unexpected output"
    ;;

  pkg-c)
    rm -rf "$work" && mkdir -p "$work"
    export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
    libdir=$(pkg-config --variable=libdir shardbridge-c)
    # shellcheck disable=SC2046
    "$CC" -std=c11 -pedantic -Wall -Wextra -Werror "$src/examples/consumer/c_api_example.c" \
        -o "$work/consumer_c" $(pkg-config --cflags --libs shardbridge-c) -Wl,-rpath,"$libdir"
    # Only sb_* is exported.
    others=$(nm -D --defined-only "$libdir/libshardbridge.so" | awk '{print $3}' | grep -v '^sb_' | grep -v '^SHARDBRIDGE_1$' || true)
    [ -z "$others" ] || fail "libshardbridge.so exports more than sb_*: $(head -3 <<<"$others")"
    soname=$(objdump -p "$libdir/libshardbridge.so" | awk '$1 == "SONAME" {print $2}')
    [ "$soname" = "libshardbridge.so.1" ] || fail "SONAME is '$soname'"
    out=$("$work/consumer_c")
    echo "$out"
    expected='{devices=[4,2]<=[2,4]T(1,0)}
#sdy.sharding<@mesh, [{"y"}, {"x"}]>
error at byte 30:
<input>:1:31: error: unknown axis name: "z"
#sdy.sharding<@mesh, [{"y"}, {"z"}]>
                              ^'
    [ "$out" = "$expected" ] || fail "unexpected output"
    ;;

  *)
    fail "unknown mode"
    ;;
esac

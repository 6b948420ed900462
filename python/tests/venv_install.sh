#!/usr/bin/env bash
# The venv install of docs/python.md, offline, reusing the build tree:
#   venv_install.sh PYTHON SOURCE_DIR BUILD_DIR
# installs the package into a fresh venv (with --system-site-packages, for
# Debian's setuptools and wheel) and checks that the installed copy is the
# one imported and prints the Done-when line of issue 12.
set -euo pipefail
py=$1 src=$2 build=$3
tmp=$(mktemp -d "$build/venv-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$py" -m venv --system-site-packages "$tmp/v"
SHARDBRIDGE_BUILD_DIR=$build PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$tmp/v/bin/pip" install -q --no-build-isolation --no-index "$src"
cd "$tmp"
out=$(env -u PYTHONPATH "$tmp/v/bin/python" -c '
import shardbridge as sb, sys
assert sb.__file__.startswith(sys.prefix), sb.__file__
s = sb.HloSharding.parse("{devices=[4,2]<=[2,4]T(1,0)}")
print(s, sb.to_sdy(s, "<[\"x\"=2, \"y\"=4]>"))')
want='{devices=[4,2]<=[2,4]T(1,0)} #sdy.sharding<@mesh, [{"y"}, {"x"}]>'
if [ "$out" != "$want" ]; then
  echo "venv install printed: $out" >&2
  echo "expected:             $want" >&2
  exit 1
fi
# The stubs and the py.typed marker are installed too.
site=$("$tmp/v/bin/python" -c 'import shardbridge, os; print(os.path.dirname(shardbridge.__file__))')
for f in py.typed __init__.pyi _core.pyi; do
  [ -f "$site/$f" ] || { echo "missing $f in $site" >&2; exit 1; }
done
echo "venv install ok: $out"

#!/usr/bin/env bash
# Installs the Debian 12 packages shardbridge needs to build, test, fuzz and benchmark.
# Idempotent: does nothing (and needs no network) when everything is already there.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libprotobuf-dev protobuf-compiler
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libcli11-dev
  clang-14 libclang-rt-14-dev
  python3-dev python3-pybind11 python3-venv python3-pip python3-pytest python3-hypothesis
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

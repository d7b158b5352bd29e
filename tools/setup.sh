#!/usr/bin/env bash
# Installs the Debian packages ARCS builds and tests with, when any is missing.
# Idempotent and quiet when everything is there; uses sudo when not root.
set -euo pipefail

packages=(
  build-essential cmake make
  rapidjson-dev libssl-dev googletest libgtest-dev libbenchmark-dev
  clang libclang-rt-14-dev
  python3 python3-jsonschema
  cmark-gfm
  nodejs
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

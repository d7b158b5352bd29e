#!/usr/bin/env bash
# Installs the Debian packages ARCS builds and tests with, when any is missing, then the pinned npm
# packages of tools/node (the JavaScript software tests compare against) into tools/node/node_modules
# (ignored by git) with `npm ci`, when that folder is missing or older than the lockfile.
# Idempotent and quiet when everything is there; uses sudo when not root.
set -euo pipefail

packages=(
  build-essential cmake make
  rapidjson-dev libsimdjson-dev libssl-dev googletest libgtest-dev libbenchmark-dev
  clang libclang-rt-14-dev lld
  python3 python3-jsonschema python3-yaml
  cmark-gfm libcmark-dev libyaml-cpp-dev libre2-dev libcpp-httplib-dev libtomlplusplus-dev
  jq chromium help2man
  nodejs
)
# Intel's multi-buffer SHA-256 (reference/core/sha256.h), built for amd64 only.
if [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ]; then packages+=(libipsec-mb-dev); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian ships npm as a package of its own; other builds of nodejs bring it (and conflict with it).
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

node_dir=$(dirname "$0")/node
installed=$node_dir/node_modules/.package-lock.json
if [ ! -f "$installed" ] || [ "$node_dir/package-lock.json" -nt "$installed" ]; then
  echo "setup: npm ci in $node_dir"
  npm ci --prefix "$node_dir" --no-audit --no-fund --loglevel=error >/dev/null
fi

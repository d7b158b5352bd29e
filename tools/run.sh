#!/usr/bin/env bash
# `make run`: the whole suite against the reference implementation (`arcs run`), then every
# rendering of its report under reports/: JSON (the source of truth, committed), Markdown, HTML,
# JUnit XML and one SVG badge per format.
set -uo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p reports
"$build/arcs" run -j "$jobs" --report reports/reference.json
status=$?
[ -s reports/reference.json ] || exit "$status"
"$build/arcs" report reports/reference.json --markdown --out reports/reference.md &&
  "$build/arcs" report reports/reference.json --html --out reports/reference.html &&
  "$build/arcs" report reports/reference.json --junit --out reports/reference.junit.xml &&
  "$build/arcs" report reports/reference.json --badges reports/badges || exit 2
echo "reports: reports/reference.{json,md,html,junit.xml}, reports/badges/"
exit "$status"

#!/usr/bin/env bash
# publint --strict and @arethetypeswrong/cli on the tarball `npm pack` produces (what partners install).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tarball=$(npm pack --silent --pack-destination "$out" | tail -n 1)
publint --strict "$out/$tarball"
# node16 profile: ESM and CJS consumers under node16/nodenext and bundler resolution (node10 has no `exports`).
attw "$out/$tarball" --profile node16

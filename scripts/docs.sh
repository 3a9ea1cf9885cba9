#!/usr/bin/env bash
# API reference (TypeDoc) for the four public entry points into docs/api/. TypeDoc needs the TypeScript 6
# compiler API while the project compiles with TypeScript 7, so it lives in its own pinned tooling package
# (docs/package.json + docs/package-lock.json), installed here on first use. Warnings fail the build:
# every public export must carry JSDoc and every {@link} must resolve.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x docs/node_modules/.bin/typedoc ] || [ docs/package-lock.json -nt docs/node_modules/.package-lock.json ]; then
  npm ci --prefix docs --no-audit --no-fund >/dev/null
fi
cd docs
exec node node_modules/typedoc/bin/typedoc --options typedoc.json "$@"

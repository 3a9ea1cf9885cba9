#!/usr/bin/env bash
# Installs the packed tarball (what `npm publish` would ship) into a throwaway partner project and uses it:
#   - from ESM and from CJS (scripts/consumer-check/{esm.mjs,cjs.cjs}: a token exchange, bearer and public
#     calls, a typed error, a file uploaded from disk through the default transport and through `fetch`
#     (the bytes compared) and a webhook round trip against a loopback server, then the `./testing` fake as
#     a partner's own test uses it, then the `./redis` stores with node-redis and ioredis against a
#     redis-server it starts when one is installed), on Node 22 and Node 24;
#   - the same two scripts on Bun and Deno (versions pinned below, from the npm packages bun and deno), then
#     every example of examples/ and the quickstart, copied into that project, on Bun and on Deno
#     (scripts/examples-on-runtime.ts checks what each prints);
#   - type-checked from TypeScript with moduleResolution nodenext (ESM .mts and CJS .cts) and bundler,
#     with TypeScript 7 and TypeScript 6, skipLibCheck off, against @types/node 24 (pinned), 22 and latest,
#     the README quickstart (its quickstart.mts block) among the files checked;
#   - ./testing without msw: importing and requiring it fail with one line naming the install command.
# Run after `npm run build`. Dependencies of the tarball come from the npm registry, like a partner's install.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

[ -f dist/index.js ] || { echo "consumer-check: no dist/ — run npm run build first" >&2; exit 1; }

node24="$repo/node_modules/node/bin/node"
source scripts/node-binary.sh
node22="$(node_binary 22)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
project="$work/consumer"
cp -r scripts/consumer-check "$project"

dev() { "$node24" -p "require('./package.json').devDependencies['$1']"; }
msw="msw@$(dev msw)"
redis="redis@$(dev redis)"
ioredis="ioredis@$(dev ioredis)"
types_node="@types/node@$(dev @types/node)"
# msw: the optional peer dependency of the `./testing` entry, which a partner's test suite installs;
# redis and ioredis: the optional peers of the `./redis` entry (a partner installs the one they use).
echo "consumer-check: installing $tarball, $msw, $redis, $ioredis and $types_node into a fresh project"
(cd "$project" && npm install --no-audit --no-fund --no-package-lock --loglevel=error \
  "$work/$tarball" "$msw" "$redis" "$ioredis" "$types_node" >/dev/null)

# The installed tree must hold the runtime dependencies and nothing from our devDependencies.
"$node24" -e '
  const pkg = require(process.argv[1] + "/node_modules/@partner-equity/sdk/package.json");
  const dev = Object.keys(require("./package.json").devDependencies);
  const fs = require("node:fs");
  const wanted = ["@types/node", "msw", "redis", "ioredis", ...Object.keys(pkg.dependencies ?? {})];
  const leaked = dev.filter((name) => !wanted.includes(name) && fs.existsSync(process.argv[1] + "/node_modules/" + name));
  if (leaked.length) { console.error("devDependencies installed for a consumer:", leaked); process.exit(1); }
  // Installed, not resolved: some (read-excel-file) export subpaths only, which require() cannot name bare.
  const missing = Object.keys(pkg.dependencies ?? {}).filter((name) => !fs.existsSync(process.argv[1] + "/node_modules/" + name + "/package.json"));
  if (missing.length) { console.error("runtime dependencies not installed for a consumer:", missing); process.exit(1); }
' "$project"

for node in "$node22" "$node24"; do
  (cd "$project" && "$node" esm.mjs && "$node" cjs.cjs)
done

# The cold start (issue 48): importing the installed SDK loads no package but p-retry (zod is bundled into
# dist), and building a client and its first request none at all (node:http, node:crypto: no undici, jose).
(cd "$project" && "$node24" --input-type=module -e '
  import { registerHooks } from "node:module";
  const packages = new Set();
  registerHooks({ resolve(specifier, context, next) {
    const result = next(specifier, context);
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(result.url)?.[1];
    if (name !== undefined) packages.add(name);
    return result;
  } });
  const { PartnerEquity } = await import("@partner-equity/sdk");
  const { generateKeyPairSync } = await import("node:crypto");
  const { privateKey } = generateKeyPairSync("ed25519");
  const client = new PartnerEquity({ baseUrl: "http://127.0.0.1:9", clientId: "c", issuer: "https://partner.example", privateKey, maxRetries: 0, logLevel: "off" });
  await client.oauth.info().catch(() => {});
  await client.close();
  const loaded = [...packages].filter((name) => !["@partner-equity/sdk", "p-retry", "is-network-error"].includes(name));
  if (loaded.length > 0) { console.error("the import and first call loaded packages:", loaded); process.exit(1); }
  console.log("ok the import and a first call load no package beyond the SDK and p-retry");
')

# The OpenTelemetry versions docs/observability.md names as installing together: each line beside the
# packed SDK in a project of its own (npm's peer check fails a mixed set with ERESOLVE), then loaded.
# shellcheck disable=SC2086 # each line is a list of package specs
otel_lines=(
  "@opentelemetry/api@~1.9.0 @opentelemetry/sdk-trace-base@^2.12.0 @opentelemetry/context-async-hooks@^2.12.0 @opentelemetry/sdk-node@^0.223.0 @opentelemetry/exporter-trace-otlp-http@^0.223.0 @opentelemetry/instrumentation-undici@^0.34.0"
  "@opentelemetry/api@~1.10.0 @opentelemetry/sdk-trace@^3.1.0 @opentelemetry/context-async-hooks@^3.1.0 @opentelemetry/sdk-node@^0.301.0 @opentelemetry/exporter-trace-otlp-http@^0.301.0 @opentelemetry/instrumentation-undici@^0.34.0"
)
for line in "${otel_lines[@]}"; do
  otel="$work/otel-$RANDOM"
  mkdir -p "$otel" && echo '{ "name": "otel-consumer", "private": true }' >"$otel/package.json"
  echo "consumer-check: installing the SDK with $line"
  (cd "$otel" && npm install --no-audit --no-fund --no-package-lock --ignore-scripts --loglevel=error \
    "$work/$tarball" $line >/dev/null)
  # Each package loads, and the SDK beside them.
  (cd "$otel" && "$node24" -e '
    for (const name of process.argv.slice(1)) require(name.replace(/(.)@.*$/, "$1"));
    require("@partner-equity/sdk");
  ' $line)
done

# Bun and Deno, the versions the README promises. Their platform binaries come from the npm registry
# (optional dependencies of the bun and deno packages), called directly so no install script has to run.
bun_version=1.4.5
deno_version=2.9.6
runtimes="${RUNTIMES_DIR:-$repo/node_modules/.cache/runtimes}/bun-$bun_version-deno-$deno_version"
if [ ! -x "$runtimes/node_modules/@oven/bun-linux-x64/bin/bun" ] || [ ! -x "$runtimes/node_modules/@deno/linux-x64-glibc/deno" ]; then
  mkdir -p "$runtimes"
  npm install --prefix "$runtimes" --no-save --no-audit --no-fund --no-package-lock --ignore-scripts \
    --loglevel=error "bun@$bun_version" "deno@$deno_version" >/dev/null
fi
bun="$runtimes/node_modules/@oven/bun-linux-x64/bin/bun"
deno="$runtimes/node_modules/@deno/linux-x64-glibc/deno"
echo "consumer-check: Bun $("$bun" --version), $("$deno" --version | head -n 1)"
# `timeout`: a handle left open (msw's BroadcastChannel once kept Deno alive) must fail, not hang CI.
(cd "$project" && timeout 120 "$bun" esm.mjs && timeout 120 "$bun" cjs.cjs &&
  timeout 120 "$deno" run -A esm.mjs && timeout 120 "$deno" run -A cjs.cjs)

# The examples, as a partner copies them: against the installed package, with the frameworks they use.
cp -r examples "$project/examples"
# Versions read here, in the repository (inside the subshell, `dev` would read the temp project's manifest).
frameworks=("express@$(dev express)" "fastify@$(dev fastify)" "hono@$(dev hono)")
(cd "$project" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "${frameworks[@]}" >/dev/null)
"$node24" --import tsx scripts/examples-on-runtime.ts "$project" bun "$bun"
# The examples import their own .ts helpers by .js specifiers (as tsc's nodenext wants); Deno resolves
# those only with --sloppy-imports. A partner's own code needs no flag.
"$node24" --import tsx scripts/examples-on-runtime.ts "$project" deno "$deno" run -A --sloppy-imports

# Without msw, importing or requiring ./testing fails with one line naming the install command.
mv "$project/node_modules/msw" "$work/msw.away"
for load in "import('@partner-equity/sdk/testing')" "Promise.resolve().then(() => require('@partner-equity/sdk/testing'))"; do
  out=$(cd "$project" && "$node24" -e "$load.then(() => process.exit(3), (e) => { console.log(e.message); })")
  [ "$out" = "@partner-equity/sdk/testing needs the optional peer dependency msw (3.x): npm install --save-dev msw" ] ||
    { echo "consumer-check: without msw, $load said: $out" >&2; exit 1; }
done
mv "$work/msw.away" "$project/node_modules/msw"
echo "ok ./testing without msw names npm install --save-dev msw (import and require)"

# The README's quickstart, as a partner pastes it into quickstart.mts, type-checks (strict, nodenext).
"$node24" -e '
  const readme = require("fs").readFileSync(process.argv[1], "utf8");
  const block = /<!-- quickstart:file (\S+) -->\n```ts\n([\s\S]*?)\n```\n/.exec(readme);
  if (!block) { console.error("README.md has no <!-- quickstart:file --> ts block"); process.exit(1); }
  require("fs").writeFileSync(process.argv[2] + "/" + block[1], block[2] + "\n");
' "$repo/README.md" "$project"

typecheck() {
  for tsc in "$repo/node_modules/typescript/bin/tsc" "$repo/node_modules/@typescript/typescript6/bin/tsc6"; do
    for config in tsconfig.nodenext.json tsconfig.bundler.json; do
      (cd "$project" && "$node24" "$tsc" -p "$config")
      echo "ok types: $(basename "$tsc") $config with $1"
    done
  done
}
typecheck "$types_node"
# A partner on the Node 22 floor has Node 22's types: the declarations must hold there too.
(cd "$project" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "@types/node@22" >/dev/null)
typecheck "@types/node@22"
(cd "$project" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "@types/node@latest" >/dev/null)
typecheck "@types/node@latest"
echo "consumer-check: passed"

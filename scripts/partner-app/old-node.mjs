// The package on a Node.js older than it supports (argv[2]: that node binary): importing any entry, from
// ESM or CJS, fails with one line naming both versions, and the `partner-equity` command prints that line
// and exits 1, instead of undici's or msw's crash.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const app = dirname(fileURLToPath(import.meta.url));
const oldNode = process.argv[2] && resolve(process.argv[2]);
assert.ok(oldNode, 'usage: node old-node.mjs <path to an old node>');
const run = (args, env = process.env) => spawnSync(oldNode, args, { cwd: app, encoding: 'utf8', env });
const version = run(['-p', 'process.versions.node']).stdout.trim();
const line = `@partner-equity/sdk needs Node.js >= 22.19.0; this is Node.js ${version}. Upgrade Node.js, or run on Bun or Deno.`;

for (const entry of ['@partner-equity/sdk', '@partner-equity/sdk/webhooks', '@partner-equity/sdk/testing']) {
  for (const [how, code] of [
    [
      'import',
      `import(${JSON.stringify(entry)}).catch((e) => { console.error(e.code + ' ' + e.message); process.exit(3); })`,
    ],
    [
      'require',
      `try { require(${JSON.stringify(entry)}) } catch (e) { console.error(e.code + ' ' + e.message); process.exit(3); }`,
    ],
  ]) {
    const result = run(['-e', code]);
    assert.equal(result.stderr, `ERR_UNSUPPORTED_NODE ${line}\n`, `${how} ${entry}`);
    assert.equal(result.status, 3, `${how} ${entry}`);
    // Uncaught, as in a partner's script: the reason is the first thing Node prints, and nothing crashes first.
    const uncaught = run([
      '-e',
      how === 'import' ? `await import(${JSON.stringify(entry)})` : `require(${JSON.stringify(entry)})`,
      ...(how === 'import' ? ['--input-type=module'] : []),
    ]);
    assert.equal(uncaught.status, 1);
    assert.match(uncaught.stderr, new RegExp(`^Error: ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.doesNotMatch(uncaught.stderr, /undici|bind|groupBy/);
    console.log(`ok Node ${version}: ${how} ${entry} refused in one line`);
  }
}

const bin = join(app, 'node_modules', '.bin', 'partner-equity');
for (const args of [
  ['--help'],
  ['mock', '--port', '0'],
  ['keys', 'generate', '--out', join(app, 'never.pem')],
]) {
  // On PATH first, as when a partner's shell has the old Node.
  const result = spawnSync(bin, args, {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dirname(oldNode)}:${process.env.PATH}` },
  });
  assert.equal(result.stderr, `partner-equity: ${line}\n`, args.join(' '));
  assert.equal(result.stdout, '');
  assert.equal(result.status, 1);
  console.log(`ok Node ${version}: partner-equity ${args.join(' ')} → one line, exit 1`);
}

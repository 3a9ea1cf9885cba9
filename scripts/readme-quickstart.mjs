// The README's quickstart, run as written, from an empty folder: its install command (with the packed
// tarball in place of the registry's @partner-equity/sdk), its mock command in the background, its script
// saved under the name it gives, its run command twice, each time compared with the output it shows, and
// the second run must show the same ids (the idempotency key replays, the known investor maps back).
// The blocks are found by the `<!-- quickstart:… -->` comments in front of them. One deviation: the mock
// gets `--port 0` so a busy port 4010 on a shared machine cannot fail the check. Then the mock again on the
// fake's alternate profile, and the script once more: it must run there too.
//
//   node scripts/readme-quickstart.mjs <tarball.tgz>     (run by scripts/partner-app-check.sh)
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const tarball = resolve(process.argv[2] ?? '');
assert.ok(existsSync(tarball) && tarball.endsWith('.tgz'), 'usage: readme-quickstart.mjs <tarball.tgz>');
const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');

/** The fenced block after each `<!-- quickstart:<name> [argument] -->` comment. */
const blocks = new Map();
for (const match of readme.matchAll(
  /<!-- quickstart:(\S+)(?: (\S+))? -->\n(`{3,})[^\n]*\n([\s\S]*?)\n\3\n/g,
)) {
  blocks.set(match[1], { argument: match[2], text: match[4] });
}
const block = (name) => {
  const found = blocks.get(name);
  assert.ok(found, `README.md has no <!-- quickstart:${name} --> block`);
  return found;
};
const command = (name) => {
  const lines = block(name)
    .text.split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  assert.equal(lines.length, 1, `the quickstart's ${name} block is one command`);
  return lines[0];
};

const app = mkdtempSync(join(tmpdir(), 'readme-quickstart-'));
// The Node running this script (>= 22.19) is the partner's `node`, for npx and the script alike.
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` };
const shell = (line) => execFileSync('sh', ['-c', line], { cwd: app, env, encoding: 'utf8' });

let mock;
try {
  const install = command('install');
  assert.match(install, /^npm install @partner-equity\/sdk /);
  shell(install.replace('@partner-equity/sdk', tarball));

  // Its own process group, so stopping it stops npx and the command under it.
  const startMock = async (extraEnv = {}) => {
    rmSync(join(app, '.env'), { force: true });
    mock = spawn('sh', ['-c', `exec ${command('mock')} --port 0`], {
      cwd: app,
      env: { ...env, ...extraEnv },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    mock.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    mock.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    const exited = new Promise((done) => mock.once('exit', done));
    await new Promise((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`the mock was not ready in 30 s:\n${output}`)), 30_000);
      const check = () => {
        if (/^export PE_BASE_URL=/m.test(output) && existsSync(join(app, '.env'))) {
          clearTimeout(timer);
          ready();
        }
      };
      mock.stdout.on('data', check);
      exited.then((code) => fail(new Error(`the mock exited (${code}):\n${output}`)));
    });
  };
  const stopMock = async () => {
    const exited = new Promise((done) => mock.once('exit', done));
    process.kill(-mock.pid, 'SIGTERM');
    await exited;
  };
  await startMock();

  const file = block('file');
  assert.ok(file.argument, 'the quickstart names the file to save the script as');
  writeFileSync(join(app, file.argument), `${file.text}\n`);

  const expected = block('output').text.split('\n');
  const run = () => {
    const lines = shell(command('run')).trimEnd().split('\n');
    assert.equal(
      lines.length,
      expected.length,
      `the README shows ${expected.length} lines:\n${lines.join('\n')}`,
    );
    expected.forEach((want, i) => {
      // `…` in the README stands for an id: any run of non-space characters.
      const pattern = want.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      assert.match(lines[i], new RegExp(`^${pattern.join('\\S+')}$`), `line ${i + 1} as the README shows it`);
    });
    return lines;
  };
  const first = run();
  const second = run();
  assert.deepEqual(second, first, 'a second run replays: the same SPV request and person');
  console.log(
    `ok README quickstart from an empty folder on Node ${process.version}:\n  ${first.join('\n  ')}`,
  );

  // The other server the fake can play (every gap in the spec answered differently): the same script runs.
  await stopMock();
  await startMock({ PARTNER_EQUITY_FAKE_PROFILE: 'alternate' });
  const alternate = shell(command('run')).trimEnd().split('\n');
  assert.match(alternate[0], /^authenticated as \S+$/);
  assert.match(alternate[1], /^SPV request spvr_\S+ is approved$/);
  assert.match(alternate[2], /^inv-1 → \S+$/);
  assert.match(alternate[3], /^inv-2 failed: /);
  console.log(`ok README quickstart against the alternate profile:\n  ${alternate.join('\n  ')}`);
} finally {
  if (mock?.pid !== undefined && mock.exitCode === null) process.kill(-mock.pid, 'SIGTERM');
  rmSync(app, { recursive: true, force: true });
}

import { link, lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { runCli, startCli } from '../cli/cli-process.js';

/**
 * Finding 3 of the security review (issue 16): `keys generate --out link.pem --force` followed a symbolic
 * link and overwrote its target with a private key, and `mock --env-out` kept an existing file's mode (0644
 * stayed 0644 with the webhook secret in it). Secret files are now written through a new 0600 file (never
 * through a link) that replaces the old one.
 */
async function tempDir({ onTestFinished }: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pe-secret-files-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe.concurrent('secret files written by the CLI', () => {
  it('keys generate --force refuses to write through a symbolic link; its target is untouched', async (context) => {
    const dir = await tempDir(context);
    const target = join(dir, 'authorized_keys');
    await writeFile(target, 'precious\n', { mode: 0o644 });
    await symlink(target, join(dir, 'link.pem'));
    const { status, stdout, stderr } = await runCli(['keys', 'generate', '--out', 'link.pem', '--force'], {
      cwd: dir,
    });
    expect(status).toBe(1);
    expect(stderr).toBe(
      'partner-equity keys generate: link.pem is a symbolic link; refusing to write a secret through it\n',
    );
    expect(stdout).toBe('');
    expect(await readFile(target, 'utf8')).toBe('precious\n');
    expect(await mode(target)).toBe(0o644);
    expect((await lstat(join(dir, 'link.pem'))).isSymbolicLink()).toBe(true);
  });

  it('keys generate --force replaces an existing 0644 file with a new 0600 one (a hard link keeps the old bytes)', async (context) => {
    const dir = await tempDir(context);
    const path = join(dir, 'key.pem');
    await writeFile(path, 'old key\n', { mode: 0o644 });
    await link(path, join(dir, 'other-name'));
    const { status } = await runCli(['keys', 'generate', '--out', 'key.pem', '--force'], { cwd: dir });
    expect(status).toBe(0);
    expect(await mode(path)).toBe(0o600);
    expect(await readFile(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    // Written to a new inode: the other name of the old file does not receive the private key.
    expect(await readFile(join(dir, 'other-name'), 'utf8')).toBe('old key\n');
  });

  it('mock --env-out makes an existing 0644 file 0600 before the webhook secret goes in', async (context) => {
    const dir = await tempDir(context);
    const envFile = join(dir, 'partner.env');
    await writeFile(envFile, 'OLD=1\n', { mode: 0o644 });
    const mock = startCli(
      ['mock', '--port', '0', '--env-out', envFile, '--webhook-url', 'http://127.0.0.1:9/hooks'],
      {},
    );
    context.onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_WEBHOOK_SECRET=whsec_\S+$/m);
    expect(await mode(envFile)).toBe(0o600);
    expect(await readFile(envFile, 'utf8')).toMatch(/^PE_WEBHOOK_SECRET=whsec_\S+$/m);
  });

  it('mock --env-out refuses a symbolic link and writes nothing through it', async (context) => {
    const dir = await tempDir(context);
    const target = join(dir, 'shared.txt');
    await writeFile(target, 'shared\n', { mode: 0o644 });
    await symlink(target, join(dir, 'partner.env'));
    const mock = startCli(['mock', '--port', '0', '--env-out', join(dir, 'partner.env')], {});
    context.onTestFinished(async () => {
      await mock.stop();
    });
    expect(await mock.exited).toBe(1);
    expect(mock.stderr()).toMatch(/partner\.env is a symbolic link; refusing to write a secret through it/);
    expect(await readFile(target, 'utf8')).toBe('shared\n');
  });
});

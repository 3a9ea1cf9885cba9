import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { runCli } from './cli-process.js';

/** A fresh directory per test, removed when that test ends (the context's hook: tests run concurrently). */
async function tempDir({ onTestFinished }: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pe-keys-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe.concurrent('partner-equity keys generate', () => {
  it('writes an Ed25519 PKCS#8 key readable by its owner only and prints the matching public JWK', async (context) => {
    const dir = await tempDir(context);
    const { status, stdout, stderr } = await runCli(['keys', 'generate', '--out', 'key.pem'], { cwd: dir });
    expect(status).toBe(0);
    const path = join(dir, 'key.pem');
    expect(await mode(path)).toBe(0o600);
    const pem = await readFile(path, 'utf8');
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const privateKey = createPrivateKey(pem);
    expect(privateKey.asymmetricKeyType).toBe('ed25519');

    const jwk = JSON.parse(stdout) as { kty: string; crv: string; x: string; d?: string };
    expect(jwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String) });
    // The printed key is the public half of the written one: a signature by the file verifies with it.
    const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
    const message = Buffer.from('assertion');
    expect(verify(null, message, publicKey, sign(null, message, privateKey))).toBe(true);
    expect(stderr).toContain(`Wrote the private key to ${path} (mode 0600)`);
    expect(stdout + stderr).not.toContain('PRIVATE KEY');
  });

  it('prints the public key as SPKI PEM with --pem', async (context) => {
    const dir = await tempDir(context);
    const { status, stdout, stderr } = await runCli(['keys', 'generate', '-o', 'key.pem', '--pem'], {
      cwd: dir,
    });
    expect(stderr).toContain('Wrote the private key');
    expect(status).toBe(0);
    const fromFile = createPublicKey(createPrivateKey(await readFile(join(dir, 'key.pem'), 'utf8')));
    expect(stdout).toBe(fromFile.export({ format: 'pem', type: 'spki' }));
  });

  it('uses partner-equity-private-key.pem by default', async (context) => {
    const dir = await tempDir(context);
    const { status } = await runCli(['keys', 'generate'], { cwd: dir });
    expect(status).toBe(0);
    expect(await mode(join(dir, 'partner-equity-private-key.pem'))).toBe(0o600);
  });

  it('refuses to overwrite an existing key, leaving it untouched', async (context) => {
    const dir = await tempDir(context);
    const path = join(dir, 'key.pem');
    await writeFile(path, 'registered key');
    const { status, stdout, stderr } = await runCli(['keys', 'generate', '--out', path]);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `partner-equity keys generate: ${path} already exists; pass --force to overwrite it\n`,
    );
    expect(await readFile(path, 'utf8')).toBe('registered key');
  });

  it('overwrites with --force and tightens a loose mode to 0600', async (context) => {
    const dir = await tempDir(context);
    const path = join(dir, 'key.pem');
    await writeFile(path, 'old', { mode: 0o644 });
    const { status } = await runCli(['keys', 'generate', '--out', path, '--force']);
    expect(status).toBe(0);
    expect(await mode(path)).toBe(0o600);
    expect(createPrivateKey(await readFile(path, 'utf8')).asymmetricKeyType).toBe('ed25519');
  });
});

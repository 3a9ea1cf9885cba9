import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/index.js';
import { runCli, startCli } from './cli-process.js';

// Issue 28, item 8: each message a partner meets on the first hour names the variable, flag or command
// that fixes it.
describe('messages that name the fix', () => {
  it('a missing key file names PE_PRIVATE_KEY_FILE, not a bare ENOENT', async () => {
    const result = await runCli(['token'], {
      env: {
        PE_BASE_URL: 'http://127.0.0.1:9',
        PE_CLIENT_ID: 'client_1',
        PE_ISSUER: 'https://partner.example',
        PE_PRIVATE_KEY_FILE: '/nonexistent/partner.pem',
      },
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(
      "cannot read the private key file '/nonexistent/partner.pem' (ENOENT): set PE_PRIVATE_KEY_FILE",
    );
  });

  it('mock --public-key writes a .env that names PE_PRIVATE_KEY_FILE for the partner to fill in', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pe-fix-hints-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const keys = await generateKeyPair();
    const envFile = join(dir, '.env');
    const mock = startCli([
      'mock',
      '--port',
      '0',
      '--public-key',
      JSON.stringify(keys.publicKeyJwk),
      '--env-out',
      envFile,
    ]);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^Admin API/m);
    const written = await readFile(envFile, 'utf8');
    expect(written).toMatch(/^PE_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/m);
    expect(written).toMatch(/^# PE_PRIVATE_KEY_FILE=<the private key file of the public key you gave>$/m);
    expect(written).not.toMatch(/^PE_PRIVATE_KEY_FILE=/m);
    expect(mock.stdout()).toContain('# PE_PRIVATE_KEY_FILE=');
  });

  it('a port in use names --port', async ({ onTestFinished }) => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    const { port } = busy.address() as AddressInfo;
    const result = await runCli(['mock', '--port', String(port)]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `port ${port} on 127.0.0.1 is in use (EADDRINUSE): choose another with --port <port>, or --port 0 for a free one`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /); // one line, no stack
  });
});

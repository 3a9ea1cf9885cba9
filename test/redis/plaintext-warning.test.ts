import { describe, expect, it } from 'vitest';
import { runScript } from '../cli/cli-process.js';

// Issue 27, finding 9: without encryptionKey, whoever can write to Redis chooses the bearer token every
// instance sends. The store says so, once per process, unless told that clear text is meant.
async function warningsOf(mode: string): Promise<string[]> {
  const { status, stdout } = await runScript('test/redis/plaintext-warning-child.ts', [mode]);
  expect(status).toBe(0);
  return JSON.parse(stdout) as string[];
}

describe('RedisTokenStore without an encryption key', () => {
  it('warns once per process, naming the threat and the fix', async () => {
    const warnings = await warningsOf('plaintext');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^PARTNER_EQUITY_REDIS_PLAINTEXT: RedisTokenStore without encryptionKey/);
    expect(warnings[0]).toMatch(/chooses the token your instances send/);
    expect(warnings[0]).toMatch(/allowPlaintext: true/);
  });

  it('says nothing with allowPlaintext: true, or with a key', async () => {
    expect(await warningsOf('allowed')).toEqual([]);
    expect(await warningsOf('encrypted')).toEqual([]);
  });
});

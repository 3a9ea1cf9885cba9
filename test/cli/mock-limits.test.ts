import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PartnerEquity, RateLimitError } from '../../src/index.js';
import { runCli, startCli } from './cli-process.js';

function exportedEnv(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('partner-equity mock --rate-limit / --max-body', () => {
  it('answers past the rate with 429s that carry Retry-After and the RateLimit headers', async ({
    onTestFinished,
  }) => {
    const mock = startCli(['mock', '--port', '0', '--rate-limit', '2/s']);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    const env = exportedEnv(mock.stdout());
    const client = new PartnerEquity({
      baseUrl: env['PE_BASE_URL']!,
      clientId: env['PE_CLIENT_ID']!,
      issuer: env['PE_ISSUER']!,
      privateKey: await readFile(env['PE_PRIVATE_KEY_FILE']!, 'utf8'),
      rateLimit: false,
      maxRetries: 0,
    });
    onTestFinished(() => client.close());
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => client.oauth.info()));
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    // 2 per second: of 5 at once, 3 or more are refused (4 if the batch straddles a second).
    expect(refused.length).toBeGreaterThanOrEqual(1);
    const error = refused[0] as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.headers.get('ratelimit-policy')).toBe('"default";q=2;w=1');
    expect(error.headers.get('ratelimit')).toMatch(/^"default";r=0;t=1$/);
    expect(error.retryAfterMs).toBe(1000);
  });

  it('answers a JSON body over --max-body with 413, and a bulk call splits its chunk to fit', async ({
    onTestFinished,
  }) => {
    const mock = startCli(['mock', '--port', '0', '--max-body', '4k']);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    const env = exportedEnv(mock.stdout());
    const client = new PartnerEquity({
      baseUrl: env['PE_BASE_URL']!,
      clientId: env['PE_CLIENT_ID']!,
      issuer: env['PE_ISSUER']!,
      privateKey: await readFile(env['PE_PRIVATE_KEY_FILE']!, 'utf8'),
      logLevel: 'off',
    });
    onTestFinished(() => client.close());
    // 40 rows of about 150 bytes: some 6 KB in one chunk, over the 4 KiB cap; its halves fit.
    const rows = Array.from({ length: 40 }, (_, i) => ({
      partnerInvestorId: `max-body-${i}`,
      email: `investor-${i}@example.com`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1980-01-01',
      countryOfResidence: 'GB',
    }));
    const result = await client.investors.create(rows, { chunkSize: 40 });
    expect(result.succeeded).toHaveLength(40);
    expect(result.chunks[0]).toMatchObject({ status: 413, split: true, rows: 40 });
    expect(result.chunks.slice(1).map((chunk) => [chunk.part, chunk.status])).toEqual([
      ['0', 200],
      ['1', 200],
    ]);
  });

  it('refuses a rate or a size it cannot read, naming the flag', async () => {
    const rate = await runCli(['mock', '--port', '0', '--rate-limit', 'fast']);
    expect(rate.status).not.toBe(0);
    expect(rate.stderr).toContain("--rate-limit 'fast' is not a rate such as 10/s");
    const size = await runCli(['mock', '--port', '0', '--max-body', '64 parsecs']);
    expect(size.status).not.toBe(0);
    expect(size.stderr).toContain("--max-body '64 parsecs' is not a size");
  });
});

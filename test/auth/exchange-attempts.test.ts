import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, PartnerEquity } from '../../src/index.js';
import { ManualClock } from '../../src/testing/index.js';
import { memoryLogger } from '../helpers/memory-logger.js';

// `attempts` and the "(attempt N)" debug lines count the requests actually sent for the call, the token
// exchange's included: an exchange that cannot connect makes 3 attempts and says so.

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a token exchange that cannot connect', () => {
  it('counts its 3 attempts, in the error and in each debug line', async () => {
    const logger = memoryLogger();
    const { privateKey } = generateKeyPairSync('ed25519');
    const client = new PartnerEquity({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      clientId: 'client-attempts',
      issuer: 'https://partner.example.test',
      privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
      clock: new ManualClock(),
      // Backoff waits of 0 ms: nothing to move the clock for.
      retry: { random: () => 0 },
      logger,
      logLevel: 'debug',
    });
    const error = await client.oauth.info().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ path: '/v1/oauth2/tokens', attempts: 3 });
    const sent = logger.lines
      .map((line) => /^POST \/v1\/oauth2\/tokens → failed: .*\(attempt (\d+),/.exec(line.message)?.[1])
      .filter((attempt) => attempt !== undefined);
    expect(sent).toEqual(['1', '2', '3']);
    await client.close();
  });
});

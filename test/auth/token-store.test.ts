import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { InputValidationError, MemoryTokenStore, PartnerEquity } from '../../src/index.js';
import { FakePartnerEquity } from '../../src/testing/index.js';

const MINUTE = 60_000;

describe('tokenStore: one token chain for several clients', () => {
  let fake: FakePartnerEquity | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('clients given one MemoryTokenStore share tokens: one exchange, one renewal, the other picks it up', async () => {
    fake = new FakePartnerEquity();
    await fake.listen();
    const partner = await fake.createPartner();
    const tokenStore = new MemoryTokenStore();
    const [a, b] = [1, 2].map(() => new PartnerEquity({ ...partner, clock: fake!.clock, tokenStore }));
    if (a === undefined || b === undefined) throw new Error('two clients');
    await Promise.all([a.oauth.info(), b.oauth.info()]);
    expect(fake.tokenRequests.map((request) => request.grantType)).toEqual([
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    ]);

    await fake.clock.advance(34 * MINUTE); // past 50–55% of the hour: due
    await a.oauth.info(); // renews in the background, serving the current token meanwhile
    while (fake.tokenRequests.length < 2) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    await fake.clock.advance(MINUTE);
    await b.oauth.info(); // served the token it holds; looks at the store: a newer one is there
    await new Promise((resolve) => setImmediate(resolve));
    await b.oauth.info();
    await a.oauth.info();
    expect(fake.tokenRequests.map((request) => request.grantType)).toEqual([
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'refresh_token',
    ]);
    const used = fake.requests.filter((request) => request.path === '/v1/oauth2/info').slice(-2);
    expect(new Set(used.map((request) => request.headers.authorization)).size).toBe(1);
    expect(inspect(tokenStore, { showHidden: true, depth: Number.POSITIVE_INFINITY })).toBe(
      'MemoryTokenStore { scopes: 1 }',
    );
    expect(JSON.stringify(tokenStore)).toBe('{"scopes":1}');
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses a tokenStore that is not one, naming the option', () => {
    const build = () =>
      new PartnerEquity({ baseUrl: 'https://sandbox.example', tokenStore: { read() {} } as never });
    expect(build).toThrow(InputValidationError);
    expect(build).toThrow(/tokenStore: must be a TokenStore/);
  });
});

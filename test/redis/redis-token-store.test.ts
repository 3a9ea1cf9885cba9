import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TokenSet } from '../../src/auth/token-store.js';
import { InputValidationError } from '../../src/core/errors/errors.js';
import { RedisStoreError, RedisTokenStore } from '../../src/redis/index.js';
import { connectClient, LIBRARIES, type TestClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2030, 0, 1);
const SCOPE = 'scope-under-test';

function tokenSet(accessToken: string, refreshToken?: string): TokenSet {
  return {
    accessToken,
    issuedAt: T0,
    expiresAt: T0 + HOUR,
    renewAt: T0 + HOUR / 2,
    blockAt: T0 + HOUR - 60_000,
    ...(refreshToken === undefined
      ? {}
      : { refreshToken: { value: refreshToken, expiresAt: T0 + 30 * 24 * HOUR } }),
  };
}

describeWithRedis('RedisTokenStore on a real redis-server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const library of LIBRARIES) {
    describe(`with the ${library} client`, () => {
      let redis: TestClient;
      beforeEach(async () => {
        redis = await connectClient(library, server.url);
        await redis.command('FLUSHALL');
        return () => redis.close();
      });

      it('writes with compare-and-set on the generation, and reads back what was written', async () => {
        const store = new RedisTokenStore({ client: redis.client });
        expect(await store.read(SCOPE)).toBeUndefined();
        const first = await store.write(SCOPE, tokenSet('at-1', 'rt-1'), 0);
        expect(first).toMatchObject({ generation: 1, accessToken: 'at-1', hasRefreshToken: true });
        expect(await store.read(SCOPE)).toEqual(first);
        // A writer that read generation 0 earlier loses: the set it would replace is not the one it read.
        expect(await store.write(SCOPE, tokenSet('at-late'), 0)).toBeUndefined();
        expect((await store.read(SCOPE))?.accessToken).toBe('at-1');
        expect(await store.write(SCOPE, tokenSet('at-2'), 1)).toMatchObject({
          generation: 2,
          hasRefreshToken: false,
        });
      });

      it('hands a refresh token out once, and only for the generation it belongs to', async () => {
        const store = new RedisTokenStore({ client: redis.client });
        await store.write(SCOPE, tokenSet('at-1', 'rt-1'), 0);
        expect(await store.takeRefreshToken(SCOPE, 2)).toBeUndefined(); // not the current generation
        const takers = await Promise.all(Array.from({ length: 10 }, () => store.takeRefreshToken(SCOPE, 1)));
        expect(takers.filter((taken) => taken !== undefined)).toEqual([
          { value: 'rt-1', expiresAt: T0 + 30 * 24 * HOUR },
        ]);
        expect(await store.read(SCOPE)).toMatchObject({ accessToken: 'at-1', hasRefreshToken: false });
      });

      it('grants one lease at a time; a released lease is free again; a lease expires after leaseMs', async () => {
        const store = new RedisTokenStore({ client: redis.client, leaseMs: 5000 });
        const leases = await Promise.all(Array.from({ length: 5 }, () => store.lease(SCOPE)));
        const held = leases.filter((lease) => lease !== undefined);
        expect(held).toHaveLength(1);
        const ttl = Number(await redis.command('PTTL', `partner-equity:{${SCOPE}}:lease`));
        expect(ttl).toBeGreaterThan(4000);
        expect(ttl).toBeLessThanOrEqual(5000);
        await held[0]?.release();
        expect(await redis.command('EXISTS', `partner-equity:{${SCOPE}}:lease`)).toBe(0);
        const next = await store.lease(SCOPE);
        expect(next).toBeDefined();
        await next?.release();
      });

      it("a release after the lease lapsed and another instance took it leaves the other's lease alone", async () => {
        const store = new RedisTokenStore({ client: redis.client });
        const mine = await store.lease(SCOPE);
        const key = `partner-equity:{${SCOPE}}:lease`;
        await redis.command('DEL', key); // lapsed
        const theirs = await store.lease(SCOPE);
        expect(theirs).toBeDefined();
        const owner = await redis.command('GET', key);
        await mine?.release();
        expect(await redis.command('GET', key)).toBe(owner);
        await theirs?.release();
      });

      it('stores what the README says: a hash per scope with gen, access and refresh, expiring with the later token', async () => {
        const store = new RedisTokenStore({ client: redis.client });
        await store.write(SCOPE, tokenSet('at-visible', 'rt-visible'), 0);
        expect(await redis.command('KEYS', '*')).toEqual([`partner-equity:{${SCOPE}}:tokens`]);
        const fields = (await redis.command('HGETALL', `partner-equity:{${SCOPE}}:tokens`)) as unknown;
        const flat = Array.isArray(fields) ? fields : Object.entries(fields as object).flat();
        expect(flat.filter((_, index) => index % 2 === 0).sort()).toEqual(['access', 'gen', 'refresh']);
        // Without encryptionKey the values are readable: the README says so.
        expect(flat.join(' ')).toContain('at-visible');
        const ttl = Number(await redis.command('PTTL', `partner-equity:{${SCOPE}}:tokens`));
        expect(ttl).toBeGreaterThan(30 * 24 * HOUR - 60_000); // the refresh token's 30 days
        expect(ttl).toBeLessThanOrEqual(30 * 24 * HOUR);
      });

      it('with encryptionKey, Redis holds ciphertext only; another key, a moved value or a plain value is refused', async () => {
        const key = randomBytes(32);
        const store = new RedisTokenStore({ client: redis.client, encryptionKey: key.toString('base64') });
        await store.write(SCOPE, tokenSet('at-secret', 'rt-secret'), 0);
        const tokensKey = `partner-equity:{${SCOPE}}:tokens`;
        const dump = JSON.stringify(await redis.command('HGETALL', tokensKey));
        expect(dump).not.toContain('secret');
        expect(dump).not.toContain(String(T0 + HOUR)); // not even the expiry times
        expect(await store.read(SCOPE)).toMatchObject({ accessToken: 'at-secret', hasRefreshToken: true });

        const rotated = new RedisTokenStore({ client: redis.client, encryptionKey: [randomBytes(32), key] });
        expect((await rotated.read(SCOPE))?.accessToken).toBe('at-secret'); // old key still decrypts

        const stranger = new RedisTokenStore({ client: redis.client, encryptionKey: randomBytes(32) });
        await expect(stranger.read(SCOPE)).rejects.toMatchObject({ code: 'redis_decrypt_failed' });
        const plain = new RedisTokenStore({ client: redis.client });
        await expect(plain.read(SCOPE)).rejects.toMatchObject({ code: 'redis_decrypt_failed' });

        // A sealed value copied into another scope's hash is refused (it is bound to its key and field).
        const access = (await redis.command('HGET', tokensKey, 'access')) as string;
        await redis.command('HSET', 'partner-equity:{other}:tokens', 'gen', '1', 'access', access);
        await expect(store.read('other')).rejects.toBeInstanceOf(RedisStoreError);
        // And a plain value an attacker writes is never used by an instance that encrypts.
        await redis.command(
          'HSET',
          tokensKey,
          'access',
          'p1:{"t":"injected","i":0,"e":9e15,"r":9e15,"b":9e15}',
        );
        await expect(store.read(SCOPE)).rejects.toMatchObject({ code: 'redis_decrypt_failed' });
      });

      it('an error reply becomes a RedisStoreError that holds no token (ioredis attaches the command to its errors)', async () => {
        const store = new RedisTokenStore({ client: redis.client });
        await redis.command('SET', `partner-equity:{${SCOPE}}:tokens`, 'not a hash');
        const error: unknown = await store.write(SCOPE, tokenSet('at-leak', 'rt-leak'), 0).catch((e) => e);
        expect(error).toMatchObject({ name: 'RedisStoreError', code: 'redis_error' });
        expect((error as Error).message).toMatch(/^Redis write tokens failed: \w*Error: WRONGTYPE/);
        expect(inspect(error, { showHidden: true, depth: Number.POSITIVE_INFINITY })).not.toContain('leak');
      });

      it('fails at once with redis_unavailable when the client is not connected, instead of queueing', async () => {
        // A queued command would wait for its 30 s timeout and fail as redis_timeout: the code tells them
        // apart, and the bound below is that timeout, not a guess at how fast this machine is.
        const store = new RedisTokenStore({ client: redis.client, commandTimeoutMs: 30_000 });
        await redis.close();
        const started = Date.now();
        await expect(store.read(SCOPE)).rejects.toMatchObject({ code: 'redis_unavailable' });
        expect(Date.now() - started).toBeLessThan(30_000);
      });
    });
  }

  it('refuses bad options with an InputValidationError naming each field, without quoting a key', () => {
    const attempt = () =>
      new RedisTokenStore({
        client: {} as never,
        encryptionKey: 'c2hvcnQ=',
        leaseMs: 0,
        whenUnavailable: 'panic' as never,
        keyPrefix: 7 as never,
      });
    expect(attempt).toThrow(InputValidationError);
    const error = (() => {
      try {
        attempt();
      } catch (caught) {
        return caught as InputValidationError;
      }
    })();
    expect(error?.issues.map((issue) => issue.path).sort()).toEqual([
      'client',
      'encryptionKey',
      'keyPrefix',
      'leaseMs',
      'whenUnavailable',
    ]);
    expect(error?.message).not.toContain('c2hvcnQ');
  });

  it('shows no client, key or token in util.inspect or JSON', async () => {
    const redis = await connectClient('redis', server.url);
    try {
      const key = randomBytes(32).toString('base64');
      const store = new RedisTokenStore({ client: redis.client, encryptionKey: key });
      await store.write(SCOPE, tokenSet('at-hidden', 'rt-hidden'), 0);
      const shown = `${inspect(store, { showHidden: true, depth: Number.POSITIVE_INFINITY })} ${JSON.stringify(store)}`;
      expect(shown).toBe(
        `RedisTokenStore { keyPrefix: 'partner-equity:', encrypted: true, whenUnavailable: 'local' } {"keyPrefix":"partner-equity:","encrypted":true,"whenUnavailable":"local"}`,
      );
      expect(shown).not.toContain(key);
    } finally {
      await redis.close();
    }
  });
});

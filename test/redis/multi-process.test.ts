import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type FakePartnerCredentials, FakePartnerEquity, ManualClock } from '../../src/testing/index.js';
import { spawnScript } from '../cli/cli-process.js';
import { connectClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

/**
 * Polls `condition` (real I/O or state of another process) until it holds. The 30 s bound only detects a
 * hang: what is checked is what the condition saw, never how long it took.
 */
async function until(condition: () => boolean | Promise<boolean>, failure: string): Promise<void> {
  const giveUpAt = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const CHILD = fileURLToPath(new URL('./instance-process.ts', import.meta.url));
const TOKEN_SECONDS = 4; // renewed at 2–2.2 s, blocking from 3 s
const LEASE_MS = 1000;
/** Each process runs 5 s and makes at least this many calls, however slowly a busy machine runs it. */
const MIN_CALLS = 5;

interface ChildResult {
  pid: number;
  ok: number;
  failed: string[];
}

describeWithRedis('real node processes sharing one token chain through Redis', () => {
  let server: RedisServer;
  let fake: FakePartnerEquity;
  let partner: FakePartnerCredentials;
  let followWallClock: NodeJS.Timeout | undefined;
  const children: ChildProcessWithoutNullStreams[] = [];
  const encryptionKey = randomBytes(32).toString('base64');

  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    // The processes run on the wall clock, so the fake's clock follows it.
    const clock = new ManualClock(Date.now());
    followWallClock = setInterval(() => void clock.set(Date.now()), 5);
    fake = new FakePartnerEquity({ clock, accessTokenTtlSeconds: TOKEN_SECONDS });
    await fake.listen();
    partner = await fake.createPartner();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    clearInterval(followWallClock);
    await fake.close();
  });

  function start(library: 'redis' | 'ioredis', durationMs: number) {
    const child = spawnScript(CHILD, [], {
      env: {
        PE_REDIS_URL: server.url,
        PE_LIBRARY: library,
        PE_BASE_URL: partner.baseUrl,
        PE_CLIENT_ID: partner.clientId,
        PE_ISSUER: partner.issuer,
        PE_PRIVATE_KEY: partner.privateKey,
        PE_ENCRYPTION_KEY: encryptionKey,
        PE_LEASE_MS: String(LEASE_MS),
        PE_DURATION_MS: String(durationMs),
        PE_INTERVAL_MS: '50',
        PE_MIN_CALLS: String(MIN_CALLS),
      },
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => {
        if (stdout.includes('ready')) resolve();
      });
      child.once('exit', () => reject(new Error(`child exited before its first call:\n${stderr}`)));
    });
    const result = new Promise<ChildResult>((resolve, reject) => {
      child.once('exit', (code) => {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as ChildResult);
        else reject(new Error(`child exited with ${code}:\n${stderr}`));
      });
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    ready.catch(() => undefined);
    result.catch(() => undefined); // a killed child's result is never awaited
    return { child, ready, result, exited };
  }

  it('a lease holder SIGKILLed mid-renewal, then 8 processes on 4 s tokens for 5 s: its lease expires, one chain serves all (at most one exchange per 2 s), no refresh token presented twice, no error', async () => {
    // One process first: it gets the chain going, then its renewal hangs at the fake after it took the lease
    // and the refresh token out of Redis, and it is killed there.
    const holder = start('redis', 0);
    await holder.ready;
    fake.faults.inject({
      match: { method: 'POST', path: '/v1/oauth2/tokens' },
      delayMs: Number.POSITIVE_INFINITY,
    });
    const check = await connectClient('redis', server.url);
    try {
      await until(() => fake.tokenRequests.length >= 2, 'the holder never renewed');
      expect(fake.tokenRequests.map((request) => request.grantType)).toEqual([
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
        'refresh_token',
      ]);
      const leases = (await check.command('KEYS', '*:lease')) as string[];
      expect(leases).toHaveLength(1);
      holder.child.kill('SIGKILL');
      await holder.exited;
      // Nobody extends the dead holder's lease: Redis drops it within LEASE_MS. Read in Redis's own time
      // (PTTL), so a busy machine that polls late changes nothing: the time left only falls, from at most
      // LEASE_MS, until the key is gone (-2).
      const left: number[] = [];
      await until(async () => {
        left.push(Number(await check.command('PTTL', leases[0]!)));
        return left.at(-1) === -2;
      }, 'lease kept');
      expect(left[0]).toBeLessThanOrEqual(LEASE_MS);
      expect(left.slice(0, -1).every((ms, i) => i === 0 || ms <= left[i - 1]!)).toBe(true);
    } finally {
      await check.close();
    }

    const startedAt = Date.now();
    const runs = Array.from({ length: 8 }, (_, index) => start(index % 2 === 0 ? 'redis' : 'ioredis', 5000));
    const results = await Promise.all(runs.map((run) => run.result));
    const elapsed = Date.now() - startedAt;
    for (const result of results) {
      expect(result.failed).toEqual([]);
      // Calls every 50 ms for 5 s: about a hundred on an idle machine. A loaded one (a shared CI runner)
      // makes far fewer, so each process also runs until it has made MIN_CALLS; what matters is that every
      // process kept calling across the renewals, and that none of its calls failed.
      expect(result.ok).toBeGreaterThanOrEqual(MIN_CALLS);
    }
    expect(new Set(results.map((result) => result.pid)).size).toBe(8);

    const after = fake.tokenRequests.slice(2);
    // The refresh token the dead holder took out of Redis is gone with it: the next renewal is an assertion,
    // and every later one a refresh grant of the new chain.
    expect(after[0]?.grantType).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(after.slice(1).every((request) => request.grantType === 'refresh_token')).toBe(true);
    expect(after.every((request) => request.status === 201)).toBe(true);
    // 5 s of 4 s tokens: the new chain was renewed at least once while all eight shared it.
    expect(after.length).toBeGreaterThanOrEqual(2);
    // Each renewal comes at least half a lifetime (2 s) after the previous exchange began.
    expect(after.length).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 2000));
    const presented = fake.tokenRequests.flatMap((request) =>
      request.refreshToken ? [request.refreshToken] : [],
    );
    expect(new Set(presented).size).toBe(presented.length);
    const calls = results.reduce((sum, result) => sum + result.ok, 0);
    console.info(`8 processes, ${elapsed} ms: ${after.length} exchanges for ${calls} calls`);
  }, 180_000); // nine Node processes start on a busy machine: a minute and more
});

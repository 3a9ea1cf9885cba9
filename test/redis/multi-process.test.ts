import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type FakePartnerCredentials, FakePartnerEquity, ManualClock } from '../../src/testing/index.js';
import { spawnScript } from '../cli/cli-process.js';
import { connectClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

/** Polls `condition` (real I/O or state of another process) until it holds, for 5 s at most. */
async function until(condition: () => boolean | Promise<boolean>, failure: string): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 500) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const CHILD = fileURLToPath(new URL('./instance-process.ts', import.meta.url));
const TOKEN_SECONDS = 4; // renewed at 2–2.2 s, blocking from 3 s
const LEASE_MS = 1000;

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
    ready.catch(() => undefined);
    result.catch(() => undefined); // a killed child's result is never awaited
    return { child, ready, result };
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
      expect(await check.command('KEYS', '*:lease')).toHaveLength(1);
      holder.child.kill('SIGKILL');
      const killedAt = Date.now();
      // Nobody extends the dead holder's lease: Redis drops it within LEASE_MS.
      await until(
        async () => ((await check.command('KEYS', '*:lease')) as string[]).length === 0,
        'lease kept',
      );
      expect(Date.now() - killedAt).toBeLessThanOrEqual(LEASE_MS + 100);
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
      // makes far fewer; what matters is that every process kept calling across the renewals.
      expect(result.ok).toBeGreaterThanOrEqual(5);
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
  }, 60_000);
});

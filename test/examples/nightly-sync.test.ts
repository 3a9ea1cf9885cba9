// The nightly sync example killed (SIGKILL) in the middle of its subscriptions and run again the same night,
// against a fake with a rate limit (10/s) and a 64 KiB body cap: nothing is created twice, and the second
// run finishes the job, replaying what the first one sent.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { followWallClock } from '../../examples/support/connect.js';
import { dealRequest } from '../../examples/support/deal.js';
import { PartnerEquity } from '../../src/client.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { runScript, spawnScript } from '../cli/cli-process.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Runs the example until its output matches `pattern`, then kills it with SIGKILL (no cleanup runs). */
function runUntil(env: Record<string, string>, pattern: RegExp): Promise<string> {
  const child = spawnScript('examples/nightly-sync.ts', ['1200'], { env });
  child.stdin.end();
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      if (pattern.test(out) && child.exitCode === null) child.kill('SIGKILL');
    });
    child.once('close', (status, signal) =>
      signal === 'SIGKILL' ? resolve(out) : reject(new Error(`exited ${status} before ${pattern}:\n${out}`)),
    );
  });
}

describe('examples/nightly-sync.ts', () => {
  it('killed mid-run and run again: every investor and subscription once', { timeout: 120_000 }, async () => {
    const fake = new FakePartnerEquity({ rateLimit: '10/s', maxBodyBytes: 64 * 1024 });
    cleanup.push(() => fake.close());
    const stopClock = followWallClock(fake); // its rate limit's windows pass in real time
    cleanup.push(async () => stopClock());
    await fake.listen();
    const partner = await fake.createPartner();
    const dir = await mkdtemp(join(tmpdir(), 'nightly-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const keyFile = join(dir, 'key.pem');
    await writeFile(keyFile, partner.privateKey);
    const setup = new PartnerEquity({ ...partner, logLevel: 'off' });
    cleanup.push(() => setup.close());
    const request = await setup.spvRequests.create(dealRequest());
    const approved = fake.admin.approveSpvRequest(request.spvRequestSlug);
    const env = {
      PE_BASE_URL: partner.baseUrl,
      PE_CLIENT_ID: partner.clientId,
      PE_ISSUER: partner.issuer,
      PE_PRIVATE_KEY_FILE: keyFile,
      PE_SPV_SLUG: approved.materialisedRefs!.vehicleSlug,
      PE_SHARE_CLASS: approved.feesAndCarry!.shareClasses[0]!.slug,
      NIGHTLY_DATE: '2026-11-29',
    };

    // Killed once the first subscriptions got through (the other chunks in flight may finish or not).
    const killed = await runUntil(env, /^log: subscriptions\.create: the service refused/m);
    expect(killed).not.toMatch(/^synced/m);
    const before = fake.admin.snapshot();
    expect(before.persons).toHaveLength(1200);
    expect(before.subscriptions.length).toBeGreaterThanOrEqual(250);
    const firstRun = fake.requests.length;

    const resumed = await runScript('examples/nightly-sync.ts', ['1200'], { env });
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toMatch(/^synced 1200 of 1200 investors and 1200 of 1200 subscriptions$/m);

    const held = fake.admin.snapshot();
    expect(held.persons).toHaveLength(1200);
    expect(new Set(held.persons.map((p) => p.partnerInvestorId)).size).toBe(1200);
    expect(held.subscriptions).toHaveLength(1200);
    expect(new Set(held.subscriptions.map((s) => s.personId)).size).toBe(1200);
    // The second run replayed what the first had sent: every investor chunk and the subscriptions created.
    const again = fake.requests.slice(firstRun).filter((r) => r.method === 'POST' && r.status < 300);
    expect(again.filter((r) => r.path === '/v1/investors').every((r) => r.replayed)).toBe(true);
    expect(again.some((r) => r.path.endsWith('/subscriptions') && r.replayed)).toBe(true);
  });
});

import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateKeyPair, PartnerEquity } from '../../src/index.js';
import { runCli, startCli } from './cli-process.js';

/** `export NAME=value` lines of the mock's output. */
function exportedEnv(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

const spvBody = {
  templateId: 'spv-club-deal',
  attributes: {
    name: 'Scripted Club',
    currency: 'EUR',
    targetRaise: '500000',
    maxInvestors: 20,
    carryPercent: '20',
  },
};

async function admin(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  return { status: response.status, body: (await response.json()) as any };
}

describe('partner-equity mock, scripted', () => {
  it('registers a generateKeyPair() key given as a JWK file, auto-approves, and answers its admin API with stdin closed', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pe-mock-scripted-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const keys = await generateKeyPair();
    await writeFile(join(dir, 'public.jwk.json'), JSON.stringify(keys.publicKeyJwk));
    const mock = startCli([
      'mock',
      '--port',
      '0',
      '--client-id',
      'client_script',
      '--issuer',
      'https://script.example',
      '--public-key',
      join(dir, 'public.jwk.json'),
      '--auto-approve',
    ]);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^ {2}curl '\S+\/subscriptions\?limit=0'/m);
    const env = exportedEnv(mock.stdout());
    // The mock holds no private key of yours: it prints none.
    expect(env).toEqual({
      PE_BASE_URL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      PE_CLIENT_ID: 'client_script',
      PE_ISSUER: 'https://script.example',
    });
    expect(mock.stdout()).toContain('Partner client client_script registered with the public key you gave');
    expect(mock.stdout()).toContain('SPV requests are approved as soon as they are created.');
    const api = `${env['PE_BASE_URL']}/__admin`;

    const client = new PartnerEquity({
      baseUrl: env['PE_BASE_URL']!,
      clientId: 'client_script',
      issuer: 'https://script.example',
      privateKey: keys.privateKeyPem,
      logLevel: 'off',
    });
    onTestFinished(() => client.close());
    const created = await client.spvRequests.create(spvBody);
    expect(created.status).toBe('pending-review');
    const approved = await client.spvRequests.get(created.spvRequestSlug);
    expect(approved.status).toBe('approved');
    const spvSlug = approved.materialisedRefs!.vehicleSlug;

    const { succeeded } = await client.investors.create(
      ['a', 'b', 'c'].map((id) => ({
        partnerInvestorId: `inv-${id}`,
        email: `${id}@example.com`,
        firstName: 'Ada',
        lastName: id.toUpperCase(),
        dateOfBirth: '1985-12-10',
        countryOfResidence: 'GB',
      })),
    );
    const { succeeded: results } = await client.subscriptions.create(
      spvSlug,
      succeeded.map((row, i) => ({
        servicePersonId: row.servicePersonId!,
        shareClassSlug: approved.feesAndCarry!.shareClasses[0]!.slug,
        lumpSum: { currency: 'EUR', value: `${i + 1}000.00` },
        partnerSubscriptionId: `sub-${i}`,
      })),
    );

    expect((await admin(`${api}/spv-requests`)).body).toMatchObject({ total: 1, byStatus: { approved: 1 } });
    const completed = await admin(`${api}/subscriptions/${results[0]!.subscriptionSlug}/complete`, {
      method: 'POST',
    });
    expect(completed).toMatchObject({ status: 200, body: { status: 'completed' } });
    expect((await admin(`${api}/subscriptions?limit=0`)).body).toEqual({
      total: 3,
      byStatus: { completed: 1, 'awaiting-signed-form': 2 },
      offset: 0,
      limit: 0,
      items: [],
    });
    const registered = await admin(`${api}/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clientId: 'client_second',
        issuer: 'https://two.example',
        publicKey: keys.publicKeyPem,
      }),
    });
    expect(registered.status).toBe(201);
    expect(await mock.stop()).toBe(0);
  });

  it('takes a private key file from keys generate (and keeps it), and prints lists as counts plus a page', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pe-mock-scripted-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const keyFile = join(dir, 'partner.pem');
    expect((await runCli(['keys', 'generate', '--out', keyFile])).status).toBe(0);

    const clash = await runCli(['mock', '--public-key', keyFile, '--key-out', join(dir, 'other.pem')]);
    expect(clash.status).toBe(2);
    expect(clash.stderr).toMatch(/--key-out writes a generated key; it does not go with --public-key/);
    await writeFile(join(dir, 'bad.pem'), 'not a key');
    const bad = await runCli(['mock', '--port', '0', '--public-key', join(dir, 'bad.pem')]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trimEnd().split('\n')).toEqual([
      'partner-equity mock: --public-key: publicKey is not a PEM key, an Ed25519 JWK or a KeyObject',
    ]);

    const mock = startCli(['mock', '--port', '0', '--public-key', keyFile], { keepStdinOpen: true });
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    const env = exportedEnv(mock.stdout());
    expect(env['PE_PRIVATE_KEY_FILE']).toBe(keyFile);
    expect(env['PE_CLIENT_ID']).toMatch(/^client_\w{12}$/);
    expect(env['PE_ISSUER']).toBe('https://partner.example');
    const issued = await runCli(['token'], { env });
    expect(issued.stderr).toBe('');
    const token = issued.stdout.trimEnd();

    for (let i = 0; i < 3; i += 1) {
      const created = await fetch(`${env['PE_BASE_URL']}/v1/spv-requests`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': `k-${i}`,
        },
        body: JSON.stringify(spvBody),
      });
      expect(created.status).toBe(201);
    }
    mock.child.stdin.write('requests limit=1\n');
    await mock.waitFor(/^ {2}… 2 more: add filters, limit=<n> or offset=1$/m);
    expect(mock.stdout()).toMatch(
      /^1 of 3 SPV requests \(pending-review 3\)\n {2}spvr_\w+ {2}pending-review {2}spv-club-deal@/m,
    );
    mock.child.stdin.write('requests status=approved\nrequests colour=red\nauto-approve maybe\n');
    await mock.waitFor(/^error: say auto-approve on, or auto-approve off$/m);
    expect(mock.stdout()).toMatch(/^0 SPV requests \(pending-review 3\)$/m);
    expect(mock.stdout()).toContain(
      "error: unknown filter 'colour' (use status, clientId, templateId, limit, offset)",
    );

    expect(await mock.stop()).toBe(0);
    // The key was the user's: it stays.
    await access(keyFile);
  });
});

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/index.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { runCli, startCli } from './cli-process.js';

// Issue 49, "The mock": an SPV in any currency to rehearse subscriptions with, without writing code.
describe('SPVs to rehearse with', () => {
  it("the fake's seed gives every partner approved SPVs in the currencies and share classes given", async ({
    onTestFinished,
  }) => {
    const fake = new FakePartnerEquity({
      seed: { spvs: [{ currency: 'EUR' }, { currency: 'USD', shareClasses: ['Class A', 'Class B'] }] },
    });
    onTestFinished(() => fake.close());
    await fake.listen();
    const client = new PartnerEquity(await fake.createPartner());
    onTestFinished(() => client.close());
    const requests = [];
    for await (const request of client.spvRequests.list({ status: 'approved' })) requests.push(request);
    expect(requests.map((request) => request.attributes?.['currency']).sort()).toEqual(['EUR', 'USD']);
    const usd = fake.admin.snapshot().spvs.find((spv) => spv.currency === 'USD');
    expect(usd?.shareClasses.map(({ name }) => name)).toEqual(['Class A', 'Class B']);
    const person = await client.investors.create([
      {
        partnerInvestorId: 'inv-1',
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1980-12-31',
        countryOfResidence: 'GB',
      },
    ]);
    const created = await client.subscriptions.create(usd?.slug ?? '', [
      {
        servicePersonId: person.results[0]?.servicePersonId ?? '',
        shareClassSlug: usd?.shareClasses[1]?.slug ?? '',
        lumpSum: { currency: 'USD', value: '25000.00' },
      },
    ]);
    expect(created.results[0]?.error).toBeUndefined();
  });

  it('refuses a seed currency that is not a code, where the fake is built', () => {
    expect(() => new FakePartnerEquity({ seed: { spvs: [{ currency: 'euro' }] } })).toThrow(
      "seed.spvs currency 'euro' is not like EUR",
    );
  });

  it('`mock --spv EUR:"Class A" --spv USD:"Class A,Class B"` starts with those SPVs and prints their slugs', async ({
    onTestFinished,
  }) => {
    const mock = startCli(['mock', '--port', '0', '--spv', 'EUR:Class A', '--spv', 'usd:Class A,Class B']);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    const out = mock.stdout();
    const eur = /^SPV (spv_\S+) \(EUR, request (spvr_\S+)\), share classes (\S+) "Class A"$/m.exec(out);
    const usd = /^SPV (spv_\S+) \(USD, request spvr_\S+\), share classes \S+ "Class A", \S+ "Class B"$/m.exec(
      out,
    );
    expect(eur).not.toBeNull();
    expect(usd).not.toBeNull();
    // No approval line of its own before the banner: the banner lists them.
    expect(out).not.toMatch(/^approved /m);
    const env = Object.fromEntries([...out.matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    const client = new PartnerEquity({
      baseUrl: env['PE_BASE_URL']!,
      clientId: env['PE_CLIENT_ID']!,
      issuer: env['PE_ISSUER']!,
      privateKey: await readFile(env['PE_PRIVATE_KEY_FILE']!, 'utf8'),
    });
    onTestFinished(() => client.close());
    const request = await client.spvRequests.get(eur?.[2] ?? '');
    expect(request.status).toBe('approved');
    expect(request.materialisedRefs?.vehicleSlug).toBe(eur?.[1]);
  });

  it('`mock --spv` refuses what is not a currency and share classes', async () => {
    const result = await runCli(['mock', '--port', '0', '--spv', 'euros']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`--spv 'euros': expected a currency code and share class names`);
  });
});

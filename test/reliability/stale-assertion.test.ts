import { createPrivateKey, sign } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { jwsSigningInput, type Signer } from '../../src/auth/signer.js';
import { PartnerEquity } from '../../src/client.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { drivingClock } from '../helpers/driving-clock.js';

/**
 * An assertion can go stale on its way: a slow KMS signer, a paused VM or a slow network, and the service
 * (which tolerates only seconds) refuses an `iat` that was fresh when it was built. Found by the soak (a
 * background renewal in flight across a clock jump): every caller waiting on that exchange got a 401.
 * The SDK now sends a fresh assertion once when the refused one was built more than 2 s before the answer.
 */
let fake: FakePartnerEquity | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(slowSigns: number) {
  fake = new FakePartnerEquity();
  await fake.listen();
  const partner = await fake.createPartner();
  const key = createPrivateKey(partner.privateKey);
  const started = fake.clock;
  let signs = 0;
  // A KMS whose first `slowSigns` calls take 60 s (on the shared clock) to answer.
  const signer: Signer = async (claims, header) => {
    signs += 1;
    if (signs <= slowSigns) await started.advance(60_000);
    const input = jwsSigningInput(header, claims);
    return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
  };
  const client = new PartnerEquity({
    baseUrl: partner.baseUrl,
    clientId: partner.clientId,
    issuer: partner.issuer,
    signer,
    clock: drivingClock(fake.clock),
    logLevel: 'off',
  });
  return { client, fake, signs: () => signs };
}

describe('an assertion that aged in flight', () => {
  it('is replaced by a fresh one once, and the caller gets its answer', async () => {
    const { client, fake, signs } = await setup(1);
    const info = await client.oauth.info();
    expect(info.clientType).toBe('partner');
    expect(signs()).toBe(2);
    expect(fake.tokenRequests.map((r) => [r.status, r.code])).toEqual([
      [401, 'assertion_expired'],
      [201, undefined],
    ]);
    await client.close();
  });

  it('is not retried forever: a second stale one surfaces as AuthenticationError', async () => {
    const { client, fake } = await setup(5);
    await expect(client.oauth.info()).rejects.toMatchObject({ status: 401, code: 'assertion_expired' });
    expect(fake.tokenRequests.filter((r) => r.grantType !== 'refresh_token')).toHaveLength(2);
    await client.close();
  });
});

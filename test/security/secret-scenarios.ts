import type { PartnerEquity } from '../../src/client.js';
import { deriveIdempotencyKey } from '../../src/core/request/idempotency.js';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import type { Webhook } from '../../src/webhooks/index.node.js';
import { investorRow, pdf, spvBody } from '../reliability/fake-env.js';
import type { Exposure } from './exposure.js';

interface ScenarioContext {
  fake: FakePartnerEquity;
  clients: { pem: PartnerEquity; jwk: PartnerEquity; console: PartnerEquity; wrongKey: PartnerEquity };
  exposure: Exposure;
  webhook: Webhook;
  hookUrl: string;
}

/**
 * What partners do, including everything that goes wrong, so that every code path that logs, throws or
 * holds a secret runs: token exchange, renewal by refresh, a lost refresh answer, server-side revocation
 * (401 → recovery), every kind of API error, faults and retries, timeouts, aborts, uploads, bulk rows,
 * a wrong key, and webhook deliveries (real, forged and replayed). Results and errors go to `exposure`.
 */
export async function runPartnerScenarios({
  fake,
  clients,
  exposure,
  webhook,
  hookUrl,
}: ScenarioContext): Promise<void> {
  const { pem } = clients;
  let n = 0;
  const step = async (name: string, run: () => PromiseLike<unknown>) => {
    n += 1;
    try {
      exposure.addObject(`result ${n} ${name}`, await run());
    } catch (error) {
      exposure.addError(`error ${n} ${name}`, error);
    }
  };

  await step('info', () => pem.oauth.info().withResponse());
  await step('info (jwk key)', () => clients.jwk.oauth.info());
  await step('info (console logger)', () => clients.console.oauth.info());
  await step('info (wrong key: 401 on the token exchange)', () => clients.wrongKey.oauth.info());
  const body = await spvBody(pem);
  const created = await pem.spvRequests.create(body, { idempotencyKey: 'hygiene-1' });
  await step('idempotency conflict (409)', () =>
    pem.spvRequests.create({ ...body, templateVersion: '0.0.1' }, { idempotencyKey: 'hygiene-1' }),
  );
  await step('unknown template (404)', () => pem.spvRequests.create({ ...body, templateId: 'nope' }));
  await step('list', () => pem.spvRequests.list({ perPage: 2 }).withResponse());
  await step('get unknown (404)', () => pem.spvRequests.get('spvreq_unknown'));
  await step('cancel', () => pem.spvRequests.cancel(created.spvRequestSlug));
  await step('cancel again (409)', () => pem.spvRequests.cancel(created.spvRequestSlug));
  await step('bad input', () => pem.spvRequests.create({ templateId: 42 } as never));
  await step('bad options', () => pem.oauth.info({ headers: { 'x-a': 'b\r\nc' } }));

  // Renewal: past half of the 5-minute lifetime the next call refreshes in the background.
  await fake.clock.advance(200_000);
  await step('info after half-life (refresh)', () => pem.oauth.info());
  await fake.idle();
  await step('info with the refreshed token', () => pem.oauth.info());
  // A refresh whose answer is lost: the SDK falls back to a new assertion.
  fake.faults.inject({ match: { path: '/v1/oauth2/tokens' }, drop: 'after' });
  await fake.clock.advance(400_000);
  await step('info after expiry, refresh answer lost', () => pem.oauth.info());
  // The server revokes every token: 401 → new token → the call succeeds.
  fake.admin.revokeTokens();
  await step('info after revocation', () => pem.oauth.info());
  await step('info after revocation (console)', () => clients.console.oauth.info());

  // Faults and errors on the way.
  fake.faults.inject({ match: { path: '/v1/spv-requests' }, status: 503, times: 2 });
  await step('create through two 503s', () => pem.spvRequests.create(body));
  fake.faults.inject({ match: { path: '/v1/spv-requests' }, drop: 'after' });
  await step('create with a lost answer', () => pem.spvRequests.create(body));
  fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 3600 });
  await step('429 over the Retry-After cap', () => pem.oauth.info());
  fake.faults.inject({ match: { path: '/v1/oauth2/info' }, delayMs: 2_000, times: 3 });
  await step('timeout', () => pem.oauth.info({ timeout: 50, maxRetries: 0 }));
  await step('aborted', () => pem.oauth.info({ signal: AbortSignal.abort(new Error('partner shutdown')) }));
  fake.faults.inject({ match: { path: '/v1/oauth2/info' }, drop: 'before', times: 3 });
  await step('connection dropped on every attempt', () => pem.oauth.info());

  // Investors, a subscription and both uploads.
  await step('investors (one bad row)', () =>
    pem.investors.create([investorRow('hyg-1'), { ...investorRow('hyg-2'), email: 'no' }], {
      idempotencyKey: deriveIdempotencyKey('hygiene', 'investors'),
    }),
  );
  const approved = fake.admin.approveSpvRequest((await pem.spvRequests.create(body)).spvRequestSlug);
  const spvSlug = approved.materialisedRefs?.vehicleSlug ?? '';
  const spv = fake.admin.snapshot().spvs.find((s) => s.slug === spvSlug);
  const personId = (await pem.investors.create([investorRow('hyg-3')])).results[0]?.servicePersonId ?? '';
  const lumpSum = { currency: spv?.currency ?? 'EUR', value: '1000.00' };
  const shareClassSlug = approved.feesAndCarry?.shareClasses[0]?.slug ?? '';
  await step('subscribe', () =>
    pem.subscriptions.create(spvSlug, [{ servicePersonId: personId, shareClassSlug, lumpSum }]),
  );
  const receipt = () =>
    pem.subscriptions.uploadFundingReceipt(spvSlug, personId, {
      file: pdf(),
      amount: '1000.00',
      currency: lumpSum.currency,
      wireReference: 'W-1',
    });
  await step('receipt before form (409)', receipt);
  await step('form', () => pem.subscriptions.uploadSignedForm(spvSlug, personId, pdf()));
  await step('not a PDF (refused before sending)', () =>
    pem.subscriptions.uploadSignedForm(spvSlug, personId, new Uint8Array(64)),
  );
  await step('receipt', receipt);

  // Webhooks: the deliveries above, then a forged one and a replay, and direct verification failures.
  await fake.idle();
  const delivered = fake.webhooks.deliveries[0];
  const event = fake.webhooks.events[0];
  if (event !== undefined) {
    const headers = await webhook.sign({ payload: event.body, id: event.id });
    await step('verify', () => webhook.verify(event.body, headers));
    await step('verify tampered body', () => webhook.verify(`${event.body} `, headers));
    await step('verify parsed body', () => webhook.verify(JSON.parse(event.body), headers));
    await step('verify stale timestamp', () =>
      webhook.verify(event.body, { ...headers, 'webhook-timestamp': '1' }),
    );
    const forged = { ...headers, 'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' };
    await step('forged delivery to the receiver', () =>
      fetch(hookUrl, { method: 'POST', headers: forged, body: event.body }).then((r) => r.status),
    );
    await step('replayed delivery to the receiver', () =>
      fetch(hookUrl, { method: 'POST', headers, body: event.body }).then((r) => r.status),
    );
  }
  exposure.addObject('a delivery record', delivered);
}

import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import {
  FundingReceiptUploadResult,
  InvestorCreateResponse,
  SignedFormUploadResult,
  SpvRequest,
  SpvRequestPage,
  SubscriptionCreateResponse,
  TokenResponse,
} from '../../src/testing/wire/index.js';
import {
  files,
  http,
  investor,
  JWT_GRANT,
  signAssertion,
  spvBody,
  startReceiver,
  uploadForm,
} from './helpers.js';

type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * A partner's whole journey, over whichever transport `fetchImpl` reaches the fake with: token exchange and
 * refresh, an SPV request through approval, investors, a subscription, both uploads, completion, a retried
 * 503, a dropped response, and every webhook received and verified. Returns what the partner observed.
 */
export async function partnerJourney(fake: FakePartnerEquity, fetchImpl: FetchLike) {
  const receiver = await startReceiver();
  try {
    const { secret } = fake.webhooks.register({ url: receiver.url });
    const partner = await fake.createPartner();
    const call = http(partner.baseUrl, fetchImpl);
    const assertion = signAssertion(partner, fake.clock.now());
    const tokens = TokenResponse.parse(
      (await call('POST', '/v1/oauth2/tokens', { form: { grant_type: JWT_GRANT, assertion } })).body,
    );
    const refreshed = await call('POST', '/v1/oauth2/tokens', {
      form: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
    });
    const token = TokenResponse.parse(refreshed.body).accessToken;

    fake.faults.inject({ match: { method: 'POST', path: '/v1/spv-requests' }, status: 503, retryAfter: 1 });
    const key = { 'idempotency-key': 'journey-spv-1' };
    const unavailable = await call('POST', '/v1/spv-requests', { token, headers: key, json: spvBody() });
    const request = SpvRequest.parse(
      (await call('POST', '/v1/spv-requests', { token, headers: key, json: spvBody() })).body,
    );
    const approved = fake.admin.approveSpvRequest(request.spvRequestSlug);
    const page = SpvRequestPage.parse(
      (await call('GET', '/v1/spv-requests?status=approved', { token })).body,
    );
    const spvSlug = approved.materialisedRefs!.vehicleSlug;

    const people = InvestorCreateResponse.parse(
      (
        await call('POST', '/v1/investors', {
          token,
          json: { investors: [investor('inv-1'), investor('inv-2', { email: 'bad' })] },
        })
      ).body,
    );
    const personId = people.results[0]!.servicePersonId!;
    const subscriptions = SubscriptionCreateResponse.parse(
      (
        await call('POST', `/v1/spvs/${spvSlug}/subscriptions`, {
          token,
          json: {
            subscriptions: [
              {
                servicePersonId: personId,
                lumpSum: { currency: 'EUR', value: '50000' },
                shareClassSlug: 'class-a',
              },
            ],
          },
        })
      ).body,
    );
    const base = `/v1/spvs/${spvSlug}/subscription/${personId}`;
    const early = await call('POST', `${base}/fundings`, {
      token,
      body: uploadForm(files.pdf, 'r.pdf', { amount: '50000', currency: 'EUR', wireReference: 'W-1' }),
    });
    fake.faults.inject({ match: { path: `${base}/forms` }, drop: 'after' });
    const formKey = { 'idempotency-key': 'journey-form-1' };
    const lost = await call('POST', `${base}/forms`, {
      token,
      headers: formKey,
      body: uploadForm(files.png, 'form.png'),
    }).then(
      () => 'answered',
      (error: unknown) => (error instanceof TypeError ? 'network error' : String(error)),
    );
    const formReply = await call('POST', `${base}/forms`, {
      token,
      headers: formKey,
      body: uploadForm(files.png, 'form.png'),
    });
    const form = SignedFormUploadResult.parse(formReply.body);
    const receipt = FundingReceiptUploadResult.parse(
      (
        await call('POST', `${base}/fundings`, {
          token,
          body: uploadForm(files.pdf, 'r.pdf', { amount: '50000', currency: 'EUR', wireReference: 'W-1' }),
        })
      ).body,
    );
    fake.admin.completeSubscription(subscriptions.results[0]!.subscriptionSlug);
    await fake.idle();

    const verifier = new Webhook(secret);
    // Deliveries run concurrently, so they may arrive in any order (on a busy machine they do): each
    // verified delivery is put in the order the fake emitted its event.
    const emitted = fake.webhooks.events.map((event) => event.id);
    const deliveries = receiver.received.map((d) => {
      verifier.verify(d.body, d.headers);
      return { at: emitted.indexOf(d.headers['webhook-id'] ?? ''), type: JSON.parse(d.body).type as string };
    });
    expect(deliveries.every((d) => d.at >= 0)).toBe(true);
    const received = deliveries.sort((a, b) => a.at - b.at).map((d) => d.type);
    expect(new URL(form.subscriptionFormUrl).origin).toBe(partner.baseUrl);
    return {
      refreshStatus: refreshed.status,
      unavailable: [unavailable.status, unavailable.headers.get('retry-after')],
      requestStatus: request.status,
      listed: page.documents.map((d) => d.spvRequestSlug === request.spvRequestSlug),
      rows: people.results.map((r) => r.status),
      subscriptionStatus: subscriptions.results[0]!.status,
      early: [early.status, early.body.code],
      lost,
      formReplayed: formReply.headers.get('idempotent-replayed'),
      receipt: receipt.wireReference,
      received,
    };
  } finally {
    await receiver.close();
  }
}

/** What both transports must observe. */
export const expectedJourney = {
  refreshStatus: 201,
  unavailable: [503, '1'],
  requestStatus: 'pending-review',
  listed: [true],
  rows: ['created', 'failed'],
  subscriptionStatus: 'awaiting-signed-form',
  early: [409, 'signed_form_missing'],
  lost: 'network error',
  formReplayed: 'true',
  receipt: 'W-1',
  received: [
    'spv_request.created',
    'spv_request.completed',
    'signed_subscription_form.uploaded',
    'funding_receipt.uploaded',
    'subscription.completed',
  ],
};

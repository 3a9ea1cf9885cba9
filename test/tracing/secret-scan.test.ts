// No secret in any exported span: a client is run through token exchanges (assertion, refresh after a 401,
// background renewal), retries, failures whose bodies quote the bearer token, a response that fails
// validation (its error message quotes the idempotency key), a bulk import and webhook deliveries; then
// every span's name, attributes, events, links and status is searched for every secret the run handled.
import { describe, expect, it, vi } from 'vitest';
import { WebhookReceiver } from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { EVENTUALLY } from '../helpers/eventually.js';
import { useFakeApi } from '../resources/fake-harness.js';
import { investorRows, spvBody } from '../resources/fixtures.js';
import { completedEvent, delivery, NOW_MS, OTHER_SECRET, SECRET } from '../webhooks/fixtures.js';
import { exportedText, useTracing } from './otel-harness.js';

const api = useFakeApi();
const otel = useTracing();
const ECHO_PATH = '/v1/spv-requests/echo-the-token';
const IDEMPOTENCY_KEY = 'raw-idempotency-key-0001';

/** A `fetch` that records every secret it carries and tampers with two answers, as a hostile server would. */
function recordingFetch(secrets: Set<string>): typeof fetch {
  const keep = (value: unknown) => {
    if (typeof value === 'string' && value.length >= 8) secrets.add(value);
  };
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const headers = new Headers(init?.headers);
    keep(headers.get('authorization')?.replace(/^Bearer /, ''));
    keep(headers.get('idempotency-key'));
    if (typeof init?.body === 'string') {
      for (const [name, value] of new URLSearchParams(init.body)) if (name !== 'grant_type') keep(value);
    }
    if (url.pathname === ECHO_PATH) {
      const detail = `token ${headers.get('authorization')} was refused`;
      return Response.json({ code: 'bad_request', detail }, { status: 400 });
    }
    const response = await fetch(input, init);
    const text = await response.clone().text();
    if (url.pathname === '/v1/oauth2/tokens' && response.ok) {
      const body = JSON.parse(text) as Record<string, unknown>;
      for (const [name, value] of Object.entries(body)) if (/token/i.test(name)) keep(value);
    }
    if (url.pathname === '/v1/spv-requests' && init?.method === 'POST' && response.ok) {
      // A 2xx that breaks a stated field: a ResponseValidationError whose message quotes the key.
      return Response.json(
        { ...JSON.parse(text), status: 42 },
        { status: response.status, headers: response.headers },
      );
    }
    return response;
  };
}

describe('secrets in spans', () => {
  it('no exported span carries a token, assertion, key, webhook secret or raw idempotency key', async () => {
    const secrets = new Set<string>([IDEMPOTENCY_KEY, SECRET, OTHER_SECRET]);
    const env = await api.start({
      client: { tracerProvider: otel.provider, fetch: recordingFetch(secrets), responseValidation: 'strict' },
    });
    const pem = env.credentials.privateKey;
    for (const line of pem.split('\n')) if (line.length >= 16 && !line.startsWith('-----')) secrets.add(line);
    const { client, fake } = env;

    const body = await spvBody(client);
    fake.faults.inject({ match: { method: 'POST', path: '/v1/spv-requests' }, status: 503 });
    await expect(client.spvRequests.create(body, { idempotencyKey: IDEMPOTENCY_KEY })).rejects.toThrow(
      IDEMPOTENCY_KEY,
    );
    fake.faults.inject({ match: { method: 'GET', path: '/v1/oauth2/info' }, status: 401 });
    await client.oauth.info();
    await expect(client.spvRequests.get('echo-the-token')).rejects.toThrow('[REDACTED]');
    await client.investors.create(investorRows(4), {
      chunkSize: 2,
      idempotencyKey: `${IDEMPOTENCY_KEY}-bulk`,
    });
    await fake.clock.advance(3_300_000);
    await client.oauth.info();
    await vi.waitFor(
      () =>
        expect(
          otel.spans().some((span) => span.attributes['partner_equity.token.trigger'] === 'background'),
        ).toBe(true),
      EVENTUALLY,
    );

    const receiver = new WebhookReceiver(new Webhook({ secret: SECRET, now: () => NOW_MS }), {
      logger: { warn() {}, error() {} },
      tracerProvider: otel.provider,
    }).on('spv_request.completed', () => {
      throw new Error(`handler saw ${SECRET}`);
    });
    for (const secret of [SECRET, OTHER_SECRET]) {
      const signed = await delivery(completedEvent, { secret, id: `msg_${secret.length}` });
      await receiver.receive(signed.body, signed.headers);
    }

    const spans = otel.spans();
    // The run did what it says: token exchanges of every trigger, a retry, failures and webhooks.
    const triggers = new Set(spans.map((span) => span.attributes['partner_equity.token.trigger']));
    expect([...triggers].sort()).toEqual(['background', 'needed', 'unauthorized', undefined]);
    expect(spans.some((span) => span.events.some((event) => event.name === 'retry'))).toBe(true);
    expect(spans.filter((span) => span.name === 'webhooks.receive')).toHaveLength(2);
    expect(spans.filter((span) => span.status.message !== undefined).length).toBeGreaterThanOrEqual(4);
    // Tokens, refresh tokens, assertions, the chunk keys and the PEM's lines were seen on the way.
    expect(secrets.size).toBeGreaterThan(12);

    for (const span of spans) {
      const text = exportedText(span);
      for (const secret of secrets) expect(text.includes(secret), `${span.name} holds a secret`).toBe(false);
    }
  });
});

import { afterEach, expect, it } from 'vitest';
import { spvBody } from '../helpers/spv-body.js';
import { useTracing } from '../tracing/otel-harness.js';
import { type LimitedFake, limitedFake } from './rate-limit-harness.js';

const otel = useTracing();
let env: LimitedFake;
afterEach(() => env.close());

const waits = (name: string) =>
  otel
    .named(name)
    .flatMap((span) => span.events.filter((event) => event.name === 'wait').map((event) => event.attributes));

it('a call that waited its turn carries a rate_limit wait event with the time it waited', async () => {
  env = await limitedFake({ rateLimit: '5/s' });
  const client = env.client({ tracerProvider: otel.provider });
  await env.drive(Promise.all(Array.from({ length: 12 }, () => client.oauth.info())));
  const events = waits('oauth.info');
  expect(events.length).toBeGreaterThanOrEqual(7);
  expect(events.every((event) => event?.['partner_equity.wait.reason'] === 'rate_limit')).toBe(true);
  const longest = Math.max(...events.map((event) => Number(event?.['partner_equity.wait.duration_ms'])));
  expect(longest).toBeGreaterThanOrEqual(1000);
});

it('a 429 with Retry-After becomes a retry_after wait of that length', async () => {
  env = await limitedFake({});
  const client = env.client({ tracerProvider: otel.provider });
  await env.drive(client.oauth.info());
  otel.exporter.reset();
  env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 2 });
  await env.drive(client.oauth.info());
  expect(waits('oauth.info')).toEqual([
    { 'partner_equity.wait.reason': 'retry_after', 'partner_equity.wait.duration_ms': 2000 },
  ]);
});

it('a 401 answered by a token renewal becomes an unauthorized wait', async () => {
  env = await limitedFake({});
  const client = env.client({ tracerProvider: otel.provider });
  await env.drive(client.oauth.info());
  otel.exporter.reset();
  env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 401 });
  await env.drive(client.oauth.info());
  const events = waits('oauth.info');
  expect(events.map((event) => event?.['partner_equity.wait.reason'])).toEqual(['unauthorized']);
});

it('a replayed POST is marked on its span', async () => {
  env = await limitedFake({});
  const client = env.client({ tracerProvider: otel.provider });
  const body = (await env.drive(spvBody(client))).value;
  await env.drive(client.spvRequests.create(body, { idempotencyKey: 'deal-7' }));
  await env.drive(client.spvRequests.create(body, { idempotencyKey: 'deal-7' }));
  const spans = otel.named('spv_requests.create');
  expect(spans.map((span) => span.attributes['partner_equity.idempotency.replayed'])).toEqual([
    undefined,
    true,
  ]);
});

// The SDK's spans as an OpenTelemetry SDK exports them, over real loopback sockets to the fake API: one
// CLIENT span per call with its retries as events, the token exchange linked from the call that waited for
// it, and a bulk import as one span over its chunks.
import { createHash } from 'node:crypto';
import { propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { describe, expect, it, vi } from 'vitest';
import { ConflictError } from '../../src/core/errors/errors.js';
import { EVENTUALLY } from '../helpers/eventually.js';
import { useFakeApi } from '../resources/fake-harness.js';
import { fileBytes } from '../resources/files.js';
import { investorRows, spvBody, subscribedInvestor } from '../resources/fixtures.js';
import { parentOf, useTracing } from './otel-harness.js';

const api = useFakeApi();
const otel = useTracing();
const start = (client: object = {}) => api.start({ client: { tracerProvider: otel.provider, ...client } });
const sha256Prefix = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

describe('one CLIENT span per call', () => {
  it('a create retried after a 503: named for its operation, HTTP attributes, the retry as an event', async () => {
    const env = await start();
    const body = await spvBody(env.client);
    env.fake.faults.inject({ match: { method: 'POST', path: '/v1/spv-requests' }, status: 503 });
    const tracer = otel.provider.getTracer('partner-app');
    const { response } = await tracer.startActiveSpan('partner.job', async (job) => {
      try {
        return await env.client.spvRequests.create(body, { idempotencyKey: 'deal-42' }).withResponse();
      } finally {
        job.end();
      }
    });

    const [create] = otel.named('spv_requests.create');
    const [job] = otel.named('partner.job');
    expect(create?.kind).toBe(SpanKind.CLIENT);
    // The partner's active span is the parent: the call is part of the partner's own trace.
    expect(parentOf(create!)).toBe(job?.spanContext().spanId);
    expect(create?.spanContext().traceId).toBe(job?.spanContext().traceId);
    const { port } = new URL(env.credentials.baseUrl);
    expect(create?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(port),
      'url.template': '/v1/spv-requests',
      'http.response.status_code': 201,
      'http.request.resend_count': 1,
      'partner_equity.idempotency_key.sha256': sha256Prefix('deal-42'),
      'partner_equity.request_id': response.requestId,
    });
    expect(create?.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'retry',
        {
          'http.request.resend_count': 1,
          'partner_equity.retry.delay_ms': 0,
          'partner_equity.retry.reason': '503',
          'http.response.status_code': 503,
        },
      ],
      ['wait', { 'partner_equity.wait.reason': 'backoff', 'partner_equity.wait.duration_ms': 0 }],
    ]);
    expect(create?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a failed call: error.type is the status, with the request id and errorId; the status names class, status and code', async () => {
    const env = await start();
    const body = await spvBody(env.client);
    await env.client.spvRequests.create(body, { idempotencyKey: 'deal-43' });
    const other = { ...body, attributes: { ...body.attributes, name: 'Another SPV' } };
    const error = (await env.client.spvRequests
      .create(other, { idempotencyKey: 'deal-43' })
      .catch((e: unknown) => e)) as ConflictError;
    expect(error).toBeInstanceOf(ConflictError);

    const failed = otel.named('spv_requests.create').at(-1);
    expect(failed?.attributes).toMatchObject({
      'http.response.status_code': 409,
      'error.type': '409',
      'partner_equity.request_id': error.requestId,
      'partner_equity.error_id': error.errorId,
    });
    expect(failed?.attributes).not.toHaveProperty('http.request.resend_count');
    expect(failed?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: `ConflictError 409 ${error.code}`,
    });
  });

  it('a GET of one request: url.template carries the route, never the slug', async () => {
    const env = await start();
    const created = await env.client.spvRequests.create(await spvBody(env.client));
    await env.client.spvRequests.get(created.spvRequestSlug);
    const [get] = otel.named('spv_requests.get');
    expect(get?.attributes['url.template']).toBe('/v1/spv-requests/{slug}');
    expect(JSON.stringify(get?.attributes)).not.toContain(created.spvRequestSlug);
  });
});

describe('upload spans', () => {
  it('are named for their operations, with the attributes of every other call and no ids in them', async () => {
    const env = await start();
    const { spvSlug, personId } = await subscribedInvestor(env);
    const form = await env.client.subscriptions
      .uploadSignedForm(spvSlug, personId, fileBytes('pdf'), { idempotencyKey: 'form-1' })
      .withResponse();
    const receipt = await env.client.subscriptions
      .uploadFundingReceipt(
        spvSlug,
        personId,
        { file: fileBytes('png'), amount: '25000.00', currency: 'EUR', wireReference: 'WIRE-1' },
        { idempotencyKey: 'receipt-1' },
      )
      .withResponse();

    const { port } = new URL(env.credentials.baseUrl);
    const expected = (route: string, key: string, requestId: string | undefined) => ({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(port),
      'url.template': route,
      'http.response.status_code': 201,
      'partner_equity.idempotency_key.sha256': sha256Prefix(key),
      'partner_equity.request_id': requestId,
    });
    const [formSpan] = otel.named('subscriptions.upload_signed_form');
    const [receiptSpan] = otel.named('subscriptions.upload_funding_receipt');
    expect(formSpan?.kind).toBe(SpanKind.CLIENT);
    expect(formSpan?.attributes).toEqual(
      expected('/v1/spvs/{spv_slug}/subscription/{person_id}/forms', 'form-1', form.response.requestId),
    );
    expect(receiptSpan?.kind).toBe(SpanKind.CLIENT);
    expect(receiptSpan?.attributes).toEqual(
      expected(
        '/v1/spvs/{spv_slug}/subscription/{person_id}/fundings',
        'receipt-1',
        receipt.response.requestId,
      ),
    );
    expect(otel.named('POST')).toEqual([]);
    expect(JSON.stringify([formSpan?.attributes, receiptSpan?.attributes])).not.toContain(personId);
  });
});

describe('the token exchange', () => {
  it('is a span of its own, child of the call that started it and linked from every call that waited', async () => {
    const env = await start();
    await Promise.all([env.client.oauth.info(), env.client.spvRequests.list()]);

    const [exchange, ...more] = otel.named('oauth.token_exchange', SpanKind.INTERNAL);
    expect(more).toEqual([]);
    expect(exchange?.attributes).toEqual({
      'partner_equity.token.trigger': 'needed',
      'partner_equity.token.grant_type': 'jwt_bearer',
    });
    const calls = [...otel.named('oauth.info'), ...otel.named('spv_requests.list')];
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.links.map((link) => link.context.spanId)).toEqual([exchange?.spanContext().spanId]);
    }
    expect(calls.map((call) => call.spanContext().spanId)).toContain(parentOf(exchange!));
    // The token endpoint's POST is a CLIENT span inside the exchange.
    const [post] = otel.named('oauth.token', SpanKind.CLIENT);
    expect(parentOf(post!)).toBe(exchange?.spanContext().spanId);
    expect(post?.attributes).toMatchObject({
      'url.template': '/v1/oauth2/tokens',
      'http.response.status_code': 201,
    });
  });

  it('a background renewal is a root span; the call that started it does not wait for it or link it', async () => {
    const env = await start();
    await env.client.oauth.info();
    otel.exporter.reset();
    await env.fake.clock.advance(3_300_000); // past the renewal point of the fake's 1 h tokens
    await env.client.oauth.info();
    await vi.waitFor(() => expect(otel.named('oauth.token_exchange')).toHaveLength(1), EVENTUALLY);

    const [renewal] = otel.named('oauth.token_exchange');
    expect(parentOf(renewal!)).toBeUndefined();
    expect(renewal?.attributes).toMatchObject({
      'partner_equity.token.trigger': 'background',
      'partner_equity.token.grant_type': 'refresh_token',
    });
    const [call] = otel.named('oauth.info');
    expect(call?.links).toEqual([]);
    expect(call?.spanContext().traceId).not.toBe(renewal?.spanContext().traceId);
  });
});

describe('bulk calls', () => {
  it('a bulk import of three chunks: one INTERNAL span with chunk and row counts over three CLIENT spans', async () => {
    const env = await start();
    const rows = investorRows(9);
    rows[4] = { ...rows[4]!, email: 'broken' }; // refused before sending
    const result = await env.client.investors.create(rows, { chunkSize: 3, concurrency: 1 });
    expect(result.failed).toHaveLength(1);

    const [bulk] = otel.named('investors.create', SpanKind.INTERNAL);
    expect(bulk?.attributes).toEqual({
      'partner_equity.bulk.rows': 9,
      'partner_equity.bulk.chunk_size': 3,
      'partner_equity.bulk.chunks': 3,
      'partner_equity.bulk.chunks_sent': 3,
      'partner_equity.bulk.rows_sent': 8,
      'partner_equity.bulk.rows_succeeded': 8,
      'partner_equity.bulk.rows_failed': 1,
    });
    const chunks = otel.named('investors.create', SpanKind.CLIENT);
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) {
      expect(parentOf(chunk)).toBe(bulk?.spanContext().spanId);
      expect(chunk.attributes).toMatchObject({
        'url.template': '/v1/investors',
        'http.response.status_code': 200,
      });
    }
    // Each chunk's derived key, hashed: three different ones.
    expect(
      new Set(chunks.map((chunk) => chunk.attributes['partner_equity.idempotency_key.sha256'])).size,
    ).toBe(3);
  });
});

describe('trace context on the wire', () => {
  it('is not sent by default; with propagateTraceContext every attempt carries the call span as traceparent', async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      const quiet = await start();
      await quiet.client.oauth.info();
      expect(quiet.fake.requests.every((request) => request.headers['traceparent'] === undefined)).toBe(true);

      const env = await start({ propagateTraceContext: true });
      env.fake.faults.inject({ match: { method: 'GET', path: '/v1/oauth2/info' }, status: 503 });
      await env.client.oauth.info();
      const call = otel.named('oauth.info').at(-1)!;
      const { traceId, spanId } = call.spanContext();
      const sent = env.apiRequests().filter((request) => request.path === '/v1/oauth2/info');
      expect(sent.map((request) => request.headers['traceparent'])).toEqual([
        `00-${traceId}-${spanId}-01`,
        `00-${traceId}-${spanId}-01`,
      ]);
    } finally {
      propagation.disable();
    }
  });
});

describe('the global tracer provider', () => {
  it('is used without the option, including one registered after the client was built', async () => {
    const env = await api.start();
    await env.client.system.health();
    expect(otel.spans()).toEqual([]);
    trace.setGlobalTracerProvider(otel.provider);
    try {
      await env.client.system.health();
      const [health] = otel.named('system.health');
      expect(health?.attributes).toMatchObject({
        'url.template': '/public/hc',
        'http.response.status_code': 200,
      });
    } finally {
      trace.disable();
    }
  });
});

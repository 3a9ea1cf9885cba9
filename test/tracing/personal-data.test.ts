// Security review of issue 36, findings 3 and 9: spans leave the process for a tracing vendor, so they carry
// no personal data a server quotes (its messages, ids it chooses) and no ids of the call's path; with
// propagateTraceContext the API receives trace context only, never the app's baggage.
import { generateKeyPairSync } from 'node:crypto';
import { context, propagation, SpanStatusCode } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import { ConflictError, NotFoundError } from '../../src/core/errors/errors.js';
import { useTestServer } from '../helpers/test-server.js';
import { quotingTokenServer } from '../security/quoting-server.js';
import { exportedText, useTracing } from './otel-harness.js';

const server = useTestServer();
const otel = useTracing();
const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const clients: PartnerEquity[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function client(options: Partial<ConstructorParameters<typeof PartnerEquity>[0]> = {}) {
  const built = new PartnerEquity({
    baseUrl: server().url,
    clientId: 'client_quoted',
    issuer: 'https://api.partner.example',
    privateKey: pem,
    maxRetries: 0,
    tracerProvider: otel.provider,
    ...options,
  });
  clients.push(built);
  return built;
}

const PERSONAL = ['jane.doe@example.com', 'Jane', 'Doe', '1985-02-28'];
const SLUG = 'spv_4f7a9c2e1b';

describe('spans carry no personal data and no ids of the path (finding 3)', () => {
  it('a 404 quoting an e-mail, a name and a date of birth, an x-request-id holding an e-mail', async () => {
    quotingTokenServer(server(), {
      [`/v1/spv-requests/${SLUG}`]: [
        () => ({
          status: 404,
          headers: { 'x-request-id': 'jane.doe@example.com' },
          body: {
            code: 'not_found',
            detail: `No SPV request ${SLUG} for Jane Doe (jane.doe@example.com, born 1985-02-28)`,
            errorId: 'Jane Doe 1985-02-28',
          },
        }),
      ],
    });
    const error = await client()
      .spvRequests.get(SLUG)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    // The partner's error keeps everything; the span keeps none of it.
    expect((error as NotFoundError).message).toContain('Jane Doe');

    const [span] = otel.named('spv_requests.get');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'NotFoundError 404 not_found' });
    expect(span?.attributes).toMatchObject({ 'error.type': '404', 'http.response.status_code': 404 });
    expect(span?.attributes).not.toHaveProperty('partner_equity.request_id');
    expect(span?.attributes).not.toHaveProperty('partner_equity.error_id');
    const exported = otel.spans().map(exportedText).join('\n');
    for (const text of [...PERSONAL, SLUG]) expect(exported, text).not.toContain(text);
  });

  it('keeps request and error ids of a safe shape (a UUID, prefix_ and letters or digits)', async () => {
    const requestId = '0b6f4c1e-8d2a-4c3b-9e7f-1a2b3c4d5e6f';
    quotingTokenServer(server(), {
      '/v1/spv-requests': [
        () => ({
          status: 409,
          headers: { 'x-request-id': requestId },
          body: { code: 'conflict', detail: 'Jane Doe already has one', errorId: 'err_8f3kq29d0s' },
        }),
      ],
    });
    const error = await client()
      .spvRequests.list()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConflictError);
    const [span] = otel.named('spv_requests.list');
    expect(span?.attributes).toMatchObject({
      'partner_equity.request_id': requestId,
      'partner_equity.error_id': 'err_8f3kq29d0s',
    });
    expect(span?.status.message).toBe('ConflictError 409 conflict');
    expect(exportedText(span!)).not.toContain('Jane');
  });
});

describe('propagateTraceContext sends trace context only (finding 9)', () => {
  it("sends traceparent and tracestate, never the app's baggage", async () => {
    propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    );
    try {
      quotingTokenServer(server(), {});
      const partner = client({ propagateTraceContext: true });
      const baggage = propagation.createBaggage({ 'user.email': { value: 'jane.doe@example.com' } });
      await context.with(propagation.setBaggage(context.active(), baggage), () => partner.oauth.info());
      const info = server().requests.filter((request) => request.path === '/v1/oauth2/info');
      expect(info).toHaveLength(1);
      expect(info[0]?.headers['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(info[0]?.headers['baggage']).toBeUndefined();
      expect(JSON.stringify(server().requests.map((request) => request.headers))).not.toContain('jane');
    } finally {
      propagation.disable();
    }
  });
});

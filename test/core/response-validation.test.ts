import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/auth/generate-key-pair.js';
import { PartnerEquity } from '../../src/client.js';
import { ResponseValidationError } from '../../src/core/errors/errors.js';
import type { ResponseValidationMode } from '../../src/core/request/response-validation.js';
import { resolveResponseValidation } from '../../src/core/request/response-validation.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { scriptedAuthenticator } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

const spvRequest = {
  spvRequestSlug: 'spvr_1',
  status: 'pending-review',
  templateId: 'spv-standard',
  templateVersion: '2025-06',
  tenantSlug: 't',
  clientId: 'c',
  attributes: {},
  createdAt: '2026-11-23T18:00:00Z',
  updatedAt: '2026-11-23T18:00:00Z',
};
// A 2xx that breaks the spec: `status` is always present, and here it is missing.
const { status: _dropped, ...withoutStatus } = spvRequest;

function client(responseValidation: ResponseValidationMode | undefined) {
  const logger = memoryLogger();
  const sdk = new PartnerEquity({
    baseUrl: server().url,
    authenticator: scriptedAuthenticator(['at_1']).authenticator,
    logger,
    logLevel: 'warn',
    retry: { random: () => 0 },
    ...(responseValidation === undefined ? {} : { responseValidation }),
  });
  return { sdk, logger };
}

describe("responseValidation: 'warn'", () => {
  it('returns the body as received and warns once per route and problem', async () => {
    const { sdk, logger } = client('warn');
    server().reply(
      { body: withoutStatus },
      { body: { ...withoutStatus, spvRequestSlug: 'spvr_2' } },
      { status: 201, body: withoutStatus },
    );
    expect(await sdk.spvRequests.get('spvr_1')).toEqual(withoutStatus);
    expect(await sdk.spvRequests.get('spvr_2')).toMatchObject({ spvRequestSlug: 'spvr_2' });
    await sdk.spvRequests.create({ templateId: 'spv-standard' });
    const warnings = logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^GET \/v1\/spv-requests\/\{slug\}: the 200 response does not match the API spec \(status: /,
      ),
      expect.stringMatching(
        /^POST \/v1\/spv-requests: the 201 response does not match the API spec \(status: /,
      ),
    ]);
  });

  it('a bulk answer without results loses no row: each fails missing_result, retryable', async () => {
    const { sdk } = client('warn');
    server().reply({ body: { rows: 'renamed' } });
    const result = await sdk.investors.create([{ partnerInvestorId: 'a' }, { partnerInvestorId: 'b' }]);
    expect(result.failed.map((row) => [row.partnerInvestorId, row.error.code, row.error.retryable])).toEqual([
      ['a', 'missing_result', true],
      ['b', 'missing_result', true],
    ]);
    expect(result.retryable).toEqual([{ partnerInvestorId: 'a' }, { partnerInvestorId: 'b' }]);
  });
});

describe("responseValidation: 'strict'", () => {
  it('throws with status, request id, idempotency key and the redacted body; the create is not re-sent', async () => {
    const { sdk } = client('strict');
    server().reply({
      status: 201,
      headers: { 'x-request-id': 'req_9' },
      body: { ...withoutStatus, note: 'Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln' },
    });
    const error = await sdk.spvRequests
      .create({ templateId: 'spv-standard' }, { idempotencyKey: 'deal-7', maxRetries: 3 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 201, requestId: 'req_9', idempotencyKey: 'deal-7' });
    const { body, message, issues } = error as ResponseValidationError;
    expect(issues.map((issue) => issue.path)).toEqual(['status']);
    expect(body).toMatchObject({ spvRequestSlug: 'spvr_1' });
    expect(JSON.stringify(body)).not.toContain('eyJhbGciOiJFZERTQSJ9');
    expect(message).toMatch(/may already have done the write/);
    expect(message).toMatch(/idempotency key deal-7/);
    expect(server().requests).toHaveLength(1);
  });

  it('a body the spec leaves open never trips it (health without checkedAt, versions as a list)', async () => {
    const { sdk } = client('strict');
    server().reply({ body: {} }, { body: ['2024-01', '2025-06'] });
    expect(await sdk.system.health()).toEqual({});
    expect(await sdk.contracts.versions()).toEqual({
      latest: '2025-06',
      versions: [{ version: '2024-01' }, { version: '2025-06' }],
    });
  });
});

describe("responseValidation: 'off'", () => {
  it('does not check bodies: a wrong type comes back as sent, nothing is logged', async () => {
    const { sdk, logger } = client('off');
    server().reply({ body: { ...spvRequest, status: 42 } });
    expect(await sdk.spvRequests.get('spvr_1')).toMatchObject({ status: 42 });
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });
});

describe('the mode a client gets', () => {
  it("is the option, else PARTNER_EQUITY_RESPONSE_VALIDATION, else 'warn'", () => {
    expect(resolveResponseValidation(undefined, '')).toBe('warn');
    expect(resolveResponseValidation(undefined, ' Strict ')).toBe('strict');
    expect(resolveResponseValidation(undefined, 'loud')).toBe('warn');
    expect(resolveResponseValidation('off', 'strict')).toBe('off');
  });

  it('the token endpoint is always read strictly, whatever the mode', async () => {
    const sdk = new PartnerEquity({
      baseUrl: server().url,
      clientId: 'client_1',
      issuer: 'https://partner.example',
      privateKey: (await generateKeyPair()).privateKeyPem,
      responseValidation: 'off',
      logLevel: 'off',
      retry: { random: () => 0 },
    });
    // No accessToken: nothing could be sent with it, so it is refused even with validation off.
    server().fallback(() => ({ status: 201, body: { tokenType: 'Bearer', expiresIn: 3600 } }));
    const error = await sdk.oauth.info().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toContain('accessToken');
    expect(server().requests.every((request) => request.path === '/v1/oauth2/tokens')).toBe(true);
  });
});

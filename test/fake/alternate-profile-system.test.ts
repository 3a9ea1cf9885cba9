import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { profileNamed } from '../../src/testing/profiles/profile-named.js';
import { idem, JWT_GRANT, login, signAssertion, spvBody } from './helpers.js';
import { choice, type Started, startBoth } from './profiles.js';

// The alternate profile's choices for system bodies, token info, contracts, errors and token exchange.

let both: Awaited<ReturnType<typeof startBoth>>;
beforeEach(async () => {
  both = await startBoth();
});
afterEach(() => both.close());

const each = <T>(run: (s: Started) => Promise<T>) => Promise.all([run(both.def), run(both.alt)]);

const exchange = (s: Started, overrides: Parameters<typeof signAssertion>[2]) =>
  s.call('POST', '/v1/oauth2/tokens', {
    form: { grant_type: JWT_GRANT, assertion: signAssertion(s.partner, s.fake.clock.now(), overrides) },
  });

describe('alternate profile: system and token info', () => {
  it('is chosen with the profile option, reported by fake.profile; an unknown name fails at construction', () => {
    expect([both.def.fake.profile, both.alt.fake.profile]).toEqual(['default', 'alternate']);
    expect(() => new FakePartnerEquity({ profile: 'fastapi' as never })).toThrow(
      "FakePartnerEquity: profile (or PARTNER_EQUITY_FAKE_PROFILE) must be one of 'default', 'alternate'",
    );
  });

  it('without the option, PARTNER_EQUITY_FAKE_PROFILE picks the profile (a whole suite on the other server)', () => {
    expect(profileNamed(undefined, '').name).toBe('default');
    expect(profileNamed(undefined, 'alternate').name).toBe('alternate');
    expect(profileNamed('default', 'alternate').name).toBe('default');
    expect(() => profileNamed(undefined, 'fastapi')).toThrow(/PARTNER_EQUITY_FAKE_PROFILE/);
  });

  it(choice('root'), async () => {
    const [def, alt] = await each((s) => s.call('GET', '/'));
    expect(Object.keys(def.body)).toEqual(['name', 'apiVersion', 'version', 'docsUrl', 'openapiUrl']);
    expect(alt.body).toEqual({ message: 'Partner Equity API', docs: '/docs' });
  });

  it(choice('health'), async () => {
    const [def, alt] = await each((s) => s.call('GET', '/public/hc'));
    expect(def.body).toEqual({ status: 'ok', checkedAt: '2026-11-23T18:00:00.123Z' });
    expect(alt.body).toEqual({ status: 'healthy' });
  });

  it(choice('token-info'), async () => {
    const [def, alt] = await each((s) => s.call('GET', '/v1/oauth2/info', { token: s.token }));
    expect(def.body).toEqual({
      clientId: both.def.partner.clientId,
      clientType: 'partner',
      applicationName: 'Partner app 1',
      issuedAt: '2026-11-23T18:00:00.123Z',
      expiresAt: '2026-11-23T19:00:00.123Z',
    });
    const iat = Math.floor(Date.UTC(2026, 10, 23, 18, 0, 0, 123) / 1000);
    expect(alt.body).toEqual({
      active: true,
      client_id: both.alt.partner.clientId,
      client_type: 'partner',
      application_name: 'Partner app 1',
      token_type: 'Bearer',
      iat,
      exp: iat + 3600,
    });
  });
});

describe('alternate profile: contracts', () => {
  it(choice('contracts-auth'), async () => {
    const paths = [
      '/v1/contracts',
      '/v1/contracts/templates/2025-06',
      '/v1/contracts/samples/2025-06/spv-club-deal',
    ];
    for (const path of paths) {
      const [def, alt] = await each((s) => s.call('GET', path));
      expect([def.status, alt.status]).toEqual([200, 401]);
      expect(alt.headers.get('www-authenticate')).toBe('Bearer');
      const [defAuthed, altAuthed] = await each((s) => s.call('GET', path, { token: s.token }));
      expect([defAuthed.status, altAuthed.status]).toEqual([200, 200]);
    }
    // The spec's 422 for an unknown version is still there once authenticated.
    const bad = await both.alt.call('GET', '/v1/contracts/templates/1999', { token: both.alt.token });
    expect(bad.status).toBe(422);
  });

  it(choice('contract-versions'), async () => {
    const [def, alt] = await each((s) => s.call('GET', '/v1/contracts', { token: s.token }));
    expect(def.body).toEqual({
      latest: '2025-06',
      versions: [
        { version: '2024-01', releasedAt: '2024-01-15', deprecated: true },
        { version: '2025-06', releasedAt: '2025-06-02', deprecated: false },
      ],
    });
    expect(alt.body).toEqual(['2024-01', '2025-06']);
  });

  it(`${choice('contract-documents')} / ${choice('contract-lists')}`, async () => {
    const kinds = {
      templates: 'templateId',
      catalogs: 'catalogId',
      primitives: 'primitiveId',
      samples: 'sampleId',
    };
    for (const [kind, id] of Object.entries(kinds)) {
      const [def, alt] = await each((s) =>
        s.call('GET', `/v1/contracts/${kind}/2025-06`, { token: s.token }),
      );
      expect(Object.keys(def.body)).toEqual(['version', kind]);
      const defDocs = def.body[kind] as Array<Record<string, unknown>>;
      // Templates come keyed by their id; the other kinds as plain arrays.
      expect(Array.isArray(alt.body)).toBe(kind !== 'templates');
      const altDocs = (kind === 'templates' ? Object.values(alt.body) : alt.body) as Array<
        Record<string, unknown>
      >;
      if (kind === 'templates') expect(Object.keys(alt.body)).toEqual(altDocs.map((d) => d[id]));
      expect(altDocs.map((d) => d[id])).toEqual(defDocs.map((d) => d['name']));
      for (const doc of defDocs)
        expect(doc).toMatchObject({ title: expect.any(String), description: expect.any(String) });
      for (const doc of altDocs) {
        expect(doc).not.toHaveProperty('title');
        expect(doc).not.toHaveProperty('description');
        expect(doc['contractVersion']).toBe('2025-06');
        const one = await both.alt.call('GET', `/v1/contracts/${kind}/2025-06/${String(doc[id])}`, {
          token: both.alt.token,
        });
        expect(one.body).toEqual(doc);
      }
    }
    const template = await both.alt.call('GET', '/v1/contracts/templates/2025-06/spv-standard', {
      token: both.alt.token,
    });
    expect(Object.keys(template.body)).toEqual(['templateId', 'contractVersion', 'jsonSchema']);
    expect(template.body.jsonSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['name']),
    });
    const catalog = await both.alt.call('GET', '/v1/contracts/catalogs/2025-06/spv-attributes', {
      token: both.alt.token,
    });
    expect(catalog.body.attributes[0]).toEqual({ key: 'name', primitiveType: 'text' });
  });

  it('alternate sample bodies are complete create bodies (under `body`, not `payload`)', async () => {
    for (const version of ['2024-01', '2025-06']) {
      const list = await both.alt.call('GET', `/v1/contracts/samples/${version}`, { token: both.alt.token });
      for (const sample of list.body as Array<{ body: unknown; payload?: unknown }>) {
        expect(sample.payload).toBeUndefined();
        const created = await both.alt.call('POST', '/v1/spv-requests', {
          token: both.alt.token,
          headers: idem(),
          json: sample.body,
        });
        expect(created.status, created.text).toBe(201);
      }
    }
  });
});

describe('alternate profile: errors', () => {
  it(`${choice('partner-error-codes')} / ${choice('error-ids')}`, async () => {
    const conflict = async (s: Started) => {
      await s.call('POST', '/v1/spv-requests', { token: s.token, headers: idem('k1'), json: spvBody() });
      return s.call('POST', '/v1/spv-requests', {
        token: s.token,
        headers: idem('k1'),
        json: spvBody({ name: 'Other name' }),
      });
    };
    const [def, alt] = await each(conflict);
    expect([def.status, alt.status]).toEqual([409, 409]);
    expect(Object.keys(alt.body)).toEqual(['code', 'detail', 'errorId', 'validationErrors']);
    expect([def.body.code, alt.body.code]).toEqual(['idempotency_key_conflict', 'IDEMPOTENCY_KEY_REUSED']);
    expect(def.body.errorId).toMatch(/^err_[0-9a-z]{20}$/);
    expect(def.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{20}$/);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(alt.body.errorId).toMatch(uuid);
    expect(alt.headers.get('x-request-id')).toMatch(uuid);
    const unprovisioned = await both.alt.fake.createPartner({ provisioned: false });
    const { accessToken } = await login(both.alt.fake, unprovisioned);
    const refused = await both.alt.call('GET', '/v1/spv-requests', { token: accessToken });
    expect([refused.status, refused.body.code]).toEqual([403, 'PARTNER_API_NOT_ENABLED']);
    both.alt.fake.faults.inject({ match: { path: '/public/hc' }, status: 503 });
    expect((await both.alt.call('GET', '/public/hc')).body.code).toBe('SERVICE_UNAVAILABLE');
  });

  it(choice('attribute-errors'), async () => {
    const bad = spvBody({
      currency: 'eur',
      shareClasses: [{ name: 'A', managementFeePercent: '2', carryPercent: '200' }],
    });
    const [def, alt] = await each((s) =>
      s.call('POST', '/v1/spv-requests', { token: s.token, headers: idem(), json: bad }),
    );
    expect([def.status, alt.status]).toEqual([400, 400]);
    expect([def.body.code, alt.body.code]).toEqual([
      'contract_validation_failed',
      'CONTRACT_VALIDATION_ERROR',
    ]);
    const pairs = (body: { validationErrors: Array<{ attribute: string; code: string }> }) =>
      body.validationErrors.map((e) => [e.attribute, e.code]);
    expect(pairs(def.body)).toEqual([
      ['currency', 'invalid_format'],
      ['shareClasses[0].carryPercent', 'invalid_value'],
    ]);
    expect(pairs(alt.body)).toEqual([
      ['currency', 'string_pattern_mismatch'],
      ['shareClasses.0.carryPercent', 'value_error'],
    ]);
  });

  it(choice('www-authenticate'), async () => {
    const [def, alt] = await each((s) => s.call('GET', '/v1/oauth2/info', { token: 'pe_at_unknown' }));
    expect([def.status, alt.status]).toEqual([401, 401]);
    expect(def.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="/);
    expect(alt.headers.get('www-authenticate')).toBe('Bearer');
  });

  it(choice('unknown-route'), async () => {
    const [defUnknown, altUnknown] = await each((s) => s.call('GET', '/v1/nothing-here'));
    expect(defUnknown.status).toBe(404);
    expect(defUnknown.body).toMatchObject({ code: 'not_found', validationErrors: [] });
    expect([altUnknown.status, altUnknown.body]).toEqual([404, { detail: 'Not Found' }]);
    const [defMethod, altMethod] = await each((s) =>
      s.call('PATCH', '/v1/spv-requests/spvr_1', { token: s.token }),
    );
    expect([defMethod.status, defMethod.body.code]).toEqual([404, 'not_found']);
    expect([altMethod.status, altMethod.body]).toEqual([405, { detail: 'Method Not Allowed' }]);
    expect(altMethod.headers.get('allow')).toBe('GET, DELETE');
  });

  it(choice('json-body-limit'), async () => {
    const big = spvBody({ padding: 'x'.repeat(3 * 1024 * 1024) });
    const [def, alt] = await each((s) =>
      s.call('POST', '/v1/spv-requests', { token: s.token, headers: idem(), json: big }),
    );
    expect(def.status).not.toBe(413); // under 5 MiB: reaches validation (400: unknown attribute)
    expect([alt.status, alt.body.code]).toEqual([413, 'REQUEST_TOO_LARGE']);
  });
});

describe('alternate profile: token exchange', () => {
  it(choice('assertion-algorithms'), async () => {
    const [def, alt] = await each((s) => exchange(s, { header: { alg: 'Ed25519' } }));
    expect([def.status, alt.status]).toEqual([201, 401]);
    expect(alt.body.code).toBe('ASSERTION_ALGORITHM_NOT_ALLOWED');
  });

  it(choice('assertion-audience'), async () => {
    const [def, alt] = await each((s) => exchange(s, { claims: { aud: [s.partner.baseUrl] } }));
    expect([def.status, alt.status]).toEqual([201, 401]);
    expect(alt.body.code).toBe('ASSERTION_AUDIENCE_INVALID');
  });

  it(choice('clock-skew'), async () => {
    const ahead = (seconds: number) => (s: Started) => {
      const iat = Math.floor(s.fake.clock.now() / 1000) + seconds;
      return exchange(s, { claims: { iat, exp: iat + 60 } });
    };
    expect((await each(ahead(8))).map((r) => r.status)).toEqual([401, 201]);
    expect((await each(ahead(12))).map((r) => r.status)).toEqual([401, 401]);
  });

  it(choice('assertion-lifetime'), async () => {
    const lifetime = (seconds: number) => (s: Started) => {
      const iat = Math.floor(s.fake.clock.now() / 1000);
      return exchange(s, { claims: { iat, exp: iat + seconds } });
    };
    expect((await each(lifetime(60))).map((r) => r.status)).toEqual([201, 201]);
    expect((await each(lifetime(61))).map((r) => r.status)).toEqual([201, 401]);
    expect((await each(lifetime(301))).map((r) => r.status)).toEqual([401, 401]);
  });
});

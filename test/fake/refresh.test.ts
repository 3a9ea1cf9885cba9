import { afterEach, describe, expect, it } from 'vitest';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import { TokenResponse } from '../../src/testing/wire/index.js';
import { http, idem, login, spvBody, startFake } from './helpers.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

const refresh = (call: ReturnType<typeof http>, refreshToken: string) =>
  call('POST', '/v1/oauth2/tokens', { form: { grant_type: 'refresh_token', refresh_token: refreshToken } });

describe('refresh grant', () => {
  it('rotates: each refresh returns a new pair and the previous refresh token stops working', async () => {
    const started = await startFake();
    fake = started.fake;
    const first = await login(fake, started.partner);
    const second = await refresh(started.call, first.refreshToken);
    expect(second.status).toBe(201);
    const pair = TokenResponse.parse(second.body);
    expect(pair.refreshToken).not.toBe(first.refreshToken);
    expect(pair.accessToken).not.toBe(first.accessToken);
    expect((await started.call('GET', '/v1/oauth2/info', { token: pair.accessToken })).status).toBe(200);
    expect(fake.tokenRequests.filter((r) => r.grantType === 'refresh_token')).toEqual([
      expect.objectContaining({ refreshToken: first.refreshToken, status: 201 }),
    ]);
  });

  it('a reused refresh token is 401 and revokes the whole chain, access tokens included; other chains live on', async () => {
    const started = await startFake();
    fake = started.fake;
    const { call, partner } = started;
    const chain = await login(fake, partner);
    const other = await login(fake, partner);
    const rotated = (await refresh(call, chain.refreshToken)).body;
    const reuse = await refresh(call, chain.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('refresh_token_reused');
    for (const token of [chain.accessToken, rotated.accessToken]) {
      const denied = await call('GET', '/v1/oauth2/info', { token });
      expect(denied.status).toBe(401);
      expect(denied.body.code).toBe('token_revoked');
    }
    expect((await refresh(call, rotated.refreshToken)).body.code).toBe('token_revoked');
    expect((await call('GET', '/v1/oauth2/info', { token: other.accessToken })).status).toBe(200);
    expect((await refresh(call, other.refreshToken)).status).toBe(201);
  });

  it('401 for an unknown or expired refresh token; 422 without one', async () => {
    const started = await startFake();
    fake = started.fake;
    expect((await refresh(started.call, 'pe_rt_unknown')).body.code).toBe('invalid_refresh_token');
    const pair = await login(fake, started.partner);
    await fake.clock.advance(2_592_000_000);
    const expired = await refresh(started.call, pair.refreshToken);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('refresh_token_expired');
    const missing = await started.call('POST', '/v1/oauth2/tokens', {
      form: { grant_type: 'refresh_token' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'refresh_token']);
  });

  it('admin.revokeTokens makes the next call 401', async () => {
    const started = await startFake();
    fake = started.fake;
    fake.admin.revokeTokens(started.partner.clientId);
    expect((await started.call('GET', '/v1/spv-requests', { token: started.token })).body.code).toBe(
      'token_revoked',
    );
  });
});

describe('provisioning', () => {
  it('an unprovisioned client gets tokens and token info, but 403 on every partner endpoint', async () => {
    const started = await startFake();
    fake = started.fake;
    const outsider = await fake.createPartner({ provisioned: false });
    const { accessToken: token } = await login(fake, outsider);
    const call = http(outsider.baseUrl);
    expect((await call('GET', '/v1/oauth2/info', { token })).status).toBe(200);
    const attempts = [
      call('GET', '/v1/spv-requests', { token }),
      call('POST', '/v1/spv-requests', { token, headers: idem(), json: spvBody() }),
      call('GET', '/v1/spv-requests/spvr_x', { token }),
      call('DELETE', '/v1/spv-requests/spvr_x', { token }),
      call('POST', '/v1/investors', { token, json: { investors: [] } }),
      call('POST', '/v1/spvs/spv_x/subscriptions', { token, json: { subscriptions: [] } }),
      call('POST', '/v1/spvs/spv_x/subscription/per_x/forms', { token, body: new FormData() }),
      call('POST', '/v1/spvs/spv_x/subscription/per_x/fundings', { token, body: new FormData() }),
    ];
    for (const reply of await Promise.all(attempts)) {
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe('not_provisioned');
    }
    expect(fake.admin.snapshot().spvRequests).toEqual([]);
    fake.admin.setProvisioned(outsider.clientId, true);
    expect((await call('GET', '/v1/spv-requests', { token })).status).toBe(200);
  });
});

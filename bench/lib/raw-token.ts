import { randomUUID } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { request } from 'undici';
import type { FakePartnerCredentials } from '../../src/testing/index.js';
import type { CapturedResponse } from '../server/protocol.js';

/**
 * An access token obtained the way a hand-written client would: sign an EdDSA assertion with jose, post
 * the JWT grant with undici, read `accessToken`. The raw contenders use it so they pay no auth cost per
 * request, exactly like the SDK once its token is cached.
 */
export async function rawAccessToken(partner: FakePartnerCredentials): Promise<string> {
  return (JSON.parse((await rawTokenResponse(partner)).body) as { accessToken: string }).accessToken;
}

/** The whole 201 token response of a hand-made JWT grant (for the replay server to answer with). */
export async function rawTokenResponse(partner: FakePartnerCredentials): Promise<CapturedResponse> {
  const key = await importPKCS8(partner.privateKey, 'EdDSA');
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ client_id: partner.clientId })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setIssuer(partner.issuer)
    .setSubject(partner.clientId)
    .setAudience(partner.baseUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .setJti(randomUUID())
    .sign(key);
  const response = await request(new URL('/v1/oauth2/tokens', partner.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion,
    }).toString(),
  });
  const body = await response.body.text();
  if (response.statusCode !== 201) throw new Error(`token exchange answered ${response.statusCode}: ${body}`);
  const contentType = response.headers['content-type'];
  return {
    status: 201,
    headers: typeof contentType === 'string' ? { 'content-type': contentType } : {},
    body,
  };
}

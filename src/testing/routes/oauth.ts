import type { z } from 'zod';
import { verifyAssertion } from '../auth/verify-assertion.js';
import { HttpProblem, unprocessable, unprocessableAt } from '../http-problem.js';
import type { FakeProfile } from '../profiles/fake-profile.js';
import { readUrlEncoded } from '../read-body.js';
import { clientOf, defineRoute, json, type Route, type RouteContext } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import { iso } from '../state/resources.js';
import {
  JWT_BEARER_GRANT_TYPE,
  JwtBearerGrant,
  RefreshTokenGrant,
  type TokenRequest,
} from '../wire/oauth.js';
import { toValidationProblems } from '../zod-issues.js';

// The server accepts extra form fields (some OAuth clients add client_id); the SDK's own schemas are strict.
const grants: Record<string, z.ZodType<z.infer<typeof TokenRequest>>> = {
  [JWT_BEARER_GRANT_TYPE]: JwtBearerGrant.loose(),
  refresh_token: RefreshTokenGrant.loose(),
};

type Grant = { kind: 'jwt'; clientId: string } | { kind: 'refresh'; refreshToken: string };

function record(
  ctx: RouteContext,
  grantType: string,
  status: number,
  extra: { refreshToken?: string; clientId?: string; code?: string },
) {
  ctx.services.recordTokenRequest({ grantType, status, at: ctx.services.now(), ...extra });
}

async function parseGrant(ctx: RouteContext): Promise<Grant> {
  const { settings } = ctx.services;
  const fields = await readUrlEncoded(ctx.request, settings.maxJsonBodyBytes);
  const grantType = fields['grant_type'] ?? '';
  const schema = grants[grantType];
  if (schema === undefined) {
    record(ctx, grantType, 422, { code: 'validation_failed' });
    throw grantType === ''
      ? unprocessableAt(['body', 'grant_type'], 'Field required', 'missing')
      : unprocessableAt(['body', 'grant_type'], 'Unsupported grant_type', 'literal_error');
  }
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    record(ctx, grantType, 422, { code: 'validation_failed' });
    throw unprocessable(toValidationProblems(parsed.error, fields, ['body']));
  }
  if (parsed.data.grant_type === 'refresh_token')
    return { kind: 'refresh', refreshToken: parsed.data.refresh_token };
  const assertion = parsed.data.assertion;
  let sub: string | undefined;
  try {
    const payload = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub?: unknown;
    };
    sub = typeof payload.sub === 'string' ? payload.sub : undefined;
  } catch {
    sub = undefined;
  }
  try {
    const client = await verifyAssertion(assertion, {
      algorithms: ctx.services.profile.accept.assertionAlgorithms,
      audienceArray: ctx.services.profile.accept.audienceArray,
      clients: ctx.services.clients,
      audience: ctx.origin,
      nowSeconds: ctx.services.now() / 1000,
      skewSeconds: settings.skewSeconds,
      maxLifetimeSeconds: settings.maxAssertionLifetimeSeconds,
      remember: (id, expiresAt) => ctx.services.rememberAssertion(id, expiresAt),
    });
    return { kind: 'jwt', clientId: client.clientId };
  } catch (error) {
    if (error instanceof HttpProblem)
      record(ctx, JWT_BEARER_GRANT_TYPE, error.status, {
        code: error.code,
        ...(sub === undefined ? {} : { clientId: sub }),
      });
    throw error;
  }
}

/** `POST /v1/oauth2/tokens` and `GET /v1/oauth2/info`. */
export const oauthRoutes = ({ schemas, present }: FakeProfile): Route[] => [
  defineRoute<Grant>({
    method: 'POST',
    path: '/v1/oauth2/tokens',
    auth: 'none',
    doc: {
      operationId: 'createToken',
      summary: 'Exchange a JWT assertion or a refresh token for tokens',
      tag: 'Authentication',
      body: { contentType: 'application/x-www-form-urlencoded', schema: schemas.TokenRequest },
      responses: {
        ...ok(201, 'Token response', schemas.TokenResponse),
        ...errorResponses(schemas, 401, 422),
      },
    },
    parse: parseGrant,
    run: (ctx, grant) => {
      const headers = { 'cache-control': 'no-store', pragma: 'no-cache' };
      if (grant.kind === 'jwt') {
        record(ctx, JWT_BEARER_GRANT_TYPE, 201, { clientId: grant.clientId });
        return json(201, ctx.services.tokens.issue(grant.clientId), headers);
      }
      try {
        const tokens = ctx.services.tokens.refresh(grant.refreshToken);
        record(ctx, 'refresh_token', 201, { refreshToken: grant.refreshToken });
        return json(201, tokens, headers);
      } catch (error) {
        if (error instanceof HttpProblem)
          record(ctx, 'refresh_token', error.status, { refreshToken: grant.refreshToken, code: error.code });
        throw error;
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/oauth2/info',
    auth: 'bearer',
    doc: {
      operationId: 'getTokenInfo',
      summary: 'Describe the presented access token',
      tag: 'Authentication',
      responses: { ...ok(200, 'Token info', schemas.TokenInfo), ...errorResponses(schemas, 401) },
    },
    run: (ctx) => {
      const client = clientOf(ctx);
      const token = ctx.token!;
      return json(
        200,
        present.tokenInfo({
          clientId: client.clientId,
          clientType: 'partner',
          applicationName: client.applicationName,
          issuedAt: iso(token.issuedAt),
          expiresAt: iso(token.expiresAt),
        }),
      );
    },
  }),
];

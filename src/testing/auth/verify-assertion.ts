import { createHash } from 'node:crypto';
import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import { unauthorized } from '../http-problem.js';
import type { ClientRegistry, RegisteredClient } from './client-registry.js';

/** What the fake checks an assertion against. */
export interface AssertionPolicy {
  /** Accepted JWS `alg` values (the profile's choice: `EdDSA`, and maybe RFC 9864's `Ed25519`). */
  algorithms: readonly string[];
  /** Whether a one-element `aud` array counts as its string. */
  audienceArray: boolean;
  clients: ClientRegistry;
  /** The base URL the request was addressed to: `aud` must equal it exactly. */
  audience: string;
  /** The server's time in seconds. */
  nowSeconds: number;
  skewSeconds: number;
  maxLifetimeSeconds: number;
  /** Remembers an assertion id until `expiresAt` (seconds); returns false when it was already seen. */
  remember(id: string, expiresAt: number): boolean;
}

function decode(assertion: string): JWTPayload {
  try {
    decodeProtectedHeader(assertion);
    return decodeJwt(assertion);
  } catch {
    throw unauthorized('invalid_assertion', 'The assertion is not a well-formed JWS compact JWT');
  }
}

/**
 * Verifies a JWT-bearer assertion the way the spec describes, for real: EdDSA only, signature by the
 * registered key, `sub == client_id`, `iss` registered, `aud` exactly the base URL, `iat` within the skew
 * of the server's time (either way), `exp` not past, `exp - iat` at most the maximum lifetime, no replay.
 * Each failure is a 401 with its own `code`.
 */
export async function verifyAssertion(assertion: string, policy: AssertionPolicy): Promise<RegisteredClient> {
  const claims = decode(assertion);
  const { alg } = decodeProtectedHeader(assertion);
  if (alg === undefined || !policy.algorithms.includes(alg)) {
    throw unauthorized('unsupported_algorithm', `Assertions must be signed with EdDSA, not ${String(alg)}`);
  }
  const clientIdClaim = claims['client_id'];
  if (typeof claims.sub !== 'string' || typeof clientIdClaim !== 'string') {
    throw unauthorized('invalid_assertion', 'The assertion needs string sub and client_id claims');
  }
  if (claims.sub !== clientIdClaim) {
    throw unauthorized('client_id_mismatch', 'The sub claim must equal the client_id claim');
  }
  const client = policy.clients.get(claims.sub);
  if (client === undefined)
    throw unauthorized('unknown_client', 'No client is registered under this client_id');
  try {
    await compactVerify(assertion, client.publicKey, { algorithms: [...policy.algorithms] });
  } catch {
    // The usual cause in the fake: a key of your own signing for a client registered with another key
    // (the mock's printed client, say). Name the way out.
    throw unauthorized(
      'invalid_signature',
      `The signature does not verify with the key registered for ${client.clientId}: sign with that key's ` +
        'private half, or register your public key (fake.admin.registerClient, partner-equity mock --public-key)',
    );
  }
  const aud =
    policy.audienceArray && Array.isArray(claims.aud) && claims.aud.length === 1 ? claims.aud[0] : claims.aud;
  if (aud !== policy.audience) {
    throw unauthorized('invalid_audience', `The aud claim must be exactly ${policy.audience}`);
  }
  if (claims.iss !== client.issuer) {
    throw unauthorized(
      'invalid_issuer',
      'The iss claim does not match the issuer registered for this client',
    );
  }
  checkTimes(claims, policy);
  const replayId = typeof claims.jti === 'string' ? `jti:${claims.jti}` : `jwt:${sha256(assertion)}`;
  if (!policy.remember(`${client.clientId}:${replayId}`, (claims.exp ?? 0) + policy.skewSeconds)) {
    throw unauthorized('assertion_replayed', 'This assertion (jti) has already been used');
  }
  return client;
}

function checkTimes(claims: JWTPayload, policy: AssertionPolicy): void {
  const { iat, exp, nbf } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isFinite(iat) || !Number.isFinite(exp)) {
    throw unauthorized('invalid_assertion', 'The assertion needs numeric iat and exp claims (Unix seconds)');
  }
  const now = policy.nowSeconds;
  const serverTime = `server time is ${now.toFixed(0)}`;
  if (iat > now + policy.skewSeconds || (typeof nbf === 'number' && nbf > now + policy.skewSeconds)) {
    throw unauthorized(
      'assertion_not_yet_valid',
      `iat ${iat} is in the future (${serverTime}); check the clock`,
    );
  }
  // iat must be fresh too: a server clock ahead of the client's shows up here, and the client can correct
  // it from the response's Date header.
  if (iat < now - policy.skewSeconds) {
    throw unauthorized(
      'assertion_expired',
      `iat ${iat} is too far in the past (${serverTime}); check the clock`,
    );
  }
  if (exp <= now - policy.skewSeconds) {
    throw unauthorized('assertion_expired', `exp ${exp} has passed (${serverTime}); check the clock`);
  }
  if (exp <= iat) throw unauthorized('invalid_assertion', 'exp must be after iat');
  if (exp - iat > policy.maxLifetimeSeconds) {
    throw unauthorized(
      'assertion_lifetime_too_long',
      `exp - iat must be at most ${policy.maxLifetimeSeconds} seconds (60 is recommended)`,
    );
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

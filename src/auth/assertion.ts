import { randomUUID } from 'node:crypto';
import { PartnerEquityError } from '../core/errors/errors.js';
import type { AssertionAlgorithm, AssertionClaims, AssertionHeader, Signer } from './signer.js';
import { SigningKey } from './signing-key.js';

/** Lifetime of every assertion, in seconds: the API recommends 60. */
export const ASSERTION_LIFETIME_SECONDS = 60;

/** Who the assertions speak for, fixed when the client is built. */
export interface AssertionIdentity {
  /** `iss`: the partner's own API base URL. */
  issuer: string;
  /** `sub` and `client_id`. */
  clientId: string;
  /** `aud`: exactly the configured `baseUrl`, byte for byte (no trailing-slash normalisation). */
  audience: string;
  /** `kid` header, when the partner registered the key under an id. */
  keyId?: string | undefined;
  /** @default 'EdDSA' */
  algorithm?: AssertionAlgorithm | undefined;
}

/** The header for `identity`'s assertions. */
export function assertionHeader(identity: AssertionIdentity): AssertionHeader {
  const header: AssertionHeader = { alg: identity.algorithm ?? 'EdDSA', typ: 'JWT' };
  if (identity.keyId !== undefined) header.kid = identity.keyId;
  return header;
}

/**
 * The claims of one assertion issued at `nowMs` (already corrected by the learned server offset).
 * `iat` and `exp` are absolute integer seconds; `jti` is a fresh random UUID.
 */
export function assertionClaims(identity: AssertionIdentity, nowMs: number): AssertionClaims {
  const iat = Math.floor(nowMs / 1000);
  return {
    iss: identity.issuer,
    sub: identity.clientId,
    aud: identity.audience,
    client_id: identity.clientId,
    iat,
    exp: iat + ASSERTION_LIFETIME_SECONDS,
    jti: randomUUID(),
  };
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Builds and signs one client assertion with an imported key or the partner's {@link Signer}.
 * A signer that throws or returns something other than a compact JWS with the expected `alg` is reported as
 * a `PartnerEquityError` with code `signer_error` (its own error kept as `cause`).
 */
export async function createAssertion(
  sign: SigningKey | Signer,
  identity: AssertionIdentity,
  nowMs: number,
): Promise<string> {
  const header = assertionHeader(identity);
  const claims = assertionClaims(identity, nowMs);
  if (sign instanceof SigningKey) {
    return sign.signCompact({ ...header }, new TextEncoder().encode(JSON.stringify(claims)));
  }
  let jwt: unknown;
  try {
    jwt = await sign(claims, header);
  } catch (cause) {
    throw new PartnerEquityError('The `signer` callback failed (see `cause`)', 'signer_error', { cause });
  }
  if (typeof jwt !== 'string' || !COMPACT_JWS.test(jwt)) {
    throw new PartnerEquityError('The `signer` callback must return a compact JWS string', 'signer_error');
  }
  if (signedAlgorithm(jwt) !== header.alg) {
    throw new PartnerEquityError(
      `The \`signer\` callback must sign with the header it was given (alg "${header.alg}")`,
      'signer_error',
    );
  }
  return jwt;
}

function signedAlgorithm(jwt: string): unknown {
  try {
    const header: unknown = JSON.parse(
      Buffer.from(jwt.slice(0, jwt.indexOf('.')), 'base64url').toString('utf8'),
    );
    return typeof header === 'object' && header !== null ? (header as { alg?: unknown }).alg : undefined;
  } catch {
    return undefined;
  }
}

import type { AssertionIdentity } from '../auth/assertion.js';
import { isRecord } from '../core/is-record.js';

/** The readable parts of a compact JWS (never the signature): what the service will check. */
export interface AssertionFacts {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

function part(segment: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8'));
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

/** Decodes the header and claims of `jwt` (no verification: it is ours, about to be sent). */
export function decodeAssertion(jwt: string): AssertionFacts {
  const [header, claims] = jwt.split('.');
  return { header: part(header), claims: part(claims) };
}

/** The claims and header as one line, for the report (an assertion's claims are not secret; it is). */
export function describeAssertion({ header, claims }: AssertionFacts): string {
  const shown = [
    ['alg', header['alg']],
    ['kid', header['kid']],
    ['iss', claims['iss']],
    ['sub', claims['sub']],
    ['client_id', claims['client_id']],
    ['aud', claims['aud']],
    ['iat', claims['iat']],
    ['exp', claims['exp']],
  ].filter(([, value]) => value !== undefined);
  return `assertion: ${shown.map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(' ')}`;
}

/**
 * What is wrong with the assertion before the service sees it: a `signer` callback may sign other claims
 * than the SDK gave it. Each problem is one sentence.
 */
export function assertionProblems(facts: AssertionFacts, identity: AssertionIdentity): string[] {
  const { header, claims } = facts;
  const problems: string[] = [];
  const expectedAlg = identity.algorithm ?? 'EdDSA';
  if (header['alg'] !== expectedAlg) {
    problems.push(`it is signed with alg ${JSON.stringify(header['alg'])}; the service accepts EdDSA only`);
  }
  if (claims['sub'] !== claims['client_id']) {
    problems.push(
      `its sub (${JSON.stringify(claims['sub'])}) differs from its client_id (${JSON.stringify(claims['client_id'])}); the service requires them equal`,
    );
  } else if (claims['sub'] !== identity.clientId) {
    problems.push(
      `its sub and client_id are ${JSON.stringify(claims['sub'])}, not the configured clientId ${JSON.stringify(identity.clientId)}`,
    );
  }
  if (claims['aud'] !== identity.audience) {
    problems.push(
      `its aud is ${JSON.stringify(claims['aud'])}; it must be exactly the base URL ${JSON.stringify(identity.audience)}`,
    );
  }
  if (claims['iss'] !== identity.issuer) {
    problems.push(
      `its iss is ${JSON.stringify(claims['iss'])}, not the configured issuer ${JSON.stringify(identity.issuer)}`,
    );
  }
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number')
    problems.push('it lacks numeric iat and exp claims');
  else if (exp - iat > 60)
    problems.push(`it lives ${exp - iat} s (exp - iat); the service recommends 60 s and may refuse more`);
  return problems;
}

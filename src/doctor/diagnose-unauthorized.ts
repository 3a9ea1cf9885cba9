import type { AssertionIdentity } from '../auth/assertion.js';
import { type AssertionFacts, describeAssertion } from './assertion-facts.js';
import type { ProbeAnswer } from './http-probe.js';

/** One more token exchange with a fresh assertion, its time or audience changed. */
export type Exchange = (change: { nowMs?: number; audience?: string }) => Promise<ProbeAnswer>;

/** What the diagnosis concluded. */
export interface Diagnosis {
  status: 'fails' | 'differs';
  explanation: string;
  fix: string;
  details: string[];
  /** A probe's 2xx answer (the token body), when one got through. */
  issued?: ProbeAnswer | undefined;
}

const CLOCK_TOLERANCE_MS = 2000;
const succeeded = (answer: ProbeAnswer) => answer.status >= 200 && answer.status < 300;

/** The service's words, one line, capped (already redacted by the SDK). */
export function quoteAnswer(answer: ProbeAnswer): string {
  const detail = answer.detail === undefined ? '' : ` "${answer.detail.slice(0, 300)}"`;
  const code = answer.code === undefined ? '' : ` (code ${answer.code})`;
  return `${answer.status}${detail}${code}`;
}

const said = (answer: ProbeAnswer) => `${answer.code ?? ''} ${answer.detail ?? ''}`.replaceAll('_', ' ');
const WORDS = {
  audience: /\baud(ience)?\b/i,
  subject: /\b(sub|subject)\b[^.]*\b(client ?id|match|equal|differ)|client ?id mismatch|subject mismatch/i,
  client:
    /no client|unknown client|client unknown|client[^.]{0,20}not (found|registered)|unregistered client/i,
  key: /signature|public key|\bkey\b|\bkid\b|verif/i,
  clock: /\b(iat|exp|nbf|clock|skew|expired|not yet valid|future|past)\b/i,
  issuer: /\b(iss|issuer)\b/i,
  algorithm: /\b(alg|algorithm)\b/i,
  replay: /replay|\bjti\b|already (been )?used/i,
};

/** The base URL written the other ways a registration may hold it. */
function audienceVariants(baseUrl: string): string[] {
  const out = new Set<string>();
  out.add(baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : `${baseUrl}/`);
  if (URL.canParse(baseUrl)) {
    const { origin, pathname } = new URL(baseUrl);
    if (pathname !== '/' && pathname !== '') out.add(origin);
  }
  out.delete(baseUrl);
  return [...out];
}

/**
 * Why the token endpoint refused the assertion (401, or an OAuth 400 `invalid_grant`), in words: first what the assertion itself shows (claims a signer
 * changed), then the clock (the `Date` header, confirmed by an assertion dated by the server's clock), then
 * the service's own words, with the audience confirmed by assertions for the other spellings of the base
 * URL. Every probe is one more token exchange: nothing else is called.
 */
export async function diagnoseUnauthorized(input: {
  answer: ProbeAnswer;
  facts: AssertionFacts;
  identity: AssertionIdentity;
  localProblems: string[];
  exchange: Exchange;
  now: () => number;
}): Promise<Diagnosis> {
  const { answer, facts, identity, exchange } = input;
  const details = [`the token endpoint answered ${quoteAnswer(answer)}`, describeAssertion(facts)];
  const offset = answer.clockOffsetMs;
  if (offset !== undefined) {
    const seconds = Math.round(Math.abs(offset) / 1000);
    details.push(
      seconds === 0
        ? "clock: this machine's agrees with the service's (Date header)"
        : `clock: this machine's is ${seconds} s ${offset > 0 ? 'behind' : 'ahead of'} the service's (Date header)`,
    );
  }
  const diagnosis = (
    status: Diagnosis['status'],
    explanation: string,
    fix: string,
    issued?: ProbeAnswer,
  ): Diagnosis => ({
    status,
    explanation,
    fix,
    details,
    issued,
  });

  if (input.localProblems.length > 0) {
    return diagnosis(
      'fails',
      `the assertion is wrong before it is sent: ${input.localProblems.join('; ')}`,
      'A `signer` must sign the header and claims the SDK gives it unchanged (sub = client_id = clientId, aud = baseUrl, EdDSA)',
    );
  }
  const words = said(answer);
  if (offset !== undefined && Math.abs(offset) > CLOCK_TOLERANCE_MS) {
    const retry = await exchange({ nowMs: input.now() + offset });
    details.push(`probe: an assertion dated by the service's clock → ${quoteAnswer(retry)}`);
    const seconds = Math.round(Math.abs(offset) / 1000);
    const side = offset > 0 ? 'behind' : 'ahead of';
    if (succeeded(retry)) {
      return diagnosis(
        'differs',
        `clock skew: this machine's clock is ${seconds} s ${side} the service's, so its assertion's iat/exp were refused; dated by the service's clock it passed (the SDK does this itself, one refused exchange later)`,
        "Synchronise this machine's clock with NTP",
        retry,
      );
    }
    if (WORDS.clock.test(words)) {
      return diagnosis(
        'fails',
        `clock skew: this machine's clock is ${seconds} s ${side} the service's, and the service refused the assertion's times`,
        "Synchronise this machine's clock with NTP",
      );
    }
  }
  if (WORDS.subject.test(words)) {
    return diagnosis(
      'fails',
      "the service refused the assertion's sub / client_id: they must both be the client id",
      'Sign the claims the SDK builds unchanged (a signer that sets its own sub breaks this)',
    );
  }
  if (WORDS.client.test(words)) {
    return diagnosis(
      'fails',
      `the service knows no client ${JSON.stringify(identity.clientId)} in this environment`,
      'Check clientId (PE_CLIENT_ID): sandbox and production register clients separately',
    );
  }
  if (WORDS.audience.test(words) || !Object.values(WORDS).some((pattern) => pattern.test(words))) {
    for (const audience of audienceVariants(identity.audience)) {
      const retry = await exchange({ audience });
      details.push(`probe: aud ${JSON.stringify(audience)} → ${quoteAnswer(retry)}`);
      if (succeeded(retry)) {
        return diagnosis(
          'fails',
          `wrong aud: the service takes aud ${JSON.stringify(audience)}, and the SDK sends the base URL ${JSON.stringify(identity.audience)} as aud`,
          `Set baseUrl to ${audience} (exactly: the SDK sends it as the JWT aud)`,
        );
      }
    }
    if (WORDS.audience.test(words)) {
      return diagnosis(
        'fails',
        `wrong aud: the service wants the aud claim to be exactly its base URL, and this client sends ${JSON.stringify(identity.audience)}`,
        "Use the environment's base URL exactly as the service gives it (scheme, host, port, path): the sandbox's for the sandbox, production's for production",
      );
    }
  }
  if (WORDS.key.test(words)) {
    const kid =
      identity.keyId === undefined ? '' : ` (or the kid ${JSON.stringify(identity.keyId)} names another key)`;
    return diagnosis(
      'fails',
      `unknown key: the service does not verify the assertion with the key it holds for ${identity.clientId}: this private key is not the registered one${kid}`,
      "Register this key's public half with the service (`partner-equity keys generate` makes a pair), or use the private key whose public half is registered",
    );
  }
  if (WORDS.clock.test(words)) {
    return diagnosis(
      'fails',
      "the service refused the assertion's iat/exp although the clocks agree within 2 s",
      'Use the SDK-built claims (exp = iat + 60); a signer must not set its own times',
    );
  }
  if (WORDS.issuer.test(words)) {
    return diagnosis(
      'fails',
      `the service refused the iss claim ${JSON.stringify(identity.issuer)}`,
      'Set issuer (PE_ISSUER) to the URL registered for this client',
    );
  }
  if (WORDS.algorithm.test(words)) {
    return diagnosis(
      'fails',
      'the service refused the signing algorithm',
      "Sign with EdDSA (Ed25519 keys); leave assertionAlgorithm at 'EdDSA'",
    );
  }
  return diagnosis(
    'fails',
    'the service refused the assertion (401) without a recognisable reason',
    'Check, in this order: clientId and its registered public key, issuer, and that baseUrl is exactly the environment URL (the aud)',
  );
}

import { createAssertion } from '../auth/assertion.js';
import { tokenResponseSchema } from '../auth/token-response.js';
import { OPERATIONS } from '../resources/operations.js';
import { JWT_BEARER_GRANT_TYPE } from '../schemas/oauth.js';
import { assertionProblems, decodeAssertion, describeAssertion } from './assertion-facts.js';
import { diagnoseUnauthorized, quoteAnswer } from './diagnose-unauthorized.js';
import type { DoctorCheck } from './doctor-report.js';
import type { DoctorTarget } from './doctor-target.js';
import { type ProbeAnswer, probe } from './http-probe.js';

const TOKEN_PATH = OPERATIONS['oauth.token'].route;
const base = { id: 'token-exchange', group: 'authentication' as const, title: 'Token exchange' };

/** What the token check produced: its check, and a token for the checks after it. */
export interface TokenFacts {
  check: DoctorCheck;
  token?: string | undefined;
}

const notProvisioned = (clientId: string | undefined): Pick<DoctorCheck, 'explanation' | 'fix'> => ({
  explanation:
    'the service answered 403: this client is not provisioned for the partner API in this environment',
  fix: `Ask Partner Equity to enable the partner API for ${clientId ?? 'your client'} in this environment`,
});

/** Reads an issued token body the way the token manager does (always strictly). */
function issued(answer: ProbeAnswer, target: DoctorTarget, details: string[]): TokenFacts {
  const parsed = tokenResponseSchema.safeParse(answer.body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`,
    );
    return {
      check: {
        ...base,
        status: 'fails',
        explanation: `the token endpoint answered ${answer.status}, but its body breaks the token response the SDK needs: ${problems.join('; ')}`,
        fix: 'Tell the service team: the spec requires accessToken, tokenType Bearer and integer expiresIn',
        details,
      },
    };
  }
  const { accessToken, refreshToken, expiresIn } = parsed.data;
  target.requester.config.secrets?.add(accessToken);
  target.requester.config.secrets?.add(refreshToken);
  const refresh = refreshToken === undefined ? 'no refresh token' : 'a refresh token';
  return {
    token: accessToken,
    check: {
      ...base,
      status: 'ok',
      explanation: `an access token for ${expiresIn} s and ${refresh} issued`,
      details,
    },
  };
}

/**
 * The token exchange with the configured key, as the SDK makes it: on 401 the likely cause in words (and
 * the probes that back it), on 403 "not provisioned". A partner `authenticator` is asked for a token as is.
 */
export async function checkToken(target: DoctorTarget, signal?: AbortSignal): Promise<TokenFacts> {
  if (target.authenticator !== undefined && target.credentials === undefined) {
    try {
      const token = await target.authenticator.getToken(signal);
      return { token, check: { ...base, status: 'ok', explanation: 'your authenticator supplied a token' } };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { check: { ...base, status: 'fails', explanation: `your authenticator failed: ${message}` } };
    }
  }
  const credentials = target.credentials;
  if (credentials === undefined) {
    return {
      check: {
        ...base,
        status: 'skipped',
        explanation: 'no credentials: only the routes without a token were checked',
        fix: 'Give clientId, issuer and privateKey (PE_CLIENT_ID, PE_ISSUER, PE_PRIVATE_KEY_FILE) to check them',
      },
    };
  }
  const { clock, secrets } = target.requester.config;
  const exchange = async (change: { nowMs?: number; audience?: string }) => {
    const identity = {
      ...credentials.identity,
      ...(change.audience !== undefined && { audience: change.audience }),
    };
    const assertion = await createAssertion(credentials.sign, identity, change.nowMs ?? clock.now());
    secrets?.add(assertion);
    const form = { grant_type: JWT_BEARER_GRANT_TYPE, assertion };
    return {
      assertion,
      answer: await probe(target.requester, { method: 'POST', path: TOKEN_PATH, form, signal }),
    };
  };
  let first: Awaited<ReturnType<typeof exchange>>;
  try {
    first = await exchange({});
  } catch (error) {
    if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'signer_error') throw error;
    return {
      check: {
        ...base,
        status: 'fails',
        explanation: `no assertion: ${error.message}`,
        fix: 'Fix the `signer` callback: it must resolve with a compact JWS signed with the header it is given',
      },
    };
  }
  const facts = decodeAssertion(first.assertion);
  const localProblems = assertionProblems(facts, credentials.identity);
  const { answer } = first;
  if (answer.status >= 200 && answer.status < 300) {
    const details = [
      describeAssertion(facts),
      ...localProblems.map((problem) => `accepted although ${problem}`),
    ];
    return issued(answer, target, details);
  }
  // The spec answers 401; an OAuth server answers a refused assertion with 400 invalid_grant (RFC 7523).
  const refused =
    answer.status === 401 || (answer.status === 400 && /^invalid_(grant|client)$/.test(answer.code ?? ''));
  if (refused) {
    const diagnosis = await diagnoseUnauthorized({
      answer,
      facts,
      identity: credentials.identity,
      localProblems,
      exchange: async (change) => (await exchange(change)).answer,
      now: () => clock.now(),
    });
    const token = diagnosis.issued === undefined ? undefined : issued(diagnosis.issued, target, []).token;
    return {
      token,
      check: {
        ...base,
        status: diagnosis.status,
        explanation: diagnosis.explanation,
        fix: diagnosis.fix,
        details: diagnosis.details,
      },
    };
  }
  const details = [`the token endpoint answered ${quoteAnswer(answer)}`, describeAssertion(facts)];
  if (answer.status === 403) {
    return { check: { ...base, status: 'fails', ...notProvisioned(credentials.identity.clientId), details } };
  }
  return {
    check: {
      ...base,
      status: 'fails',
      explanation: `the token endpoint answered ${quoteAnswer(answer)}`,
      fix:
        answer.status >= 500
          ? 'The service failed: retry later, and quote the request id to the service team'
          : 'The service refused the form the SDK sends (grant_type, assertion): check the base URL points at the API',
      details,
    },
  };
}

export { notProvisioned };

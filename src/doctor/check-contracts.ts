import { OPERATIONS } from '../resources/operations.js';
import { quoteAnswer } from './diagnose-unauthorized.js';
import type { DoctorCheck } from './doctor-report.js';
import type { DoctorTarget } from './doctor-target.js';
import { probe } from './http-probe.js';

const PATH = OPERATIONS['contracts.versions'].route;
const ok2xx = (status: number) => status >= 200 && status < 300;

/**
 * `GET /v1/contracts` with and without a token: which one the service wants. The spec declares no security
 * requirement for contracts; the SDK sends its token there whenever the client has credentials.
 */
export async function checkContracts(
  target: DoctorTarget,
  token: string | undefined,
  signal?: AbortSignal,
): Promise<DoctorCheck> {
  const check = {
    id: 'contracts-auth',
    group: 'contracts' as const,
    title: 'Contracts with and without a token',
  };
  const anonymous = await probe(target.requester, { method: 'GET', path: PATH, signal });
  const details = [`without a token: ${quoteAnswer(anonymous)}`];
  if (token === undefined) {
    return ok2xx(anonymous.status)
      ? {
          ...check,
          status: 'ok',
          explanation: `open: GET ${PATH} answers ${anonymous.status} without a token`,
          details,
        }
      : {
          ...check,
          status: 'fails',
          explanation: `GET ${PATH} answers ${anonymous.status} without a token, and this client has none to send`,
          fix: 'Give the client credentials: this service wants a token on contracts too',
          details,
        };
  }
  const withToken = await probe(target.requester, { method: 'GET', path: PATH, token, signal });
  details.push(`with the token: ${quoteAnswer(withToken)}`);
  if (ok2xx(withToken.status) && ok2xx(anonymous.status)) {
    return {
      ...check,
      status: 'ok',
      explanation: 'open: answers with and without a token (the SDK sends its token anyway)',
      details,
    };
  }
  if (ok2xx(withToken.status)) {
    return {
      ...check,
      status: 'ok',
      explanation: `wants a token: ${anonymous.status} without one, ${withToken.status} with it; the SDK sends the client's token on contracts`,
      details,
    };
  }
  if (ok2xx(anonymous.status)) {
    return {
      ...check,
      status: 'fails',
      explanation: `answers without a token but refuses this client's (${withToken.status}), which the SDK always sends when it has credentials`,
      fix: 'Tell the service team; meanwhile read contracts with a PartnerEquity client built without credentials',
      details,
    };
  }
  return {
    ...check,
    status: 'fails',
    explanation: `GET ${PATH} fails with and without a token (${withToken.status} / ${anonymous.status})`,
    fix: 'Quote the request ids to the service team',
    details,
  };
}

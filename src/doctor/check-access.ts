import { isRecord } from '../core/is-record.js';
import { OPERATIONS } from '../resources/operations.js';
import { notProvisioned } from './check-token.js';
import { quoteAnswer } from './diagnose-unauthorized.js';
import type { DoctorCheck } from './doctor-report.js';
import type { DoctorTarget } from './doctor-target.js';
import { type ProbeAnswer, probe } from './http-probe.js';

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function refused(
  check: Omit<DoctorCheck, 'status' | 'explanation'>,
  answer: ProbeAnswer,
  clientId?: string,
): DoctorCheck {
  if (answer.status === 403) return { ...check, status: 'fails', ...notProvisioned(clientId) };
  return {
    ...check,
    status: 'fails',
    explanation: `answered ${quoteAnswer(answer)} with the token just issued`,
    fix:
      answer.status === 401
        ? 'The service issued a token it then refuses: quote the request id to the service team'
        : 'Quote the request id to the service team',
    details: answer.requestId === undefined ? undefined : [`request id: ${answer.requestId}`],
  };
}

/** `GET /v1/oauth2/info` with the token: whose token it is, and whether that is the configured client. */
async function tokenInfo(target: DoctorTarget, token: string, signal?: AbortSignal): Promise<DoctorCheck> {
  const check = { id: 'token-info', group: 'authentication' as const, title: 'Token info (oauth.info)' };
  const answer = await probe(target.requester, {
    method: 'GET',
    path: OPERATIONS['oauth.info'].route,
    token,
    signal,
  });
  const clientId = target.credentials?.identity.clientId;
  if (answer.status !== 200) return refused(check, answer, clientId);
  const body = record(answer.body);
  // The spec names the content but not the fields: the SDK's names first, then the RFC 7662 ones.
  const named = text(body['clientId']) ?? text(body['client_id']);
  const application = text(body['applicationName']) ?? text(body['application_name']);
  const about = `${named === undefined ? 'a client it does not name' : `client ${named}`}${application === undefined ? '' : ` (${application})`}`;
  if (named !== undefined && clientId !== undefined && named !== clientId) {
    return {
      ...check,
      status: 'differs',
      explanation: `the token is for ${about}, not the configured clientId ${clientId}`,
      fix: 'Check which client this key is registered to',
    };
  }
  return { ...check, status: 'ok', explanation: `the token is for ${about}` };
}

/** `GET /v1/spv-requests?perPage=1`: a read of a partner endpoint, which answers 403 when not provisioned. */
async function partnerAccess(
  target: DoctorTarget,
  token: string,
  signal?: AbortSignal,
): Promise<DoctorCheck> {
  const check = { id: 'partner-access', group: 'authentication' as const, title: 'Partner API access' };
  const path = OPERATIONS['spvRequests.list'].route;
  const answer = await probe(target.requester, {
    method: 'GET',
    path,
    query: { perPage: 1, page: 1 },
    token,
    signal,
  });
  if (answer.status !== 200) return refused(check, answer, target.credentials?.identity.clientId);
  const count = record(answer.body)['count'];
  const visible =
    typeof count === 'number' ? ` (${count} SPV request${count === 1 ? '' : 's'} of this client)` : '';
  return {
    ...check,
    status: 'ok',
    explanation: `GET ${path} answered 200: provisioned for the partner API${visible}`,
  };
}

/** With a token: `oauth.info` and one read of a partner endpoint. */
export async function checkAccess(
  target: DoctorTarget,
  token: string,
  signal?: AbortSignal,
): Promise<DoctorCheck[]> {
  return [await tokenInfo(target, token, signal), await partnerAccess(target, token, signal)];
}

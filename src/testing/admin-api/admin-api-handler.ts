import { type HttpHandler, http } from 'msw/http';
import { BodyTooLargeError, readBody, streamChunks } from '../../webhooks/read-body.js';
import type { FakeAdmin } from '../admin.js';
import type { FaultInjector } from '../fault-injector.js';
import type { RecordedRequest } from '../request-log.js';
import { FakeAdminError } from '../state/spv-request-lifecycle.js';
import { type AdminApiSettings, MAX_ADMIN_BODY_BYTES, refusal } from './admin-api-gate.js';
import { type AdminRequest, adminRoutes } from './admin-api-routes.js';
import { AdminInputError } from './list-filter.js';

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  // Indented: people read these answers in a terminal (curl), scripts parse them either way.
  return new Response(`${JSON.stringify(body, null, 2)}\n`, {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

const problem = (status: number, code: string, detail: string, headers?: Record<string, string>) =>
  reply(status, { code, detail }, headers);

/** The body as text; reading stops at the cap, and the 413 for it closes the connection. */
async function readText(request: Request): Promise<string> {
  if (request.body === null) return '';
  const bytes = await readBody(streamChunks(request.body), MAX_ADMIN_BODY_BYTES);
  return new TextDecoder().decode(bytes);
}

async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await readText(request);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AdminInputError('body: not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AdminInputError('body: expected a JSON object');
  }
  return body as Record<string, unknown>;
}

/** Turns what an admin action threw into the answer: 404 unknown record, 409 wrong state, 400 bad input. */
function failure(error: unknown): Response {
  if (error instanceof BodyTooLargeError) {
    return problem(413, 'payload_too_large', 'body: over 1 MiB', { connection: 'close' });
  }
  if (error instanceof FakeAdminError) {
    return error.code === 'not_found'
      ? problem(404, 'not_found', error.message)
      : problem(409, 'conflict', error.message);
  }
  if (error instanceof AdminInputError || error instanceof TypeError || error instanceof RangeError) {
    return problem(400, 'invalid_request', error.message);
  }
  throw error;
}

/** Answers one request under the prefix (the path after it is `rest`). */
async function answer(
  admin: FakeAdmin,
  faults: FaultInjector,
  requests: () => readonly RecordedRequest[],
  request: Request,
  settings: AdminApiSettings,
  rest: string,
): Promise<Response> {
  const refused = refusal(request, settings);
  if (refused !== undefined) {
    const close = refused.status === 413 ? { connection: 'close' } : {};
    const challenge = refused.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
    return problem(refused.status, refused.code, refused.detail, { ...close, ...challenge });
  }
  const { prefix } = settings;
  const url = new URL(request.url);
  if (rest === '' || rest === '/') {
    return reply(200, {
      routes: adminRoutes.map((r) => ({ method: r.method, path: `${prefix}${r.path}`, summary: r.summary })),
    });
  }
  const matching = adminRoutes.flatMap((route) => {
    const params = route.match(rest);
    return params === undefined ? [] : [{ route, params }];
  });
  if (matching.length === 0)
    return problem(404, 'not_found', `No admin route ${rest} (GET ${prefix} lists them)`);
  const found = matching.find(({ route }) => route.method === request.method);
  if (found === undefined) {
    const allow = matching.map(({ route }) => route.method).join(', ');
    return problem(405, 'method_not_allowed', `${request.method} is not allowed here (${allow})`, { allow });
  }
  const input: AdminRequest = {
    admin,
    faults,
    requests: requests(),
    url,
    headers: request.headers,
    params: found.params,
    body: () => readJsonBody(request),
  };
  try {
    const { status, body } = await found.route.handle(input);
    return reply(status, body);
  } catch (error) {
    return failure(error);
  }
}

/**
 * The admin API as one MSW handler: the back office's actions (approve, reject, cancel, complete, register
 * a client, list with counts and filters) as JSON over HTTP under `prefix`, on the fake's own origins only.
 * It never runs through the partner pipeline: no partner token, no fault injection, not in `fake.requests`;
 * its own gate ({@link refusal}) keeps browser pages and other machines out.
 */
export function createAdminApiHandler(
  admin: FakeAdmin,
  settings: AdminApiSettings,
  servesOrigin: (origin: string) => boolean,
  faults: FaultInjector,
  requests: () => readonly RecordedRequest[],
): HttpHandler {
  const { prefix } = settings;
  const restOf = (request: Request): string | undefined => {
    const url = new URL(request.url);
    if (!servesOrigin(url.origin)) return undefined;
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return undefined;
    return url.pathname.slice(prefix.length);
  };
  return http.all(
    ({ request }) => restOf(request) !== undefined,
    ({ request }) => answer(admin, faults, requests, request, settings, restOf(request) ?? ''),
  );
}

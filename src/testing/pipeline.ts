import type { RegisteredClient } from './auth/client-registry.js';
import type { AccessTokenRecord } from './auth/token-store.js';
import { capJsonBody } from './body-cap.js';
import type { FaultSpec } from './fault-injector.js';
import { fingerprint } from './fingerprint.js';
import { HttpProblem, unauthorized, unprocessableAt } from './http-problem.js';
import { IdempotencyStore } from './idempotency-store.js';
import type { RecordedRequest } from './request-log.js';
import type { RouteContext, RouteResult } from './route.js';
import type { RouteMatch } from './route-matcher.js';
import type { FakeServices } from './services.js';

// Path parameters: 1-128 URL-safe characters. Anything else is a 422 before any lookup.
const PARAM = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;
const KEY = /^[\x21-\x7e]{1,255}$/;

function faultCode(status: number): HttpProblem['code'] {
  if (status === 429) return 'rate_limited';
  if (status === 500) return 'internal_error';
  if (status === 502) return 'bad_gateway';
  if (status === 503) return 'service_unavailable';
  if (status === 504) return 'gateway_timeout';
  return 'injected_fault';
}

function faultProblem(fault: FaultSpec & { status: number }): HttpProblem {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.status === 422) {
    return new HttpProblem(422, 'injected_fault', 'Injected fault', {
      issues: [{ loc: ['body'], msg: 'Injected fault', type: 'injected_fault' }],
      headers,
    });
  }
  return new HttpProblem(fault.status, faultCode(fault.status), `Injected fault: HTTP ${fault.status}`, {
    headers,
  });
}

/** Waits `ms` of real time, or until the client goes away or the fake closes. */
function hold(ms: number, ...signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      if (timer !== undefined) clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    for (const signal of signals) {
      if (signal.aborted) return done();
      signal.addEventListener('abort', done, { once: true });
    }
  });
}

function toResponse(
  result: RouteResult,
  services: FakeServices,
  extra: Record<string, string> = {},
): Response {
  const headers = new Headers({
    date: new Date(services.now()).toUTCString(),
    'x-request-id': services.profile.present.requestId(),
    ...result.headers,
    ...extra,
  });
  if (result.raw !== undefined) {
    headers.set('content-type', result.raw.contentType);
    return new Response(result.raw.body as BodyInit, { status: result.status, headers });
  }
  if (result.json === undefined) return new Response(null, { status: result.status, headers });
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(result.json), { status: result.status, headers });
}

// The profile presents the envelope: its own `code`s, `errorId` and headers.
function problemResult(problem: HttpProblem, services: FakeServices): RouteResult {
  const { present } = services.profile;
  const { status, body, headers } = present.problem({
    status: problem.status,
    body: problem.body(present.errorId()),
    headers: problem.headers,
  });
  return { status, json: body, headers };
}

function bearer(
  request: Request,
  services: FakeServices,
): { client: RegisteredClient; token: AccessTokenRecord } {
  const found = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (found === null) throw unauthorized('invalid_token', 'Missing Authorization: Bearer <access token>');
  const token = services.tokens.authenticate(found[1]!);
  return { client: services.clients.require(token.clientId), token };
}

async function handle(
  match: RouteMatch | undefined,
  request: Request,
  url: URL,
  services: FakeServices,
  entry: RecordedRequest,
  allowed: string[],
): Promise<Response> {
  try {
    if (match === undefined) {
      const answer = services.profile.present.noRoute(request.method, url.pathname, allowed);
      if (answer !== undefined) return toResponse(answer, services);
      throw new HttpProblem(404, 'not_found', `No route for ${request.method} ${url.pathname}`);
    }
    const { route, params } = match;
    const auth = route.auth === 'bearer' ? bearer(request, services) : undefined;
    if (auth !== undefined) services.rateLimit?.admit(request, auth.client.clientId);
    if (route.partner && auth?.client.provisioned === false) {
      throw new HttpProblem(403, 'not_provisioned', 'This client is not provisioned for the partner API');
    }
    for (const [name, value] of Object.entries(params)) {
      if (!PARAM.test(value))
        throw unprocessableAt(['path', name], 'Invalid identifier', 'string_pattern_mismatch');
    }
    const key = request.headers.get('idempotency-key') ?? undefined;
    if (route.idempotency !== undefined) {
      if (key === undefined && route.idempotency === 'required') {
        throw unprocessableAt(['header', 'Idempotency-Key'], 'Field required', 'missing');
      }
      if (key !== undefined && !KEY.test(key)) {
        throw unprocessableAt(
          ['header', 'Idempotency-Key'],
          'Expected 1-255 visible ASCII characters',
          'string_pattern_mismatch',
        );
      }
    }
    const ctx: RouteContext = {
      request,
      url,
      params,
      origin: url.origin,
      services,
      client: auth?.client,
      token: auth?.token,
    };
    const input = await route.parse(ctx);
    if (route.idempotency !== undefined && key !== undefined) {
      entry.idempotencyKey = key;
      const scope = IdempotencyStore.scope(auth?.client.clientId ?? '', request.method, url.pathname, key);
      const print = fingerprint(input);
      const found = services.idempotency.lookup(scope, print);
      if (found.kind === 'conflict') {
        throw new HttpProblem(
          409,
          'idempotency_key_conflict',
          'This Idempotency-Key was used with a different request body',
        );
      }
      if (found.kind === 'replay') {
        entry.replayed = true;
        const { status, body, contentType } = found.response;
        return toResponse({ status, raw: { body, contentType } }, services, {
          'idempotent-replayed': 'true',
        });
      }
      const result = route.run(ctx, input);
      if (result.status >= 200 && result.status < 300) {
        services.idempotency.save(scope, print, {
          status: result.status,
          body: JSON.stringify(result.json),
          contentType: 'application/json',
        });
      }
      return toResponse(result, services);
    }
    return toResponse(route.run(ctx, input), services);
  } catch (error) {
    if (error instanceof HttpProblem) return toResponse(problemResult(error, services), services);
    // A bug in the fake itself: answer 500 so the test sees it, and keep the cause in the body.
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return toResponse(
      problemResult(new HttpProblem(500, 'internal_error', `Fake API bug: ${detail}`), services),
      services,
    );
  }
}

/**
 * Serves one request the way every route shares: injected faults first, then authentication, the 403 for
 * unprovisioned clients, path and `Idempotency-Key` checks, parsing, the idempotency store, and the route.
 * Every response carries `Date` (the fake's clock) and `X-Request-Id`. Without a `match`, `allowed` lists the
 * methods the path has (empty for an unknown path).
 */
export async function serve(
  match: RouteMatch | undefined,
  received: Request,
  services: FakeServices,
  allowed: string[] = [],
): Promise<Response> {
  const request = await capJsonBody(received, services.settings.maxBodyBytes);
  if (request instanceof Response) return record(received, services, request, match);
  const url = new URL(request.url);
  const entry: RecordedRequest = {
    method: request.method,
    path: url.pathname,
    ...(match === undefined ? {} : { route: match.route.path }),
    query: url.search,
    headers: Object.fromEntries(request.headers),
    status: 0,
    at: services.now(),
  };
  const fault = services.faults.take(request.method, url.pathname);
  let response: Response;
  if (fault?.drop === 'before') {
    entry.fault = 'drop-before';
    services.recordRequest(entry);
    return Response.error();
  }
  if (fault?.status !== undefined) {
    if (fault.delayMs !== undefined) await hold(fault.delayMs, request.signal, services.closed);
    entry.fault = 'status';
    response = toResponse(
      problemResult(faultProblem({ ...fault, status: fault.status }), services),
      services,
    );
  } else {
    response = await handle(match, request, url, services, entry, allowed);
    if (fault?.delayMs !== undefined) {
      entry.fault = 'delay';
      await hold(fault.delayMs, request.signal, services.closed);
    }
    if (fault?.drop === 'after') {
      entry.fault = 'drop-after';
      entry.status = response.status;
      services.recordRequest(entry);
      return Response.error();
    }
  }
  for (const [name, value] of Object.entries(services.rateLimit?.headersFor(request) ?? {}))
    response.headers.set(name, value);
  entry.status = response.status;
  services.recordRequest(entry);
  return response;
}

// A request the proxy in front answered: recorded, never seen by the service.
function record(request: Request, services: FakeServices, response: Response, match?: RouteMatch): Response {
  const url = new URL(request.url);
  services.recordRequest({
    method: request.method,
    path: url.pathname,
    ...(match === undefined ? {} : { route: match.route.path }),
    query: url.search,
    headers: Object.fromEntries(request.headers),
    status: response.status,
    at: services.now(),
  });
  return response;
}

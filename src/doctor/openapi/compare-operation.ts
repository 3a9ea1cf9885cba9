import { isRecord } from '../../core/is-record.js';
import type { DoctorFinding, DoctorImpact } from '../doctor-report.js';
import { requestDifferences, responseDifferences } from './body-differences.js';
import type { ShapeReader } from './json-shape.js';
import type { SdkOperation } from './sdk-expectations.js';
import type { ServerOperation } from './server-operation.js';

type Json = Record<string, unknown>;

/** What decides the impact of a difference: the client's mode, credentials and headers. */
export interface ComparisonContext {
  responseValidation: 'strict' | 'warn' | 'off';
  /** The client has credentials, so it sends a token on routes where one is optional. */
  hasCredentials: boolean;
  /** Lower-case names of the client's `defaultHeaders`. */
  defaultHeaders: ReadonlySet<string>;
}

// OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored (described elsewhere).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Every difference between how the SDK calls `sdk` and how the document `doc` describes `server`. */
export function compareOperation(
  sdk: SdkOperation,
  server: ServerOperation,
  doc: ShapeReader,
  context: ComparisonContext,
): DoctorFinding[] {
  const out: DoctorFinding[] = [];
  const finding = (impact: DoctorImpact, kind: string, where: string, path: string, message: string) =>
    out.push({ impact, kind, operation: `${sdk.method} ${sdk.route}`, sdk: sdk.sdk, where, path, message });
  const sendsToken = sdk.auth === 'bearer' || (sdk.auth === 'optional' && context.hasCredentials);
  const sent = new Set([...sdk.headers, ...context.defaultHeaders, ...(sendsToken ? ['authorization'] : [])]);

  for (const parameter of parametersOf(server, doc)) {
    const name = String(parameter['name']);
    const where = parameter['in'];
    const required = parameter['required'] === true;
    if (where === 'query' && required && !sdk.query.includes(name)) {
      finding(
        'fails',
        'required-parameter',
        `query ${name}`,
        '',
        'this service requires this query parameter; the SDK does not send it',
      );
    }
    if (
      where === 'header' &&
      required &&
      !IGNORED_HEADERS.has(name.toLowerCase()) &&
      !sent.has(name.toLowerCase())
    ) {
      finding(
        'fails',
        'required-header',
        `header ${name}`,
        '',
        "this service requires this header; the SDK does not send it (add it to the client's defaultHeaders)",
      );
    }
    if (where === 'cookie' && required) {
      finding(
        'fails',
        'required-parameter',
        `cookie ${name}`,
        '',
        'this service requires this cookie; the SDK sends no cookies',
      );
    }
  }
  const documented = parametersOf(server, doc);
  const has = (where: string, name: string) =>
    documented.some((p) => p['in'] === where && String(p['name']).toLowerCase() === name.toLowerCase());
  for (const name of sdk.query) {
    if (!has('query', name))
      finding(
        'info',
        'undocumented-parameter',
        `query ${name}`,
        '',
        'the SDK sends this query parameter; this service does not describe it (it may ignore it)',
      );
  }
  if (sdk.headers.includes('idempotency-key') && !has('header', 'idempotency-key')) {
    finding(
      'info',
      'undocumented-header',
      'header Idempotency-Key',
      '',
      'the SDK sends a key and retries this POST with it; this service does not describe the header, so a retry after a lost response may do the write again',
    );
  }

  const security = securityOf(server, doc, sendsToken, context.defaultHeaders);
  if (security === 'unmet') {
    finding(
      'fails',
      'security',
      'security',
      '',
      sdk.auth === 'optional'
        ? 'this service requires a bearer token here; the SDK sends one only when the client has credentials, and this one has none'
        : `this service requires credentials the SDK does not send on ${sdk.route}`,
    );
  } else if (security === 'met' && sdk.auth === 'optional') {
    finding(
      'info',
      'token-required',
      'security',
      '',
      'this service requires a bearer token here; the SDK sends one because the client has credentials (a client without them would get 401)',
    );
  }

  for (const difference of requestDifferences(sdk, server, doc)) {
    finding(
      difference.effect === 'breaks' ? 'fails' : 'info',
      difference.kind,
      'request body',
      difference.path,
      difference.message,
    );
  }
  const breaks: DoctorImpact = sdk.strict || context.responseValidation === 'strict' ? 'fails' : 'tolerated';
  const seen = new Set<string>();
  for (const [status, difference] of responseDifferences(sdk, server, doc)) {
    const key = `${difference.kind} ${difference.path} ${difference.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    finding(
      difference.effect === 'breaks' ? breaks : 'info',
      difference.kind,
      `response ${status}`,
      difference.path,
      difference.message,
    );
  }
  return out;
}

/** Path-level parameters overridden by operation-level ones of the same name and place. */
function parametersOf(server: ServerOperation, doc: ShapeReader): Json[] {
  const byKey = new Map<string, Json>();
  for (const list of [server.pathItem['parameters'], server.operation['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = doc.follow(raw);
      if (isRecord(parameter) && typeof parameter['name'] === 'string') {
        byKey.set(`${String(parameter['in'])} ${parameter['name'].toLowerCase()}`, parameter);
      }
    }
  }
  return [...byKey.values()];
}

/** Whether some security alternative of the operation is one the SDK's call meets. */
function securityOf(
  server: ServerOperation,
  doc: ShapeReader,
  sendsToken: boolean,
  headers: ReadonlySet<string>,
): 'none' | 'met' | 'unmet' {
  const root = doc.root as Json;
  const requirements = server.operation['security'] ?? root['security'];
  if (!Array.isArray(requirements) || requirements.length === 0) return 'none';
  if (requirements.some((alternative) => isRecord(alternative) && Object.keys(alternative).length === 0))
    return 'none';
  const schemes = isRecord(root['components'])
    ? doc.follow(root['components']['securitySchemes'])
    : undefined;
  const met = (name: string) => {
    const scheme = isRecord(schemes) ? doc.follow(schemes[name]) : undefined;
    if (!isRecord(scheme)) return sendsToken; // undescribed: most likely the bearer token
    const type = scheme['type'];
    if (type === 'http') return String(scheme['scheme']).toLowerCase() === 'bearer' && sendsToken;
    if (type === 'oauth2' || type === 'openIdConnect') return sendsToken;
    if (type === 'apiKey' && scheme['in'] === 'header')
      return headers.has(String(scheme['name']).toLowerCase());
    return false;
  };
  return requirements.some((alternative) => isRecord(alternative) && Object.keys(alternative).every(met))
    ? 'met'
    : 'unmet';
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../../core/transport/loopback-host.js';

/** Where the admin API lives when it is on and no other prefix is given. */
export const DEFAULT_ADMIN_API_PREFIX = '/__admin';

/** Largest admin request body; reading stops there and the answer is 413. */
export const MAX_ADMIN_BODY_BYTES = 1024 * 1024;

/** The `adminApi` option of the fake. */
export interface FakeAdminApiOptions {
  /** @default '/__admin' */
  prefix?: string;
  /** When set, every admin request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** `Host` names answered besides this machine's (`localhost`, `127.0.0.0/8`, `[::1]`). */
  allowHosts?: readonly string[];
}

/** The admin API's settings, checked once when the fake is built. */
export interface AdminApiSettings {
  prefix: string;
  /** SHA-256 of the token, compared in constant time; the token itself is not kept. */
  tokenDigest: Buffer | undefined;
  allowHosts: ReadonlySet<string>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The settings the `adminApi` option asks for, or `undefined` when the admin API is off. */
export function adminApiSettings(
  option: boolean | FakeAdminApiOptions | undefined,
): AdminApiSettings | undefined {
  if (option === undefined || option === false) return undefined;
  const given: FakeAdminApiOptions = option === true ? {} : option;
  const prefix = given.prefix ?? DEFAULT_ADMIN_API_PREFIX;
  if (!/^(\/[\w.~-]+)+$/.test(prefix) || prefix.startsWith('/v1/') || prefix === '/v1') {
    throw new TypeError(
      `FakePartnerEquity: adminApi.prefix must be a path such as /__admin, got '${prefix}'`,
    );
  }
  if (given.token !== undefined && !/^[\x21-\x7e]{16,}$/.test(given.token)) {
    throw new TypeError('FakePartnerEquity: adminApi.token must be at least 16 printable ASCII characters');
  }
  return {
    prefix,
    tokenDigest: given.token === undefined ? undefined : digest(given.token),
    allowHosts: new Set((given.allowHosts ?? []).map((host) => host.toLowerCase().replace(/\.$/, ''))),
  };
}

/** Why a request may not reach the admin API. */
export interface AdminRefusal {
  status: 401 | 403 | 413 | 415;
  code: string;
  detail: string;
}

// A Host header value as RFC 9110 has it (`uri-host [ ":" port ]`): an IPv6 literal in brackets, or a
// name or IPv4 address of letters, digits, `-` and `.`, then an optional port. Anything else (`[::1].evil`,
// `127.0.0.1:1@evil.com`, an empty value) is no host at all.
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/;

/** The host name of a Host header value (`[::1]:4010` → `[::1]`), or `undefined` when it does not parse. */
function hostnameOf(host: string): string | undefined {
  return HOST.exec(host.toLowerCase())?.[1]?.replace(/\.$/, '');
}

/**
 * Refuses what a browser page or another machine could send: a `Host` that is not this machine (DNS
 * rebinding), an `Origin` other than the server's own (a cross-site form or `fetch`), a body that is not
 * JSON (a `text/plain` POST needs no CORS preflight), a declared body over the cap, and, when a token is
 * set, a request without it. Requests that crossed no socket (MSW in-process) carry no `Host`; one that
 * did always has one (the loopback server gives an HTTP/1.0 request without `Host` an empty one, refused).
 */
export function refusal(request: Request, settings: AdminApiSettings): AdminRefusal | undefined {
  const url = new URL(request.url);
  const host = request.headers.get('host');
  if (host !== null) {
    const name = hostnameOf(host);
    if (name === undefined || (!isLoopbackHost(name) && !settings.allowHosts.has(name))) {
      return {
        status: 403,
        code: 'host_not_allowed',
        detail: `The admin API answers this machine's names only (localhost, 127.0.0.1, [::1]), not '${host.slice(0, 100)}' (partner-equity mock --allow-host adds one)`,
      };
    }
  }
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== `${url.protocol}//${host ?? url.host}`) {
    return {
      status: 403,
      code: 'cross_origin',
      detail: 'The admin API refuses requests from web pages of another origin',
    };
  }
  if (settings.tokenDigest !== undefined) {
    const [scheme, token] = (request.headers.get('authorization') ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !timingSafeEqual(digest(token ?? ''), settings.tokenDigest)) {
      return {
        status: 401,
        code: 'unauthorized',
        detail: 'The admin API needs Authorization: Bearer <the admin token the mock printed>',
      };
    }
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const length = Number(request.headers.get('content-length') ?? 0);
  const hasBody = length > 0 || request.headers.has('transfer-encoding');
  if ((type !== '' || hasBody) && type !== 'application/json') {
    return {
      status: 415,
      code: 'unsupported_media_type',
      detail:
        "Admin request bodies are JSON: send Content-Type: application/json (curl -H 'content-type: application/json')",
    };
  }
  if (length > MAX_ADMIN_BODY_BYTES) {
    return { status: 413, code: 'payload_too_large', detail: 'body: over 1 MiB' };
  }
  return undefined;
}

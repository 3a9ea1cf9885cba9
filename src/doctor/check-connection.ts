import type { DoctorCheck } from './doctor-report.js';
import type { DoctorTarget } from './doctor-target.js';
import { type ProbeAnswer, probe, unreadableBody } from './http-probe.js';
import { APIConnectionError, APITimeoutError, isCleartextToNetwork } from './sdk-core.js';

/** Beyond this the SDK corrects assertion times from the `Date` header (one extra token exchange). */
const CLOCK_TOLERANCE_MS = 2000;
/** The webhook timestamp tolerance: a receiver on a clock off by more refuses every delivery. */
const WEBHOOK_TOLERANCE_MS = 300_000;

/** What the connection checks learned, for the checks after them. */
export interface ConnectionFacts {
  checks: DoctorCheck[];
  /** The service answered something: the other checks can run. */
  reachable: boolean;
  /** The server's clock minus ours, when a `Date` header said. */
  clockOffsetMs?: number | undefined;
}

// The error codes of the connection failure and its causes (ECONNREFUSED, CERT_HAS_EXPIRED…).
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let at: unknown = error, depth = 0; at instanceof Object && depth < 6; depth += 1) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    at = (at as { cause?: unknown }).cause;
  }
  return codes;
}

function unreachable(error: unknown, baseUrl: string, route: string): DoctorCheck {
  const codes = errorCodes(error);
  const has = (pattern: RegExp) => codes.some((code) => pattern.test(code));
  const check = (explanation: string, fix: string): DoctorCheck => ({
    id: 'reachability',
    group: 'connection',
    title: 'Reachability',
    status: 'fails',
    explanation,
    fix,
    details: [
      ...(codes.length === 0 ? [] : [`error codes: ${[...new Set(codes)].join(', ')}`]),
      `route: ${route}`,
    ],
  });
  const host = URL.canParse(baseUrl) ? new URL(baseUrl).host : baseUrl;
  // A TLS hello answered in plain HTTP: OpenSSL reads the reply as a record of an unknown version.
  if (has(/WRONG_VERSION_NUMBER|HTTP_REQUEST/)) {
    return check(
      `${host} speaks plain HTTP on this port, not TLS`,
      `Use http://${host} if this is a local server (the fake API, \`partner-equity mock\`), else the https port of the service`,
    );
  }
  if (has(/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ALTNAME|SSL/)) {
    return check(
      `TLS failed with ${host}: its certificate is not trusted by this Node.js (expired, self-signed, another name, or a private CA)`,
      'Use the exact host the certificate names; behind a corporate proxy or private CA, point NODE_EXTRA_CA_CERTS at its CA file',
    );
  }
  if (has(/ENOTFOUND|EAI_AGAIN/)) {
    return check(
      `${host} does not resolve (DNS)`,
      'Check the base URL for typos, and DNS or VPN on this machine',
    );
  }
  if (has(/ECONNREFUSED/)) {
    return check(
      `${host} refused the connection`,
      'Check the port of the base URL, and that the service (or `partner-equity mock`) is running',
    );
  }
  if (error instanceof APITimeoutError || has(/TIMEOUT|ETIMEDOUT/)) {
    return check(
      `${host} did not answer in time`,
      'Check firewalls and proxies between this machine and the service (the SDK takes its proxy from HTTPS_PROXY, HTTP_PROXY and NO_PROXY)',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return check(
    `no answer from ${host}: ${message}`,
    'Check the base URL and the network between this machine and the service',
  );
}

function healthCheck(answer: ProbeAnswer): DoctorCheck {
  const base = { id: 'reachability', group: 'connection' as const, title: 'Reachability' };
  if (answer.status >= 200 && answer.status < 300) {
    return { ...base, status: 'ok', explanation: `GET /public/hc answered ${answer.status}` };
  }
  return {
    ...base,
    status: 'fails',
    explanation: `GET /public/hc answered ${answer.status}${answer.detail === undefined ? '' : `: ${answer.detail}`}`,
    fix:
      answer.status === 404
        ? 'The base URL must be the environment root (the service serves /public/hc, /openapi.json and /v1/… under it)'
        : 'The service is up but unhealthy, or a proxy answers in its place: retry later, or ask the service team',
  };
}

// A 200 whose body the SDK cannot read: another server (a captive portal, a proxy) answers at this URL.
function unreadableHealth(reason: string): DoctorCheck {
  return {
    id: 'reachability',
    group: 'connection',
    title: 'Reachability',
    status: 'fails',
    explanation: `GET /public/hc answered, but ${reason}: another server or a proxy answers at this URL`,
    fix: 'Check the base URL: it must be the environment root, reached without an intercepting proxy',
  };
}

function transportCheck(baseUrl: string, route: string): DoctorCheck {
  const base = {
    id: 'tls',
    group: 'connection' as const,
    title: 'Transport security',
    details: [`route: ${route}`],
  };
  const url = new URL(baseUrl);
  if (url.protocol === 'https:') {
    return {
      ...base,
      status: 'ok',
      explanation: `https: ${url.host} answered over TLS, its certificate accepted`,
    };
  }
  if (!isCleartextToNetwork(baseUrl)) {
    return {
      ...base,
      status: 'ok',
      explanation: `plain http to this machine (${url.host}): fine for the fake API and \`partner-equity mock\``,
    };
  }
  return {
    ...base,
    status: 'differs',
    explanation: `plain http to ${url.host}: assertions and tokens cross the network in cleartext`,
    fix: 'Use the https base URL of the environment (allowInsecureHttp is for test networks only)',
  };
}

function clockCheck(offsetMs: number | undefined): DoctorCheck {
  const base = { id: 'server-clock', group: 'connection' as const, title: 'Clock' };
  if (offsetMs === undefined) {
    return {
      ...base,
      status: 'skipped',
      explanation: 'the service sent no Date header: the clock offset is unknown',
    };
  }
  const seconds = Math.round(Math.abs(offsetMs) / 1000);
  const side = offsetMs > 0 ? 'behind' : 'ahead of';
  const words = `this machine's clock is ${seconds} s ${side} the service's (from its Date header)`;
  if (Math.abs(offsetMs) <= CLOCK_TOLERANCE_MS) {
    return {
      ...base,
      status: 'ok',
      explanation: `within ${CLOCK_TOLERANCE_MS / 1000} s of the service's clock (Date header)`,
    };
  }
  if (Math.abs(offsetMs) < WEBHOOK_TOLERANCE_MS) {
    return {
      ...base,
      status: 'differs',
      explanation: `${words}; the SDK corrects assertion times for it, at the cost of one refused token exchange`,
      fix: "Synchronise this machine with NTP (timedatectl set-ntp true, or your platform's time service)",
    };
  }
  return {
    ...base,
    status: 'fails',
    explanation: `${words}: beyond the 300 s webhook tolerance, a receiver on this clock refuses every delivery`,
    fix: 'Synchronise this machine with NTP before go-live; the SDK corrects assertions, but not your webhook receiver',
  };
}

/** Reachability and `/public/hc`, transport security (with the proxy in use), and the clock offset from `Date`. */
export async function checkConnection(target: DoctorTarget, signal?: AbortSignal): Promise<ConnectionFacts> {
  let answer: ProbeAnswer;
  try {
    answer = await probe(target.requester, { method: 'GET', path: '/public/hc', signal });
  } catch (error) {
    const unreadable = unreadableBody(error);
    if (unreadable !== undefined) return { reachable: false, checks: [unreadableHealth(unreadable)] };
    if (!(error instanceof APIConnectionError)) throw error;
    return { reachable: false, checks: [unreachable(error, target.baseUrl, target.route)] };
  }
  return {
    reachable: true,
    clockOffsetMs: answer.clockOffsetMs,
    checks: [
      healthCheck(answer),
      transportCheck(target.baseUrl, target.route),
      clockCheck(answer.clockOffsetMs),
    ],
  };
}

import { parseHttpDate } from '../auth/token-endpoint.js';
import { DOCTOR_PROBE_EVENT_TYPE } from '../webhooks/doctor-probe.js';
import { resolveWebhookScheme } from '../webhooks/scheme/resolve-webhook-scheme.js';
import { signs } from '../webhooks/scheme/signed-content-template.js';
import type { WebhookSchemeInput } from '../webhooks/scheme/webhook-scheme.js';
import { signWebhook } from '../webhooks/sign.js';
import type { DoctorCheck } from './doctor-report.js';
import type { DoctorTarget } from './doctor-target.js';
import { explainWebhookRefusal, type ProbeReply } from './explain-webhook-refusal.js';
import { readText, type Transport } from './sdk-core.js';

/** The partner's webhook endpoint and how the service signs deliveries to it. */
export interface DoctorWebhookOptions {
  /** Your endpoint's URL, as registered with the service. */
  url: string;
  /** The signing secret (the first one is used during a rotation). */
  secret: string | readonly string[];
  /** @default 'standard-webhooks' */
  scheme?: WebhookSchemeInput | undefined;
}

/** The event type of the probes: no real event, and `WebhookReceiver` runs no handler for it. */
export const PROBE_EVENT_TYPE = DOCTOR_PROBE_EVENT_TYPE;
const TIMEOUT_MS = 10_000;

interface Delivery {
  body: string;
  contentType: string;
  /** Unix seconds signed into the delivery. */
  timestamp: number;
  tamper?: boolean;
}

/**
 * Signs test events in the configured scheme and POSTs them to the partner's endpoint: a genuine one (2xx
 * expected), then a tampered and a stale one (refusal expected). A refused genuine event is explained from
 * the answer and one more probe (the same event as text/plain: a JSON body parser in front of the
 * verification does not consume it). Only the partner's endpoint is called.
 */
export async function checkWebhook(
  target: DoctorTarget,
  options: DoctorWebhookOptions,
  signal?: AbortSignal,
): Promise<DoctorCheck> {
  const check = { id: 'webhook-endpoint', group: 'webhooks' as const, title: 'Webhook endpoint' };
  const scheme = resolveWebhookScheme(options.scheme);
  const secret = (typeof options.secret === 'string' ? options.secret : options.secret[0]) ?? '';
  const { clock, transport, secrets } = target.requester.config;
  secrets?.add(secret);
  const url = new URL(options.url);
  const now = Math.floor(clock.now() / 1000);
  const event = (probe: string) =>
    JSON.stringify({
      type: PROBE_EVENT_TYPE,
      timestamp: new Date(now * 1000).toISOString(),
      data: { probe, note: 'A test delivery from `partner-equity doctor`: acknowledge it and ignore it.' },
    });
  const send = (delivery: Delivery) =>
    deliver(transport, url, secret, options.scheme, delivery, signal, () => clock.now());
  const details: string[] = [`scheme ${scheme.name}; probes signed at ${now} (this machine's clock)`];

  let genuine: ProbeReply;
  try {
    genuine = await send({ body: event('genuine'), contentType: 'application/json', timestamp: now });
  } catch (error) {
    const code =
      (error as { cause?: { code?: unknown }; code?: unknown }).cause?.code ??
      (error as { code?: unknown }).code;
    return {
      ...check,
      status: 'fails',
      explanation: `no answer from ${url.host}${typeof code === 'string' ? ` (${code})` : ''}`,
      fix: 'Check the endpoint URL, that it is reachable from the internet (the service calls it), and its TLS certificate',
    };
  }
  details.push(`genuine event → ${said(genuine)}`);
  if (genuine.status < 200 || genuine.status >= 300) {
    const asText = await send({ body: event('genuine-text'), contentType: 'text/plain', timestamp: now });
    details.push(`the same as text/plain → ${said(asText)}`);
    return { ...check, ...explainWebhookRefusal(genuine, asText), details };
  }
  const tampered = await send({
    body: event('tampered'),
    contentType: 'application/json',
    timestamp: now,
    tamper: true,
  });
  details.push(`event changed after signing → ${said(tampered)}`);
  if (tampered.status >= 200 && tampered.status < 300) {
    return {
      ...check,
      status: 'fails',
      explanation: `${genuine.status} for a genuine event, but also ${tampered.status} for one whose body changed after signing: the endpoint does not verify signatures`,
      fix: 'Verify every delivery before acting on it (Webhook#verify, or createNodeHandler / createFetchHandler)',
      details,
    };
  }
  if (signs(scheme, 'timestamp')) {
    const stale = await send({
      body: event('stale'),
      contentType: 'application/json',
      timestamp: now - 3600,
    });
    details.push(`event signed an hour ago → ${said(stale)}`);
    if (stale.status >= 200 && stale.status < 300) {
      return {
        ...check,
        status: 'differs',
        explanation: `verifies signatures, but took an event signed an hour ago (${stale.status}): a captured delivery can be replayed`,
        fix: 'Keep a timestamp tolerance (the SDK verifies ±300 s by default) and de-duplicate on the webhook id',
        details,
      };
    }
  }
  return {
    ...check,
    status: 'ok',
    explanation: `${url.host} acknowledged a genuine event (${genuine.status}) and refused a tampered one (${tampered.status})`,
    details,
  };
}

/** An answer for the report: its status and the start of its body. */
function said(reply: ProbeReply): string {
  if (reply.text === '') return String(reply.status);
  return `${reply.status} "${reply.text.length > 100 ? `${reply.text.slice(0, 100)}…` : reply.text}"`;
}

async function deliver(
  transport: Transport,
  url: URL,
  secret: string,
  scheme: WebhookSchemeInput | undefined,
  delivery: Delivery,
  signal: AbortSignal | undefined,
  now: () => number,
): Promise<ProbeReply> {
  const signed = await signWebhook({
    secret,
    scheme,
    id: `msg_doctor_${crypto.randomUUID().replaceAll('-', '')}`,
    timestamp: delivery.timestamp,
    payload: delivery.body,
  });
  const body = delivery.tamper === true ? delivery.body.replace('tampered', 'tampered!') : delivery.body;
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const sentAt = now();
  const response = await transport({
    method: 'POST',
    url,
    headers: { 'content-type': delivery.contentType, 'user-agent': 'partner-equity-doctor', ...signed },
    body,
    signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
  });
  const text = (await readText(response.body)).replace(/\s+/g, ' ').trim().slice(0, 200);
  const date = parseHttpDate(response.headers.get('date'));
  return {
    status: response.status,
    text,
    clockOffsetMs: date === undefined ? undefined : date + 500 - (sentAt + now()) / 2,
  };
}

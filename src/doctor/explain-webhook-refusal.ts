import type { DoctorCheck } from './doctor-report.js';

/** How the partner's endpoint answered one probe. */
export interface ProbeReply {
  status: number;
  /** The body, one line, at most 200 characters. */
  text: string;
  /** The endpoint's clock minus ours, from its `Date` header. */
  clockOffsetMs?: number | undefined;
}

const TOLERANCE_MS = 300_000;
const BODY_PARSED = /raw|body.?pars|parsed|not a string|uint8array|buffer/i;
const TIMESTAMP = /timestamp|tolerance|too old|too new|expired|stale/i;

type Explanation = Pick<DoctorCheck, 'status' | 'explanation' | 'fix'>;

/** Why the endpoint did not acknowledge a genuine, freshly signed event (`asText`: the same as text/plain). */
export function explainWebhookRefusal(genuine: ProbeReply, asText: ProbeReply): Explanation {
  const { status, text } = genuine;
  const fails = (explanation: string, fix: string): Explanation => ({ status: 'fails', explanation, fix });
  if (status >= 300 && status < 400) {
    return fails(
      `answered ${status} (a redirect): deliveries are not redirected`,
      'Register the final URL of the endpoint',
    );
  }
  if (status === 404 || status === 405) {
    return fails(
      `answered ${status}: no webhook route takes POST at this URL`,
      "Check the path and that the route accepts POST (the service's deliveries are POSTs)",
    );
  }
  if (status >= 500) {
    return fails(
      `answered ${status}: the endpoint failed, after or before verifying (with the SDK's receiver a 500 means a handler threw)`,
      `See the endpoint's logs; acknowledge event types you do not handle (this probe's type is partner_equity.doctor_probe) with 2xx`,
    );
  }
  if (asText.status >= 200 && asText.status < 300) {
    return fails(
      `answered ${status} to the JSON event but ${asText.status} to the same bytes sent as text/plain: a JSON body parser reads the body before the signature is verified`,
      "Verify the raw bytes: mount the webhook route before express.json() (or give it express.raw({ type: 'application/json' }))",
    );
  }
  const offset = genuine.clockOffsetMs;
  if (offset !== undefined && Math.abs(offset) > TOLERANCE_MS) {
    const seconds = Math.round(Math.abs(offset) / 1000);
    return fails(
      `answered ${status}: the endpoint's clock is ${seconds} s ${offset > 0 ? 'ahead of' : 'behind'} this machine's, beyond the 300 s timestamp tolerance`,
      "Synchronise the endpoint's clock with NTP",
    );
  }
  if (TIMESTAMP.test(text)) {
    return fails(
      `answered ${status} "${text}": the endpoint refused the delivery's timestamp`,
      'Check the clocks of this machine and the endpoint, and the tolerance it verifies with (300 s by default)',
    );
  }
  if (BODY_PARSED.test(text)) {
    return fails(
      `answered ${status} "${text}": the body was parsed before verification`,
      'Verify the raw request bytes, not a parsed object (see the README, Webhooks → Handlers and frameworks)',
    );
  }
  if (status === 413 || status === 415) {
    return fails(
      `answered ${status}: the endpoint refuses a small application/json body`,
      'Accept application/json bodies of at least 1 MiB on the webhook route',
    );
  }
  return fails(
    `answered ${status}${text === '' ? '' : ` "${text}"`} to a genuine event: the endpoint verifies with another secret or scheme${status === 401 || status === 403 ? ' (or something in front of it wants credentials)' : ''}`,
    'Give the endpoint and this check the same secret (PE_WEBHOOK_SECRET / --secret-file) and the same scheme (--scheme)',
  );
}

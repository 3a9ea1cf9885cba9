import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import type { DoctorOptions } from '../../src/doctor/run-doctor.js';
import { createNodeHandler, Webhook, WebhookReceiver } from '../../src/webhooks/index.node.js';
import type { WebhookSchemeInput } from '../../src/webhooks/scheme/webhook-scheme.js';
import { checkOf } from './harness.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const OTHER = `whsec_${randomBytes(32).toString('base64')}`;

interface Endpoint {
  url: string;
  /** Every delivery: its headers and body text. */
  deliveries: { headers: IncomingMessage['headers']; body: string }[];
  /** Event types the receiver's handlers saw. */
  handled: string[];
}
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A partner endpoint on a loopback port; `listener` answers after the request is recorded. */
async function endpoint(make: (handled: string[]) => RequestListener): Promise<Endpoint> {
  const deliveries: Endpoint['deliveries'] = [];
  const handled: string[] = [];
  const inner = make(handled);
  const server = createServer((req, res) => {
    // Record the bytes without consuming the stream the handler under test reads.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }),
    );
    inner(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, deliveries, handled };
}

/** The SDK's own receiver, as the README shows it. */
const sdkReceiver =
  (
    options: {
      secret?: string;
      scheme?: WebhookSchemeInput;
      toleranceSeconds?: number;
      now?: () => number;
    } = {},
  ) =>
  (handled: string[]) =>
    createNodeHandler(
      new WebhookReceiver(
        new Webhook({
          secret: options.secret ?? SECRET,
          scheme: options.scheme,
          toleranceSeconds: options.toleranceSeconds,
          now: options.now,
        }),
        { logger: { warn() {}, error() {} } },
      ).onAny((event) => {
        handled.push(String(event.type));
      }),
    ) as RequestListener;

/** What `express.json()` does in front of a route: the JSON body is read and parsed before the handler. */
const jsonParserFirst = (handled: string[]): RequestListener => {
  const handler = sdkReceiver()(handled);
  return async (req, res) => {
    if (req.headers['content-type']?.startsWith('application/json')) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      (req as IncomingMessage & { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    }
    handler(req, res);
  };
};

const answer =
  (status: number, body = '') =>
  () =>
  (_req: IncomingMessage, res: ServerResponse) => {
    _req.resume();
    _req.on('end', () => {
      res.statusCode = status;
      res.end(body);
    });
  };

async function doctor(webhook: DoctorOptions['webhook']) {
  // The service is never called for the webhook probes: its base URL points at a closed port.
  const client = new PartnerEquity({ baseUrl: 'http://127.0.0.1:9', logLevel: 'off' });
  closers.push(() => client.close());
  const report = await client.doctor({ only: ['webhooks'], webhook });
  expect(report.checks.map((check) => check.id)).toEqual(['webhook-endpoint']);
  return { report, check: checkOf(report, 'webhook-endpoint') };
}

describe('webhook endpoint probe: signed test events POSTed to the partner endpoint, answers explained', () => {
  it('the SDK receiver with the same secret: ok — genuine acknowledged, tampered and stale refused', async () => {
    const target = await endpoint(sdkReceiver());
    const { report, check } = await doctor({ url: target.url, secret: SECRET });
    expect(check.status).toBe('ok');
    expect(check.explanation).toMatch(
      /^127\.0\.0\.1:\d+ acknowledged a genuine event \(204\) and refused a tampered one \(400\)$/,
    );
    expect(check.details?.slice(1)).toEqual([
      'genuine event → 204',
      'event changed after signing → 400 "Invalid webhook"',
      // The probe signs and the receiver verifies on the wall clock: a second may tick in between.
      expect.stringMatching(
        /^event signed an hour ago → 400 "Webhook timestamp is 360[01] s old, beyond the 300 s tolerance; its signature is valid, so the sender s…"$/,
      ),
    ]);
    expect(report.ok).toBe(true);
    // WebhookReceiver acknowledges the probe without running a handler of the partner's.
    expect(target.handled).toEqual([]);
    expect(target.deliveries).toHaveLength(3);
    expect(new Set(target.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(3);
    expect(target.deliveries[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(target.deliveries[0]!.body)).toMatchObject({
      type: 'partner_equity.doctor_probe',
      data: { probe: 'genuine' },
    });
  });

  it('another secret on the endpoint: fails, naming secret and scheme', async () => {
    const target = await endpoint(sdkReceiver({ secret: OTHER }));
    const { check, report } = await doctor({ url: target.url, secret: SECRET });
    expect(check).toMatchObject({
      status: 'fails',
      explanation:
        'answered 400 "Invalid webhook" to a genuine event: the endpoint verifies with another secret or scheme',
      fix: 'Give the endpoint and this check the same secret (PE_WEBHOOK_SECRET / --secret-file) and the same scheme (--scheme)',
    });
    expect(check.details).toContain('the same as text/plain → 400 "Invalid webhook"');
    expect(report.ok).toBe(false);
  });

  it('a JSON body parser before the verification: the text/plain probe gets through, the hint says so', async () => {
    const target = await endpoint(jsonParserFirst);
    const { check } = await doctor({ url: target.url, secret: SECRET });
    expect(check.status).toBe('fails');
    expect(check.explanation).toBe(
      'answered 400 to the JSON event but 204 to the same bytes sent as text/plain: a JSON body parser reads the body before the signature is verified',
    );
    expect(check.fix).toMatch(/^Verify the raw bytes: mount the webhook route before express\.json\(\)/);
  });

  it('an endpoint that acknowledges anything: fails, it does not verify signatures', async () => {
    const target = await endpoint(answer(200, 'ok'));
    const { check } = await doctor({ url: target.url, secret: SECRET });
    expect(check.status).toBe('fails');
    expect(check.explanation).toBe(
      '200 for a genuine event, but also 200 for one whose body changed after signing: the endpoint does not verify signatures',
    );
  });

  it('a tolerance of two hours: differs, a captured delivery can be replayed', async () => {
    const target = await endpoint(sdkReceiver({ toleranceSeconds: 7200 }));
    const { check, report } = await doctor({ url: target.url, secret: SECRET });
    expect(check.status).toBe('differs');
    expect(check.explanation).toMatch(
      /took an event signed an hour ago \(204\): a captured delivery can be replayed$/,
    );
    expect(report.ok).toBe(true);
  });

  it("the endpoint's clock 10 minutes ahead: the refused timestamp is named", async () => {
    const target = await endpoint(sdkReceiver({ now: () => Date.now() + 600_000 }));
    const { check } = await doctor({ url: target.url, secret: SECRET });
    expect(check.status).toBe('fails');
    expect(check.explanation).toMatch(
      /^answered 400 "Webhook timestamp is 60\d s old, .*": the endpoint refused the delivery's timestamp$/,
    );
  });

  it('an endpoint that fails (500), a wrong path (404), a closed port', async () => {
    const failing = await endpoint(answer(500, 'Internal Server Error'));
    expect((await doctor({ url: failing.url, secret: SECRET })).check.explanation).toMatch(
      /^answered 500: the endpoint failed/,
    );
    const missing = await endpoint(answer(404, 'Not Found'));
    expect((await doctor({ url: missing.url, secret: SECRET })).check.explanation).toBe(
      'answered 404: no webhook route takes POST at this URL',
    );
    const closed = await doctor({ url: 'http://127.0.0.1:9/webhooks', secret: SECRET });
    expect(closed.check).toMatchObject({
      status: 'fails',
      explanation: 'no answer from 127.0.0.1:9 (ECONNREFUSED)',
    });
  });

  it('other schemes: stripe (timestamp signed: stale probe too) and github (body only: no stale probe)', async () => {
    const raw = randomBytes(24).toString('hex');
    const stripe = await endpoint(sdkReceiver({ secret: raw, scheme: 'stripe' }));
    const viaStripe = await doctor({ url: stripe.url, secret: raw, scheme: 'stripe' });
    expect(viaStripe.check.status).toBe('ok');
    expect(viaStripe.check.details?.[0]).toMatch(/^scheme stripe;/);
    expect(viaStripe.check.details?.some((d) => d.startsWith('event signed an hour ago → 400'))).toBe(true);
    const github = await endpoint(sdkReceiver({ secret: raw, scheme: 'github' }));
    const viaGithub = await doctor({ url: github.url, secret: raw, scheme: 'github' });
    expect(viaGithub.check.status).toBe('ok');
    expect(viaGithub.check.details?.some((d) => d.startsWith('event signed an hour ago'))).toBe(false);
  });
});

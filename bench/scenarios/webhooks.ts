import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { importWebCryptoWebhooks, importWebhooks } from '../lib/build-sdk.js';
import { type Contender, interleave } from '../lib/interleave.js';
import { atLeast, atMost, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';

const SCENARIO = '3 webhooks';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A realistic `spv_request.completed` delivery (data: the approved SPV request) padded to 1 KB. */
function event(): string {
  const now = new Date().toISOString();
  const base = {
    type: 'spv_request.completed',
    timestamp: now,
    data: {
      spvRequestSlug: 'spvr_01JBENCH0000000000000000',
      status: 'approved',
      templateId: 'spv-standard',
      templateVersion: '1.0.0',
      tenantSlug: 'tenant_bench',
      clientId: 'client_bench',
      attributes: { spvName: 'Bench Opportunity I', notes: '' },
      createdAt: now,
      updatedAt: now,
      approvedAt: now,
      materialisedRefs: { opportunitySlug: 'opp_1', vehicleSlug: 'veh_1', spSlug: 'sp_1', spcSlug: 'spc_1' },
      feesAndCarry: {
        shareClasses: [
          {
            name: 'Class A',
            slug: 'class-a',
            managementFeePercent: '2.0',
            carryPercent: '20.0',
            setupFee: {},
          },
        ],
      },
    },
  };
  const padding = 1024 - JSON.stringify(base).length;
  base.data.attributes.notes = 'x'.repeat(Math.max(0, padding));
  return JSON.stringify(base);
}

/**
 * Scenario 3: verifying a 1 KB event. Contenders, timed in interleaved rounds:
 * - the SDK's `Webhook.verify` (node condition build: node:crypto with a cached `KeyObject`);
 * - a bare hand-written check: `createHmac` over `id.timestamp.body`, `timingSafeEqual`, `JSON.parse` —
 *   the least a partner can write that also hands back the event, as `verify` does (no timestamp window,
 *   no rotation, no header checks);
 * - the same bare check without `JSON.parse` (HMAC and compare only), reported;
 * - the `standardwebhooks` package's `Webhook.verify` (which also parses the JSON);
 * - the SDK's Web Crypto build (key imported once) against a hand-written Web Crypto check that calls
 *   `importKey` on every delivery, as stripe-node's and octokit's Web Crypto paths do.
 */
export async function runWebhookBench({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const { Webhook: NodeWebhook, signWebhook } = await importWebhooks();
  const { Webhook: WebWebhook } = await importWebCryptoWebhooks();
  const body = event();
  const headers = {
    ...(await signWebhook({ secret: SECRET, id: 'msg_bench', timestamp: new Date(), payload: body })),
  };
  const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
  const rawKey = new Uint8Array(key);
  const sdkNode = new NodeWebhook({ secret: SECRET });
  const sdkWeb = new WebWebhook({ secret: SECRET });
  const standard = new StandardWebhook(SECRET);
  const encoder = new TextEncoder();

  const bareCheck = (parse: boolean): unknown => {
    const mac = createHmac('sha256', key)
      .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
      .digest();
    const given = Buffer.from(headers['webhook-signature'].slice(3), 'base64');
    if (given.length !== mac.length || !timingSafeEqual(mac, given)) throw new Error('bad signature');
    return parse ? JSON.parse(body) : undefined;
  };
  const perCallImportKey = async (): Promise<unknown> => {
    const cryptoKey = await crypto.subtle.importKey('raw', rawKey, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
    const mac = Buffer.from(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(signed)));
    const given = Buffer.from(headers['webhook-signature'].slice(3), 'base64');
    if (given.length !== mac.length || !timingSafeEqual(mac, given)) throw new Error('bad signature');
    return JSON.parse(body);
  };

  // Every contender must accept the delivery before anything is timed.
  await sdkNode.verify(body, headers);
  await sdkWeb.verify(body, headers);
  standard.verify(body, headers);
  bareCheck(true);
  await perCallImportKey();

  const n = quick ? 2_000 : 40_000;
  const webN = quick ? 500 : 10_000;
  const loop = (count: number, call: () => unknown) => async () => {
    for (let i = 0; i < count; i++) call();
    return { ops: count };
  };
  const awaitLoop = (count: number, call: () => Promise<unknown>) => async () => {
    for (let i = 0; i < count; i++) await call();
    return { ops: count };
  };
  const contenders: Contender[] = [
    { name: 'sdk node', segment: awaitLoop(n, () => sdkNode.verify(body, headers)) },
    { name: 'bare+parse', segment: loop(n, () => bareCheck(true)) },
    { name: 'bare hmac', segment: loop(n, () => bareCheck(false)) },
    { name: 'standardwebhooks', segment: loop(n, () => standard.verify(body, headers)) },
    { name: 'sdk web', segment: awaitLoop(webN, () => sdkWeb.verify(body, headers)) },
    { name: 'web per-call importKey', segment: awaitLoop(webN, perCallImportKey) },
  ];
  const results = await interleave(contenders, quick ? 2 : 7, {
    onSegment: (name, round, s) =>
      log(`  ${SCENARIO} round ${round + 1} ${name}: ${fmt((s.ms * 1e6) / s.ops / 1000)} µs/op`),
  });
  const perOp = Object.fromEntries(results.map((r) => [r.name, 1e6 / r.opsPerSecond])) as Record<
    string,
    number
  >;
  const us = (name: string) => `${fmt(perOp[name]!)} µs`;

  return {
    rows: [
      atMost(
        SCENARIO,
        'verify cost / bare createHmac+timingSafeEqual+JSON.parse',
        perOp['sdk node']! / perOp['bare+parse']!,
        1.1,
        'x',
      ),
      reported(
        SCENARIO,
        'verify cost / bare HMAC+compare without JSON.parse',
        fmt(perOp['sdk node']! / perOp['bare hmac']!, 'x'),
      ),
      atLeast(
        SCENARIO,
        'verify speed / standardwebhooks',
        perOp['standardwebhooks']! / perOp['sdk node']!,
        2,
      ),
      reported(
        SCENARIO,
        'Web Crypto: cached key speed / per-call importKey',
        fmt(perOp['web per-call importKey']! / perOp['sdk web']!, 'x'),
      ),
      reported(
        SCENARIO,
        'per 1 KB event: SDK node / bare / standardwebhooks',
        `${us('sdk node')} / ${us('bare+parse')} / ${us('standardwebhooks')}`,
      ),
      reported(
        SCENARIO,
        'per 1 KB event: SDK Web Crypto / per-call importKey',
        `${us('sdk web')} / ${us('web per-call importKey')}`,
      ),
    ],
    notes: [
      `Webhooks: ${n.toLocaleString('en')} verifications per segment (${webN.toLocaleString('en')} for the Web Crypto pair), ${quick ? 2 : 7} interleaved rounds, medians. The "bare" loop is createHmac over id.timestamp.body with the decoded secret, timingSafeEqual, then JSON.parse (verify returns the parsed event, so the bare loop does too); it checks no timestamp window, header shape or rotation. standardwebhooks ${'1.1.1'} computes HMAC in JavaScript (fast-sha256).`,
    ],
  };
}

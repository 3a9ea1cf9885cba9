// Webhook verification cost, as ratios measured side by side in one run (interleaved segments, medians):
//   1. our verify (node build) vs a bare createHmac + timingSafeEqual loop — target <= 1.1x;
//   2. the standardwebhooks package's verify vs ours — target >= 2x faster;
//   3. Web Crypto with the key imported once (what Webhook does) vs importKey on every call.
// Runs against the built package (dist/), so `npm run build` first. Plain Node 24:
//   node --experimental-strip-types bench/webhooks.bench.ts [--quick]
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type * as WebEntry from '../src/webhooks/index.js';
import type * as NodeEntry from '../src/webhooks/index.node.js';

/** One result line: a measured figure, its target and whether it holds (`undefined`: reported only). */
export interface WebhookBenchRow {
  name: string;
  value: number;
  target: string;
  holds: boolean | undefined;
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const KEY = Buffer.from(SECRET.slice('whsec_'.length), 'base64');

/** A realistic ~1 KB `spv_request.completed` event. */
function oneKilobyteEvent(): string {
  const event = {
    type: 'spv_request.completed',
    timestamp: '2025-06-15T14:40:00.000Z',
    data: {
      spvRequestSlug: 'spvr_01HZX4K8Q2M7',
      status: 'approved',
      templateId: 'tpl_equity_spv',
      templateVersion: '1.0.0',
      tenantSlug: 'tenant_1',
      clientId: 'client_123',
      attributes: { name: 'Alpha Growth SPV 2025', currency: 'EUR', notes: '' },
      createdAt: '2025-06-15T14:00:00.000Z',
      updatedAt: '2025-06-15T14:39:58.000Z',
      approvedAt: '2025-06-15T14:39:58.000Z',
      materialisedRefs: {
        opportunitySlug: 'opp_77',
        vehicleSlug: 'spv_77',
        spSlug: 'sp_77',
        spcSlug: 'spc_77',
      },
    },
  };
  const base = JSON.stringify(event).length;
  event.data.attributes.notes = 'Approved by the investment committee; share classes A and B. '
    .repeat(20)
    .slice(0, 1024 - base);
  return JSON.stringify(event);
}

type Op = () => unknown;

/** Nanoseconds per operation of each contender, medians over interleaved rounds after a warm-up. */
async function race(contenders: Record<string, Op>, opsPerSegment: number, rounds: number) {
  const names = Object.keys(contenders);
  const samples = new Map<string, number[]>(names.map((name) => [name, []]));
  const segment = async (op: Op) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < opsPerSegment; i++) {
      const result = op();
      if (result instanceof Promise) await result;
    }
    return Number(process.hrtime.bigint() - started) / opsPerSegment;
  };
  for (const name of names) await segment(contenders[name]!);
  for (let round = 0; round < rounds; round++) {
    // Rotate the starting contender so none always runs right after another's garbage.
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]!;
      samples.get(name)!.push(await segment(contenders[name]!));
    }
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  return Object.fromEntries(names.map((name) => [name, median(samples.get(name)!)])) as Record<
    string,
    number
  >;
}

/**
 * Runs the webhook benchmarks and returns their rows. `quick` is a smoke run (small samples; the figures
 * are printed but not worth judging).
 */
export async function runWebhookBench({
  quick = false,
}: {
  quick?: boolean;
} = {}): Promise<WebhookBenchRow[]> {
  const dist = new URL('../dist/webhooks/', import.meta.url);
  const nodeEntry = (await import(new URL('index.node.js', dist).href)) as typeof NodeEntry;
  const webEntry = (await import(new URL('index.js', dist).href)) as typeof WebEntry;

  const body = oneKilobyteEvent();
  const nowMs = 1_750_000_000_000;
  const headers = await nodeEntry.signWebhook({
    secret: SECRET,
    id: 'msg_bench',
    timestamp: nowMs / 1000,
    payload: body,
  });
  const signature = headers['webhook-signature'];
  const ours = new nodeEntry.Webhook({ secret: SECRET, now: () => nowMs });
  const oursWeb = new webEntry.Webhook({ secret: SECRET, now: () => nowMs });
  const standard = new StandardWebhook(SECRET);
  const signedContent = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  const keyObject = createSecretKey(KEY);
  const subtleKey = await crypto.subtle.importKey('raw', KEY, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const signedBytes = new TextEncoder().encode(signedContent);

  // Every contender must accept the delivery, or the race would time error paths.
  await ours.verify(body, headers);
  await oursWeb.verify(body, headers);
  if (new TextEncoder().encode(body).length !== 1024) throw new Error('bench body is not 1 KB');

  // standardwebhooks checks the timestamp against the real clock; pin Date.now for its contender only.
  const realNow = Date.now;
  const atSigningTime = () => nowMs;

  const standardVerify = () => {
    Date.now = atSigningTime;
    try {
      return standard.verify(body, headers);
    } finally {
      Date.now = realNow;
    }
  };

  const ops = quick ? 200 : 5_000;
  const rounds = quick ? 3 : 15;
  const cpu = await race(
    {
      // What a partner writes by hand: HMAC with the raw secret bytes, compare the decoded signature.
      bare: () =>
        timingSafeEqual(
          createHmac('sha256', KEY).update(signedContent).digest(),
          Buffer.from(signature.slice(3), 'base64'),
        ),
      // The best hand-written loop: a cached KeyObject, and the JSON.parse any handler needs anyway.
      bareBest: () => {
        const ok = timingSafeEqual(
          createHmac('sha256', keyObject).update(signedContent).digest(),
          Buffer.from(signature.slice(3), 'base64'),
        );
        return ok && JSON.parse(body);
      },
      ours: () => ours.verify(body, headers),
      standardwebhooks: standardVerify,
    },
    ops,
    rounds,
  );
  const web = await race(
    {
      oursWeb: () => oursWeb.verify(body, headers),
      standardwebhooks: standardVerify,
      subtleCached: () => crypto.subtle.sign('HMAC', subtleKey, signedBytes),
      subtlePerCall: async () => {
        const key = await crypto.subtle.importKey('raw', KEY, { name: 'HMAC', hash: 'SHA-256' }, false, [
          'sign',
        ]);
        return crypto.subtle.sign('HMAC', key, signedBytes);
      },
    },
    ops,
    rounds,
  );

  const round2 = (n: number) => Math.round(n * 100) / 100;
  const rows: WebhookBenchRow[] = [
    {
      name: 'webhooks: verify 1 KB (node build) / bare createHmac+timingSafeEqual',
      value: round2(cpu.ours! / cpu.bare!),
      target: '<= 1.10x',
      holds: cpu.ours! / cpu.bare! <= 1.1,
    },
    {
      name: 'webhooks: standardwebhooks verify / ours (speed-up)',
      value: round2(cpu.standardwebhooks! / cpu.ours!),
      target: '>= 2.00x',
      holds: cpu.standardwebhooks! / cpu.ours! >= 2,
    },
    {
      name: 'webhooks: verify 1 KB (node build) / best hand-written loop (KeyObject + JSON.parse)',
      value: round2(cpu.ours! / cpu.bareBest!),
      target: '-',
      holds: undefined,
    },
    {
      name: 'webhooks: Web Crypto importKey per call / key imported once (sign 1 KB)',
      value: round2(web.subtlePerCall! / web.subtleCached!),
      target: '-',
      holds: undefined,
    },
    {
      name: 'webhooks: standardwebhooks verify / ours, web build on Node (speed-up)',
      value: round2(web.standardwebhooks! / web.oursWeb!),
      target: '-',
      holds: undefined,
    },
    {
      name: 'webhooks: verify 1 KB web build / node build',
      value: round2(web.oursWeb! / cpu.ours!),
      target: '-',
      holds: undefined,
    },
    {
      name: 'webhooks: verify 1 KB node build (µs/op)',
      value: round2(cpu.ours! / 1000),
      target: '-',
      holds: undefined,
    },
    {
      name: 'webhooks: verify 1 KB web build (µs/op)',
      value: round2(web.oursWeb! / 1000),
      target: '-',
      holds: undefined,
    },
  ];
  // A smoke run's samples are too small to judge.
  return quick ? rows.map((row) => ({ ...row, holds: undefined })) : rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const rows = await runWebhookBench({ quick });
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) {
    const verdict = row.holds === undefined ? '' : row.holds ? 'holds' : 'MISSES';
    console.log(
      `${row.name.padEnd(width)}  ${String(row.value).padStart(8)}  ${row.target.padEnd(9)} ${verdict}`,
    );
  }
  if (!quick && rows.some((row) => row.holds === false)) process.exitCode = 1;
}

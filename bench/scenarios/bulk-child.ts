// One contender of the bulk scenario (bulk.ts) in a process of its own, driven over IPC: `sdk` calls
// `client.investors.create(rows, { chunkSize, concurrency })`; `raw` posts the same chunks with
// undici.request. After a warm-up it answers `ready`; each `segment` message runs one timed segment and
// answers its rows, wall time and this process's CPU since the end of its previous segment (so work V8 left
// for later, such as garbage collection while the other contender ran, is charged to the process that
// caused it); `close` ends it.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { importSdk } from '../lib/build-sdk.js';
import { investorRows } from '../lib/fixtures.js';
import { pool, type Segment } from '../lib/interleave.js';
import { rawAccessToken } from '../lib/raw-token.js';

/** Messages from bulk.ts. */
export type BulkChildCommand = { type: 'segment' } | { type: 'close' };
/** Messages to bulk.ts. */
export type BulkChildMessage =
  | { type: 'ready' }
  | { type: 'segment'; segment: Segment }
  | { type: 'error'; error: string };

/** What bulk.ts passes in the environment. */
export interface BulkChildSetup {
  mode: 'sdk' | 'raw';
  total: number;
  chunkSize: number;
  concurrency: number;
  partner: { baseUrl: string; clientId: string; issuer: string; privateKey: string };
}

const setup = JSON.parse(process.env['PE_BULK_CHILD'] ?? '{}') as BulkChildSetup;
const { mode, total, chunkSize, concurrency, partner } = setup;
const send = (message: BulkChildMessage) => process.send?.(message);

async function sdkContender(): Promise<{ segment: () => Promise<void>; close: () => Promise<void> }> {
  const { PartnerEquity } = await importSdk();
  const client = new PartnerEquity({ ...partner });
  let batch = 0;
  return {
    segment: async () => {
      const result = await client.investors.create(investorRows(total, `sdk-${batch++}`), {
        chunkSize,
        concurrency,
      });
      if (result.succeeded.length !== total) throw new Error(`${result.failed.length} rows failed`);
    },
    close: () => client.close(),
  };
}

async function rawContender(): Promise<{ segment: () => Promise<void>; close: () => Promise<void> }> {
  const agent = new Agent();
  const url = new URL('/v1/investors', partner.baseUrl);
  const authorization = `Bearer ${await rawAccessToken(partner)}`;
  let batch = 0;
  return {
    segment: async () => {
      const rows = investorRows(total, `raw-${batch++}`);
      const chunks = Array.from({ length: Math.ceil(rows.length / chunkSize) }, (_, i) =>
        rows.slice(i * chunkSize, (i + 1) * chunkSize),
      );
      let created = 0;
      await pool(chunks.length, concurrency, async (i) => {
        const response = await request(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify({ investors: chunks[i] }),
          dispatcher: agent,
        });
        const text = await response.body.text();
        if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
        const { results } = JSON.parse(text) as { results: { servicePersonId?: string }[] };
        created += results.filter((r) => r.servicePersonId !== undefined).length;
      });
      if (created !== total) throw new Error(`${total - created} rows failed`);
    },
    close: () => agent.close(),
  };
}

try {
  const contender = mode === 'raw' ? await rawContender() : await sdkContender();
  await contender.segment();
  let cpu = process.cpuUsage();
  process.on('message', (command: BulkChildCommand) => {
    if (command.type === 'close') {
      void contender.close().finally(() => process.disconnect?.());
      return;
    }
    const start = performance.now();
    contender.segment().then(
      () => {
        const ms = performance.now() - start;
        const now = process.cpuUsage();
        const cpuMs = (now.user - cpu.user + now.system - cpu.system) / 1000;
        cpu = now;
        send({ type: 'segment', segment: { ops: total, ms, cpuMs } });
      },
      (error: unknown) => send({ type: 'error', error: String(error) }),
    );
  });
  send({ type: 'ready' });
} catch (error) {
  send({ type: 'error', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.disconnect?.();
}

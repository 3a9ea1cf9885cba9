// One contender of the bulk scenario (bulk.ts) in a process of its own (see contender-process.ts): `sdk`
// calls `client.investors.create(rows, { chunkSize, concurrency })`; `raw` posts the same chunks with
// undici.request, `fetch` with the global fetch (which asks for, and decodes, compressed answers).
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { importSdk } from '../lib/build-sdk.js';
import { type ServedContender, serveContender } from '../lib/contender-process.js';
import { investorRows } from '../lib/fixtures.js';
import { pool } from '../lib/interleave.js';
import { rawAccessToken } from '../lib/raw-token.js';

/** What bulk.ts starts a contender with. */
export interface BulkChildSetup {
  mode: 'sdk' | 'raw' | 'fetch';
  total: number;
  /** Calls of `total` rows one after the other in each segment (1 by default): a longer segment is less noisy. */
  calls?: number;
  chunkSize: number;
  concurrency: number;
  partner: { baseUrl: string; clientId: string; issuer: string; privateKey: string };
}

async function sdkContender(setup: BulkChildSetup): Promise<ServedContender> {
  const { total, chunkSize, concurrency, partner } = setup;
  const { PartnerEquity } = await importSdk();
  const client = new PartnerEquity({ ...partner });
  let batch = 0;
  return {
    segment: async () => {
      for (let call = 0; call < (setup.calls ?? 1); call++) {
        const result = await client.investors.create(investorRows(total, `sdk-${batch++}`), {
          chunkSize,
          concurrency,
        });
        if (result.succeeded.length !== total) throw new Error(`${result.failed.length} rows failed`);
      }
      return total * (setup.calls ?? 1);
    },
    close: () => client.close(),
  };
}

async function rawContender(setup: BulkChildSetup): Promise<ServedContender> {
  const { total, chunkSize, concurrency, partner } = setup;
  const agent = new Agent();
  const post = async (url: URL, headers: Record<string, string>, body: string) => {
    if (setup.mode === 'fetch') {
      const response = await fetch(url, { method: 'POST', headers, body });
      return { status: response.status, text: await response.text() };
    }
    const response = await request(url, { method: 'POST', headers, body, dispatcher: agent });
    return { status: response.statusCode, text: await response.body.text() };
  };
  const url = new URL('/v1/investors', partner.baseUrl);
  const authorization = `Bearer ${await rawAccessToken(partner)}`;
  let batch = 0;
  return {
    segment: async () => {
      for (let call = 0; call < (setup.calls ?? 1); call++) await rawCall(`raw-${batch++}`);
      return total * (setup.calls ?? 1);
    },
    close: () => agent.close(),
  };

  async function rawCall(prefix: string): Promise<void> {
    const rows = investorRows(total, prefix);
    const chunks = Array.from({ length: Math.ceil(rows.length / chunkSize) }, (_, i) =>
      rows.slice(i * chunkSize, (i + 1) * chunkSize),
    );
    let created = 0;
    await pool(chunks.length, concurrency, async (i) => {
      const { status, text } = await post(
        url,
        { authorization, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        JSON.stringify({ investors: chunks[i] }),
      );
      if (status !== 200) throw new Error(`HTTP ${status}`);
      const { results } = JSON.parse(text) as { results: { servicePersonId?: string }[] };
      created += results.filter((r) => r.servicePersonId !== undefined).length;
    });
    if (created !== total) throw new Error(`${total - created} rows failed`);
  }
}

await serveContender<BulkChildSetup>((setup) =>
  setup.mode === 'sdk' ? sdkContender(setup) : rawContender(setup),
);

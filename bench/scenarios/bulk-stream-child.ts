// One run of scenario 8's stream figures in a process of its own (import-csv.ts), against the echo server:
// `sdk` is the built SDK's `investors.create` fed by an async generator of generated rows, results taken by
// `onChunk`; `raw` streams the same rows in the same chunks with undici.request, 4 in flight, without the SDK.
// Prints `{ seconds, cpuSeconds, done, failed, peakMb, heapUsedMb, newSpaceMb, startMb, halfPeakMb,
// sampledPeakMb }`:
// peak RSS is the process's getrusage maximum; the heap alive after a full collection and V8's young
// generation (new space) are taken at the end; RSS sampled after each chunk, its highest value once half the
// rows were answered (`halfPeakMb`) and at the end (`sampledPeakMb`); RSS before the call (`startMb`).
import { readFile } from 'node:fs/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { request } from 'undici';
import type * as Sdk from '../../src/index.js';

const [indexUrl = '', baseUrl = '', keyFile = '', rowsArg = '0', chunkArg = '500', mode = 'sdk'] =
  process.argv.slice(2);
type Results = readonly { error?: unknown }[];

async function* rows(count: number) {
  for (let i = 0; i < count; i++) {
    yield {
      partnerInvestorId: `inv-${i}`,
      email: `investor.${i}@example.com`,
      firstName: 'Ada',
      lastName: `Investor ${i}`,
      dateOfBirth: '1985-02-28',
      countryOfResidence: 'DE',
    };
  }
}

/** The SDK's call: results handed to `onResults` a chunk at a time. */
async function viaSdk(onResults: (results: Results) => void) {
  const { PartnerEquity } = (await import(indexUrl)) as typeof Sdk;
  const client = new PartnerEquity({
    baseUrl,
    clientId: 'client_bench',
    issuer: 'https://bench.example',
    privateKey: await readFile(keyFile, 'utf8'),
    logLevel: 'off',
  });
  const options = {
    chunkSize: Number(chunkArg),
    onChunk: ({ results }: { results: Results }) => onResults(results),
  };
  return { send: () => client.investors.create(rows(Number(rowsArg)), options), close: () => client.close() };
}

/** The same rows and chunks posted with undici.request, 4 in flight (the echo server takes any token). */
function viaUndici(onResults: (results: Results) => void) {
  const url = new URL('/v1/investors', baseUrl);
  const headers = { 'content-type': 'application/json', authorization: 'Bearer bench' };
  const post = async (investors: unknown[]) => {
    const response = await request(url, { method: 'POST', headers, body: JSON.stringify({ investors }) });
    onResults(((await response.body.json()) as { results: Results }).results);
  };
  const send = async () => {
    const source = rows(Number(rowsArg))[Symbol.asyncIterator]();
    const inFlight = new Set<Promise<void>>();
    for (let ended = false; !ended; ) {
      const chunk = [];
      while (chunk.length < Number(chunkArg) && !ended) {
        const next = await source.next();
        if (next.done === true) ended = true;
        else chunk.push(next.value);
      }
      if (chunk.length === 0) break;
      const sent: Promise<void> = post(chunk).finally(() => inFlight.delete(sent));
      inFlight.add(sent);
      if (inFlight.size >= 4) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  };
  return { send, close: async () => {} };
}

let done = 0;
let failed = 0;
// RSS sampled after every answered chunk: its highest value once half the rows were answered, and overall.
let sampledPeak = 0;
let halfPeak: number | undefined;
const count = (results: Results) => {
  done += results.length;
  failed += results.filter((row) => row.error != null).length;
  sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  if (halfPeak === undefined && done >= Number(rowsArg) / 2) halfPeak = sampledPeak;
};
const contender = mode === 'raw' ? viaUndici(count) : await viaSdk(count);
const startMb = process.memoryUsage.rss() / (1024 * 1024);
const started = performance.now();
const cpuStarted = process.cpuUsage();
await contender.send();
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStarted);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
await contender.close();
const mb = (bytes: number) => bytes / (1024 * 1024);
const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
const peakMb = process.resourceUsage().maxRSS / 1024;
// What stays alive, after a full collection (the child runs with --expose-gc; the peak is taken before it).
(globalThis as { gc?: () => void }).gc?.();
const heapUsedMb = mb(process.memoryUsage().heapUsed);
process.stdout.write(
  `${JSON.stringify({ seconds, cpuSeconds, done, failed, peakMb, heapUsedMb, newSpaceMb: mb(newSpace), startMb, halfPeakMb: mb(halfPeak ?? 0), sampledPeakMb: mb(sampledPeak) })}\n`,
);

// One run of scenario 8's SDK figures in a process of its own (import-csv.ts): the built SDK's
// `investors.create` fed by an async generator of generated rows, results taken by `onChunk`, against the
// echo server. Prints `{ seconds, cpuSeconds, done, failed, peakMb, heapUsedMb, newSpaceMb }`: peak RSS is the
// process's getrusage maximum; the heap alive after a full collection and V8's young generation (new space) are taken at the end.
import { readFile } from 'node:fs/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import type * as Sdk from '../../src/index.js';

const [indexUrl = '', baseUrl = '', keyFile = '', rowsArg = '0', chunkArg = '500'] = process.argv.slice(2);
const { PartnerEquity } = (await import(indexUrl)) as typeof Sdk;
const client = new PartnerEquity({
  baseUrl,
  clientId: 'client_bench',
  issuer: 'https://bench.example',
  privateKey: await readFile(keyFile, 'utf8'),
  logLevel: 'off',
});

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

let done = 0;
let failed = 0;
const started = performance.now();
const cpuStarted = process.cpuUsage();
await client.investors.create(rows(Number(rowsArg)), {
  chunkSize: Number(chunkArg),
  onChunk: ({ results }) => {
    done += results.length;
    failed += results.filter((row) => row.error != null).length;
  },
});
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStarted);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
await client.close();
const mb = (bytes: number) => bytes / (1024 * 1024);
const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
const peakMb = process.resourceUsage().maxRSS / 1024;
// What stays alive, after a full collection (the child runs with --expose-gc; the peak is taken before it).
(globalThis as { gc?: () => void }).gc?.();
const heapUsedMb = mb(process.memoryUsage().heapUsed);
process.stdout.write(
  `${JSON.stringify({ seconds, cpuSeconds, done, failed, peakMb, heapUsedMb, newSpaceMb: mb(newSpace) })}\n`,
);

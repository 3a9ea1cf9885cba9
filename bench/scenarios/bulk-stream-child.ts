// One run of scenario 8's SDK figures in a process of its own (import-csv.ts): the built SDK's
// `investors.create` fed by an async generator of generated rows, results taken by `onChunk`, against the
// echo server. Prints `{ seconds, done, failed, peakMb }`; peak RSS is the process's getrusage maximum.
import { readFile } from 'node:fs/promises';
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
await client.investors.create(rows(Number(rowsArg)), {
  chunkSize: Number(chunkArg),
  onChunk: ({ results }) => {
    done += results.length;
    failed += results.filter((row) => row.error != null).length;
  },
});
const seconds = (performance.now() - started) / 1000;
await client.close();
process.stdout.write(
  `${JSON.stringify({ seconds, done, failed, peakMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);

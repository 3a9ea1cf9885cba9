// Run by upload-memory.test.ts in its own process (with --expose-gc), so the fake's memory (it buffers what
// it receives) does not blur the SDK's. Uploads one file as the parent says and prints two numbers:
// - liveBytesPeak: the most ArrayBuffer memory alive at once during the upload, sampled right after a forced
//   young-generation GC every 2 ms: what the upload holds (read chunks, by contrast, are garbage V8 would
//   free lazily; a full GC that often would slow the upload down tenfold);
// - maxRssGrowth: how far the RSS high-water mark rose (noisier: it also counts uncollected garbage).
import { readFile } from 'node:fs/promises';
import { PartnerEquity } from '../../src/client.js';

const [mode, path] = process.argv.slice(2);
const env = (name: string) => process.env[name] ?? '';
const client = new PartnerEquity({
  baseUrl: env('PE_BASE_URL'),
  clientId: env('PE_CLIENT_ID'),
  issuer: env('PE_ISSUER'),
  privateKey: env('PE_PRIVATE_KEY'),
  logLevel: 'off',
});
const spv = env('PE_SPV');
const person = env('PE_PERSON');

// Warm up every code path (token, connection, multipart encoding) with a small file first.
await client.subscriptions.uploadSignedForm(spv, person, Buffer.from('%PDF-1.7\nwarm-up'));
const gcFn = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
const gc = (type: 'minor' | 'major' = 'major') => gcFn?.({ type });
const maxRss = () => process.resourceUsage().maxRSS * 1024;
gc();
const baseline = process.memoryUsage().arrayBuffers;
const before = maxRss();
let liveBytesPeak = 0;
const sample = setInterval(() => {
  gc('minor');
  liveBytesPeak = Math.max(liveBytesPeak, process.memoryUsage().arrayBuffers - baseline);
}, 2);
const file = mode === 'buffer' ? await readFile(path ?? '') : { path: path ?? '' };
await client.subscriptions.uploadSignedForm(spv, person, file);
clearInterval(sample);
process.stdout.write(JSON.stringify({ liveBytesPeak, maxRssGrowth: maxRss() - before }));
await client.close();

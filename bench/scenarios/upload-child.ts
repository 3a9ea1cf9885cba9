// One upload measurement in a fresh process (started by uploads.ts with --expose-gc). Modes:
// - sdk: `client.subscriptions.uploadSignedForm(spv, person, { path })`;
// - raw: a hand-written reference, undici.request with the multipart framing written around
//   fs.createReadStream (no FormData), the least memory a streaming upload can take on Node.
// Warm-up first (a small upload per person: token, connections, encoders, file reading), then GC and the
// RSS baseline, the kernel's RSS high-water mark reset, and the uploads at once while RSS is sampled every
// 2 ms. Prints { baseline, peak, growth } in bytes; peak is the larger of the samples and VmHWM.
import { randomUUID } from 'node:crypto';
import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { importSdk } from '../lib/build-sdk.js';
import { pdfBytes } from '../lib/fixtures.js';
import { rawAccessToken } from '../lib/raw-token.js';

const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`upload child: ${name} is not set`);
  return value;
};
const [mode = 'sdk', filePath = '', countText = '1'] = process.argv.slice(2);
const spvSlug = env('PE_SPV');
const persons = env('PE_PERSONS').split(',').slice(0, Number(countText));
const partner = {
  baseUrl: env('PE_BASE_URL'),
  clientId: env('PE_CLIENT_ID'),
  issuer: env('PE_ISSUER'),
  privateKey: env('PE_PRIVATE_KEY'),
};

type Upload = (person: string, path: string) => Promise<unknown>;

async function sdkUpload(): Promise<{ upload: Upload; close: () => Promise<void> }> {
  const { PartnerEquity } = await importSdk();
  const client = new PartnerEquity(partner);
  return {
    upload: (person, path) => client.subscriptions.uploadSignedForm(spvSlug, person, { path }),
    close: () => client.close(),
  };
}

async function rawUpload(): Promise<{ upload: Upload; close: () => Promise<void> }> {
  const authorization = `Bearer ${await rawAccessToken(partner)}`;
  const agent = new Agent();
  const upload: Upload = async (person, path) => {
    const boundary = `bench-${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="form.pdf"\r\ncontent-type: application/pdf\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const url = new URL(`/v1/spvs/${spvSlug}/subscription/${person}/forms`, partner.baseUrl);
    const response = await request(url, {
      method: 'POST',
      headers: {
        authorization,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + statSync(path).size + tail.length),
      },
      // Written chunk by chunk as the socket drains (Readable is undici's documented streaming body).
      body: Readable.from(
        (async function* () {
          yield head;
          yield* createReadStream(path);
          yield tail;
        })(),
      ),
      dispatcher: agent,
    });
    const text = await response.body.text();
    if (response.statusCode !== 201) throw new Error(`upload answered ${response.statusCode}`);
    return JSON.parse(text);
  };
  return { upload, close: () => agent.close() };
}

const { upload, close } = mode === 'raw' ? await rawUpload() : await sdkUpload();
const warmUp = `${filePath}.warm-up.pdf`;
writeFileSync(warmUp, pdfBytes(64 * 1024));
await Promise.all(persons.map((person) => upload(person, warmUp)));

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('upload child needs --expose-gc');
for (let i = 0; i < 3; i++) {
  gc();
  await sleep(20);
}
const baseline = process.memoryUsage.rss();
const highWaterMark = (): number => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match === null ? 0 : Number(match[1]) * 1024;
};
let canReset = true;
try {
  // "5" resets the peak RSS the kernel tracks for this process (Linux >= 4.0).
  writeFileSync('/proc/self/clear_refs', '5');
} catch {
  canReset = false;
}
let sampled = baseline;
const sampler = setInterval(() => {
  sampled = Math.max(sampled, process.memoryUsage.rss());
}, 2);
await Promise.all(persons.map((person) => upload(person, filePath)));
clearInterval(sampler);
sampled = Math.max(sampled, process.memoryUsage.rss());
const peak = canReset ? Math.max(sampled, highWaterMark()) : sampled;
process.stdout.write(JSON.stringify({ baseline, peak, growth: peak - baseline, kernelPeak: canReset }));
await close();

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../src/schemas/uploads.js';
import { useFakeApi } from './fake-harness.js';
import { fileBytes, useTempDir } from './files.js';
import { subscribedInvestor } from './fixtures.js';

const api = useFakeApi();
const temp = useTempDir();
const run = promisify(execFile);
const child = fileURLToPath(new URL('./upload-rss-child.ts', import.meta.url));
const MB = 1024 * 1024;

describe('a 10 MiB PDF upload streams from disk', () => {
  it('holds a few read chunks at a time, not the file (a Buffer upload holds the whole file)', async () => {
    const env = await api.start();
    const { spvSlug, personId } = await subscribedInvestor(env);
    const partner = env.credentials;
    const path = await temp.write('ten-mib.pdf', fileBytes('pdf', MAX_UPLOAD_BYTES));
    const measure = async (mode: 'path' | 'buffer') => {
      const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', child, mode, path], {
        env: {
          ...process.env,
          PE_BASE_URL: partner.baseUrl,
          PE_CLIENT_ID: partner.clientId,
          PE_ISSUER: partner.issuer,
          PE_PRIVATE_KEY: partner.privateKey,
          PE_SPV: spvSlug,
          PE_PERSON: personId,
        },
      });
      return JSON.parse(stdout) as { liveBytesPeak: number; maxRssGrowth: number };
    };
    const streamed = await measure('path');
    const buffered = await measure('buffer');
    const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;
    console.log(
      `10 MiB upload, live buffers / RSS high-water growth: { path } ${mb(streamed.liveBytesPeak)} / ${mb(streamed.maxRssGrowth)}, ` +
        `Buffer ${mb(buffered.liveBytesPeak)} / ${mb(buffered.maxRssGrowth)}`,
    );
    // The measurement sees a whole file in memory when there is one…
    expect(buffered.liveBytesPeak).toBeGreaterThan(MAX_UPLOAD_BYTES);
    // …and the streamed upload never holds more than a few read chunks.
    expect(streamed.liveBytesPeak).toBeLessThan(MAX_UPLOAD_BYTES / 3);
  });
});

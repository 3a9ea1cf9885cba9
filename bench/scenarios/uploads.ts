import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importSdk } from '../lib/build-sdk.js';
import { investorRows, pdfBytes, spvBody } from '../lib/fixtures.js';
import { atMost, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { median } from '../lib/stats.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';

const run = promisify(execFile);
const SCENARIO = '4 uploads';
const MB = 1024 * 1024;
/** The API's limit (10 MiB), the largest file a partner can send. */
const FILE_BYTES = 10 * MB;
const CHILD = fileURLToPath(new URL('./upload-child.ts', import.meta.url));
const TMP = fileURLToPath(new URL('../../.bench-tmp/', import.meta.url));

interface Measurement {
  baseline: number;
  peak: number;
  growth: number;
  kernelPeak: boolean;
}

/**
 * Scenario 4: peak RSS growth while uploading a 10 MiB PDF from disk (`{ path }`), once and five at a time,
 * each measured in a fresh child process (upload-child.ts) against the fake API in another process, so
 * neither the server's memory nor an earlier run's garbage is counted.
 */
export async function runUploads({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const { PartnerEquity } = await importSdk();
  const server = await spawnFakeServer();
  const client = new PartnerEquity({ ...server.partner });
  try {
    // An approved SPV and five subscribed investors: the form upload needs a subscription on record.
    const created = await client.spvRequests.create(await spvBody(client));
    const spv = await server.approveSpvRequest(created.spvRequestSlug);
    const investors = await client.investors.create(investorRows(5, 'upload'));
    const persons = investors.succeeded.map((row) => row.servicePersonId ?? '');
    await client.subscriptions.create(
      spv.spvSlug,
      persons.map((servicePersonId, i) => ({
        servicePersonId,
        shareClassSlug: spv.shareClassSlug,
        lumpSum: { currency: spv.currency, value: '25000.00' },
        partnerSubscriptionId: `upload-sub-${i}`,
      })),
    );
    await mkdir(TMP, { recursive: true });
    const file = `${TMP}upload-10mib.pdf`;
    await writeFile(file, pdfBytes(FILE_BYTES));

    const measure = async (mode: 'sdk' | 'raw', count: number): Promise<Measurement> => {
      const args = ['--expose-gc', '--import', 'tsx', CHILD, mode, file, String(count)];
      const { stdout } = await run(process.execPath, args, {
        env: {
          PATH: process.env['PATH'] ?? '',
          PE_BASE_URL: server.partner.baseUrl,
          PE_CLIENT_ID: server.partner.clientId,
          PE_ISSUER: server.partner.issuer,
          PE_PRIVATE_KEY: server.partner.privateKey,
          PE_SPV: spv.spvSlug,
          PE_PERSONS: persons.join(','),
        },
        maxBuffer: 1024 * 1024,
      });
      return JSON.parse(stdout) as Measurement;
    };
    const runs = quick ? 1 : 7;
    const single: Measurement[] = [];
    const five: Measurement[] = [];
    const rawSingle: Measurement[] = [];
    const rawFive: Measurement[] = [];
    for (let i = 0; i < runs; i++) {
      single.push(await measure('sdk', 1));
      five.push(await measure('sdk', 5));
      rawSingle.push(await measure('raw', 1));
      rawFive.push(await measure('raw', 5));
      await server.clearLog();
      const last = [single, five, rawSingle, rawFive].map((list) => fmt(list.at(-1)!.growth / MB));
      log(
        `  ${SCENARIO} run ${i + 1}: SDK one ${last[0]} MB, five ${last[1]} MB; raw one ${last[2]} MB, five ${last[3]} MB`,
      );
    }
    const growth = (list: Measurement[]) => median(list.map((m) => m.growth / MB));
    const worst = (list: Measurement[]) => Math.max(...list.map((m) => m.growth / MB));
    return {
      rows: [
        atMost(SCENARIO, 'one 10 MiB file from disk: peak RSS growth (median)', growth(single), 16, 'MB'),
        atMost(SCENARIO, 'five concurrent 10 MiB uploads: peak RSS growth (median)', growth(five), 40, 'MB'),
        reported(
          SCENARIO,
          'hand-written undici + createReadStream multipart: one / five (median)',
          `${fmt(growth(rawSingle), 'MB')} / ${fmt(growth(rawFive), 'MB')}`,
        ),
        reported(
          SCENARIO,
          'SDK worst run: one / five',
          `${fmt(worst(single), 'MB')} / ${fmt(worst(five), 'MB')} (baseline RSS ${fmt(median(single.map((m) => m.baseline / MB)), 'MB')})`,
        ),
      ],
      notes: [
        `Uploads: \`client.subscriptions.uploadSignedForm(spv, person, { path })\` with a 10 MiB (10,485,760-byte) PDF, ${runs} fresh child process(es) per figure (node --expose-gc, the bench's build of the SDK), each warmed up with a 64 KiB upload per person from disk and three GCs before the baseline. The hand-written reference writes the multipart framing around fs.createReadStream into undici.request: the least a streaming upload costs on Node, since every 64 KiB read becomes garbage that V8 frees lazily (external memory), so even it grows with the file. Peak = max of RSS sampled every 2 ms and the kernel's VmHWM after resetting it (${single[0]?.kernelPeak === true ? 'reset worked' : 'reset unavailable, samples only'}). The fake API runs in its own process. MB = MiB.`,
      ],
    };
  } finally {
    await client.close();
    await server.close();
  }
}

// `npm run bench:profile` — scenario 1's SDK contender alone under `node --cpu-prof`, against the replay
// server (so the profile is the client's time, not the fake's); bench/summarize-profile.ts then prints the
// hottest functions. The .cpuprofile stays in .bench-tmp/profiles/ for Chrome DevTools or speedscope.
// `node … bench/profile-request.ts [requests]`; BENCH_VALIDATION=off|warn|strict picks the client's
// responseValidation, NOBUILD=1 reuses the last .bench-tmp/dist build.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { buildSdk, importSdk } from './lib/build-sdk.js';
import { spvBody } from './lib/fixtures.js';
import { pool } from './lib/interleave.js';
import { rawTokenResponse } from './lib/raw-token.js';
import { spawnFakeServer } from './server/spawn-fake-server.js';
import { capture, spawnReplayServer } from './server/spawn-replay-server.js';

const total = Number(process.argv[2] ?? 40_000);
if (process.env.NOBUILD !== '1') await buildSdk();
const { PartnerEquity } = await importSdk();
const fake = await spawnFakeServer();
const setup = new PartnerEquity({ ...fake.partner });
const created = await setup.spvRequests.create(await spvBody(setup));
await fake.approveSpvRequest(created.spvRequestSlug);
const slug = created.spvRequestSlug;
const path = `/v1/spv-requests/${encodeURIComponent(slug)}`;
const tokenResponse = await rawTokenResponse(fake.partner);
const token = (JSON.parse(tokenResponse.body) as { accessToken: string }).accessToken;
const replay = await spawnReplayServer({
  token,
  routes: {
    [`GET ${path}`]: await capture(fake.baseUrl, path, token),
    'POST /v1/oauth2/tokens': tokenResponse,
  },
  publicRoutes: ['POST /v1/oauth2/tokens'],
});
// BENCH_VALIDATION=off|strict|warn profiles that responseValidation mode (default: the client's default).
const validation = process.env.BENCH_VALIDATION as 'off' | 'strict' | 'warn' | undefined;
const client = new PartnerEquity({
  ...fake.partner,
  baseUrl: replay.baseUrl,
  ...(validation === undefined ? {} : { responseValidation: validation }),
});
// Collections during the timed requests, by kind: how many major ones a run has tells which of V8's two
// steady states it is in (bench/lib/findings.ts, "GC modes").
const collections = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
    const minorGc = detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR;
    const bucket = minorGc ? collections.minor : collections.major;
    bucket.count += 1;
    bucket.ms += entry.duration;
  }
});
observer.observe({ entryTypes: ['gc'] });
const started = performance.now();
await pool(total, 32, () => client.spvRequests.get(slug));
const ms = performance.now() - started;
observer.disconnect();
const { minor, major } = collections;
process.stderr.write(
  `${total} requests in ${ms.toFixed(0)} ms (${((total * 1000) / ms).toFixed(0)} req/s); GC: ${minor.count} minor (${minor.ms.toFixed(0)} ms), ${major.count} major or incremental (${major.ms.toFixed(0)} ms), ${(((minor.ms + major.ms) * 1000) / total).toFixed(1)} µs a request\n`,
);
await client.close();
await setup.close();
await replay.close();
await fake.close();

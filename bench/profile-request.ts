// `npm run bench:profile` — scenario 1's SDK contender alone under `node --cpu-prof`, against the replay
// server (so the profile is the client's time, not the fake's); bench/summarize-profile.ts then prints the
// hottest functions. The .cpuprofile stays in .bench-tmp/profiles/ for Chrome DevTools or speedscope.
// `node … bench/profile-request.ts [requests]`; BENCH_VALIDATION=off|warn|strict picks the client's
// responseValidation, NOBUILD=1 reuses the last .bench-tmp/dist build.
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
const started = performance.now();
await pool(total, 32, () => client.spvRequests.get(slug));
const ms = performance.now() - started;
process.stderr.write(
  `${total} requests in ${ms.toFixed(0)} ms (${((total * 1000) / ms).toFixed(0)} req/s)\n`,
);
await client.close();
await setup.close();
await replay.close();
await fake.close();

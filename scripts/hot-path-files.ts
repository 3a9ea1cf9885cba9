// The files `client.spvRequests.get` runs code in, for the walk in src/core/README.md: V8 precise coverage
// around one warm call against the fake (in process, over loopback), each file with the functions it ran.
// Usage: node --import tsx scripts/hot-path-files.ts   (the npm scripts' Node: PATH=node_modules/.bin:$PATH)
import { Session } from 'node:inspector/promises';
import { PartnerEquity } from '../src/client.js';
import { FakePartnerEquity } from '../src/testing/index.js';
import { spvBody } from '../test/helpers/spv-body.js';

const fake = new FakePartnerEquity();
await fake.listen();
const client = new PartnerEquity({ ...(await fake.createPartner()), logLevel: 'off' });
const { spvRequestSlug: slug } = await client.spvRequests.create(await spvBody(client));
for (let i = 0; i < 50; i += 1) await client.spvRequests.get(slug);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
await client.spvRequests.get(slug);
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
await fake.close();

const ran = result.flatMap((script) => {
  const file = /\/(src\/(?!testing\/).*)$/.exec(script.url)?.[1];
  const functions = script.functions.filter((f) => (f.ranges[0]?.count ?? 0) > 0);
  return file === undefined || functions.length === 0
    ? []
    : [`${file}: ${functions.map((f) => f.functionName || '(anonymous)')}`];
});
console.log(`${ran.join('\n')}\n${ran.length} files`);
process.exit(0);

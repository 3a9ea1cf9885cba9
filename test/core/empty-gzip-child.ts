// Run by empty-gzip-members.test.ts in its own process, so the RSS it reports is the transport's alone.
// Reads one answer from the URL given through the transport named, the way the pipeline does (readText),
// and prints how it ended and how far the RSS high-water mark rose meanwhile.
import { nodeHttpTransport } from '../../src/core/transport/node-http.js';
import { fetchTransport, readText, undiciTransport } from '../../src/core/transport/transport.js';

const [name, url] = process.argv.slice(2);
const closable = name === 'node:http' ? nodeHttpTransport() : undiciTransport();
const transport = name === 'fetch' ? fetchTransport(globalThis.fetch) : closable;
const get = async (path: string) => {
  const response = await transport({
    method: 'GET',
    url: new URL(path, url),
    headers: {},
    signal: new AbortController().signal,
  });
  return readText(response.body);
};
// Warm up the code paths (undici's import or node:http's, a connection, a gunzip) before the baseline.
await get('/small');
const maxRss = () => process.resourceUsage().maxRSS * 1024;
const before = maxRss();
const outcome = await get('/members').then(
  (text) => `resolved with ${text.length} characters`,
  (error: unknown) => (error instanceof Error ? error.constructor.name : String(error)),
);
process.stdout.write(JSON.stringify({ outcome, rssGrowth: maxRss() - before }));
await closable.close();

// Run by proxy.test.ts in its own process, with the proxy variables the parent chose. `client`: a client
// exchanges a token and lists SPV requests; `get <url>`: the client's transport GETs one URL. Prints the result.
import { PartnerEquity } from '../../src/client.js';
import { readText, undiciTransport } from '../../src/core/transport/transport.js';

const [mode, url] = process.argv.slice(2);
const env = (name: string) => process.env[name] ?? '';
if (mode === 'client') {
  const client = new PartnerEquity({
    baseUrl: env('PE_BASE_URL'),
    clientId: env('PE_CLIENT_ID'),
    issuer: env('PE_ISSUER'),
    privateKey: env('PE_PRIVATE_KEY'),
    logLevel: 'off',
    maxRetries: 0,
  });
  const page = await client.spvRequests.list();
  process.stdout.write(JSON.stringify({ listed: page.documents.length }));
  await client.close();
} else {
  const transport = undiciTransport();
  const signal = new AbortController().signal;
  const response = await transport({ method: 'GET', url: new URL(url ?? ''), headers: {}, signal });
  process.stdout.write(JSON.stringify({ status: response.status, body: await readText(response.body) }));
  await transport.close();
}

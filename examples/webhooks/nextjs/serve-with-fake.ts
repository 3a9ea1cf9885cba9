// Runs the Next.js route handler against the fake API without Next.js: the route module is served on
// node:http as `next dev` would serve it at /api/webhooks, and the fake delivers real events to it.
//
//   npm exec -- tsx examples/webhooks/nextjs/serve-with-fake.ts
import { randomBytes } from 'node:crypto';
import { PartnerEquity } from '@partner-equity/sdk';
import { FakePartnerEquity } from '@partner-equity/sdk/testing';
import { followWallClock } from '../../support/connect.js';
import { dealRequest } from '../../support/deal.js';
import { serveFetch } from '../../support/serve-fetch.js';

process.env['PE_WEBHOOK_SECRET'] = `whsec_${randomBytes(24).toString('base64')}`;
const { POST } = await import('./app/api/webhooks/route.js');
const { handledEvents } = await import('./lib/partner-equity-events.js');

const served = await serveFetch(async (request) =>
  new URL(request.url).pathname === '/api/webhooks' && request.method === 'POST'
    ? POST(request)
    : new Response('Not Found', { status: 404 }),
);
const fake = new FakePartnerEquity();
const stopClock = followWallClock(fake);
try {
  await fake.listen();
  const partner = await fake.createPartner();
  fake.webhooks.register({
    url: `${served.origin}/api/webhooks`,
    secret: process.env['PE_WEBHOOK_SECRET'],
    clientId: partner.clientId,
  });
  const client = new PartnerEquity(partner);
  const request = await client.spvRequests.create(dealRequest());
  // Deliveries run concurrently: let `spv_request.created` arrive before approving emits the next event.
  await fake.webhooks.flush();
  fake.admin.approveSpvRequest(request.spvRequestSlug);
  await client.close();
  await fake.webhooks.flush();
  console.log(`[next.js] handled: ${handledEvents.map((event) => event.type).join(', ')}`);
} finally {
  stopClock();
  await fake.close();
  await served.close();
}

// Drives a framework example end to end: a fake Partner Equity API delivers real, signed webhooks to the
// app's route while a client creates an SPV request and the fake's admin approves it.
import { randomBytes } from 'node:crypto';
import { PartnerEquity } from '@partner-equity/sdk';
import { FakePartnerEquity } from '@partner-equity/sdk/testing';
import type { WebhookReceiver } from '@partner-equity/sdk/webhooks';
import { followWallClock } from '../support/connect.js';
import { dealRequest } from '../support/deal.js';
import { createReceiver } from './receiver.js';

/** The app under demonstration, listening. */
export interface RunningApp {
  /** The full URL of the webhook route. */
  url: string;
  close(): Promise<void>;
}

export async function runWithFake(
  framework: string,
  startApp: (receiver: WebhookReceiver) => Promise<RunningApp>,
): Promise<void> {
  const lines: string[] = [];
  let wake = () => {};
  const log = (line: string) => {
    console.log(`[${framework}] ${line}`);
    lines.push(line);
    wake();
  };
  // With the real service you receive the secret when you register the endpoint with Partner Equity.
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const app = await startApp(createReceiver(secret, log));
  const fake = new FakePartnerEquity();
  const stopClock = followWallClock(fake);
  try {
    await fake.listen();
    const partner = await fake.createPartner();
    fake.webhooks.register({ url: app.url, secret, clientId: partner.clientId });
    const client = new PartnerEquity(partner);
    const request = await client.spvRequests.create(dealRequest());
    // Deliveries run concurrently: let `spv_request.created` arrive before approving emits the next event.
    await fake.webhooks.flush();
    fake.admin.approveSpvRequest(request.spvRequestSlug);
    await client.close();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the webhooks did not arrive within 30 s')), 30_000);
      wake = () => {
        if (lines.some((line) => line.startsWith('spv_request.completed'))) {
          clearTimeout(timer);
          resolve();
        }
      };
      wake();
    });

    // A forged delivery (right shape, wrong signature) is answered 400 and never reaches a handler.
    const forged = await fetch(app.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
      },
      body: JSON.stringify({ type: 'spv_request.completed', timestamp: new Date().toISOString(), data: {} }),
    });
    log(`forged delivery answered ${forged.status}`);
    const delivered = fake.webhooks.deliveries.filter((d) => d.state === 'delivered').length;
    log(`${delivered} deliveries acknowledged with a 2xx`);
  } finally {
    stopClock();
    await fake.close();
    await app.close();
  }
}

// Running many instances with the `ioredis` package: every process of your service shares one token chain
// and handles each webhook once, through one Redis. Run several copies: they behave as one.
//
//   REDIS_URL=redis://127.0.0.1:6379 npm exec -- tsx examples/many-instances/ioredis.ts
//   (against an in-process fake; with PE_* variables set, against that environment)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RedisTokenStore, RedisWebhookIdStore } from '@partner-equity/sdk/redis';
import { createNodeHandler, Webhook, WebhookReceiver } from '@partner-equity/sdk/webhooks';
import { Redis } from 'ioredis';
import { connect } from '../support/connect.js';

// One connection per process, shared by both stores. Listen for `error` (ioredis reports every lost
// connection there); commands fail fast while it reconnects (the stores check `status`).
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
redis.on('error', (error: Error) => console.warn(`redis: ${error.message}`));

// Tokens: one chain for every process of this client. TOKEN_STORE_KEY (32 random bytes, base64, the same in
// every process: `openssl rand -base64 32`) encrypts what Redis holds; without it, tokens are stored readable.
const tokenStore = new RedisTokenStore({ client: redis, encryptionKey: process.env.TOKEN_STORE_KEY });
const { client, close } = await connect({ tokenStore });

// Webhooks: a delivery that reaches two processes runs its handler once.
const webhook = new Webhook({
  secret: process.env.WEBHOOK_SECRET ?? 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});
const receiver = new WebhookReceiver(webhook, { idStore: new RedisWebhookIdStore({ client: redis }) }).onAny(
  async (event) => {
    console.log(`handled ${event.type} (webhook-id ${event.webhookId})`);
  },
);
const server = createServer(createNodeHandler(receiver));
await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));

try {
  const info = await client.oauth.info();
  // The spec names what token info describes, not its fields: print what this service sent.
  console.log(`authenticated; tokens shared through Redis; token info: ${JSON.stringify(info)}`);

  // A duplicate racing the original, as the service may send one: both copies at once.
  const payload = JSON.stringify({
    type: 'spv_request.created',
    timestamp: new Date().toISOString(),
    data: { spvRequestSlug: 'spvr_example', status: 'pending-review' },
  });
  const headers = { ...(await webhook.sign({ payload })), 'content-type': 'application/json' };
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const answers = await Promise.all(
    [1, 2].map(async () => (await fetch(url, { method: 'POST', headers, body: payload })).status),
  );
  console.log(
    `the same delivery twice: ${answers.sort().join(' and ')} (409 = being handled: retried later)`,
  );
} finally {
  server.close();
  await close();
  redis.disconnect();
}

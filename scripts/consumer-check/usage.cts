// Type-checked by scripts/consumer-check.sh: a CommonJS TypeScript module under nodenext resolves the
// `require` condition (index.d.cts); the public types are real types, not `any`.
import sdk = require('@partner-equity/sdk');
import webhooks = require('@partner-equity/sdk/webhooks');
import redisEntry = require('@partner-equity/sdk/redis');
import ioredis = require('ioredis');

const client = new sdk.PartnerEquity({
  baseUrl: 'https://sandbox.example-partner-equity.com',
  clientId: 'client_123',
  issuer: 'https://api.partner.example',
  privateKey: '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n',
});

async function health(): Promise<string> {
  const data = await client.system.health();
  return data.status ?? 'unknown';
}

function isApiError(error: unknown): error is sdk.APIError {
  return error instanceof sdk.APIError;
}

const webhook: webhooks.Webhook = new webhooks.Webhook({
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

// @ts-expect-error baseUrl is a string: proves the declarations are typed, not `any`.
new sdk.PartnerEquity({ baseUrl: 42 });

const tokenStore: sdk.TokenStore = new redisEntry.RedisTokenStore({ client: new ioredis.Redis() });

export = { health, isApiError, webhook, tokenStore };

// Type-checked by scripts/consumer-check.sh against the installed tarball (ESM under nodenext, and under
// bundler resolution): the public types resolve and are real types, not `any`.
import {
  APIError,
  type ClientOptions,
  InputValidationError,
  PartnerEquity,
  type RawResponse,
  type RequestOptions,
} from '@partner-equity/sdk';
import { RedisTokenStore, RedisWebhookIdStore } from '@partner-equity/sdk/redis';
import { FakePartnerEquity } from '@partner-equity/sdk/testing';
import { Webhook, type WebhookEvent, WebhookReceiver } from '@partner-equity/sdk/webhooks';
import { Redis } from 'ioredis';
import { createClient } from 'redis';

const options: ClientOptions = {
  baseUrl: 'https://sandbox.example-partner-equity.com',
  clientId: 'client_123',
  issuer: 'https://api.partner.example',
  privateKey: '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n',
  maxRetries: 3,
};
const client = new PartnerEquity(options);
const perCall: RequestOptions = { timeout: 5_000, maxRetries: 1 };

export async function health(): Promise<string> {
  const { data, response } = await client.system.health(perCall).withResponse();
  const raw: RawResponse = response;
  return `${data.status} ${raw.status}`;
}

export function describe(error: unknown): string {
  if (error instanceof InputValidationError) return error.issues.map((issue) => issue.path).join(', ');
  if (error instanceof APIError) return `${error.status} ${error.requestId ?? ''}`;
  return 'unknown';
}

export async function receive(body: string, headers: Record<string, string>): Promise<string> {
  const event: WebhookEvent = await new Webhook({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }).verify(
    body,
    headers,
  );
  return event.type ?? event.problem;
}

export async function withFake(): Promise<string> {
  const fake = new FakePartnerEquity();
  await fake.listen();
  const partner = await fake.createPartner();
  const info = await new PartnerEquity({ ...partner }).oauth.info();
  await fake.close();
  return info.applicationName ?? '';
}

// @ts-expect-error baseUrl is a string: proves the declarations are typed, not `any`.
new PartnerEquity({ baseUrl: 42 });
// @ts-expect-error an unknown option is refused by the types too.
new PartnerEquity({ baseUrl: 'https://x.example', retrys: 3 });

// The Redis stores take either library's client as it is typed there.
export function withRedis(): PartnerEquity {
  const nodeRedis = createClient({ url: 'redis://localhost:6379' });
  const ioredis = new Redis('redis://localhost:6379');
  new WebhookReceiver(new Webhook({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }), {
    idStore: new RedisWebhookIdStore({ client: ioredis }),
  });
  return new PartnerEquity({ ...options, tokenStore: new RedisTokenStore({ client: nodeRedis }) });
}
// @ts-expect-error a Redis store needs a Redis client.
new RedisTokenStore({ client: {} });

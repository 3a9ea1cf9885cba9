// A local webhook endpoint for the examples: a plain node:http server running the SDK's receiver, which
// verifies every delivery before any handler sees it. `next(type)` waits for a verified event.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createNodeHandler,
  type KnownWebhookEvent,
  type KnownWebhookEventType,
  Webhook,
  type WebhookEvent,
  WebhookReceiver,
} from '@partner-equity/sdk/webhooks';

/** A running receiver. */
export interface WebhookInbox {
  url: string;
  /** Every verified event so far, in arrival order. */
  events: WebhookEvent[];
  /** Resolves with the first verified event of `type` (already received or still to come). */
  next<T extends KnownWebhookEventType>(type: T, timeoutMs?: number): Promise<KnownWebhookEvent<T>>;
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port; `secret` arrives once the endpoint is registered. */
export async function startWebhookInbox(): Promise<WebhookInbox & { useSecret(secret: string): void }> {
  const events: WebhookEvent[] = [];
  const waiters = new Set<() => void>();
  let handler: ReturnType<typeof createNodeHandler> | undefined;
  const server = createServer((req, res) => {
    if (handler === undefined) {
      res.writeHead(503).end();
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    events,
    useSecret(secret) {
      const receiver = new WebhookReceiver(new Webhook({ secret })).onAny((event) => {
        events.push(event);
        for (const wake of waiters) wake();
      });
      handler = createNodeHandler(receiver);
    },
    next(type, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${type} webhook within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          const found = events.find((event) => event.type === type);
          if (found === undefined) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found as KnownWebhookEvent<typeof type>);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

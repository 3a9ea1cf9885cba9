import {
  BodyTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  declaredTooLarge,
  readBody,
  streamChunks,
} from './read-body.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/** Options of {@link createFetchHandler}. */
export interface FetchHandlerOptions {
  /**
   * Largest body accepted, in bytes; larger requests get `413` without being buffered.
   * @default 1_048_576
   */
  maxBodyBytes?: number;
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  if (status === 204) return new Response(null, { status });
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}

/**
 * A Fetch API handler, `(request: Request) => Promise<Response>`, for Next.js route handlers, Hono,
 * Cloudflare Workers, Deno, Bun and Vercel Edge. It reads the raw body itself.
 *
 * @example
 * ```ts
 * // app/api/webhooks/route.ts (Next.js)
 * export const POST = createFetchHandler(receiver);
 * // Hono: app.post('/webhooks', (c) => handler(c.req.raw));  Workers: export default { fetch: handler };
 * ```
 */
export function createFetchHandler(
  receiver: WebhookReceiver,
  options: FetchHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (request) => {
    if (request.method !== 'POST') return text(405, 'Method Not Allowed', { allow: 'POST' });
    if (declaredTooLarge(request.headers.get('content-length'), maxBytes))
      return text(413, 'Payload Too Large');
    if (request.bodyUsed) {
      // Middleware read the body first (e.g. `await c.req.json()`): verify() refuses it and onError hears why.
      const receipt = await receiver.receive(null as unknown as Uint8Array, request.headers);
      return text(receipt.status, receipt.body);
    }
    let body: Uint8Array;
    try {
      body = request.body ? await readBody(streamChunks(request.body), maxBytes) : new Uint8Array(0);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return text(413, 'Payload Too Large');
      return text(400, 'Invalid webhook'); // the client aborted mid-body
    }
    const receipt = await receiver.receive(body, request.headers);
    return text(receipt.status, receipt.body);
  };
}

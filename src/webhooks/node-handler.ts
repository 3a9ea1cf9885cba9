import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, declaredTooLarge, readBody } from './read-body.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/**
 * The parts of Node's `IncomingMessage` (or Express's `Request`) the handler uses; typed structurally so
 * this entry needs no `node:` types.
 */
export interface NodeWebhookRequest extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Set by Express body parsers: a Buffer from `express.raw()` is used as is. */
  body?: unknown;
  /** True once something (a body parser) has consumed the stream. */
  readableEnded?: boolean;
}

/** The parts of Node's `ServerResponse` (or Express's `Response`) the handler uses. */
export interface NodeWebhookResponse {
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Ends the response, with an optional text body. */
  end(body?: string): unknown;
}

/** Options of {@link createNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Largest body accepted, in bytes; larger requests get `413` without being buffered.
   * @default 1_048_576
   */
  maxBodyBytes?: number;
}

function send(
  res: NodeWebhookResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (status === 204) {
    res.end();
    return;
  }
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(body);
}

/**
 * A Node `http` / Express handler, `(req, res) => Promise<void>`. It reads the raw body from the request
 * stream itself; after `express.raw()` it uses the Buffer that left in `req.body`. A body already parsed
 * into an object (`express.json()` ran first) cannot be verified: the request is refused and `onError`
 * hears a `body_not_raw` error explaining the fix.
 *
 * @example
 * ```ts
 * http.createServer(createNodeHandler(receiver)).listen(3000);
 * app.post('/webhooks', createNodeHandler(receiver)); // Express: mount before express.json(), or after express.raw()
 * ```
 */
export function createNodeHandler(
  receiver: WebhookReceiver,
  options: NodeHandlerOptions = {},
): (req: NodeWebhookRequest, res: NodeWebhookResponse) => Promise<void> {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (req, res) => {
    if (req.method !== undefined && req.method !== 'POST') {
      send(res, 405, 'Method Not Allowed', { allow: 'POST' });
      return;
    }
    const contentLength = req.headers['content-length'];
    if (declaredTooLarge(typeof contentLength === 'string' ? contentLength : undefined, maxBytes)) {
      send(res, 413, 'Payload Too Large', { connection: 'close' });
      return;
    }
    let body: unknown;
    const given = req.body;
    if (typeof given === 'string' || given instanceof Uint8Array) {
      body = given; // express.raw() / express.text()
    } else if (req.readableEnded) {
      body = given; // consumed by a parser: verify() refuses it with the body-parser hint
    } else {
      try {
        body = await readBody(req, maxBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) send(res, 413, 'Payload Too Large', { connection: 'close' });
        else send(res, 400, 'Invalid webhook');
        return;
      }
    }
    const receipt = await receiver.receive(body as Uint8Array, req.headers);
    send(res, receipt.status, receipt.body);
  };
}

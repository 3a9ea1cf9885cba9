import type * as Http from 'node:http';
import { Readable } from 'node:stream';
import { ACCEPT_ENCODING, boundedBody } from './response-body.js';
import type { ClosableTransport, ResponseHeaders, TransportRequest, TransportResponse } from './transport.js';

type Client = Pick<typeof Http, 'request' | 'Agent'>;

/** @default 10 MiB: far above any documented response, small enough to stop a runaway proxy page. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

// `process.getBuiltinModule` hands over the CommonJS module: `import('node:http')` would build its ESM
// namespace, reading its lazy WebSocket/MessageEvent getters, which load Node's bundled undici (~40 ms).
function builtin(protocol: string): Client {
  const name = protocol === 'http:' ? 'node:http' : 'node:https';
  return process.getBuiltinModule(name) as Client;
}

/**
 * The default transport: Node's own `http`/`https` client over keep-alive Agents this transport owns (closed
 * by `close()`), handing the raw bytes to {@link boundedBody}, which decodes them and bounds them as received
 * and as decoded. No module beyond Node's is loaded. Works on Bun and Deno, whose `node:http` is the same API.
 */
export function nodeHttpTransport(
  options: { maxResponseBytes?: number | undefined } = {},
): ClosableTransport {
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  // One Agent a protocol, made by the first request that needs it.
  const agents = new Map<string, { client: Client; agent: Http.Agent }>();
  const transport = (req: TransportRequest) => {
    const protocol = req.url.protocol;
    let route = agents.get(protocol);
    if (route === undefined) {
      const client = builtin(protocol);
      route = { client, agent: new client.Agent({ keepAlive: true }) };
      agents.set(protocol, route);
    }
    return send(route.client, route.agent, req, limit);
  };
  return Object.assign(transport, {
    close: async () => {
      for (const { agent } of agents.values()) agent.destroy();
      agents.clear();
    },
  });
}

function send(client: Client, agent: Http.Agent, req: TransportRequest, limit: number) {
  const { signal } = req;
  const streamed = typeof req.body === 'object' ? req.body : undefined;
  const text = typeof req.body === 'string' ? Buffer.from(req.body) : undefined;
  return new Promise<TransportResponse>((resolve, reject) => {
    signal.throwIfAborted();
    const request = client.request(req.url, {
      method: req.method,
      agent,
      headers: {
        'accept-encoding': ACCEPT_ENCODING,
        ...req.headers,
        ...(text && { 'content-length': String(text.byteLength) }),
        ...(streamed && { 'content-type': streamed.contentType, 'content-length': String(streamed.length) }),
      },
    });
    let response: Http.IncomingMessage | undefined;
    // The attempt's end, whenever it comes: before the answer (the request fails with the signal's reason)
    // or in its body (the body's reader does).
    const abort = () => {
      response?.destroy(signal.reason);
      request.destroy(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
    const done = () => signal.removeEventListener('abort', abort);
    request.once('close', done);
    request.on('error', (error) => {
      done();
      reject(tlsNamed(error));
    });
    request.once('response', (answer) => {
      response = answer;
      answer.once('close', done);
      const { statusCode: status = 0, headers: raw } = answer;
      // A coded empty body (a 204, or a gateway's `Content-Length: 0`) has nothing to decode.
      const empty = status === 204 || status === 304 || raw['content-length'] === '0';
      const facts = {
        encoding: empty ? undefined : raw['content-encoding'],
        declared: raw['content-length'],
        limit,
      };
      resolve({ status, headers: headersOf(raw), body: boundedBody(answer, facts) });
    });
    if (streamed === undefined) request.end(text);
    else {
      // Read as the socket drains (a file from disk, one chunk at a time). A read failure ends the request
      // with it; a request that ends early stops the reading.
      const source = Readable.from(streamed.chunks(), { objectMode: false, highWaterMark: 0 });
      source.once('error', (error) => request.destroy(error));
      request.once('close', () => source.destroy());
      source.pipe(request);
    }
  });
}

/**
 * A TLS failure met while the request is written surfaces as `write EPROTO …:SSL routines:<function>:<reason>`
 * (a TLS hello answered in plain HTTP: `wrong version number`). Named here as Node's TLS errors and undici
 * name it, `ERR_SSL_WRONG_VERSION_NUMBER`, so the error code says what happened; the original is the cause.
 */
function tlsNamed(error: Error & { code?: string }): Error {
  const reason =
    error.code === 'EPROTO' ? /:SSL routines:[^:]*:([a-z ]+):/.exec(error.message)?.[1] : undefined;
  if (reason === undefined) return error;
  const code = `ERR_SSL_${reason.toUpperCase().replaceAll(' ', '_')}`;
  return Object.assign(new Error(`TLS failed: ${reason}`, { cause: error }), { code });
}

/** A header object (undici's, or `node:http`'s) read by name, or walked as pairs. */
export function headersOf(raw: Record<string, string | string[] | undefined>): ResponseHeaders {
  return {
    get: (name) => {
      const value = raw[name];
      return value === undefined ? null : (Array.isArray(value) ? value.join(', ') : value).trim();
    },
    *[Symbol.iterator]() {
      for (const [name, value] of Object.entries(raw))
        for (const item of [value ?? []].flat()) yield [name, item];
    },
  };
}

import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type { Dispatcher } from 'undici';
import { DEFAULT_MAX_RESPONSE_BYTES, headersOf } from './node-http.js';
import { processEnv, proxyVariable } from './proxy.js';
import { ACCEPT_ENCODING, boundedBody } from './response-body.js';

export { readText } from './response-body.js';

/** A body sent as it is read (a file upload); `chunks()` and `toBlob()` restart on every call (retries). */
export interface StreamedBody {
  readonly contentType: string;
  readonly length: number;
  chunks(): AsyncIterable<Uint8Array>;
  toBlob(): Promise<Blob>;
}

/** One HTTP request as the pipeline hands it to a transport. Header names are lower-case. */
export interface TransportRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** A {@link StreamedBody} gets its `content-type` and length from the transport. */
  body?: string | StreamedBody | undefined;
  /** Aborts the attempt: caller cancellation, per-attempt timeout or the total deadline. */
  signal: AbortSignal;
}

/** Response headers: one read by lower-case name (`Headers#get`), or all walked as pairs. `Headers` is one. */
export interface ResponseHeaders extends Iterable<[string, string]> {
  get(name: string): string | null;
}

/** The answer to a {@link TransportRequest}. */
export interface TransportResponse {
  status: number;
  headers: ResponseHeaders;
  /**
   * The body, decompressed, read once and only as fast as it is iterated. Iterating it rejects with
   * `ResponseTooLargeError` once it passes the transport's byte limit (the rest is not read), and with the
   * signal's reason when the attempt aborts. Read it to its end, or stop iterating: a body never iterated
   * holds its connection until the signal aborts.
   */
  body: AsyncIterable<Uint8Array>;
}

/** The seam between the SDK and the network; a rejection means "no usable response". */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** Options of {@link undiciTransport}. */
export interface UndiciTransportOptions {
  /**
   * Connection pool to use. @default a new keep-alive `Agent`, or an `EnvHttpProxyAgent` when `HTTPS_PROXY` or
   * `HTTP_PROXY` is set (either is closed by the returned `close()`).
   */
  dispatcher?: Dispatcher | undefined;
  /** Largest response body read, in bytes, counted as received and again decompressed. @default 10 MiB */
  maxResponseBytes?: number | undefined;
}

/** A {@link Transport} that can release the connections it owns. */
export interface ClosableTransport extends Transport {
  /** Closes the keep-alive agent this transport created (not a `dispatcher` you passed in). */
  close(): Promise<void>;
}

/**
 * The transport for a `dispatcher` or a proxy variable: `request` over a keep-alive undici `Agent` (shared by
 * derived clients), through the proxy the environment names, decoding compressed answers. undici is
 * imported on the first request.
 */
export function undiciTransport(options: UndiciTransportOptions = {}): ClosableTransport {
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  let owned: Dispatcher | undefined;
  let started: Promise<Transport> | undefined;
  const start = async (): Promise<Transport> => {
    if (options.dispatcher === undefined) owned = await defaultDispatcher();
    const dispatcher = options.dispatcher ?? (owned as Dispatcher);
    // Bun's own `undici` has no `dispatch` (its `request` wraps its fetch): there, the fetch transport.
    if (typeof dispatcher.dispatch !== 'function') return fetchTransport(globalThis.fetch, options);
    return (req) => send(dispatcher, req, limit);
  };
  const transport: Transport = (req) => {
    started ??= start();
    return started.then((sendOne) => sendOne(req));
  };
  return Object.assign(transport, {
    close: async () => {
      await started;
      // Bun's own `undici` gives an Agent with no `close`.
      await owned?.close?.();
    },
  });
}

// A keep-alive Agent, or where HTTPS_PROXY/HTTP_PROXY is set, undici's agent that honours them and NO_PROXY
// (for the token exchange, API calls and uploads alike: they share the transport).
async function defaultDispatcher(): Promise<Dispatcher> {
  const { Agent, EnvHttpProxyAgent } = await import('undici');
  return proxyVariable(processEnv()) === undefined ? new Agent() : new EnvHttpProxyAgent();
}

async function send(
  dispatcher: Dispatcher,
  req: TransportRequest,
  limit: number,
): Promise<TransportResponse> {
  const { url, signal } = req;
  const streamed = typeof req.body === 'object' ? req.body : undefined;
  const answer = await dispatcher.request({
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: req.method as Dispatcher.HttpMethod,
    headers: {
      'accept-encoding': ACCEPT_ENCODING,
      ...req.headers,
      ...(streamed && { 'content-type': streamed.contentType, 'content-length': String(streamed.length) }),
    },
    // A streamed body is read as the socket drains (a file from disk, one chunk at a time).
    body: streamed
      ? Readable.from(streamed.chunks(), { objectMode: false, highWaterMark: 0 })
      : ((req.body as string | undefined) ?? null),
    signal,
  });
  const { statusCode: status, headers: raw } = answer;
  // A coded empty body (a 204, or a gateway's `Content-Length: 0`) has nothing to decode.
  const empty = status === 204 || status === 304 || raw['content-length'] === '0';
  const facts = {
    encoding: empty ? undefined : raw['content-encoding'],
    declared: raw['content-length'],
    limit,
  };
  return { status, headers: headersOf(raw), body: boundedBody(answer.body, facts) };
}

/**
 * A {@link Transport} over a WHATWG `fetch` (global, MSW's, any runtime's), which decodes compression itself.
 */
export function fetchTransport(
  fetchImpl: typeof globalThis.fetch,
  options: { maxResponseBytes?: number | undefined } = {},
): Transport {
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (req) => {
    const streamed = typeof req.body === 'object' ? req.body : undefined;
    const response = await fetchImpl(req.url, {
      method: req.method,
      // A Blob body: fetch sets Content-Length from it, and every runtime (and MSW) accepts it.
      headers: streamed ? { ...req.headers, 'content-type': streamed.contentType } : req.headers,
      body: ((await streamed?.toBlob()) ?? req.body ?? null) as BodyInit | null,
      signal: req.signal,
      redirect: 'manual',
    });
    // fetch has decoded the body: the coded bytes are bounded only by their declared length (and the timeout).
    const declared = response.headers.get('content-length');
    const body = Readable.fromWeb((response.body ?? new Blob().stream()) as WebStream);
    return {
      status: response.status,
      headers: response.headers,
      body: boundedBody(body, { declared, limit }),
    };
  };
}

import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import { ResponseTooLargeError } from '../errors/errors.js';
import { MultipartBody } from '../uploads/multipart-body.js';
import { concatBytes } from './concat-bytes.js';

/** One HTTP request as the pipeline hands it to a transport. Header names are lower-case. */
export interface TransportRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /**
   * A {@link MultipartBody} gets its `content-type` (with boundary) and `content-length` from the transport,
   * which sends `body.chunks()` (streamed) or `body.toBlob()`.
   */
  body?: string | Uint8Array | MultipartBody | undefined;
  /** Aborts the attempt: caller cancellation, per-attempt timeout or the total deadline. */
  signal: AbortSignal;
}

/** The answer to a {@link TransportRequest}. The pipeline always reads the body exactly once. */
export interface TransportResponse {
  status: number;
  headers: Headers;
  /** The whole body as text; rejects with `ResponseTooLargeError` beyond the transport's byte limit. */
  text(): Promise<string>;
}

/**
 * The single seam between the SDK and the network: replace it to run on another runtime or in tests.
 * Rejections mean "no usable response" (the pipeline reports them as connection errors).
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** @default 10 MiB: far above any documented response, small enough to stop a runaway proxy page. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Options of {@link undiciTransport}. */
export interface UndiciTransportOptions {
  /** Connection pool to use. @default a new keep-alive `Agent` (close it with the returned `close()`). */
  dispatcher?: Dispatcher | undefined;
  /** Largest response body read, in bytes. @default 10 MiB */
  maxResponseBytes?: number | undefined;
}

/** A {@link Transport} that can release the connections it owns. */
export interface ClosableTransport extends Transport {
  /** Closes the keep-alive agent this transport created (not a `dispatcher` you passed in). */
  close(): Promise<void>;
}

/**
 * The default transport: `undici.request` over a keep-alive `Agent`. One agent per client; clients derived
 * with `withOptions()` share it.
 */
export function undiciTransport(options: UndiciTransportOptions = {}): ClosableTransport {
  const owned = options.dispatcher === undefined ? new Agent() : undefined;
  const dispatcher = options.dispatcher ?? (owned as Agent);
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    let headers = req.headers;
    let body: string | Uint8Array | Readable | null = null;
    if (req.body instanceof MultipartBody) {
      // The file is read from disk one chunk at a time as the socket drains, with a computed Content-Length.
      headers = {
        ...headers,
        'content-type': req.body.contentType,
        'content-length': String(req.body.length),
      };
      body = Readable.from(req.body.chunks(), { objectMode: false, highWaterMark: 0 });
    } else if (req.body !== undefined) body = req.body;
    const response = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers,
      body,
      signal: req.signal,
      dispatcher,
    });
    const text = await readBounded(response.body, response.headers['content-length'], limit);
    return { status: response.statusCode, headers: toHeaders(response.headers), text: async () => text };
  };
  return Object.assign(transport, { close: async () => owned?.close?.() });
}

/**
 * A {@link Transport} over a WHATWG `fetch` (the global one, MSW's patched one, or any runtime's).
 *
 * @example
 * ```ts
 * const client = new PartnerEquity({ baseUrl, fetch: globalThis.fetch });
 * ```
 */
export function fetchTransport(
  fetchImpl: typeof globalThis.fetch,
  options: { maxResponseBytes?: number | undefined } = {},
): Transport {
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (req) => {
    const multipart = req.body instanceof MultipartBody ? req.body : undefined;
    const response = await fetchImpl(req.url, {
      method: req.method,
      // A Blob body: fetch sets Content-Length from it, and every runtime (and MSW) accepts it.
      headers:
        multipart === undefined ? req.headers : { ...req.headers, 'content-type': multipart.contentType },
      body: (multipart?.toBlob() ?? req.body ?? null) as BodyInit | null,
      signal: req.signal,
      redirect: 'manual',
    });
    const { body } = response;
    return {
      status: response.status,
      headers: response.headers,
      text: async () =>
        body === null
          ? ''
          : readBounded(body as AsyncIterable<Uint8Array>, response.headers.get('content-length'), limit),
    };
  };
}

/**
 * The one response reader: the whole body as UTF-8 text (a leading BOM dropped), refused with
 * {@link ResponseTooLargeError} once a declared or counted length passes `limit` bytes. Stopping early
 * ends the body's iterator, which destroys (undici) or cancels (fetch) it, so no half-read connection stays.
 */
async function readBounded(
  body: AsyncIterable<Uint8Array>,
  declared: string | string[] | null | undefined,
  limit: number,
): Promise<string> {
  const chunks = body[Symbol.asyncIterator]();
  if (typeof declared === 'string' && Number(declared) > limit) {
    await chunks.return?.();
    throw new ResponseTooLargeError(limit);
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await chunks.next();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await chunks.return?.();
      throw new ResponseTooLargeError(limit);
    }
    parts.push(value);
  }
  return new TextDecoder().decode(concatBytes(parts, size));
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

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

/** undici's response headers: lower-case names, repeated headers as arrays. */
type RawHeaders = Record<string, string | string[] | undefined>;

/**
 * The headers of a response without its body: what a raw response keeps after the call (so keeping it
 * keeps no body text alive). Single values are read by name; the WHATWG `Headers` are made on first use.
 */
export class ResponseHead {
  readonly #raw: RawHeaders | undefined;
  #headers: Headers | undefined;

  constructor(headers: RawHeaders | Headers) {
    if (headers instanceof Headers) this.#headers = headers;
    else this.#raw = headers;
  }

  /** One header, as `Headers#get` gives it (`name` lower-case). */
  get(name: string): string | null {
    if (this.#raw === undefined) return this.headers.get(name);
    const value = this.#raw[name];
    if (value === undefined) return null;
    return (Array.isArray(value) ? value.join(', ') : value).trim();
  }

  get headers(): Headers {
    if (this.#headers === undefined) {
      this.#headers = new Headers();
      for (const [name, value] of Object.entries(this.#raw ?? {})) {
        if (Array.isArray(value)) for (const item of value) this.#headers.append(name, item);
        else if (value !== undefined) this.#headers.set(name, value);
      }
    }
    return this.#headers;
  }
}

/** The head of any transport's response: the default transport's own, else one over its `Headers`. */
export function headOf(response: TransportResponse): ResponseHead {
  const { head } = response as { head?: unknown };
  return head instanceof ResponseHead ? head : new ResponseHead(response.headers);
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
    const declared = response.headers['content-length'];
    // A declared length within the limit bounds the body already (undici reads exactly that many bytes).
    const text =
      typeof declared === 'string' && Number(declared) <= limit
        ? await response.body.text()
        : await readBounded(response.body, declared, limit, () => response.body.destroy());
    const head = new ResponseHead(response.headers);
    return {
      status: response.statusCode,
      head,
      get headers() {
        return head.headers;
      },
      text: async () => text,
    } as TransportResponse;
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
      body: ((await multipart?.toBlob()) ?? req.body ?? null) as BodyInit | null,
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
          : readBounded(
              body as AsyncIterable<Uint8Array>,
              response.headers.get('content-length'),
              limit,
              () => body.cancel(),
            ),
    };
  };
}

/**
 * The one bounded response reader: the whole body as UTF-8 text (a leading BOM dropped), refused with
 * {@link ResponseTooLargeError} once a declared or counted length passes `limit` bytes; the body is then
 * `discard`ed (destroyed or cancelled), so no half-read connection stays open.
 */
async function readBounded(
  body: AsyncIterable<Uint8Array>,
  declared: string | string[] | null | undefined,
  limit: number,
  discard: () => unknown,
): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  if (typeof declared !== 'string' || Number(declared) <= limit) {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > limit) break;
      parts.push(chunk);
    }
    if (size <= limit) return new TextDecoder().decode(concatBytes(parts, size));
  }
  await Promise.resolve(discard()).catch(() => undefined);
  throw new ResponseTooLargeError(limit);
}

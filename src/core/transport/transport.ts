import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import { MultipartBody } from '../uploads/multipart-body.js';
import { AttemptAbort } from './attempt-abort.js';
import { dispatchRequest, type MakeResponse, type RawHeaders } from './dispatch-request.js';
import { readBounded, streamChunks } from './read-bounded.js';

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

/**
 * One attempt as the pipeline hands it over: a {@link TransportRequest} whose `signal` is the attempt's
 * {@link AttemptAbort}, made into an `AbortSignal` only for a transport that needs one.
 */
export interface AttemptRequest extends Omit<TransportRequest, 'signal'> {
  abort: AttemptAbort;
}

// The SDK's own transport takes an AttemptRequest as is (no AbortSignal per request) through this entry.
const ATTEMPT_ENTRY = Symbol('attemptEntry');

type AttemptEntry = (request: AttemptRequest) => Promise<TransportResponse>;

/**
 * Sends one attempt through `transport`: straight to the default transport's own entry, else as a
 * {@link TransportRequest} with `abort.signal` (any custom transport, a wrapper, `fetchTransport`).
 */
export function sendThrough(transport: Transport, request: AttemptRequest): Promise<TransportResponse> {
  const entry = (transport as { [ATTEMPT_ENTRY]?: AttemptEntry })[ATTEMPT_ENTRY];
  if (entry !== undefined) return entry(request);
  const { method, url, headers, body, abort } = request;
  return transport({ method, url, headers, body, signal: abort.signal });
}

// undici's own header record (lower-case names) on the responses of `undiciTransport`, read by `headerOf`.
const RAW_HEADERS = Symbol('rawHeaders');

/**
 * One response header, as `headers.get(name)` gives it (`name` lower-case), without building the `Headers`
 * object of an {@link undiciTransport} response.
 */
export function headerOf(response: TransportResponse, name: string): string | null {
  const raw = (response as { [RAW_HEADERS]?: RawHeaders })[RAW_HEADERS];
  return raw === undefined ? response.headers.get(name) : rawHeader(raw, name);
}

function rawHeader(raw: RawHeaders, name: string): string | null {
  const value = raw[name];
  if (typeof value === 'string') return trimHttpWhitespace(value);
  return Array.isArray(value) ? value.map(trimHttpWhitespace).join(', ') : null;
}

// What `Headers` does to every value (leading and trailing tab, space, CR, LF go), so both reads agree.
function trimHttpWhitespace(value: string): string {
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const blank = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
  return blank(first) || blank(last) ? value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '') : value;
}

function toHeaders(raw: RawHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

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
 * The default transport: undici over a keep-alive `Agent`, each response read whole by a dispatch handler
 * (about twice as fast as `fetch` on loopback). One agent per client; clients derived with `withOptions()`
 * share it.
 */
export function undiciTransport(options: UndiciTransportOptions = {}): ClosableTransport {
  const owned = options.dispatcher === undefined ? new Agent() : undefined;
  const dispatcher = options.dispatcher ?? (owned as Agent);
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  // Bun's built-in `undici` is a shim (its `request` ignores the dispatcher, its `Agent` has no `close()`):
  // there the body is read through `undici.request`, as before the dispatch handler.
  const read = isBun() ? readWithRequest : dispatchRequest;

  // Not async: the response promise is handed on as is (one promise layer less per call); a synchronous
  // failure still becomes a rejection.
  const send = (req: Omit<TransportRequest, 'signal'>, abort: AbortSignal | AttemptAbort) => {
    try {
      let headers = req.headers;
      let body: string | Uint8Array | Readable | null = null;
      if (req.body instanceof MultipartBody) {
        // The SDK's own framing around the file read straight from disk: no FormData encoder copying every
        // chunk, no web-stream bridge, and a Content-Length. Pulled one chunk at a time as the socket drains.
        headers = {
          ...headers,
          'content-type': req.body.contentType,
          'content-length': String(req.body.length),
        };
        body = Readable.from(req.body.chunks(), { objectMode: false, highWaterMark: 0 });
      } else if (req.body !== undefined) body = req.body;
      const { url } = req;
      const options: Dispatcher.DispatchOptions = {
        origin: url.origin,
        path: url.search === '' ? url.pathname : `${url.pathname}${url.search}`,
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body,
      };
      return read(dispatcher, options, abort, limit, makeUndiciResponse);
    } catch (error) {
      return Promise.reject<UndiciResponse>(error);
    }
  };
  const transport = (req: TransportRequest): Promise<TransportResponse> => send(req, req.signal);
  const entry: AttemptEntry = (req) => send(req, req.abort);
  return Object.assign(transport, { close: async () => owned?.close?.(), [ATTEMPT_ENTRY]: entry });
}

/** The headers of a response, without its body. */
export interface ResponseHead {
  readonly headers: Headers;
}

// The headers of an `undiciTransport` response. The WHATWG `Headers` are built on first use: the pipeline
// reads single headers through `headerOf`, so a call that nobody asks `.headers` of never pays for them
// (about 9 µs a response).
class UndiciHead implements ResponseHead {
  readonly [RAW_HEADERS]: RawHeaders;
  #headers: Headers | undefined;

  constructor(headers: RawHeaders) {
    this[RAW_HEADERS] = headers;
  }

  get headers(): Headers {
    this.#headers ??= toHeaders(this[RAW_HEADERS]);
    return this.#headers;
  }
}

// A response of `undiciTransport`, body already read: one small object; its head is made when asked for.
class UndiciResponse implements TransportResponse {
  readonly status: number;
  readonly [RAW_HEADERS]: RawHeaders;
  /** The whole body, read before the response resolved. */
  readonly bodyText: string;
  #head: UndiciHead | undefined;

  constructor(status: number, headers: RawHeaders, text: string) {
    this.status = status;
    this[RAW_HEADERS] = headers;
    this.bodyText = text;
  }

  get head(): UndiciHead {
    this.#head ??= new UndiciHead(this[RAW_HEADERS]);
    return this.#head;
  }

  get headers(): Headers {
    return this.head.headers;
  }

  text(): Promise<string> {
    return Promise.resolve(this.bodyText);
  }
}

/**
 * The part of `response` that answers for its headers and does not hold its body: what a raw response kept
 * after the call (`withResponse()`, every chunk of a bulk call) holds on to, so that keeping it does not
 * keep the body text alive. Other transports' responses hold no body text once it was read.
 */
export function headOf(response: TransportResponse): ResponseHead {
  return response instanceof UndiciResponse ? response.head : response;
}

const makeUndiciResponse: MakeResponse<UndiciResponse> = (status, headers, text) =>
  new UndiciResponse(status, headers, text);

/**
 * The body of a response the transport has read whole already (the default transport's), else
 * `undefined`: the pipeline then awaits `response.text()`.
 */
export function bodyTextOf(response: TransportResponse): string | undefined {
  return response instanceof UndiciResponse ? response.bodyText : undefined;
}

function isBun(): boolean {
  return (globalThis as { process?: { versions?: { bun?: string } } }).process?.versions?.bun !== undefined;
}

// `undici.request` and its body reader: a declared length within the limit bounds the body already (undici
// reads exactly that many bytes), so undici's own reader is used; readBounded checks unknown lengths.
async function readWithRequest<R>(
  dispatcher: Dispatcher,
  { origin, path, ...options }: Dispatcher.DispatchOptions,
  abort: AbortSignal | AttemptAbort,
  limit: number,
  make: MakeResponse<R>,
): Promise<R> {
  const signal = abort instanceof AttemptAbort ? abort.signal : abort;
  const response = await request(new URL(path, origin), { ...options, signal, dispatcher });
  const headers = response.headers;
  const declared = Number(rawHeader(headers, 'content-length') ?? Number.NaN);
  const text =
    declared <= limit
      ? await response.body.text()
      : await readBounded(response.body, declared, limit, () => response.body.destroy());
  return make(response.statusCode, headers, text);
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
    const body = response.body;
    return {
      status: response.status,
      headers: response.headers,
      text: async () =>
        body === null
          ? ''
          : readBounded(
              streamChunks(body),
              Number(response.headers.get('content-length') ?? Number.NaN),
              limit,
              () => body.cancel(),
            ),
    };
  };
}

import { pipeline, Readable, type Transform } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import * as zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { ResponseTooLargeError } from '../errors/errors.js';

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
   * The body, decompressed, read once. Iterating it rejects with `ResponseTooLargeError` once it passes the
   * transport's byte limit (the rest is discarded), and with the signal's reason when the attempt aborts.
   */
  body: AsyncIterable<Uint8Array>;
}

/** The seam between the SDK and the network; a rejection means "no usable response". */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** @default 10 MiB: far above any documented response, small enough to stop a runaway proxy page. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Options of {@link undiciTransport}. */
export interface UndiciTransportOptions {
  /** Connection pool to use. @default a new keep-alive `Agent` (close it with the returned `close()`). */
  dispatcher?: Dispatcher | undefined;
  /** Largest response body read (decompressed), in bytes. @default 10 MiB */
  maxResponseBytes?: number | undefined;
}

/** A {@link Transport} that can release the connections it owns. */
export interface ClosableTransport extends Transport {
  /** Closes the keep-alive agent this transport created (not a `dispatcher` you passed in). */
  close(): Promise<void>;
}

// The codings the default transport decodes, in the order asked for (undici's `interceptors.decompress` is
// experimental and warns in the partner's process).
const DECODERS: Record<string, () => Transform> = {
  gzip: zlib.createGunzip,
  'x-gzip': zlib.createGunzip,
  br: zlib.createBrotliDecompress,
  ...(typeof zlib.createZstdDecompress === 'function' ? { zstd: zlib.createZstdDecompress } : {}),
};
const ACCEPT_ENCODING = ['gzip', 'br', 'zstd'].filter((coding) => coding in DECODERS).join(', ');

/** The default transport: undici's `dispatch` over a keep-alive `Agent` (shared by derived clients), decoding. */
export function undiciTransport(options: UndiciTransportOptions = {}): ClosableTransport {
  // undici is imported on the first request: importing the SDK, or a client that never sends, pays nothing.
  let owned: Dispatcher | undefined;
  let started: Promise<Transport> | undefined;
  const start = async (): Promise<Transport> => {
    if (options.dispatcher !== undefined) return dispatchTransport(options.dispatcher, options);
    owned = new (await import('undici')).Agent();
    return dispatchTransport(owned, options);
  };
  const transport: Transport = async (req) => {
    started ??= start();
    return (await started)(req);
  };
  return Object.assign(transport, {
    close: async () => {
      await started;
      await owned?.close();
    },
  });
}

function dispatchTransport(dispatcher: Dispatcher, options: UndiciTransportOptions): Transport {
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  // Bun's own `undici` has no `dispatch` (its `request` wraps its fetch): there, the fetch transport.
  if (typeof dispatcher.dispatch !== 'function') return fetchTransport(globalThis.fetch, options);
  // A handler of its own pushing into a plain Readable, holding nothing of the request once it ends: with
  // `undici.request`, a PassThrough or a 'close' listener, V8 kept every request's objects past two
  // scavenges in a realistic heap (bench findings, "GC modes").
  const transport = (req: TransportRequest): Promise<TransportResponse> =>
    new Promise((resolve, reject) => {
      const { signal, url } = req;
      const streamed = typeof req.body === 'object' ? req.body : undefined;
      let controller: Dispatcher.DispatchController | undefined;
      let body: Readable | undefined;
      const abort = (reason: unknown) => controller?.abort(reason as Error);
      const onAbort = () => abort(signal.reason);
      const settle = (error?: Error) => {
        signal.removeEventListener('abort', onAbort);
        if (body === undefined) reject(error);
        else if (error === undefined) body.push(null);
        else body.destroy(error);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: req.method as Dispatcher.HttpMethod,
          headers: {
            'accept-encoding': ACCEPT_ENCODING,
            ...req.headers,
            ...(streamed && {
              'content-type': streamed.contentType,
              'content-length': String(streamed.length),
            }),
          },
          // A streamed body is read as the socket drains (a file from disk, one chunk at a time).
          body: streamed
            ? Readable.from(streamed.chunks(), { objectMode: false, highWaterMark: 0 })
            : ((req.body as string | undefined) ?? null),
        },
        {
          onRequestStart: (started) => {
            controller = started;
            if (signal.aborted) onAbort();
          },
          onResponseStart: (_, status, raw) => {
            if (status < 200) return;
            body = new Readable({ read: () => {} });
            // A coded empty body (a 204, or a gateway's `Content-Length: 0`) has nothing to decode.
            const empty = status === 204 || status === 304 || raw['content-length'] === '0';
            const decoders = empty ? [] : decodersOf(raw['content-encoding']);
            // pipeline() destroys every stage when one fails or the reader stops early (an abort, the limit).
            if (decoders.length > 0) pipeline([body, ...decoders], () => {});
            // A compressed body's declared length is not what the limit bounds: only the decoded bytes count.
            const declared = decoders.length === 0 ? raw['content-length'] : undefined;
            const stop = () => abort(new ResponseTooLargeError(limit));
            resolve({
              status,
              headers: headersOf(raw),
              body: bounded(decoders.at(-1) ?? body, declared, limit, stop),
            });
          },
          onResponseData: (_, chunk) => void body?.push(chunk),
          onResponseEnd: () => settle(),
          onResponseError: (_, error) => settle(error),
        },
      );
    });
  return transport;
}

// undici's header object read by name, or walked as pairs (a `Headers` is built only when asked for).
function headersOf(raw: Record<string, string | string[] | undefined>): ResponseHeaders {
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

// The decoders of a `content-encoding`, last coding first; none for an unknown coding (bytes as sent, as fetch).
function decodersOf(encoding: string | string[] | undefined): Transform[] {
  if (encoding === undefined) return [];
  const codings = [encoding]
    .flat()
    .flatMap((value) => value.toLowerCase().split(','))
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > 3 || !codings.every((coding) => coding in DECODERS)) return [];
  return codings.reverse().map((coding) => (DECODERS[coding] as () => Transform)());
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
    const body = response.body ?? new Blob().stream();
    // fetch has decoded the body: its declared length bounds it only when it was sent uncompressed.
    const declared = response.headers.has('content-encoding') ? null : response.headers.get('content-length');
    return {
      status: response.status,
      headers: response.headers,
      body: bounded(Readable.fromWeb(body as WebStream), declared, limit),
    };
  };
}

/** `body` whole, read by its events (an async iterator costs more); past `limit` bytes, ResponseTooLargeError. */
function bounded(body: Readable, declared: unknown, limit: number, stop?: () => void) {
  const parts: Buffer[] = [];
  let size = 0;
  const whole = new Promise<Uint8Array>((resolve, reject) => {
    const tooLarge = () => reject(new ResponseTooLargeError(limit));
    if (typeof declared === 'string' && Number(declared) > limit) return tooLarge();
    body.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      return size > limit ? tooLarge() : parts.push(chunk);
    });
    body.on('end', () => resolve(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts)));
    body.on('error', reject);
    body.on('close', () => body.readableEnded || reject(new Error('the response body ended early')));
  });
  // Nothing reads past a failure: the connection is closed, not drained (`stop` aborts the request).
  whole.catch(() => {
    body.destroy();
    stop?.();
  });
  // The iterator protocol written out: an async generator here kept requests alive too ("GC modes").
  let read = false;
  const next = async () => {
    if (read) return { done: true as const, value: undefined };
    read = true;
    return { done: false as const, value: await whole };
  };
  return { [Symbol.asyncIterator]: () => ({ next }) };
}

const utf8 = new TextDecoder();

/** The whole of a {@link TransportResponse}'s body as UTF-8 text (a leading BOM dropped). */
export async function readText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of body) parts.push(chunk);
  return utf8.decode(Buffer.concat(parts));
}

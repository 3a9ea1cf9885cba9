import { pipeline, type Readable, Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { ResponseTooLargeError } from '../errors/errors.js';

// The codings the undici transport decodes, in the order asked for (undici's `interceptors.decompress` is
// experimental and warns in the partner's process).
const DECODERS: Record<string, () => Transform> = {
  gzip: zlib.createGunzip,
  'x-gzip': zlib.createGunzip,
  br: zlib.createBrotliDecompress,
  ...(typeof zlib.createZstdDecompress === 'function' ? { zstd: zlib.createZstdDecompress } : {}),
};

/** The `accept-encoding` the undici transport sends: every coding it decodes. */
export const ACCEPT_ENCODING = ['gzip', 'br', 'zstd'].filter((coding) => coding in DECODERS).join(', ');

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

/** What {@link boundedBody} needs to know of an answer. */
export interface BodyFacts {
  /** `content-encoding` to decode; undefined when the body arrives decoded (fetch) or is empty. */
  encoding?: string | string[] | undefined;
  /** The declared `content-length`: over the limit, the body is refused unread. */
  declared: string | string[] | null | undefined;
  /** The byte limit, applied to the bytes as they arrive and again to the bytes decoded. */
  limit: number;
}

/**
 * `source` decoded, chunk by chunk, read only as fast as the caller reads (the source pauses meanwhile).
 * Past `limit` bytes, received or decoded, it throws `ResponseTooLargeError`; on any throw, or when the caller
 * stops early, the source is abandoned unread (its connection closed, not drained).
 */
export async function* boundedBody(source: Readable, facts: BodyFacts): AsyncIterable<Uint8Array> {
  const { limit } = facts;
  // The bytes as sent are bounded too: empty gzip members decode to nothing, so only they can stop a stream
  // of them. A coded body is never much larger than what it decodes to, so the one limit serves both.
  if (Number(facts.declared) > limit) {
    source.destroy();
    throw new ResponseTooLargeError(limit);
  }
  yield* counted(decode(source, decodersOf(facts.encoding), limit), limit);
}

async function* counted(source: AsyncIterable<Uint8Array>, limit: number): AsyncIterable<Uint8Array> {
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > limit) throw new ResponseTooLargeError(limit);
    yield chunk;
  }
}

// The bytes as received counted, then decoded. pipeline() destroys every stage, the source included, when
// one fails or the reader stops early. With nothing to decode, the bytes received are the bytes counted, and
// the source's own iterator destroys it when the reader stops: no pipeline (it builds an AbortController,
// and aborts it, for every answer).
function decode(source: Readable, decoders: Transform[], limit: number): AsyncIterable<Uint8Array> {
  if (decoders.length === 0) return source;
  let received = 0;
  const sent = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.byteLength;
      done(received > limit ? new ResponseTooLargeError(limit) : null, chunk);
    },
  });
  return pipeline([source, sent, ...decoders], () => {}) as Transform;
}

const utf8 = new TextDecoder();

/** The whole of a response body as UTF-8 text (a leading BOM dropped). */
export async function readText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of body) parts.push(chunk);
  return utf8.decode(Buffer.concat(parts));
}

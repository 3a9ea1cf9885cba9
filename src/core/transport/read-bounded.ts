import { ResponseTooLargeError } from '../errors/errors.js';
import { concatBytes } from './concat-bytes.js';

/** A web stream's chunks, cancelled through its reader when the consumer stops early. */
export async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    // Stopped early (over the size cap): cancel through the reader — the stream is locked, so the caller's
    // `body.cancel()` cannot — or the connection stays open, half-read, for as long as the server writes.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * The whole body as text, refused with {@link ResponseTooLargeError} (and `discard`ed) once a declared or
 * counted length passes `limit` bytes.
 */
export async function readBounded(
  chunks: AsyncIterable<Uint8Array>,
  declared: number,
  limit: number,
  discard: () => unknown,
): Promise<string> {
  if (declared > limit) {
    await Promise.resolve(discard()).catch(() => undefined);
    throw new ResponseTooLargeError(limit);
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > limit) {
      await Promise.resolve(discard()).catch(() => undefined);
      throw new ResponseTooLargeError(limit);
    }
    parts.push(chunk);
  }
  return new TextDecoder().decode(concatBytes(parts, size));
}

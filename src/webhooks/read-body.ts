import { concatBytes } from '../core/transport/concat-bytes.js';

const encoder = new TextEncoder();

/** Thrown internally when a body exceeds the adapter's limit; adapters answer 413. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** Webhook bodies are small JSON; anything far larger is refused before it is buffered. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Collects chunks into one byte array, stopping as soon as `maxBytes` is exceeded. */
export async function readBody(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    length += bytes.length;
    if (length > maxBytes) throw new BodyTooLargeError(`Webhook body exceeds ${maxBytes} bytes.`);
    parts.push(bytes);
  }
  return concatBytes(parts, length);
}

/** Whether a declared `content-length` already rules the body out. */
export function declaredTooLarge(contentLength: string | null | undefined, maxBytes: number): boolean {
  return contentLength != null && /^\d+$/.test(contentLength) && Number(contentLength) > maxBytes;
}

/** A `ReadableStream` as an async iterable, for runtimes whose streams are not iterable themselves. */
export async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stops the transfer when iteration ends early (body too large).
    await reader.cancel().catch(() => {});
  }
}

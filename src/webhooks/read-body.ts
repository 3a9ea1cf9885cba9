const encoder = new TextEncoder();

/** Thrown when a body exceeds its reader's limit; the webhook adapters, the fake and its admin API answer 413. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** Webhook bodies are small JSON; anything far larger is refused before it is buffered. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The one bounded body reader (webhook adapters, the fake, its admin API): joins the chunks, at most
 * `maxBytes` of them. Past the limit it throws {@link BodyTooLargeError}, at once with `'stop'` (ending
 * the transfer), or with `'drain'` after reading and dropping the rest, so the sender finishes and sees
 * the 413 rather than a reset connection.
 */
export async function readBody(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
  overflow: 'stop' | 'drain' = 'stop',
): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    length += bytes.length;
    if (length <= maxBytes) parts.push(bytes);
    else if (overflow === 'stop') break;
  }
  if (length > maxBytes) throw new BodyTooLargeError(`Body exceeds ${maxBytes} bytes.`);
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
    // Stops the transfer when iteration ends early (body too large). Not awaited: a teed body (MSW clones
    // requests) settles its cancel only when every branch cancels.
    reader.cancel().catch(() => {});
  }
}

// Joins byte chunks into one array of `total` bytes (Uint8Array, not Buffer: edge runtimes have no Buffer).
function concatBytes(parts: readonly Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSourceError } from './file-source.js';
import { SNIFF_BYTES } from './sniff-media-type.js';

/** A stream written to a private temporary file; `dispose()` deletes it. */
export interface SpooledFile {
  path: string;
  size: number;
  dispose(): Promise<void>;
}

/** Limits and hooks of {@link spoolToTempFile}. */
export interface SpoolOptions {
  /** The stream is cut off and refused as soon as it passes this many bytes. */
  maxBytes: number;
  signal?: AbortSignal | undefined;
  /** Called once with the first {@link SNIFF_BYTES} bytes (or all of a shorter stream); may throw to refuse. */
  onHead?: ((head: Uint8Array) => void) | undefined;
}

/**
 * Copies a stream to a private temporary file (mode 0600), one chunk in memory at a time; cancelled and
 * deleted once it passes `maxBytes`, `onHead` refuses it or `signal` aborts. Uploading the file sends
 * nothing before every check passed, and lets a re-send read it again.
 */
export async function spoolToTempFile(
  stream: ReadableStream<Uint8Array> | AsyncIterable<unknown>,
  options: SpoolOptions,
): Promise<SpooledFile> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-equity-upload-'));
  const path = join(dir, 'file');
  const dispose = () => rm(dir, { recursive: true, force: true });
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'wx', 0o600);
    let size = 0;
    let head: Uint8Array = new Uint8Array(0);
    let headSeen = false;
    // A web stream iterates too, and leaving the loop early cancels it (a Node Readable is destroyed).
    for await (const chunk of stream as AsyncIterable<unknown>) {
      options.signal?.throwIfAborted();
      const bytes = toBytes(chunk);
      size += bytes.byteLength;
      if (size > options.maxBytes)
        throw new FileSourceError(`the stream passed the ${options.maxBytes}-byte limit (maxBytes); refused`);
      if (!headSeen) {
        head = Buffer.concat([head, bytes.subarray(0, SNIFF_BYTES - head.byteLength)]);
        if (head.byteLength >= SNIFF_BYTES) {
          headSeen = true;
          options.onHead?.(head);
        }
      }
      await handle.write(bytes);
    }
    options.signal?.throwIfAborted();
    if (!headSeen) options.onHead?.(head);
    await handle.close();
    handle = undefined;
    return { path, size, dispose };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await dispose();
    throw error;
  }
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  // A Readable with an encoding set yields strings: the bytes are no longer the file's, so refuse.
  throw new FileSourceError(
    `the stream yielded ${typeof chunk === 'string' ? 'text' : typeof chunk}, not bytes (no setEncoding on upload streams)`,
  );
}

import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { StreamedBody } from '../transport/transport.js';

/**
 * Bytes read from disk at a time: small reads keep the peak memory of concurrent large uploads down, at a
 * CPU cost far below any real uplink (bench scenario 4; the figures are in bench/RESULTS.md's findings).
 */
export const MULTIPART_READ_BYTES = 8 * 1024;

/** The one file part of a {@link MultipartBody}: a file on disk (streamed) or a `Blob` (memory or disk). */
export interface MultipartFile {
  /** The part's field name (`file`). */
  name: string;
  filename: string;
  /** The part's `Content-Type`; anything but printable ASCII is sent as `application/octet-stream`. */
  contentType: string;
  /** The file's bytes: read from `path` (exactly `size` bytes) when given, else from `blob`. */
  blob: Blob;
  path?: string | undefined;
}

const encoder = new TextEncoder();

// The escaping and line-break rules of the WHATWG multipart/form-data encoder (the one `fetch` uses), so the
// bytes match what `new Response(formData)` sent before.
const normalizeLineBreaks = (text: string) => text.replace(/\r?\n|\r/g, '\r\n');
const escapeFilename = (text: string) =>
  text.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
const escapeName = (text: string) => escapeFilename(normalizeLineBreaks(text));

/**
 * A `multipart/form-data` body of text fields then one file part streamed from disk (or its `Blob`), with
 * its length known up front; {@link chunks} and {@link toBlob} restart on every call, so a retry re-sends it.
 */
export class MultipartBody implements StreamedBody {
  /** `multipart/form-data; boundary=…`. */
  readonly contentType: string;
  /** Total bytes: framing, fields and file. */
  readonly length: number;
  readonly #head: Uint8Array;
  readonly #tail: Uint8Array;
  readonly #file: MultipartFile;

  constructor(fields: Record<string, string>, file: MultipartFile) {
    // Same shape as the platform encoder's boundary; 24 random hex digits never occur by chance in a file.
    const boundary = `----formdata-partner-equity-${randomBytes(12).toString('hex')}`;
    const type = /^[\x20-\x7e]+$/.test(file.contentType) ? file.contentType : 'application/octet-stream';
    let head = '';
    for (const [name, value] of Object.entries(fields)) {
      head += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n`;
      head += `${normalizeLineBreaks(value)}\r\n`;
    }
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(file.name)}"`;
    head += `; filename="${escapeFilename(file.filename)}"\r\nContent-Type: ${type}\r\n\r\n`;
    this.#head = encoder.encode(head);
    this.#tail = encoder.encode(`\r\n--${boundary}--\r\n`);
    this.#file = file;
    this.contentType = `multipart/form-data; boundary=${boundary}`;
    this.length = this.#head.byteLength + file.blob.size + this.#tail.byteLength;
  }

  /** The whole body, from its first byte, read as it is consumed. Fails if the file on disk shrank. */
  async *chunks(): AsyncGenerator<Uint8Array> {
    yield this.#head;
    const { path, blob } = this.#file;
    if (path === undefined) {
      for await (const chunk of blob.stream()) yield chunk;
    } else if (blob.size > 0) {
      let read = 0;
      const stream = createReadStream(path, {
        start: 0,
        end: blob.size - 1,
        highWaterMark: MULTIPART_READ_BYTES,
      });
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        read += chunk.byteLength;
        yield chunk;
      }
      // Sending fewer bytes than Content-Length promised would leave the server waiting; say why instead.
      if (read !== blob.size) throw new Error(`${path} changed while it was being uploaded`);
    }
    yield this.#tail;
  }

  /**
   * The same bytes as a `Blob` (for `fetch`, which sets `Content-Length` from it). A disk-backed file blob
   * stays on disk: the `Blob` only references it. Where the runtime's `Blob` drops such a part's bytes
   * (Bun 1.4 does, for `fs.openAsBlob` blobs), the file is read into memory instead: never a short body.
   */
  async toBlob(): Promise<Blob> {
    const head = this.#head as Uint8Array<ArrayBuffer>;
    const tail = this.#tail as Uint8Array<ArrayBuffer>;
    const { blob, filename } = this.#file;
    const composed = new Blob([head, blob, tail]);
    if (composed.size === this.length) return composed;
    const whole = new Blob([head, await blob.arrayBuffer(), tail]);
    if (whole.size !== this.length) throw new Error(`${filename} changed while it was being uploaded`);
    return whole;
  }
}

import { fileURLToPath } from 'node:url';

/**
 * A file to upload. Paths are read lazily from disk (never whole into memory); bytes and blobs are sent as
 * they are; a stream of unknown length is spooled to a temporary file, at most `maxBytes` of it.
 *
 * A plain string is refused, at compile time and at run time: it is ambiguous (a path, or the content?),
 * so name a path explicitly with `{ path }` or a `file:` URL.
 *
 * @example
 * ```ts
 * await client.subscriptions.uploadSignedForm(spv, person, { path: './forms/alice.pdf' });
 * await client.subscriptions.uploadSignedForm(spv, person, new URL('file:///srv/forms/alice.pdf'));
 * await client.subscriptions.uploadSignedForm(spv, person, await fs.readFile('alice.pdf'));
 * await client.subscriptions.uploadSignedForm(spv, person, fs.createReadStream('alice.pdf'));
 * await client.subscriptions.uploadSignedForm(spv, person, (await fetch(url)).body!);
 * ```
 */
export type UploadFile =
  | { path: string }
  | URL
  | Uint8Array
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>;

/** An {@link UploadFile} sorted by how it is read. */
export type FileSource =
  | { kind: 'path'; path: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'blob'; blob: Blob; name: string | undefined }
  | { kind: 'stream'; stream: ReadableStream<Uint8Array> | AsyncIterable<unknown> };

/** Why a file cannot be uploaded; `field` is the argument to blame (`file` unless said otherwise). */
export class FileSourceError extends Error {
  readonly field: string;

  constructor(message: string, field = 'file') {
    super(message);
    this.field = field;
  }
}

const accepted = 'expected { path }, a file: URL, a Buffer/Uint8Array, a Blob/File or a readable stream';

/**
 * Sorts `file` by kind; throws {@link FileSourceError} (with a message for the `file` field) for anything
 * else. Streams are recognised before `{ path }`, so an `fs.ReadStream` (which has a `path`) is read as
 * the stream it is, honouring its `start`/`end`.
 */
export function toFileSource(file: unknown): FileSource {
  if (typeof file === 'string') {
    throw new FileSourceError(
      'a plain string is not file content; pass { path: "…" } or a file: URL to upload from disk',
    );
  }
  if (file instanceof URL) {
    if (file.protocol !== 'file:') {
      throw new FileSourceError(
        `only file: URLs can be uploaded (got ${file.protocol}); fetch it and pass the body`,
      );
    }
    return { kind: 'path', path: fileURLToPath(file) };
  }
  if (file instanceof Blob) {
    const name = typeof (file as { name?: unknown }).name === 'string' ? (file as File).name : undefined;
    return { kind: 'blob', blob: file, name: name === '' ? undefined : name };
  }
  if (file instanceof Uint8Array) return { kind: 'bytes', bytes: file };
  if (file instanceof ReadableStream) return { kind: 'stream', stream: file };
  if (typeof file === 'object' && file !== null) {
    if (Symbol.asyncIterator in file) return { kind: 'stream', stream: file as AsyncIterable<unknown> };
    const path = (file as { path?: unknown }).path;
    if (typeof path === 'string' && path !== '') return { kind: 'path', path };
    if ('path' in file) throw new FileSourceError('path must be a non-empty string');
  }
  throw new FileSourceError(accepted);
}

import { openAsBlob } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { type FileSource, FileSourceError } from './file-source.js';
import { spoolToTempFile } from './file-source-spool.js';
import { MultipartBody } from './multipart-body.js';
import { SNIFF_BYTES, sniffMediaType } from './sniff-media-type.js';

// Loaded with the first upload, as are the modules it imports (node:fs among them).
export { FileSourceError, toFileSource } from './file-source.js';

/** What an upload endpoint accepts. */
export interface UploadRules {
  /** Largest file accepted, in bytes. */
  maxBytes: number;
  /** The caller's declared media type, if any. */
  contentType?: string | undefined;
  /**
   * `true`: a declared `contentType` is sent as is, whatever the bytes are (the funding receipt, whose
   * accepted types the spec leaves open). `false`: the bytes must be PDF, JPEG, PNG or WEBP and a declared
   * type must agree with them (the signed form).
   */
  trustDeclaredType: boolean;
  /** The filename to send; else the file's own name, else `<defaultName>.<ext>`. */
  filename?: string | undefined;
  defaultName: string;
  signal?: AbortSignal | undefined;
}

/** A file that passed every check, ready to go into a multipart body as often as needed. */
export interface PreparedUpload {
  /** Lazy for files on disk: `fs.openAsBlob` reads as the request is written. */
  blob: Blob;
  /** The file on disk the blob reads (the caller's path or the spool file), streamed from there when sent. */
  path?: string | undefined;
  filename: string;
  /** The `multipart/form-data` body of `fields` then this file: built afresh per attempt (a fresh boundary). */
  multipart(fields: Record<string, string>): MultipartBody;
  /** Deletes a temporary spool file, if one was made. */
  dispose(): Promise<void>;
}

const extensions: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/**
 * Checks a file's size and first bytes, and returns it as a `Blob` of the sniffed (or allowed declared)
 * media type; paths and spooled streams stay on disk (`fs.openAsBlob`). Throws {@link FileSourceError}.
 */
export async function prepareUpload(source: FileSource, rules: UploadRules): Promise<PreparedUpload> {
  switch (source.kind) {
    case 'path': {
      const size = await fileSize(source.path);
      checkSize(size, rules.maxBytes);
      const contentType = decideType(await readHead(source.path), rules);
      const blob = await openAsBlob(source.path, { type: contentType });
      checkSize(blob.size, rules.maxBytes); // the file may have changed since it was measured
      return done(blob, rules, contentType, basename(source.path), source.path);
    }
    case 'blob': {
      checkSize(source.blob.size, rules.maxBytes);
      const head = new Uint8Array(await source.blob.slice(0, SNIFF_BYTES).arrayBuffer());
      const contentType = decideType(head, rules);
      // `slice` re-types without copying (and keeps a disk-backed blob lazy).
      const blob = source.blob.slice(0, source.blob.size, contentType);
      return done(blob, rules, contentType, source.name);
    }
    case 'bytes': {
      checkSize(source.bytes.byteLength, rules.maxBytes);
      const contentType = decideType(source.bytes.subarray(0, SNIFF_BYTES), rules);
      const blob = new Blob([source.bytes as Uint8Array<ArrayBuffer>], { type: contentType });
      return done(blob, rules, contentType, undefined);
    }
    case 'stream': {
      let contentType = '';
      const spooled = await spoolToTempFile(source.stream, {
        maxBytes: rules.maxBytes,
        signal: rules.signal,
        onHead: (head) => {
          contentType = decideType(head, rules);
        },
      });
      try {
        checkSize(spooled.size, rules.maxBytes);
        const blob = await openAsBlob(spooled.path, { type: contentType });
        return done(blob, rules, contentType, undefined, spooled.path, spooled.dispose);
      } catch (error) {
        await spooled.dispose();
        throw error;
      }
    }
  }
}

function done(
  blob: Blob,
  rules: UploadRules,
  contentType: string,
  ownName: string | undefined,
  path?: string,
  dispose = async (): Promise<void> => undefined,
): PreparedUpload {
  const filename = rules.filename ?? ownName ?? `${rules.defaultName}.${extensions[contentType] ?? 'bin'}`;
  const file = { blob, path, filename, name: 'file', contentType: blob.type };
  return { blob, path, filename, dispose, multipart: (fields) => new MultipartBody(fields, file) };
}

function checkSize(size: number, maxBytes: number): void {
  if (size === 0) throw new FileSourceError('the file is empty');
  if (size > maxBytes)
    throw new FileSourceError(`${size} bytes is over the ${maxBytes}-byte limit (maxBytes); refused`);
}

function decideType(head: Uint8Array, rules: UploadRules): string {
  const sniffed = sniffMediaType(head);
  const declared = rules.contentType;
  if (declared !== undefined && rules.trustDeclaredType) return declared;
  if (declared !== undefined && declared !== sniffed) {
    throw new FileSourceError(
      `is ${declared}, but the file's first bytes are ${sniffed ?? 'none of PDF, JPEG, PNG, WEBP'}`,
      'contentType',
    );
  }
  if (sniffed === undefined) {
    const hint = rules.trustDeclaredType ? '; pass contentType to send another type anyway' : '';
    throw new FileSourceError(`not a PDF, JPEG, PNG or WEBP file, judged by its first bytes${hint}`);
  }
  return sniffed;
}

async function fileSize(path: string): Promise<number> {
  try {
    const stats = await stat(path);
    if (!stats.isFile()) throw new FileSourceError(`${path} is not a regular file`);
    return stats.size;
  } catch (error) {
    if (error instanceof FileSourceError) throw error;
    const code = (error as { code?: unknown }).code;
    throw new FileSourceError(`cannot read ${path} (${typeof code === 'string' ? code : 'error'})`);
  }
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(new Uint8Array(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

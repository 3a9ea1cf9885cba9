import { MAX_UPLOAD_BYTES } from '../../schemas/uploads.js';
import type { ValidationIssue } from '../errors/errors.js';
import { FileSourceError, toFileSource } from './file-source.js';
import { MultipartBody } from './multipart-body.js';
import type { PreparedUpload, UploadRules } from './upload-file.js';

/** The file part of a multipart call as a method hands it to `Requester.call`. */
export interface FilePart {
  /** The caller's `file` argument, unchecked. */
  file: unknown;
  /** How to check it; `maxBytes` defaults to the API's 10 MiB. */
  rules: Omit<UploadRules, 'signal' | 'maxBytes'> & { maxBytes?: number | undefined };
}

/**
 * Checks the file (kind, size, first bytes): the prepared file, or the issue that refuses it. A refused file
 * costs no request. `upload-file.ts` (reading, sniffing, spooling) is loaded with the first upload.
 */
export async function prepareFilePart(
  part: FilePart,
  signal: AbortSignal | undefined,
): Promise<{ prepared: PreparedUpload } | { issue: ValidationIssue }> {
  try {
    const source = toFileSource(part.file);
    const { prepareUpload } = await import('./upload-file.js');
    const maxBytes = part.rules.maxBytes ?? MAX_UPLOAD_BYTES;
    return { prepared: await prepareUpload(source, { ...part.rules, maxBytes, signal }) };
  } catch (error) {
    if (!(error instanceof FileSourceError) || signal?.aborted) throw error;
    return { issue: { path: error.field, message: error.message } };
  }
}

/**
 * The `multipart/form-data` body: the text `fields` in order, then the `file` part streamed from disk or
 * memory. Built afresh per attempt (a fresh boundary; the file re-read from its start).
 */
export function multipartOf(fields: Record<string, string>, file: PreparedUpload): () => MultipartBody {
  return () => new MultipartBody(fields, { ...file, name: 'file', contentType: file.blob.type });
}

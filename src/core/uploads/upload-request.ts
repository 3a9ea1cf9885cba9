import { MAX_UPLOAD_BYTES } from '../../schemas/uploads.js';
import type { ValidationIssue } from '../errors/errors.js';
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
 * costs no request. `upload-file.ts` (sorting, reading, sniffing, spooling, the multipart body) is loaded
 * with the first upload.
 */
export async function prepareFilePart(
  part: FilePart,
  signal: AbortSignal | undefined,
): Promise<{ prepared: PreparedUpload } | { issue: ValidationIssue }> {
  const { FileSourceError, prepareUpload, toFileSource } = await import('./upload-file.js');
  try {
    const source = toFileSource(part.file);
    const maxBytes = part.rules.maxBytes ?? MAX_UPLOAD_BYTES;
    return { prepared: await prepareUpload(source, { ...part.rules, maxBytes, signal }) };
  } catch (error) {
    if (!(error instanceof FileSourceError) || signal?.aborted) throw error;
    return { issue: { path: error.field, message: error.message } };
  }
}

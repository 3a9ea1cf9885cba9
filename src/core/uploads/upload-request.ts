import type { z } from 'zod';
import { APIUserAbortError, InputValidationError, type ValidationIssue } from '../errors/errors.js';
import { APIPromise, type WithResponse } from '../request/api-promise.js';
import type { RequestOptions } from '../request/request-options.js';
import type { Requester } from '../request/requester.js';
import { type FileSource, FileSourceError, toFileSource } from './file-source.js';
import { MultipartBody } from './multipart-body.js';
import type { PreparedUpload, UploadRules } from './upload-file.js';

/** One multipart upload as a resource describes it. */
export interface UploadRequest<T> {
  /** Names the method in error messages (`subscriptions.uploadSignedForm input`). */
  subject: string;
  /** Problems already found with the other arguments; reported together with the file's. */
  issues: ValidationIssue[];
  /** The caller's `file` argument, unchecked. */
  file: unknown;
  rules: Omit<UploadRules, 'signal'>;
  /** The API path, already encoded. */
  path: string;
  /** The route template, for warnings said once per route. */
  route?: string | undefined;
  /** Text fields, sent before the file part in this order. */
  fields: Record<string, string>;
  response: z.ZodType<T>;
  /** Sent as `Idempotency-Key`, the same on every attempt, which makes the upload retryable. */
  idempotencyKey: string;
  options?: RequestOptions | undefined;
}

/**
 * Checks the file (kind, size, first bytes) together with the other arguments, then POSTs a
 * `multipart/form-data` body whose `file` part streams from disk or memory. Any refusal is one
 * `InputValidationError` and no request. Any temporary spool file is deleted when the call settles.
 *
 * Sent with an `Idempotency-Key` and so retried like any keyed POST, the body rebuilt (re-read from disk
 * or memory) per attempt. The spec lists no key for uploads; a server that ignores it still ends up with
 * one document, because an upload replaces the subscription's previous form or receipt.
 */
export function sendUpload<T>(requester: Requester, upload: UploadRequest<T>): APIPromise<T> {
  return new APIPromise(run(requester, upload));
}

async function run<T>(requester: Requester, upload: UploadRequest<T>): Promise<WithResponse<T>> {
  const signal = upload.options?.signal;
  const aborted = (cause: unknown) => new APIUserAbortError({ method: 'POST', path: upload.path }, { cause });
  if (signal?.aborted) throw aborted(signal.reason);

  const issues = [...upload.issues];
  let source: FileSource | undefined;
  try {
    source = toFileSource(upload.file);
  } catch (error) {
    if (!(error instanceof FileSourceError)) throw error;
    issues.push({ path: error.field, message: error.message });
  }
  let prepared: PreparedUpload | undefined;
  if (source !== undefined) {
    try {
      // Loaded with the first upload: a process that never uploads never loads file reading and spooling.
      const { prepareUpload } = await import('./upload-file.js');
      prepared = await prepareUpload(source, { ...upload.rules, signal });
    } catch (error) {
      if (signal?.aborted) throw aborted(signal.reason);
      if (!(error instanceof FileSourceError)) throw error;
      issues.push({ path: error.field, message: error.message });
    }
  }
  if (issues.length > 0 || prepared === undefined) {
    await prepared?.dispose();
    throw new InputValidationError(upload.subject, issues);
  }

  const file = prepared;
  try {
    return await requester
      .request({
        method: 'POST',
        path: upload.path,
        route: upload.route,
        // Rebuilt per attempt (a fresh boundary); the file is re-read from its start each time.
        multipart: () =>
          new MultipartBody(upload.fields, {
            name: 'file',
            filename: file.filename,
            contentType: file.blob.type,
            blob: file.blob,
            path: file.path,
          }),
        response: upload.response,
        idempotencyKey: upload.idempotencyKey,
        options: upload.options,
      })
      .withResponse();
  } finally {
    await file.dispose();
  }
}

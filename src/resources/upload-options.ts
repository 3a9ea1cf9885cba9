import { z } from 'zod';
import type { IdempotentRequestOptions } from '../core/request/request-options.js';
import type { UploadFile } from '../core/uploads/file-source.js';
import { UPLOAD_MEDIA_TYPES, type UploadMediaType } from '../schemas/uploads.js';

/** Options of `client.subscriptions.uploadSignedForm()`. */
export interface SignedFormUploadOptions extends IdempotentRequestOptions {
  /** The filename sent with the file. @default the file's own name, else `signed-form.<ext>` */
  filename?: string;
  /**
   * What you expect the file to be; it must agree with the file's first bytes (the API accepts PDF, JPEG,
   * PNG and WEBP forms). @default sniffed from the first bytes
   */
  contentType?: UploadMediaType;
  /** Largest file accepted, checked before anything is sent. @default 10 MiB (10 485 760 bytes) */
  maxBytes?: number;
}

/**
 * The signed form to upload, in the same shape as {@link FundingReceiptUpload}: the file and how to send it.
 * `uploadSignedForm(spv, person, { file, filename })` and `uploadSignedForm(spv, person, file, { filename })`
 * do the same.
 */
export interface SignedFormUpload
  extends Pick<SignedFormUploadOptions, 'filename' | 'contentType' | 'maxBytes'> {
  file: UploadFile;
}

/** `value` in the `{ file, … }` form of an upload (a plain object with a `file` field), not a bare file. */
export function isUploadObject(value: unknown): value is { file: unknown } & Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.hasOwn(value, 'file');
}

/** The funding receipt to upload: the file and the wire it documents. */
export interface FundingReceiptUpload {
  file: UploadFile;
  /** The amount wired, as a decimal string (`"25000.00"`): never a number, which loses cents. */
  amount: string;
  /** ISO 4217 code of the wire (`EUR`). */
  currency: string;
  /** The bank's reference of the wire. */
  wireReference: string;
  /** The filename sent with the file. @default the file's own name, else `funding-receipt.<ext>` */
  filename?: string;
  /**
   * Sends the file with this media type, whatever its bytes (the receipt's accepted types are the
   * API's call). @default sniffed from the first bytes; anything but PDF, JPEG, PNG or WEBP is refused
   */
  contentType?: string;
  /** Largest file accepted, checked before anything is sent. @default 10 MiB (10 485 760 bytes) */
  maxBytes?: number;
}

const filename = () => z.string().min(1).optional();
const maxBytes = () => z.int().positive().optional();

/** The non-file options of a signed form upload. */
export const SignedFormOptions = z.object({
  filename: filename(),
  contentType: z.enum(UPLOAD_MEDIA_TYPES).optional(),
  maxBytes: maxBytes(),
});

/** A funding receipt upload's own options; its file and form fields are checked as the operation's. */
export const FundingReceiptOptions = z.strictObject({
  amount: z.unknown(),
  currency: z.unknown(),
  wireReference: z.unknown(),
  file: z.unknown(),
  filename: filename(),
  contentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Expected a media type such as "application/pdf"')
    .optional(),
  maxBytes: maxBytes(),
});

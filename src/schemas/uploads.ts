import { z } from 'zod';
import { CurrencyCode, DecimalString, Timestamp, UrlString } from './primitives.js';

/** The upload size limit: 10 MiB (10 485 760 bytes); a file of exactly this size is accepted. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Media types the service accepts for signed forms, recognised by their magic bytes. */
export const UPLOAD_MEDIA_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;
/** One of {@link UPLOAD_MEDIA_TYPES}: `'application/pdf' | 'image/jpeg' | 'image/png' | 'image/webp'`. */
export type UploadMediaType = (typeof UPLOAD_MEDIA_TYPES)[number];

/** Text fields of the funding receipt form (the `file` part travels beside them). */
export const FundingReceiptFields = z.strictObject({
  amount: DecimalString,
  currency: CurrencyCode,
  wireReference: z.string().trim().min(1, 'Required: the wire transfer reference'),
});

/** `POST /v1/spvs/{spv_slug}/subscription/{person_id}/forms` 201 response. */
export const SignedFormUploadResult = z.looseObject({
  subscriptionSlug: z.string(),
  spvSlug: z.string(),
  personId: z.string(),
  /** Where the stored form can be read: absolute, or relative to the base URL. */
  subscriptionFormUrl: UrlString,
  uploadedAt: Timestamp,
});
export type SignedFormUploadResult = z.infer<typeof SignedFormUploadResult>;

/** `POST /v1/spvs/{spv_slug}/subscription/{person_id}/fundings` 201 response. */
export const FundingReceiptUploadResult = z.looseObject({
  subscriptionSlug: z.string(),
  spvSlug: z.string(),
  personId: z.string(),
  /** Where the stored receipt can be read: absolute, or relative to the base URL. */
  fundingReceiptUrl: UrlString,
  amount: z.string(),
  currency: z.string(),
  wireReference: z.string(),
  uploadedAt: Timestamp,
});
export type FundingReceiptUploadResult = z.infer<typeof FundingReceiptUploadResult>;

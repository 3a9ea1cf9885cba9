import { z } from 'zod';
import { Timestamp } from './primitives.js';

/** A document URL relative to the base URL (`/files/{fileId}/{name}`). */
export const RelativeUrl = z
  .string()
  .regex(/^\/files\//)
  .meta({ format: 'uri-reference' });

/** `POST …/forms` 201 response. */
export const SignedFormUploadResult = z.looseObject({
  subscriptionSlug: z.string(),
  spvSlug: z.string(),
  personId: z.string(),
  subscriptionFormUrl: RelativeUrl,
  uploadedAt: Timestamp,
});

/** `POST …/fundings` 201 response. */
export const FundingReceiptUploadResult = z.looseObject({
  subscriptionSlug: z.string(),
  spvSlug: z.string(),
  personId: z.string(),
  fundingReceiptUrl: RelativeUrl,
  amount: z.string(),
  currency: z.string(),
  wireReference: z.string(),
  uploadedAt: Timestamp,
});

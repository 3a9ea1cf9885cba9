import type { z } from 'zod';
import type { ProfileSchemas } from './profiles/fake-profile.js';
import type { RouteDoc } from './route.js';

const descriptions: Record<number, string> = {
  400: 'Validation failed (partner error envelope with validationErrors)',
  401: 'Missing, invalid, expired or revoked token; failed token exchange',
  403: 'Service not provisioned for the partner API',
  404: 'Resource not found',
  409: 'Conflict',
  413: 'Uploaded file over 10 MB',
  415: 'Unsupported media type',
  422: 'Request fails schema validation',
};

/** Response docs for the listed error statuses, with the profile's envelope each one uses. */
export function errorResponses(
  schemas: Pick<ProfileSchemas, 'PartnerErrorBody' | 'ValidationErrorBody'>,
  ...statuses: number[]
): RouteDoc['responses'] {
  const out: RouteDoc['responses'] = {};
  for (const status of statuses) {
    out[status] = {
      description: descriptions[status] ?? 'Error',
      schema: status === 422 ? schemas.ValidationErrorBody : schemas.PartnerErrorBody,
    };
  }
  return out;
}

/** A JSON success response doc. */
export function ok(status: number, description: string, schema: z.ZodType): RouteDoc['responses'] {
  return { [status]: { description, schema } };
}

import { z } from 'zod';
import { openEnum } from '../../schemas/open-enum.js';
import { Timestamp } from './primitives.js';

/** `GET /` — what the service is and where its descriptions live. */
export const RootResponse = z.looseObject({
  name: z.string(),
  apiVersion: z.string(),
  version: z.string(),
  docsUrl: z.string(),
  openapiUrl: z.string(),
});
export type RootResponse = z.infer<typeof RootResponse>;

/** `GET /public/hc` — liveness of the service. */
export const HealthResponse = z.looseObject({
  status: openEnum(['ok'] as const),
  checkedAt: Timestamp,
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** `GET /openapi.json` — an OpenAPI 3.1 document; only the envelope is checked, the rest is kept as is. */
export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;

import { z } from 'zod';
import { allNullish, JsonObject, Timestamp } from './primitives.js';

// The spec shows none of these bodies: every field is optional and whatever the server sends is kept.

/** `GET /` — what the service is; the named fields are typed when present. */
export const RootResponse = z.looseObject(
  allNullish({
    name: z.string(),
    apiVersion: z.string(),
    version: z.string(),
    docsUrl: z.string(),
    openapiUrl: z.string(),
  }),
);
export type RootResponse = z.infer<typeof RootResponse>;

/** `GET /public/hc` — liveness of the service (a 200 is the answer; the body is informational). */
export const HealthResponse = z.looseObject(allNullish({ status: z.string(), checkedAt: Timestamp }));
export type HealthResponse = z.infer<typeof HealthResponse>;

/** `GET /openapi.json` — the machine-readable interface description, kept as the server sent it. */
export const OpenApiDocument = z.looseObject(
  allNullish({
    openapi: z.string(),
    info: z.looseObject(allNullish({ title: z.string(), version: z.string() })),
    paths: JsonObject,
  }),
);
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;

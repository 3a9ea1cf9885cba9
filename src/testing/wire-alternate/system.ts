import { z } from 'zod';

/** `GET /` — a FastAPI-style greeting, with a relative link to the docs. */
export const RootResponse = z.looseObject({
  message: z.string(),
  docs: z.string(),
});
export type RootResponse = z.infer<typeof RootResponse>;

/** `GET /public/hc` — liveness only: no timestamp. */
export const HealthResponse = z.looseObject({
  status: z.literal('healthy'),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

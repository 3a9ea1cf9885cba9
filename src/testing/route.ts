import type { z } from 'zod';
import type { RegisteredClient } from './auth/client-registry.js';
import type { AccessTokenRecord } from './auth/token-store.js';
import { HttpProblem } from './http-problem.js';
import type { RouteResult } from './route-result.js';
import type { FakeServices } from './services.js';

export type { RouteResult };

/** Everything a route sees of one request. */
export interface RouteContext {
  readonly request: Request;
  readonly url: URL;
  /** Decoded path parameters. */
  readonly params: Record<string, string>;
  /** The base URL the request was addressed to (`http://127.0.0.1:PORT` or the MSW `baseUrl`). */
  readonly origin: string;
  readonly services: FakeServices;
  /** The authenticated client and its access token (bearer routes only). */
  readonly client: RegisteredClient | undefined;
  readonly token: AccessTokenRecord | undefined;
}

/** Documentation of one route for `/openapi.json`. */
export interface RouteDoc {
  operationId: string;
  summary: string;
  tag: string;
  description?: string;
  query?: z.ZodObject;
  body?: { contentType: string; schema: z.ZodType };
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
}

/** One endpoint: where it lives, how it authenticates, and what it does. */
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI-style template: `/v1/spv-requests/{slug}`. */
  path: string;
  auth: 'bearer' | 'none';
  /** Partner endpoints answer 403 to unprovisioned clients. */
  partner: boolean;
  /** Whether `Idempotency-Key` is read, and whether it must be there. */
  idempotency?: 'required' | 'optional';
  /** Left out of `/openapi.json` (the fake's own helpers, such as file downloads). */
  hidden?: boolean;
  doc: RouteDoc;
  /** Reads and validates the request (may throw {@link HttpProblem}); the result is the idempotency fingerprint. */
  parse(ctx: RouteContext): Promise<unknown>;
  /** Applies the request to the state. Synchronous, so a key check and the change it guards cannot interleave. */
  run(ctx: RouteContext, input: unknown): RouteResult;
}

/** Builds a {@link Route} with the parsed input typed between `parse` and `run`. */
export function defineRoute<Input = undefined>(
  route: Omit<Route, 'parse' | 'run' | 'partner'> & {
    partner?: boolean;
    parse?: (ctx: RouteContext) => Input | Promise<Input>;
    run: (ctx: RouteContext, input: Input) => RouteResult;
  },
): Route {
  const parse = route.parse;
  return {
    ...route,
    partner: route.partner ?? false,
    parse: async (ctx) => (parse === undefined ? undefined : await parse(ctx)),
    run: (ctx, input) => route.run(ctx, input as Input),
  };
}

/** The authenticated client of a bearer route. */
export function clientOf(ctx: RouteContext): RegisteredClient {
  if (ctx.client === undefined) throw new HttpProblem(401, 'invalid_token', 'Authentication required');
  return ctx.client;
}

/** A JSON result. */
export const json = (status: number, body: unknown, headers?: Record<string, string>): RouteResult =>
  headers === undefined ? { status, json: body } : { status, json: body, headers };

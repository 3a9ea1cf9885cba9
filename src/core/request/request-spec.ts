import type { z } from 'zod';
import type { MultipartBody } from '../uploads/multipart-body.js';
import type { RequestOptions } from './request-options.js';
import type { ResponseValidationMode } from './response-validation.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** Query parameters; `undefined` values are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** A request body as the SDK sends it: its media type and the schema of what goes in it. */
export interface OperationBody {
  contentType: 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';
  /** The body's fields; a multipart body's `file` part is checked as a file, not by this schema. */
  schema: z.ZodType;
  /** The array the SDK splits into requests of `chunkSize` rows (`investors`, `subscriptions`). */
  chunkedArray?: string;
}

/**
 * One API operation: everything a call of it needs. `Requester.call` runs it, and `client.doctor()` compares
 * it with a server's `/openapi.json`: one table, so the two cannot drift.
 */
export interface Operation {
  /** The SDK method that calls it, as a partner writes it. */
  readonly sdk: string;
  /** The name of its span (`spv_requests.get`), as docs/observability.md lists them. */
  readonly span: string;
  readonly method: HttpMethod;
  /** Path template; `{spv_slug}` is filled with the `spvSlug` parameter, percent-encoded. */
  readonly route: string;
  /** The path parameters, by the SDK's argument names (`spvSlug`). */
  readonly params?: z.ZodObject;
  /** Query parameters the SDK sends (every one of them, on every call). */
  readonly query?: z.ZodObject;
  readonly body?: OperationBody;
  /** The method's own options besides {@link RequestOptions} (bulk `chunkSize`, upload `filename`…). */
  readonly options?: z.ZodObject;
  /** Schema of the 2xx body the SDK parses (checked per `responseValidation`). */
  readonly response: z.ZodType;
  /** `text` for the one HTML page; JSON otherwise. */
  readonly responseFormat?: 'json' | 'text';
  /** The call's value, read out of the body (which may not match `response` in `warn` and `off` modes). */
  readonly select?: (body: never) => unknown;
  /** The SDK sends an `Idempotency-Key` on every call (yours or a generated one). */
  readonly idempotencyKey?: true;
  /** Checked in this mode whatever the client's: `off` where the spec shows no shape (`select` copes). */
  readonly validation?: 'strict' | 'off';
  /**
   * Absent: a bearer token (a route added later fails closed); `optional`: a token whenever the client has
   * credentials (contracts); `none`: never.
   */
  readonly auth?: 'optional' | 'none';
}

/** What a call of `O` resolves to: its `select`'s value, else the parsed body. */
export type OperationResult<O extends Operation> = O extends { select: (body: never) => infer R }
  ? R
  : z.output<O['response']>;

/**
 * A JSON body checked and written already, sent as is: a bulk chunk (its rows were checked before the chunk
 * was built, and its idempotency key was hashed from exactly this text). Passed as a call's `body`.
 */
export class JsonText {
  constructor(
    /** The body as a value, for debug lines. */
    readonly value: unknown,
    /** The body's JSON text, sent. */
    readonly text: string,
  ) {}
}

/**
 * One API call as the pipeline sends it (built by `Requester.call` from an {@link Operation}, or by hand for
 * the doctor's probes and the token endpoint). At most one of `json`, `form` and `multipart` is given.
 */
export interface RequestSpec<T, Body = T> {
  method: HttpMethod;
  /** The API path, already percent-encoded. */
  path: string;
  /** The route template (`/v1/spv-requests/{slug}`), so warnings about a route are said once. */
  route?: string | undefined;
  /** The span name ({@link Operation.span}). */
  operation?: string | undefined;
  query?: QueryParams | undefined;
  /** A JSON request body: a value, or a {@link JsonText} sent as written. */
  json?: unknown;
  /** An `application/x-www-form-urlencoded` body (the token endpoint). */
  form?: Record<string, string> | undefined;
  /** A `multipart/form-data` body, built afresh for every attempt (a stream cannot be sent twice). */
  multipart?: (() => MultipartBody) | undefined;
  /** Sent as `Idempotency-Key` on every attempt; makes a POST retryable. */
  idempotencyKey?: string | undefined;
  response: z.ZodType<Body>;
  /** The call's value from the body (which may not match `response` in `warn` and `off` modes). */
  select?(body: Body): T;
  /** As {@link Operation.auth}; `bearer` needs credentials. @default 'bearer' */
  auth?: 'bearer' | 'optional' | 'none' | undefined;
  /** This call's validation mode, whatever the client's (the token endpoint is always `'strict'`). */
  validation?: ResponseValidationMode | undefined;
  options?: RequestOptions | undefined;
  /** Requests already sent for the same logical call (a token exchange's earlier attempts). @default 0 */
  attemptsBefore?: number | undefined;
}

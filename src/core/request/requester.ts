import { randomUUID } from 'node:crypto';
import { AbortError } from 'p-retry';
import type { z } from 'zod';
import { IdempotencyKey } from '../../schemas/request-params.js';
import { MAX_UPLOAD_BYTES } from '../../schemas/uploads.js';
import { OTEL_REGISTRY } from '../../tracing/tracing.js';
import { VERSION } from '../../version.js';
import { optionIssues } from '../check-options.js';
import { ClientClosedError } from '../errors/client-closed-error.js';
import {
  InputValidationError,
  toValidationIssues,
  userAbortError,
  type ValidationIssue,
} from '../errors/errors.js';
import type { PreparedUpload, UploadRules } from '../uploads/upload-file.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { recordRetry, startOperationSpan, traceOperation } from './operation-span.js';
import { parseSuccess } from './read-response.js';
import {
  type IdempotentRequestOptions,
  parseRequestOptions,
  type RequestOptions,
} from './request-options.js';
import {
  JsonText,
  type Operation,
  type OperationResult,
  type QueryParams,
  type RequestSpec,
} from './request-spec.js';
import type { RequesterConfig } from './requester-config.js';
import { toAPIError } from './response-error.js';
import { type RetryLoop, withRetries } from './retry-policy.js';
import { type CallState, gatedSend, mayResend, responseContext } from './send-attempt.js';

export type { RequesterConfig };

/** The arguments of one call of an {@link Operation}, unchecked. */
export interface CallInput {
  /** Path parameters by the SDK's names (`{ spvSlug }` fills `{spv_slug}`). */
  params?: Record<string, unknown>;
  query?: unknown;
  /**
   * The body; a multipart body's text fields. Checked when present (`'body' in input`), unless it is a
   * {@link JsonText}, checked and written already.
   */
  body?: unknown;
  /** A multipart body's file part, checked (kind, size, first bytes) with the rest; `maxBytes` 10 MiB. */
  file?: {
    file: unknown;
    rules: Omit<UploadRules, 'signal' | 'maxBytes'> & { maxBytes?: number | undefined };
  };
  /** Problems the method found in its own options (bulk, upload), reported with the others. */
  issues?: readonly ValidationIssue[];
}

/** A call whose arguments passed every check: what {@link Requester.check} returns. */
export interface CheckedCall {
  path: string;
  query: QueryParams | undefined;
  body: unknown;
  /** The `Idempotency-Key` (the caller's or a fresh one) when the operation sends one. */
  idempotencyKey: string | undefined;
  /** The pipeline's options, a method's own extras left out. */
  options: RequestOptions | undefined;
  /** The method's own options, checked by the operation's `options` schema. */
  extras: Record<string, unknown> | undefined;
}

/** The request pipeline every endpoint rides on: checks, headers, token, pacing, retries, parsing. */
export class Requester {
  // Private, so `util.inspect` of a client does not walk into the transport and authenticator.
  readonly #config: Readonly<RequesterConfig>;
  // `accept`, `user-agent` and the client's default headers, merged once: every call starts from a copy.
  readonly #baseHeaders: Readonly<Record<string, string>>;

  constructor(config: RequesterConfig) {
    this.#config = Object.freeze({ ...config });
    this.#baseHeaders = Object.freeze(
      mergeHeaders({ accept: 'application/json', 'user-agent': userAgent() }, config.defaultHeaders),
    );
  }

  /** The settings this requester runs with (read-only). */
  get config(): Readonly<RequesterConfig> {
    return this.#config;
  }

  /** A requester with some settings replaced; it shares the transport unless that is replaced too. */
  with(overrides: Partial<RequesterConfig>): Requester {
    return new Requester({ ...this.config, ...overrides });
  }

  /** Sends one call built by hand (the token exchange, the doctor's probes), with its retries. */
  request<Body, T = Body>(spec: RequestSpec<T, Body>): APIPromise<T> {
    return new APIPromise(this.#run(spec));
  }

  /**
   * Calls `operation` (an entry of `OPERATIONS`): checks every argument against its schemas, then fills the
   * route, sets the `Idempotency-Key`, names the span, sends (with retries) and parses the answer.
   */
  call<O extends Operation>(
    operation: O,
    input: CallInput = {},
    options?: IdempotentRequestOptions,
  ): APIPromise<OperationResult<O>> {
    try {
      const upload = operation.body?.contentType === 'multipart/form-data';
      const checked = this.check(operation, input, options, upload);
      const result = upload
        ? this.#upload(operation, checked, input.file)
        : this.#run(this.#spec(operation, checked));
      return new APIPromise(result as Promise<WithResponse<OperationResult<O>>>);
    } catch (error) {
      return new APIPromise(Promise.reject(error));
    }
  }

  /**
   * The checks of {@link call}, also run once by a call sent in chunks: the checked arguments, or one
   * {@link InputValidationError} naming every bad field (for an `upload`, the issues, to join the file's).
   */
  check(
    operation: Operation,
    input: CallInput,
    options: IdempotentRequestOptions | undefined,
    upload = false,
  ): CheckedCall & { issues: ValidationIssue[] } {
    const issues: ValidationIssue[] = [];
    const take = (schema: z.ZodType | undefined, value: unknown): unknown => {
      if (schema === undefined) return value;
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      issues.push(...toValidationIssues(parsed.error.issues));
      return undefined;
    };
    const params = (operation.params ? take(operation.params, input.params ?? {}) : {}) as
      | Record<string, string>
      | undefined;
    const query = (operation.query && take(operation.query, input.query ?? {})) as QueryParams | undefined;
    const { body: described } = operation;
    // A multipart body's file part is checked as a file, not by the schema.
    const bodySchema =
      described && (upload ? (described.schema as z.ZodObject).omit({ file: true }) : described.schema);
    const body =
      input.body instanceof JsonText
        ? input.body
        : 'body' in input
          ? take(bodySchema, input.body)
          : undefined;
    if (input.issues !== undefined) issues.push(...input.issues);
    const extras = operation.options && optionIssues(operation.options, options ?? {}, 'options');
    // A non-object `options` is named once, by the request options' check below.
    if (extras) issues.push(...extras.issues.filter((issue) => issue.path !== 'options'));
    let idempotencyKey: string | undefined;
    if (operation.idempotencyKey === true) {
      const given = (options as { idempotencyKey?: unknown } | null | undefined)?.idempotencyKey;
      idempotencyKey = given === undefined ? randomUUID() : (given as string); // a UUID v4, once per call
      const key = IdempotencyKey.safeParse(given ?? idempotencyKey);
      if (!key.success) issues.push({ path: 'idempotencyKey', message: key.error.issues[0]?.message ?? '' });
    }
    // `null`/`undefined`: no options.
    const requestOptions = options == null ? undefined : parseRequestOptions(options);
    if (requestOptions !== undefined) issues.push(...requestOptions.issues);
    if (issues.length > 0 && !upload) throw new InputValidationError(subjectOf(operation), issues);
    return {
      path: params === undefined ? operation.route : fillRoute(operation.route, params),
      query,
      body,
      idempotencyKey,
      options: requestOptions?.data,
      extras: extras?.data,
      issues,
    };
  }

  #spec(operation: Operation, checked: CheckedCall, file?: PreparedUpload): RequestSpec<unknown> {
    const type = operation.body?.contentType;
    const body = checked.body as Record<string, string>;
    const spec: RequestSpec<unknown> = {
      method: operation.method,
      path: checked.path,
      route: operation.route,
      operation: operation.span,
      query: checked.query,
      json: type === 'application/json' ? body : undefined,
      form: type === 'application/x-www-form-urlencoded' ? body : undefined,
      multipart: file === undefined ? undefined : () => file.multipart(body ?? {}),
      idempotencyKey: checked.idempotencyKey,
      response: operation.response,
      auth: operation.auth ?? 'bearer',
      validation: operation.validation,
      options: checked.options,
    };
    if (operation.select !== undefined) spec.select = operation.select as (body: unknown) => unknown;
    return spec;
  }

  // The file is checked with the other arguments (one error names them all): a refused file costs no
  // request. upload-file.ts (reading, sniffing, spooling) loads with the first upload; a spool file is
  // deleted after the call.
  async #upload<T>(
    operation: Operation,
    checked: CheckedCall & { issues: ValidationIssue[] },
    part: CallInput['file'],
  ): Promise<WithResponse<T>> {
    const signal = checked.options?.signal;
    const call = { method: operation.method, path: checked.path };
    if (signal?.aborted) throw userAbortError(call, signal);
    const { issues } = checked;
    let prepared: PreparedUpload | undefined;
    try {
      const { FileSourceError, prepareUpload, toFileSource } = await import('../uploads/upload-file.js');
      const rules = { ...checked.extras, ...part?.rules } as UploadRules;
      const maxBytes = rules.maxBytes ?? MAX_UPLOAD_BYTES;
      try {
        prepared = await prepareUpload(toFileSource(part?.file), { ...rules, maxBytes, signal });
      } catch (error) {
        if (!(error instanceof FileSourceError) || signal?.aborted) throw error;
        issues.push({ path: error.field, message: error.message });
      }
    } catch (error) {
      throw userAbortError(call, signal) ?? error;
    }
    try {
      if (issues.length > 0 || prepared === undefined)
        throw new InputValidationError(subjectOf(operation), issues);
      return (await this.#run(this.#spec(operation, checked, prepared))) as WithResponse<T>;
    } finally {
      await prepared?.dispose();
    }
  }

  async #run<T, Body>(spec: RequestSpec<T, Body>): Promise<WithResponse<T>> {
    const { config } = this;
    const options = spec.options ?? {};
    const signal = options.signal;
    if (signal?.aborted) throw userAbortError(spec, signal);
    if (config.lifecycle?.closed === true) throw new ClientClosedError(spec);

    const headers = mergeHeaders(
      this.#baseHeaders,
      spec.json !== undefined
        ? { 'content-type': 'application/json' }
        : spec.form !== undefined
          ? { 'content-type': 'application/x-www-form-urlencoded' }
          : undefined,
      spec.idempotencyKey === undefined ? undefined : { 'idempotency-key': spec.idempotencyKey },
      options.headers,
    );
    // A multipart body's content type carries its boundary: the transport sets it.
    if (spec.multipart !== undefined) delete headers['content-type'];
    const auth = spec.auth ?? 'bearer';
    if (auth === 'bearer' && config.authenticator === undefined && headers['authorization'] === undefined) {
      throw new InputValidationError('client options', [
        {
          path: 'clientId',
          message: `${spec.method} ${spec.path} needs credentials (clientId, issuer, privateKey)`,
        },
      ]);
    }

    const idempotencyKey = headers['idempotency-key'];
    const startedAt = config.clock.now();
    const state: CallState = {
      spec,
      url: buildUrl(config.baseUrl, spec.path, spec.query),
      headers,
      idempotencyKey,
      attempts: spec.attemptsBefore ?? 0,
      rateLimitWaited: 0,
      startedAt,
      deadlineAt: config.deadline === undefined ? undefined : startedAt + config.deadline,
      timeout: options.timeout ?? config.timeout,
      repeatable: spec.method !== 'POST' || idempotencyKey !== undefined,
    };
    const authenticator = auth === 'none' ? undefined : config.authenticator;
    const mode = spec.validation ?? config.validation.mode;
    const validation = mode === config.validation.mode ? config.validation : { ...config.validation, mode };
    // A route that declares `off` is one whose shape the spec does not show: its `select` reads any body.
    const shown = spec.validation !== 'off';

    let token: string | undefined;
    const attempt = async (): Promise<WithResponse<T>> => {
      try {
        // A fresh cached token is read synchronously (nearly every call); else the exchange is awaited.
        token = undefined;
        if (authenticator !== undefined)
          token = authenticator.currentToken?.() ?? (await authenticator.getToken(signal));
      } catch (error) {
        // The token exchange ran its own retries already: its failure ends the call (p-retry unwraps it).
        throw new AbortError(asError(error));
      }
      try {
        const read = await gatedSend(config, state, token);
        const context = responseContext(config, state);
        if (read.status < 200 || read.status >= 300) throw toAPIError(context, read, config.secrets);
        return parseSuccess(context, read, spec.response, validation, spec.select?.bind(spec), shown);
      } catch (error) {
        throw userAbortError(spec, signal, error) ?? error;
      }
    };

    const loop: RetryLoop = {
      retries: options.maxRetries ?? config.maxRetries,
      retry: config.retry,
      clock: config.clock,
      logger: config.logger,
      call: spec,
      deadlineAt: state.deadlineAt,
      signal,
      repeatable: state.repeatable,
      resend: (error) => mayResend(config, state, token, error),
    };
    // Tracing off (no provider given, none registered globally) costs this check and nothing else.
    const { tracing } = config;
    const traced = tracing !== undefined && (tracing.provided || OTEL_REGISTRY in globalThis);
    if (traced && tracing.loading !== undefined) await tracing.loading;
    const span = traced && tracing.enabled ? startOperationSpan(tracing, config.baseUrl, state) : undefined;
    if (span === undefined) return withRetries(attempt, loop);
    if (tracing?.propagate) span.inject(headers);
    loop.onRetry = (notice) => recordRetry(span, notice);
    return traceOperation(span, state, () => withRetries(attempt, loop));
  }
}

// `spvRequests.create input`: the method, as a partner calls it.
function subjectOf(operation: Operation): string {
  return `${operation.sdk.replace(/^client\.|\(\)$/g, '')} input`;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * `baseUrl` joined with `path` and the query. A base path is kept: `https://host/prefix` + `/v1/x` gives
 * `https://host/prefix/v1/x`.
 */
function buildUrl(baseUrl: URL, path: string, query: QueryParams | undefined): URL {
  const prefix = `${baseUrl.origin}${baseUrl.pathname.replace(/\/+$/, '')}`;
  const url = new URL(`${prefix}${path.startsWith('/') ? path : `/${path}`}`);
  if (query === undefined) return url;
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.append(name, String(value));
  return url;
}

/** `partner-equity-sdk/<version> node/<version>`. */
function userAgent(): string {
  const proc = (globalThis as { process?: { version?: string } }).process;
  return `partner-equity-sdk/${VERSION} node/${proc?.version ?? 'unknown'}`;
}

/** Lower-cases header names; later sources win. */
function mergeHeaders(...sources: (Readonly<Record<string, string>> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    if (source === undefined) continue;
    for (const name of Object.keys(source)) out[name.toLowerCase()] = source[name] as string;
  }
  return out;
}

/** `route` with every `{spv_slug}` replaced by `params.spvSlug`, percent-encoded. */
function fillRoute(route: string, params: Readonly<Record<string, string>> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())];
    if (value === undefined) throw new TypeError(`${route}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

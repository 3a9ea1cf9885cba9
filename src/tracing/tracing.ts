import type * as OtelApi from '@opentelemetry/api';
import { redactText } from '../core/logging/redact.js';
import type { SecretRegistry } from '../core/logging/secret-registry.js';
import { VERSION } from '../version.js';

/**
 * An OpenTelemetry `TracerProvider` (from `@opentelemetry/sdk-trace-node` or any SDK). Only `getTracer` is
 * used; typed structurally so the SDK's types never require `@opentelemetry/api`.
 */
export interface TracerProviderLike {
  /** The tracer the SDK's spans are made with (`@partner-equity/sdk` and its version). */
  getTracer(name: string, version?: string): unknown;
}

/** Values a span attribute may hold; `undefined` ones are left out. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** The only headers {@link SdkSpan.inject} writes (W3C Trace Context). */
const TRACE_CONTEXT_HEADERS = ['traceparent', 'tracestate'] as const;

/** The SDK's instrumentation scope. */
export const TRACER_NAME = '@partner-equity/sdk';

// The optional peer, loaded once per process: `undefined` not tried yet, `null` not installed.
let api: typeof OtelApi | null | undefined;
let loading: Promise<void> | undefined;
// A variable specifier: bundlers (workers, edge) leave it alone instead of failing when it is not installed.
const OTEL_API = '@opentelemetry/api';
// The API's cross-copy registry on globalThis: it exists once anything registered a global provider, so
// without it there is nothing to trace with and nothing is loaded.
export const OTEL_REGISTRY = Symbol.for('opentelemetry.js.api.1');

function load(): Promise<void> {
  loading ??= import(/* webpackIgnore: true */ /* @vite-ignore */ OTEL_API).then(
    (module: typeof OtelApi) => {
      api = module;
    },
    () => {
      api = null;
    },
  );
  return loading;
}

/**
 * Where the SDK's spans go: the `tracerProvider` given, else the global one (`trace.getTracer`). Off — and
 * free — while `@opentelemetry/api` is not installed or nothing registered a provider.
 */
export class Tracing {
  readonly #provider: TracerProviderLike | undefined;
  /** A `tracerProvider` was given (else spans go to a global one, once registered). */
  readonly provided: boolean;
  readonly #secrets: SecretRegistry | undefined;
  #tracer: OtelApi.Tracer | undefined;
  /** Inject `traceparent` (and the configured propagators' headers) into outgoing requests. */
  readonly propagate: boolean;

  constructor(options: {
    tracerProvider?: TracerProviderLike | undefined;
    secrets?: SecretRegistry | undefined;
    propagate?: boolean | undefined;
  }) {
    this.#provider = options.tracerProvider;
    this.provided = options.tracerProvider !== undefined;
    this.#secrets = options.secrets;
    this.propagate = options.propagate === true;
  }

  /** A promise only while `@opentelemetry/api` has to be loaded (the first traced call); else `undefined`. */
  get loading(): Promise<void> | undefined {
    if (api !== undefined) return undefined;
    if (!this.provided && !(OTEL_REGISTRY in globalThis)) return undefined;
    return load();
  }

  /** Whether spans may be recorded (the API is loaded); `start` still returns none without a provider. */
  get enabled(): boolean {
    return api != null;
  }

  /** A started span, or `undefined` when nothing records it (no provider, sampled out, API absent). */
  start(
    name: string,
    kind: 'client' | 'consumer' | 'internal',
    attributes: SpanAttributes = {},
    root = false,
  ): SdkSpan | undefined {
    if (api == null) return undefined;
    // No provider registered: the API's proxy has nothing to delegate to, so no span would record. Return
    // before the attributes are cleaned (their redaction was most of a GET's cost there, bench scenario 9).
    const provider = this.#provider ?? api.trace.getTracerProvider();
    if (provider instanceof api.ProxyTracerProvider && !provider.getDelegateTracer(TRACER_NAME, VERSION))
      return undefined;
    this.#tracer ??= (this.#provider?.getTracer(TRACER_NAME, VERSION) ??
      api.trace.getTracer(TRACER_NAME, VERSION)) as OtelApi.Tracer;
    const span = this.#tracer.startSpan(name, {
      kind:
        kind === 'client'
          ? api.SpanKind.CLIENT
          : kind === 'consumer'
            ? api.SpanKind.CONSUMER
            : api.SpanKind.INTERNAL,
      attributes: clean(attributes, this.#secrets),
      root,
    });
    if (!span.isRecording()) {
      span.end();
      return undefined;
    }
    return new SdkSpan(span, this.#secrets);
  }
}

// Ids the server chooses (`x-request-id`, an error's `errorId`) go on spans only in a shape that cannot
// hold personal data: a UUID, `prefix_` and 8-64 letters or digits, or 16-64 hex digits. Others are left out.
const SERVER_ID_ATTRIBUTES = new Set(['partner_equity.request_id', 'partner_equity.error_id']);
const SAFE_ID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z]{1,16}_[A-Za-z0-9]{8,64}|[0-9a-f]{16,64})$/i;
// An error `code` or class name as spans carry them: an identifier, never free text.
const SAFE_CODE = /^[A-Za-z][\w.-]{0,63}$/;

/**
 * `attributes` without `undefined` values, every string redacted as log lines are, and server-chosen ids
 * only in a safe shape.
 */
function clean(attributes: SpanAttributes, secrets: SecretRegistry | undefined): OtelApi.Attributes {
  const out: OtelApi.Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (SERVER_ID_ATTRIBUTES.has(key) && !(typeof value === 'string' && SAFE_ID.test(value))) continue;
    out[key] = typeof value === 'string' ? redactText(value, secrets) : value;
  }
  return out;
}

/** One recording span and what the SDK does with it. */
export class SdkSpan {
  readonly #api: typeof OtelApi;
  readonly #span: OtelApi.Span;
  readonly #secrets: SecretRegistry | undefined;

  // `span` is an OpenTelemetry `Span`, typed `unknown` so the SDK's declarations never name the optional peer.
  constructor(span: unknown, secrets: SecretRegistry | undefined) {
    this.#api = api as typeof OtelApi;
    this.#span = span as OtelApi.Span;
    this.#secrets = secrets;
  }

  set(attributes: SpanAttributes): void {
    this.#span.setAttributes(clean(attributes, this.#secrets));
  }

  event(name: string, attributes: SpanAttributes): void {
    this.#span.addEvent(name, clean(attributes, this.#secrets));
  }

  /** Links the span active now (the operation that waits) to this one (the exchange it waits for). */
  linkFromActive(): void {
    const active = this.#api.trace.getActiveSpan();
    if (active !== undefined && active !== this.#span)
      active.addLink?.({ context: this.#span.spanContext() });
  }

  /** Runs `fn` with this span as the active one: spans started inside (undici's, the partner's) are its children. */
  run<T>(fn: () => T): T {
    const { context, trace } = this.#api;
    return context.with(trace.setSpan(context.active(), this.#span), fn);
  }

  /**
   * Writes this span's trace context into `headers` with the global propagator: `traceparent` and
   * `tracestate` only. Baggage (an app's `user.email`, say) never leaves for the API.
   */
  inject(headers: Record<string, string>): void {
    const { context, propagation, trace } = this.#api;
    const carrier: Record<string, string> = {};
    propagation.inject(propagation.deleteBaggage(trace.setSpan(context.active(), this.#span)), carrier);
    for (const name of TRACE_CONTEXT_HEADERS) {
      const value = carrier[name];
      if (value !== undefined) headers[name] = value;
    }
  }

  /** Marks the span failed: `error.type` and an ERROR status with `message` (SDK text, redacted all the same). */
  fail(errorType: string, message: string): void {
    this.#span.setAttribute('error.type', redactText(errorType, this.#secrets));
    this.#span.setStatus({
      code: this.#api.SpanStatusCode.ERROR,
      message: redactText(message, this.#secrets),
    });
  }

  end(): void {
    this.#span.end();
  }
}

/** Why a call waited: its own pace, a server's `Retry-After`, a retry's backoff, a token renewal after a 401. */
export type WaitReason = 'rate_limit' | 'retry_after' | 'backoff' | 'unauthorized';

/**
 * Records a wait as a `wait` event on the span active now (inside an operation's span: that operation),
 * with its reason and duration. Free while tracing is off.
 */
export function recordWait(reason: WaitReason, durationMs: number): void {
  api?.trace.getActiveSpan()?.addEvent('wait', {
    'partner_equity.wait.reason': reason,
    'partner_equity.wait.duration_ms': durationMs,
  });
}

/** Records an event on the span active now (inside a bulk call: its span). Free while tracing is off. */
export function recordEvent(name: string, attributes: SpanAttributes): void {
  const span = api?.trace.getActiveSpan();
  if (span === undefined) return;
  const out: SpanAttributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  span.addEvent(name, out as OtelApi.Attributes);
}

// The context key under which a caller says which failures of the calls it makes it handles itself.
let handledKey: symbol | undefined;

/**
 * Runs `fn`, whose calls' failures `handles` names as handled by the caller (a bulk chunk's 413, handled by
 * splitting it: `'split'`): such a call's CLIENT span ends with a `handled` event, not an ERROR status, as a
 * retried 503 does. Free while tracing is off.
 */
export function handledBy<T>(handles: (error: unknown) => string | undefined, fn: () => T): T {
  if (api == null) return fn();
  handledKey ??= api.createContextKey('partner_equity.handled');
  return api.context.with(api.context.active().setValue(handledKey, handles), fn);
}

/** How the caller of the call running now handles `error` ({@link handledBy}), or `undefined`. */
export function handledHow(error: unknown): string | undefined {
  if (api == null || handledKey === undefined) return undefined;
  const handles = api.context.active().getValue(handledKey) as
    | ((error: unknown) => string | undefined)
    | undefined;
  return handles?.(error);
}

/**
 * A failure as a span status message: its class, HTTP status and `code` (`ConflictError 409
 * idempotency_key_reused`), never its message. Spans leave the process for a tracing vendor, and a message
 * holds the path with its ids and the server's own text, which may quote an investor's personal data.
 */
export function errorMessage(error: unknown): string {
  const { status, code, name } = (error ?? {}) as { status?: unknown; code?: unknown; name?: unknown };
  const parts = [typeof name === 'string' && SAFE_CODE.test(name) ? name : 'Error'];
  if (typeof status === 'number') parts.push(String(status));
  if (typeof code === 'string' && SAFE_CODE.test(code)) parts.push(code);
  return parts.join(' ');
}

/** The low-cardinality `error.type` of a failure: its HTTP status, else the SDK's error code or class name. */
export function errorType(error: unknown): string {
  const { status, code, name } = (error ?? {}) as { status?: unknown; code?: unknown; name?: unknown };
  if (typeof status === 'number') return String(status);
  if (typeof code === 'string' && SAFE_CODE.test(code)) return code;
  return typeof name === 'string' && SAFE_CODE.test(name) ? name : '_OTHER';
}

/**
 * Runs `fn` in `span` (or just runs it when there is none) and ends the span with `fn`'s outcome: a
 * rejection marks it failed; `describe` adds attributes from the value.
 */
export async function within<T>(
  span: SdkSpan | undefined,
  fn: () => Promise<T>,
  describe?: (value: T, span: SdkSpan) => void,
): Promise<T> {
  if (span === undefined) return fn();
  try {
    const value = await span.run(fn);
    describe?.(value, span);
    return value;
  } catch (error) {
    span.fail(errorType(error), errorMessage(error));
    throw error;
  } finally {
    span.end();
  }
}

/** A span started once `@opentelemetry/api` is loaded (the first traced call waits for it), or none. */
export async function startSpan(
  tracing: Tracing | undefined,
  name: string,
  kind: 'client' | 'consumer' | 'internal',
  attributes?: SpanAttributes,
): Promise<SdkSpan | undefined> {
  if (tracing?.loading !== undefined) await tracing.loading;
  return tracing?.enabled ? tracing.start(name, kind, attributes) : undefined;
}

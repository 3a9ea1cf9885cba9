import { createHash } from 'node:crypto';
import { errorMessage, errorType, handledHow, type SdkSpan, type Tracing } from '../../tracing/tracing.js';
import type { WithResponse } from './api-promise.js';
import type { RetryNotice } from './retry-policy.js';
import type { CallState } from './send-attempt.js';

/**
 * The CLIENT span of one API call (all its attempts), named for its operation (`spv_requests.create`),
 * with the OpenTelemetry HTTP client attributes: never a URL with ids or a query, only `url.template`.
 */
export function startOperationSpan(tracing: Tracing, baseUrl: URL, state: CallState): SdkSpan | undefined {
  const { spec, idempotencyKey } = state;
  return tracing.start(spec.operation ?? spec.method, 'client', {
    'http.request.method': spec.method,
    'server.address': baseUrl.hostname.replace(/^\[|\]$/g, ''),
    'server.port': Number(baseUrl.port) || (baseUrl.protocol === 'https:' ? 443 : 80),
    'url.template': spec.route,
    // The first 16 hex digits of the key's SHA-256: enough to match calls, never the key itself.
    'partner_equity.idempotency_key.sha256':
      idempotencyKey && createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 16),
  });
}

/** One event per retry (its number, the wait before it and why), and one `wait` event with the wait's reason. */
export function recordRetry(span: SdkSpan, notice: RetryNotice): void {
  const { status, retryAfterMs } = notice.error as { status?: unknown; retryAfterMs?: unknown };
  span.event('retry', {
    'http.request.resend_count': notice.retry,
    'partner_equity.retry.delay_ms': notice.delayMs,
    'partner_equity.retry.reason': errorType(notice.error),
    'http.response.status_code': typeof status === 'number' ? status : undefined,
  });
  span.event('wait', {
    'partner_equity.wait.reason': retryAfterMs === undefined ? 'backoff' : 'retry_after',
    'partner_equity.wait.duration_ms': notice.delayMs,
  });
}

/** Runs the call's attempts in the span's context and ends the span with the call's outcome. */
export async function traceOperation<T>(
  span: SdkSpan,
  state: CallState,
  run: () => Promise<WithResponse<T>>,
): Promise<WithResponse<T>> {
  try {
    const result = await span.run(run);
    span.set({
      'http.response.status_code': result.response.status,
      'partner_equity.request_id': result.response.requestId,
      // `Idempotent-Replayed: true`: the server replayed the first answer; nothing was written this time.
      'partner_equity.idempotency.replayed': result.response.replayed || undefined,
    });
    return result;
  } catch (error) {
    const { status, requestId, errorId } = error as Record<string, unknown>;
    span.set({
      'http.response.status_code': typeof status === 'number' ? status : undefined,
      'partner_equity.request_id': typeof requestId === 'string' ? requestId : undefined,
      'partner_equity.error_id': typeof errorId === 'string' ? errorId : undefined,
    });
    const handled = handledHow(error); // a bulk chunk's 413 the caller splits: not a failure of the call
    if (handled === undefined) span.fail(errorType(error), errorMessage(error));
    else span.event('handled', { 'partner_equity.handled_by': handled, 'error.type': errorType(error) });
    throw error;
  } finally {
    if (state.attempts > 1) span.set({ 'http.request.resend_count': state.attempts - 1 });
    span.end();
  }
}

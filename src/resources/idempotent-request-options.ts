import type { ValidationIssue } from '../core/errors/errors.js';
import { randomIdempotencyKey } from '../core/request/idempotency.js';
import type { RequestOptions } from '../core/request/request-options.js';
import { IdempotencyKey } from '../schemas/request-params.js';
import { inputIssues } from './parse-input.js';

/**
 * Options of a call that creates something. The SDK always sends an `Idempotency-Key`, the same on every
 * retry of the call, so a lost response never creates anything twice.
 *
 * @example
 * ```ts
 * // A key tied to your own record makes a re-run of a crashed script replay instead of creating again.
 * await client.spvRequests.create(body, { idempotencyKey: `spv-request-${deal.id}` });
 * ```
 */
export interface IdempotentRequestOptions extends RequestOptions {
  /**
   * The `Idempotency-Key` (visible ASCII characters). Reusing it within 24 h replays the first
   * response; reusing it with a different body is a `ConflictError`.
   * @default a random UUID, made once per call
   */
  idempotencyKey?: string;
}

/** The call's key (the caller's or a fresh one), or the issue with the caller's. */
export function resolveIdempotencyKey(options: IdempotentRequestOptions | undefined): {
  key: string;
  issues: ValidationIssue[];
} {
  const given = options?.idempotencyKey;
  if (given === undefined) return { key: randomIdempotencyKey(), issues: [] };
  const { issues } = inputIssues(IdempotencyKey, given);
  return { key: given, issues: issues.map((issue) => ({ ...issue, path: 'idempotencyKey' })) };
}

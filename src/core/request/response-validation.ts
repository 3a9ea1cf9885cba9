import type { ValidationIssue } from '../errors/errors.js';
import { type Logger, optionOrEnv, readEnv } from '../logging/logger.js';

/**
 * What the SDK does with a 2xx body that breaks a field the spec states (missing, `null` where a value is
 * always present, or of another type):
 * - `'strict'` throws a `ResponseValidationError` carrying the status, request id, idempotency key and the
 *   (redacted) body: the server may already have done the write.
 * - `'warn'` returns the body as the server sent it and logs one warning per route and problem.
 * - `'off'` does not check bodies at all (they are still parsed as JSON).
 *
 * Fields the spec leaves open are optional in every mode, so a server that honours the spec never trips
 * `'strict'`.
 */
export type ResponseValidationMode = 'strict' | 'warn' | 'off';

/** The modes, for option checks. */
export const RESPONSE_VALIDATION_MODES = ['strict', 'warn', 'off'] as const;

/**
 * The effective mode: the option, else `PARTNER_EQUITY_RESPONSE_VALIDATION` (ignored unless it names a
 * mode; e.g. `strict` in a test run), else `'warn'`.
 */
export function resolveResponseValidation(
  option: ResponseValidationMode | undefined,
  env = readEnv('PARTNER_EQUITY_RESPONSE_VALIDATION'),
): ResponseValidationMode {
  return optionOrEnv(option, env, RESPONSE_VALIDATION_MODES, 'warn');
}

/** How one client reacts to bodies that break the spec; shared by the client's derived clients. */
export interface ResponseValidation {
  mode: ResponseValidationMode;
  /** Logs a `'warn'` mismatch once per route and problem. */
  warn(route: string, status: number, issues: readonly ValidationIssue[]): void;
  /** Logs, once per route, that a body of a shape the spec does not show was handed over as received. */
  unrecognized(route: string, status: number): void;
}

/** A {@link ResponseValidation} whose warnings go to `logger`, each route-and-problem once. */
export function responseValidation(mode: ResponseValidationMode, logger: Logger): ResponseValidation {
  const seen = new Set<string>();
  return {
    mode,
    unrecognized(route, status) {
      if (seen.has(route)) return;
      seen.add(route);
      logger.warn(
        `${route}: the ${status} response has a shape this SDK version does not recognise (the spec does ` +
          `not show it); returned as received, in \`unrecognized\`. Said once per route.`,
      );
    },
    warn(route, status, issues) {
      const fresh = issues.filter((issue) => {
        const key = `${route}\n${issue.path}\n${issue.message}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (fresh.length === 0) return;
      const problems = fresh.map((issue) => `${issue.path || '(body)'}: ${issue.message}`).join('; ');
      logger.warn(
        `${route}: the ${status} response does not match the API spec (${problems}); returned as received ` +
          `(responseValidation: 'warn'). Said once per route and problem.`,
      );
    },
  };
}

/**
 * A 2xx body whose shape the SDK does not recognise, at a place where the spec shows none (contract
 * versions and document lists): the body exactly as the server sent it, never reshaped into an empty or
 * partial result. Tell it apart with `'unrecognized' in result`.
 *
 * @example
 * ```ts
 * const templates = await client.contracts.templates.list(version);
 * if ('unrecognized' in templates) console.warn('new list shape', templates.unrecognized);
 * else for (const template of templates) console.log(template.name);
 * ```
 */
export interface Unrecognized {
  readonly unrecognized: unknown;
}

const unrecognizedResults = new WeakSet<object>();

/** Whether a call's value is one {@link unrecognized} made (its route then warns once). */
export function isUnrecognized(value: unknown): boolean {
  return typeof value === 'object' && value !== null && unrecognizedResults.has(value);
}

/** What a `select` returns for a body it does not recognise, with the `fields` its result type also has. */
export function unrecognized<Fields extends object>(body: unknown, fields?: Fields): Fields & Unrecognized {
  const result = { ...fields, unrecognized: body } as Fields & Unrecognized;
  unrecognizedResults.add(result);
  return result;
}

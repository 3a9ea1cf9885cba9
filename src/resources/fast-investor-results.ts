import { z } from 'zod';
import { InvestorCreateResponse } from '../schemas/investors.js';
import { lazySchema } from '../schemas/lazy-schema.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nullishString = (value: unknown) => value === undefined || value === null || typeof value === 'string';

function isRowError(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  return (
    isObject(value) &&
    typeof value['code'] === 'string' &&
    typeof value['message'] === 'string' &&
    typeof value['retryable'] === 'boolean' &&
    nullishString(value['field'])
  );
}

/**
 * Whether `InvestorCreateResponse` accepts `body` as it is: a plain object whose `results` are rows with the
 * stated fields of the stated types. Never true for a body zod refuses; zod's output would only be a copy.
 */
export function isInvestorCreateResponse(body: unknown): boolean {
  if (!isObject(body)) return false;
  const results = body['results'];
  if (!Array.isArray(results)) return false;
  for (const row of results) {
    if (
      !isObject(row) ||
      typeof row['partnerInvestorId'] !== 'string' ||
      typeof row['status'] !== 'string' ||
      !nullishString(row['servicePersonId']) ||
      !isRowError(row['error'])
    ) {
      return false;
    }
  }
  return true;
}

/**
 * `InvestorCreateResponse` with a zod-free path for the usual body: one that passes
 * {@link isInvestorCreateResponse} is taken as it is (the parsed JSON, no per-row copies); any other goes
 * through zod, which reports what is wrong with the same issues as before. The zod parse of each chunk's
 * answer was about a tenth of the SDK's client CPU on a 25,000-row import.
 */
export const FastInvestorCreateResponse = lazySchema(() =>
  z.unknown().transform((body, ctx): InvestorCreateResponse => {
    if (isInvestorCreateResponse(body)) return body as InvestorCreateResponse;
    const parsed = InvestorCreateResponse.safeParse(body);
    if (parsed.success) return parsed.data;
    (ctx.issues as z.core.$ZodIssue[]).push(...parsed.error.issues);
    return z.NEVER;
  }),
);

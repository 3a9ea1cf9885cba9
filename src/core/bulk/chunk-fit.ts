import { APIError, BadRequestError, UnprocessableEntityError } from '../errors/errors.js';

/** The service's request-size limit for one bulk operation as a client (and its `withOptions()` kin) learned it. */
export interface ChunkFit {
  /** The smallest body (bytes) refused as too large: bodies this size or larger are split unsent. */
  refusedBytes?: number;
  /** The fewest rows refused as too many: chunks this size or larger are split unsent. */
  refusedRows?: number;
  /** The most rows a piece of a split chunk has carried through (the size that worked). */
  fittedRows?: number;
}

/** Chunk fits by operation name, one map per client. */
export type ChunkFits = Map<string, ChunkFit>;

/** The fit of `operation` in `fits` (a fresh one, kept there, the first time). */
export function chunkFitOf(fits: ChunkFits | undefined, operation: string): ChunkFit {
  const fit = fits?.get(operation) ?? {};
  fits?.set(operation, fit);
  return fit;
}

/** Whether a body of `bytes()` with `rows` rows is as large as one already refused, and in what (bytes counted only then). */
export function knownTooLarge(
  fit: ChunkFit,
  bytes: () => number,
  rows: number,
): 'rows' | 'bytes' | undefined {
  if (fit.refusedBytes !== undefined && bytes() >= fit.refusedBytes) return 'bytes';
  return rows >= (fit.refusedRows ?? Number.POSITIVE_INFINITY) ? 'rows' : undefined;
}

// What a size complaint says: the request (its body) too large, or too many items in it. A limit on anything
// else (a daily import quota, a rate) is not about this request's size: splitting it would only send more.
const ITEMS = '(rows?|items?|investors?|subscriptions?|records?|elements?|entries|list|array)';
const TOO_MANY = new RegExp(
  String.raw`too[ _-]?(many|long)|(at most|max(imum)?( of)?|more than|up to|limit(ed)?( is| of| to)?)\s*:?\s*\d+\s*${ITEMS}|${ITEMS}\b.*\b(at most|max(imum)?|more than|up to)\s*:?\s*\d+`,
  'i',
);
const TOO_LARGE =
  /too[ _-]?(large|big)|\b(body|request|payload)[ _-]?(size|length)\b|content[ _-]?length|\d+\s*([kmg]i?b|bytes?)\b|\bsize\b.*\b(exceed|max|limit)|\b(exceeds?|over|above)\b.*\b(size|bytes?)\b/i;
const QUOTA =
  /too[ _-]?many[ _-]?requests|quota|daily|per[ _-]?(day|hour|minute|second|month)|today|rate[ _-]?limit|throttl/i;
// A row's place in an error's attribute or location (`investors[3].email`, `body.investors.3`).
const ROW_PLACE = /\[\d+\]|\.\d+(\.|$)/;

/**
 * Why the service refused a chunk for its size, or `undefined` when it did not: `'bytes'` for a 413
 * (whatever its body: JSON, a proxy's HTML page, nothing) or a 400/422 saying the request is too large,
 * `'rows'` for a 400/422 saying it has too many rows. An error about one row's field, or about a quota or
 * a limit on anything but this request's size ("Daily import limit exceeded"), is neither: an error.
 */
export function sizeRefusal(error: unknown): 'bytes' | 'rows' | undefined {
  if (!(error instanceof APIError)) return undefined;
  if (error.status === 413) return 'bytes';
  if (!(error instanceof BadRequestError || error instanceof UnprocessableEntityError)) return undefined;
  const said = [
    ...error.validationErrors
      .filter((item) => !ROW_PLACE.test(item.attribute))
      .map((item) => `${item.code} ${item.message}`),
    ...(error instanceof UnprocessableEntityError ? error.issues : [])
      .filter((issue) => !ROW_PLACE.test(issue.loc.join('.')))
      .map((issue) => `${issue.type} ${issue.msg}`),
  ];
  if (said.length === 0 && error.detail !== undefined && !ROW_PLACE.test(error.detail))
    said.push(`${error.code} ${error.detail}`);
  const about = said.filter((line) => !QUOTA.test(line));
  if (about.some((line) => TOO_MANY.test(line))) return 'rows';
  return about.some((line) => TOO_LARGE.test(line)) ? 'bytes' : undefined;
}

/** Whether a 400/422 names rows of the chunk: their content was refused, not the call's (other chunks may pass). */
export function namesRows(error: unknown): boolean {
  if (error instanceof UnprocessableEntityError && error.issues.some((i) => ROW_PLACE.test(i.loc.join('.'))))
    return true;
  return error instanceof BadRequestError && error.validationErrors.some((i) => ROW_PLACE.test(i.attribute));
}

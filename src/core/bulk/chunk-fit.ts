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

/** Whether a body of `bytes()` with `rows` rows is as large as one already refused (bytes counted only then). */
export function knownTooLarge(fit: ChunkFit, bytes: () => number, rows: number): boolean {
  if (rows >= (fit.refusedRows ?? Number.POSITIVE_INFINITY)) return true;
  return fit.refusedBytes !== undefined && bytes() >= fit.refusedBytes;
}

const TOO_BIG = /too[ _-]?(many|large|long|big)|at most \d+|exceed|maximum/i;
const ROWS = /row|item|investor|subscription|many|long|at most/i;
// A row's place in an error's attribute or location (`investors[3].email`, `body.investors.3`).
const ROW_PLACE = /\[\d+\]|\.\d+(\.|$)/;

/**
 * Why the service refused a chunk for its size, or `undefined` when it did not: `'bytes'` for a 413
 * (whatever its body: JSON, a proxy's HTML page, nothing) or a 400/422 saying the request is too large,
 * `'rows'` for a 400/422 saying it has too many rows. An error about one row's field is neither.
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
    said.push(error.detail);
  const text = said.find((line) => TOO_BIG.test(line));
  if (text === undefined) return undefined;
  return ROWS.test(text) ? 'rows' : 'bytes';
}

/** Whether a 400/422 names rows of the chunk: their content was refused, not the call's (other chunks may pass). */
export function namesRows(error: unknown): boolean {
  if (error instanceof UnprocessableEntityError && error.issues.some((i) => ROW_PLACE.test(i.loc.join('.'))))
    return true;
  return error instanceof BadRequestError && error.validationErrors.some((i) => ROW_PLACE.test(i.attribute));
}

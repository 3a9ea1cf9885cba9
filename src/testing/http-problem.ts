import type { PartnerErrorCode } from './wire/errors.js';

/** One `validationErrors` entry of a 400 response. */
export interface AttributeProblem {
  attribute: string;
  code: string;
  message: string;
}

/** One `detail` entry of a 422 response. */
export interface ValidationProblem {
  loc: string[];
  msg: string;
  type: string;
}

/**
 * An HTTP error a route throws; the pipeline turns it into the spec's envelope: the partner envelope
 * `{ code, detail, errorId, validationErrors }` for every status except 422, which gets `{ detail: [...] }`.
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: PartnerErrorCode;
  readonly validationErrors: AttributeProblem[];
  readonly issues: ValidationProblem[];
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: PartnerErrorCode,
    detail: string,
    extra: {
      validationErrors?: AttributeProblem[];
      issues?: ValidationProblem[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.validationErrors = extra.validationErrors ?? [];
    this.issues = extra.issues ?? [];
    this.headers = extra.headers ?? {};
  }

  /** The response body, given a fresh error id. */
  body(errorId: string): unknown {
    if (this.status === 422) return { detail: this.issues };
    return { code: this.code, detail: this.message, errorId, validationErrors: this.validationErrors };
  }
}

/** A 422 with one or more schema violations. */
export function unprocessable(issues: ValidationProblem[]): HttpProblem {
  return new HttpProblem(422, 'validation_failed', 'Request failed schema validation', { issues });
}

/** A 422 for a single location. */
export function unprocessableAt(loc: string[], msg: string, type: string): HttpProblem {
  return unprocessable([{ loc, msg, type }]);
}

/** A 401 that also tells the client why in `WWW-Authenticate`, as RFC 6750 asks. */
export function unauthorized(code: PartnerErrorCode, detail: string): HttpProblem {
  return new HttpProblem(401, code, detail, {
    headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${code}"` },
  });
}

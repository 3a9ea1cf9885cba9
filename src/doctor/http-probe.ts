import { z } from 'zod';
import { parseHttpDate } from '../auth/token-endpoint.js';
import { fixedToken } from './doctor-target.js';
import { APIError, type Requester, ResponseTooLargeError, ResponseValidationError } from './sdk-core.js';

/** One answer of the service, whatever its status. */
export interface ProbeAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body (or text); for errors, redacted by the SDK. */
  body: unknown;
  /** The partner error envelope's `detail` and `code`, when an error body carried them (redacted). */
  detail?: string | undefined;
  code?: string | undefined;
  requestId?: string | undefined;
  /** The server's clock minus ours, in ms, from the `Date` header (±0.5 s: the header counts seconds). */
  clockOffsetMs?: number | undefined;
}

/** One request of a probe. */
export interface ProbeRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number> | undefined;
  form?: Record<string, string> | undefined;
  /** A bearer token to send (else none, whatever the route). */
  token?: string | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Sends one request through the client's pipeline (transport, timeout, redaction, logging), with no retry
 * and no response check, and resolves with the answer whatever its status. Connection failures reject
 * (`APIConnectionError`, with the TLS or DNS error as `cause`).
 */
export async function probe(requester: Requester, request: ProbeRequest): Promise<ProbeAnswer> {
  const clock = requester.config.clock;
  const sentAt = clock.now();
  const pipeline = requester.with({
    authenticator: request.token === undefined ? undefined : fixedToken(request.token),
  });
  const offset = (headers: Headers) => {
    const date = parseHttpDate(headers.get('date'));
    // The header is the server's time floored to the second: its middle, against our request's middle.
    return date === undefined ? undefined : date + 500 - (sentAt + clock.now()) / 2;
  };
  try {
    const { data, response } = await pipeline
      .request({
        method: request.method,
        path: request.path,
        auth: request.token === undefined ? 'none' : 'bearer',
        query: request.query,
        form: request.form,
        response: z.unknown(),
        validation: 'off',
        options: { maxRetries: 0, ...(request.signal !== undefined && { signal: request.signal }) },
      })
      .withResponse();
    return {
      status: response.status,
      headers: response.headers,
      body: data,
      requestId: response.requestId,
      clockOffsetMs: offset(response.headers),
    };
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    return {
      status: error.status,
      headers: error.headers,
      body: error.body,
      // The partner envelope's `detail` and `code`, else an OAuth error body's (RFC 6749 §5.2).
      detail: error.detail ?? field(error.body, 'error_description'),
      code: field(error.body, 'code') ?? field(error.body, 'error'),
      requestId: error.requestId,
      clockOffsetMs: offset(error.headers),
    };
  }
}

/** Why an answer's body could not be read (over `maxResponseBytes`, or not the JSON it says it is). */
export function unreadableBody(error: unknown): string | undefined {
  if (error instanceof ResponseTooLargeError)
    return `the body is over maxResponseBytes (${error.limit} bytes)`;
  if (error instanceof ResponseValidationError) return 'the body is not valid JSON';
  return undefined;
}

function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

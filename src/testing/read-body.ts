import { BodyTooLargeError, readBody as readBounded, streamChunks } from '../webhooks/read-body.js';
import { HttpProblem, unprocessableAt } from './http-problem.js';

/**
 * Reads a request body up to `maxBytes`. Past the limit it keeps reading and discards, so the client
 * finishes sending and sees the 413 instead of a reset connection; the loopback server also stops
 * buffering at that point, so an oversized upload never sits in memory.
 */
export async function readBody(
  request: Request,
  maxBytes: number,
  tooLarge: 'payload_too_large' | 'file_too_large' = 'payload_too_large',
): Promise<Uint8Array<ArrayBuffer>> {
  if (request.body === null) return new Uint8Array(0);
  try {
    return await readBounded(streamChunks(request.body), maxBytes, 'drain');
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    throw new HttpProblem(413, tooLarge, `Request body is over the ${maxBytes}-byte limit`);
  }
}

function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Parses a JSON body; a wrong content type or malformed JSON is a 422, as the spec says of bad input. */
export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const type = mediaType(request);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    await readBody(request, maxBytes);
    throw unprocessableAt(['body'], 'Expected Content-Type: application/json', 'content_type');
  }
  const text = new TextDecoder().decode(await readBody(request, maxBytes));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw unprocessableAt(['body'], 'JSON decode error', 'json_invalid');
  }
}

/** Parses an `application/x-www-form-urlencoded` body into its fields (a repeated field is a 422). */
export async function readUrlEncoded(request: Request, maxBytes: number): Promise<Record<string, string>> {
  const bytes = await readBody(request, maxBytes);
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw unprocessableAt(
      ['body'],
      'Expected Content-Type: application/x-www-form-urlencoded',
      'content_type',
    );
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(new TextDecoder().decode(bytes))) {
    if (name in fields) throw unprocessableAt(['body', name], 'Field given more than once', 'value_error');
    fields[name] = value;
  }
  return fields;
}

/**
 * Parses a `multipart/form-data` body. Not multipart at all, or unparseable, is a 400 (the spec's
 * "invalid request" for uploads); over the size limit is a 413.
 */
export async function readMultipart(request: Request, maxBytes: number): Promise<FormData> {
  const type = mediaType(request);
  const bytes = await readBody(request, maxBytes, 'file_too_large');
  if (type !== 'multipart/form-data') {
    throw new HttpProblem(400, 'invalid_multipart', 'Expected a multipart/form-data body');
  }
  try {
    const contentType = request.headers.get('content-type') ?? '';
    return await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new HttpProblem(400, 'invalid_multipart', 'The multipart/form-data body could not be parsed');
  }
}

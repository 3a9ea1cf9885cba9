// Pieces of every scheme shared by signing and verifying, so both sides agree byte for byte.

/** Raw body types accepted everywhere: the exact bytes that went over the wire. */
export type RawBody = string | Uint8Array | ArrayBuffer;

/** Message ids the SDK signs and accepts: 1–256 visible ASCII characters, no spaces. */
export const WEBHOOK_ID = /^[\x21-\x7e]{1,256}$/;

/** Integer seconds, no sign, no leading zero, at most 10 digits (so milliseconds are refused, not misread). */
export const WEBHOOK_TIMESTAMP = /^[1-9][0-9]{0,9}$/;

/** `string | Uint8Array | ArrayBuffer` → the body as given, or `undefined` when it is anything else. */
export function asRawBody(body: unknown): string | Uint8Array | undefined {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // Other views (DataView, Int8Array…) of the same bytes, and ArrayBuffers from another realm.
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (Object.prototype.toString.call(body) === '[object ArrayBuffer]') {
    return new Uint8Array(body as ArrayBuffer);
  }
  return undefined;
}

import { createHash } from 'node:crypto';

// Object keys sorted at every depth, so `{a,b}` and `{b,a}` are the same request; byte arrays are hashed
// so a file's content (not its multipart boundary, which changes per attempt) decides.
function canonical(value: unknown): unknown {
  if (value instanceof Uint8Array) return { sha256: createHash('sha256').update(value).digest('hex') };
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) out[key] = canonical(record[key]);
    return out;
  }
  return value;
}

/** SHA-256 of a parsed request: what decides "same body" for an idempotency key. */
export function fingerprint(input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(input)) ?? 'undefined')
    .digest('hex');
}

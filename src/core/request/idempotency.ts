import { createHash } from 'node:crypto';

/**
 * A deterministic `Idempotency-Key` for `payload` within `namespace`: SHA-256 over the namespace and the
 * payload as stable JSON (object keys sorted at every depth), as base64url (43 characters). Run a crashed
 * script again within the API's 24 h retention with the same inputs and the API replays the first
 * response instead of creating anything twice. Symbol-keyed properties are ignored, as in the JSON body
 * that is sent.
 *
 * @example
 * ```ts
 * const key = deriveIdempotencyKey('spv-request:2024-06-fund', body);
 * await client.spvRequests.create(body, { idempotencyKey: key });
 * ```
 * @throws TypeError when `payload` holds something JSON cannot represent (a function, a symbol value, a
 * bigint, a cycle): refused rather than left out, so two different payloads never share a key.
 */
export function deriveIdempotencyKey(namespace: string, payload: unknown): string {
  if (typeof namespace !== 'string' || namespace === '')
    throw new TypeError('deriveIdempotencyKey: namespace must be a non-empty string');
  return idempotencyKeyOfJson(namespace, stableJson(payload));
}

/**
 * {@link deriveIdempotencyKey} for a payload already written as {@link stableJson} (a bulk chunk's rows,
 * cut from the stable JSON of its body).
 * @internal
 */
export function idempotencyKeyOfJson(namespace: string, json: string): string {
  // A NUL separator keeps ("a", "bc") and ("ab", "c") apart.
  return createHash('sha256').update(namespace).update('\0').update(json).digest('base64url');
}

/**
 * The key of chunk `index` (0-based) of a bulk call whose logical key is `baseKey`: deterministic, so a
 * re-run re-sends every chunk with the key it had before.
 */
export function chunkKey(baseKey: string, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0)
    throw new RangeError('chunkKey: index must be an integer >= 0');
  return `${baseKey}-${index}`;
}

/**
 * JSON with object keys sorted recursively; values go through `toJSON` first, as in `JSON.stringify`.
 * Functions, symbols and cycles are refused (`JSON.stringify` would drop the first two); symbol keys are skipped.
 */
export function stableJson(value: unknown): string {
  const json = JSON.stringify(sortedCopy(value, '', []));
  if (json === undefined) throw new TypeError('stable JSON: the payload has no JSON representation');
  return json;
}

// `value` as JSON.stringify sees it (after `toJSON(key)`, a BigInt's left to JSON.stringify), objects as
// plain copies with their keys sorted. Not null-prototype copies: V8 keeps those as hash tables, slower to
// build and to write (bench/RESULTS.md). An own `__proto__` key (JSON.parse makes them) is defined, since
// assigning it would set the copy's prototype instead.
function sortedCopy(value: unknown, key: string, path: object[]): unknown {
  const toJSON = Object(value) === value ? (value as { toJSON?: unknown }).toJSON : undefined;
  const item: unknown = typeof toJSON === 'function' ? toJSON.call(value, key) : value;
  const kind = typeof item;
  if (kind === 'function' || kind === 'symbol')
    throw new TypeError(`stable JSON: cannot represent a ${kind}`);
  if (item === null || typeof item !== 'object') return item;
  if (path.includes(item)) throw new TypeError('stable JSON: the payload has a cycle');
  path.push(item);
  const copy = (Array.isArray(item) ? [] : {}) as Record<string, unknown>;
  for (const name of Array.isArray(item) ? item.keys() : Object.keys(item).sort()) {
    const field = sortedCopy((item as Record<string, unknown>)[name], String(name), path);
    // Stryker disable next-line ConditionalExpression: defining every key writes the same JSON, only slower
    if (name === '__proto__') Object.defineProperty(copy, name, { value: field, enumerable: true });
    else copy[name] = field;
  }
  path.pop();
  return copy;
}

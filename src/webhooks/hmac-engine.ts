/**
 * The one runtime-specific piece of webhook verification: HMAC-SHA256. Everything else (header parsing,
 * timestamp rules, signature matching, event parsing) is shared by the Web Crypto and `node:crypto` builds.
 *
 * Both methods may answer synchronously; callers only `await` when handed a promise, which keeps the
 * `node:crypto` path free of extra microtask hops.
 */
export interface HmacEngine<Key = unknown> {
  /** Turns raw secret bytes into a reusable key (done once per secret per `Webhook`). */
  importKey(raw: Uint8Array<ArrayBuffer>): Key | Promise<Key>;
  /** Base64 HMAC-SHA256 of `prefix` (UTF-8) followed by `body` (UTF-8 when a string). */
  sign(key: Key, prefix: string, body: string | Uint8Array): string | Promise<string>;
}

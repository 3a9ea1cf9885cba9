import type { WebhookSignatureEncoding } from './scheme/webhook-scheme.js';

/**
 * The one runtime-specific piece of webhook verification: HMAC-SHA256 (and SHA-256 for the body-derived id
 * of schemes without an id header). Everything else (header parsing, timestamp rules, signature matching,
 * interpretation) is shared by the Web Crypto and `node:crypto` builds.
 *
 * Methods may answer synchronously; callers only `await` when handed a promise, which keeps the
 * `node:crypto` path free of extra microtask hops.
 */
export interface HmacEngine<Key = unknown> {
  /** Turns raw secret bytes into a reusable key (done once per secret per `Webhook`). */
  importKey(raw: Uint8Array<ArrayBuffer>): Key | Promise<Key>;
  /** HMAC-SHA256 of `prefix`, `body` and `suffix` (UTF-8; `body` as given when bytes), in `encoding`. */
  sign(
    key: Key,
    prefix: string,
    body: string | Uint8Array,
    suffix: string,
    encoding: WebhookSignatureEncoding,
  ): string | Promise<string>;
  /** Lower-case hex SHA-256 of `body` (UTF-8 when a string). */
  digest(body: string | Uint8Array): string | Promise<string>;
}

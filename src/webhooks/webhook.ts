import { constantTimeEqual } from './constant-time-equal.js';
import type { WebhookEvent } from './events.js';
import type { HmacEngine } from './hmac-engine.js';
import { parseEvent } from './parse-event.js';
import { readHeader, type WebhookRequestHeaders } from './read-header.js';
import { decodeSecret } from './secret.js';
import { signWebhook, type WebhookSignatureHeaders } from './sign.js';
import { asRawBody, type RawBody, WEBHOOK_ID, WEBHOOK_TIMESTAMP } from './signed-content.js';
import { webCryptoEngine } from './web-crypto-engine.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** Options of {@link Webhook}. Give `secret` (one or several) or `secrets`. */
export interface WebhookOptions {
  /** `whsec_<base64>` signing secret, or several during a rotation (newest first is customary). */
  secret?: string | readonly string[];
  /** Same as `secret` given as a list: every secret is tried, and the event reports which one matched. */
  secrets?: readonly string[];
  /**
   * How far `webhook-timestamp` may be from now, in seconds, in either direction.
   * @default 300
   */
  toleranceSeconds?: number;
  /**
   * Current time in epoch milliseconds (or a `Date`). Inject a fake clock in tests.
   * @default Date.now
   */
  now?: () => number | Date;
}

// Which HMAC primitive a Webhook class uses: the `node` build registers its subclass here. Kept out of the
// class itself so no internal type shows up in the public declarations.
const engines = new WeakMap<abstract new (...args: never[]) => unknown, HmacEngine>();

/** Makes instances of `webhookClass` (a subclass of {@link Webhook}) compute HMACs with `engine`. */
export function useHmacEngine(
  webhookClass: abstract new (...args: never[]) => Webhook,
  engine: HmacEngine,
): void {
  engines.set(webhookClass, engine);
}

/** The engine registered for `target` or its nearest ancestor, so partners' subclasses keep their build's. */
function engineFor(target: unknown): HmacEngine {
  for (let cls = target; typeof cls === 'function'; cls = Object.getPrototypeOf(cls)) {
    const engine = engines.get(cls as abstract new (...args: never[]) => unknown);
    if (engine) return engine;
  }
  return webCryptoEngine;
}

/** Most entries a `webhook-signature` header may hold; rotation needs two or three. */
export const MAX_SIGNATURES = 16;
// Room for MAX_SIGNATURES entries of ~48 characters; a longer header is refused before it is split.
const MAX_SIGNATURE_HEADER_LENGTH = 1024;
const V1_LENGTH = 44; // base64 of a 32-byte HMAC-SHA256

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return typeof value;
}

function secretList(options: WebhookOptions): readonly string[] {
  const given = options.secrets ?? options.secret;
  if (options.secrets !== undefined && options.secret !== undefined) {
    throw new TypeError('Give Webhook either `secret` or `secrets`, not both.');
  }
  const list = typeof given === 'string' ? [given] : given;
  if (!Array.isArray(list) || list.length === 0) {
    throw new WebhookVerificationError(
      'malformed_secret',
      'Webhook needs a `secret` (was it read from an unset variable?).',
    );
  }
  return list as readonly string[];
}

/**
 * Verifies Standard Webhooks deliveries: `webhook-id`, `webhook-timestamp` and `webhook-signature` headers,
 * HMAC-SHA256 over `${id}.${timestamp}.${rawBody}` with a `whsec_` secret. Keys are decoded and imported
 * once per instance; create one `Webhook` and reuse it.
 *
 * This default build uses Web Crypto and runs on every runtime; under Node the `node` export condition
 * selects a `node:crypto` build with the same behaviour.
 *
 * @example
 * ```ts
 * import { Webhook } from '@partner-equity/sdk/webhooks';
 * const webhook = new Webhook({ secret: process.env.PARTNER_EQUITY_WEBHOOK_SECRET! });
 * const event = await webhook.verify(rawBody, request.headers); // throws WebhookVerificationError on any doubt
 * if (event.known && event.type === 'spv_request.completed') console.log(event.data.spvSlug);
 * ```
 */
export class Webhook {
  readonly #engine: HmacEngine;
  readonly #secrets: readonly string[];
  readonly #keyBytes: readonly Uint8Array<ArrayBuffer>[];
  #keys: unknown[] | undefined;
  #keysPending: Promise<unknown[]> | undefined;
  readonly #toleranceSeconds: number;
  readonly #now: () => number | Date;

  constructor(options: WebhookOptions) {
    this.#engine = engineFor(new.target);
    this.#secrets = [...secretList(options)];
    this.#keyBytes = this.#secrets.map(decodeSecret);
    const tolerance = options.toleranceSeconds ?? 300;
    if (!Number.isSafeInteger(tolerance) || tolerance < 0) {
      throw new RangeError('toleranceSeconds must be a non-negative integer number of seconds.');
    }
    this.#toleranceSeconds = tolerance;
    this.#now = options.now ?? Date.now;
  }

  /** Seconds a timestamp may differ from now; stores that de-duplicate must remember ids at least this long. */
  get toleranceSeconds(): number {
    return this.#toleranceSeconds;
  }

  /**
   * Checks a delivery and returns its event. Pass the body exactly as received — the raw bytes or the
   * undecoded string — never a parsed object.
   *
   * @throws {WebhookVerificationError} with a `reason` for every refusal.
   */
  async verify(rawBody: RawBody, headers: WebhookRequestHeaders): Promise<WebhookEvent> {
    const body = asRawBody(rawBody);
    if (body === undefined) {
      throw new WebhookVerificationError(
        'body_not_raw',
        `Webhook body must be the raw request body (string, Uint8Array or ArrayBuffer), got ${describe(rawBody)}. ` +
          'A body-parsing middleware (express.json(), bodyParser.json(), a framework that parses JSON) probably ' +
          'ran first: give this route the raw body, e.g. express.raw({ type: "application/json" }), or use ' +
          'createNodeHandler / createFetchHandler, which read it themselves.',
      );
    }
    if (typeof headers !== 'object' || headers === null) {
      throw new WebhookVerificationError('missing_header', 'Missing webhook headers.');
    }
    const id = readHeader(headers, 'webhook-id');
    if (!WEBHOOK_ID.test(id)) {
      throw new WebhookVerificationError(
        'malformed_header',
        'Header webhook-id is not 1-256 visible characters.',
      );
    }
    const timestamp = readHeader(headers, 'webhook-timestamp');
    this.#checkTimestamp(timestamp);
    const candidates = parseSignatures(readHeader(headers, 'webhook-signature', true));
    const keys = this.#keys ?? (await this.#importKeys());
    const prefix = `${id}.${timestamp}.`;
    for (let index = 0; index < keys.length; index++) {
      const signed = this.#engine.sign(keys[index], prefix, body);
      const expected = typeof signed === 'string' ? signed : await signed;
      let matched = false;
      // Every candidate is compared (no early exit) so timing says nothing about which entry matched.
      for (const candidate of candidates) matched = constantTimeEqual(expected, candidate) || matched;
      if (matched) return parseEvent(body, id, index);
    }
    throw new WebhookVerificationError(
      'no_matching_signature',
      'No webhook signature matches the configured secret(s).',
    );
  }

  /**
   * Signs a payload as the service would — for your tests and local tooling. Uses the first secret.
   *
   * @example
   * ```ts
   * const payload = JSON.stringify({ type: 'spv_request.created', timestamp: new Date().toISOString(), data });
   * const headers = await webhook.sign({ payload });
   * await fetch('http://localhost:3000/webhooks', { method: 'POST', headers, body: payload });
   * ```
   */
  sign(input: {
    payload: RawBody;
    id?: string;
    timestamp?: number | Date;
  }): Promise<WebhookSignatureHeaders> {
    const now = this.#now();
    return signWebhook({
      secret: this.#secrets[0]!,
      id: input.id ?? `msg_${crypto.randomUUID().replaceAll('-', '')}`,
      timestamp: input.timestamp ?? Math.floor((typeof now === 'number' ? now : now.getTime()) / 1000),
      payload: input.payload,
    });
  }

  #checkTimestamp(timestamp: string): void {
    if (!WEBHOOK_TIMESTAMP.test(timestamp)) {
      throw new WebhookVerificationError(
        'malformed_timestamp',
        'Header webhook-timestamp must be integer Unix seconds (no sign, fraction or milliseconds).',
      );
    }
    const now = this.#now();
    const nowSeconds = Math.floor((typeof now === 'number' ? now : now.getTime()) / 1000);
    const skew = Number(timestamp) - nowSeconds;
    if (skew < -this.#toleranceSeconds) {
      throw new WebhookVerificationError(
        'timestamp_too_old',
        `Webhook timestamp is ${-skew} s old, beyond the ${this.#toleranceSeconds} s tolerance (a replay, or a wrong clock).`,
      );
    }
    if (skew > this.#toleranceSeconds) {
      throw new WebhookVerificationError(
        'timestamp_too_new',
        `Webhook timestamp is ${skew} s ahead, beyond the ${this.#toleranceSeconds} s tolerance (check this server's clock).`,
      );
    }
  }

  async #importKeys(): Promise<unknown[]> {
    this.#keysPending ??= Promise.all(this.#keyBytes.map((bytes) => this.#engine.importKey(bytes)));
    try {
      this.#keys = await this.#keysPending;
      return this.#keys;
    } finally {
      this.#keysPending = undefined;
    }
  }
}

/** The `v1` entries of a `webhook-signature` header, refusing oversized lists before doing any work. */
function parseSignatures(header: string): string[] {
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `Header webhook-signature is longer than allowed.`,
    );
  }
  const tokens = header.split(' ').filter((token) => token !== '');
  if (tokens.length > MAX_SIGNATURES) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `Header webhook-signature has ${tokens.length} entries; at most ${MAX_SIGNATURES} are accepted.`,
    );
  }
  const candidates: string[] = [];
  for (const token of tokens) {
    // `Headers#get` joins repeated headers with ", ", which leaves a trailing comma on all but the last.
    const entry = token.endsWith(',') ? token.slice(0, -1) : token;
    if (entry.startsWith('v1,') && entry.length === 3 + V1_LENGTH) candidates.push(entry.slice(3));
  }
  if (candidates.length === 0) {
    throw new WebhookVerificationError(
      'malformed_signature',
      'Header webhook-signature has no v1 signature.',
    );
  }
  return candidates;
}

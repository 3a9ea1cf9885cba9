import { constantTimeEqual } from './constant-time-equal.js';
import type { WebhookEvent } from './event-union.js';
import type { HmacEngine } from './hmac-engine.js';
import { interpret } from './parse-event.js';
import { readDeliveryHeaders } from './read-delivery-headers.js';
import type { WebhookRequestHeaders } from './read-header.js';
import { staleAdvice } from './retry-window.js';
import { resolveWebhookScheme } from './scheme/resolve-webhook-scheme.js';
import { compileSignedContent, type SignedContentAround, signs } from './scheme/signed-content-template.js';
import type { WebhookScheme, WebhookSchemeInput } from './scheme/webhook-scheme.js';
import { decodeSecret } from './secret.js';
import { checkSignInput, newMessageId, type SignedWebhookHeaders, signedHeaders } from './sign.js';
import { asRawBody, type RawBody } from './signed-content.js';
import { VerifiedWebhook } from './verified-webhook.js';
import { engineFor, secretList } from './webhook-engines.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** Options of {@link Webhook}. Give `secret` (one or several) or `secrets`. */
export interface WebhookOptions {
  /** The signing secret in the scheme's encoding (`whsec_<base64>` by default), or several during a rotation. */
  secret?: string | readonly string[] | undefined;
  /** Same as `secret` given as a list: every secret is tried, and the event reports which one matched. */
  secrets?: readonly string[] | undefined;
  /**
   * How deliveries are signed: a preset name, `{ preset, ...overrides }` or a full description.
   * @default 'standard-webhooks'
   */
  scheme?: WebhookSchemeInput | undefined;
  /**
   * How far the signed timestamp may be from now, in seconds, in either direction (schemes that sign one).
   * @default 300
   */
  toleranceSeconds?: number | undefined;
  /**
   * Current time in epoch milliseconds (or a `Date`). Inject a fake clock in tests.
   * @default Date.now
   */
  now?: (() => number | Date) | undefined;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return typeof value;
}

function seconds(now: number | Date): number {
  // A Date's number is its getTime().
  return Math.floor(Number(now) / 1000);
}

/** Checked delivery facts, before the body is interpreted. */
interface Checked {
  id: string;
  timestamp: number | undefined;
  index: number;
  body: string | Uint8Array;
}

/**
 * Verifies webhook deliveries — Standard Webhooks by default (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature` headers, HMAC-SHA256 over `${id}.${timestamp}.${rawBody}` with a `whsec_` secret), or
 * any HMAC-SHA256 `scheme`. Two steps with their own methods: `verifySignature` checks headers, timestamp and
 * signature and returns the raw delivery; `verify` also interprets the body and never refuses it for what it
 * says. Keys are decoded and imported once per instance; create one `Webhook` and reuse it.
 *
 * This default build uses Web Crypto and runs on every runtime; under Node the `node` export condition
 * selects a `node:crypto` build with the same behaviour.
 *
 * @example
 * ```ts
 * import { Webhook } from '@partner-equity/sdk/webhooks';
 * const webhook = new Webhook({ secret: process.env.PE_WEBHOOK_SECRET! });
 * const event = await webhook.verify(rawBody, request.headers); // throws WebhookVerificationError on a bad signature or time
 * if (event.known && event.type === 'spv_request.completed') console.log(event.data.spvRequestSlug);
 * ```
 */
export class Webhook {
  readonly #engine: HmacEngine;
  readonly #scheme: WebhookScheme;
  readonly #signedContent: (id: string, timestamp: string) => SignedContentAround;
  readonly #signsId: boolean;
  readonly #keyBytes: readonly Uint8Array<ArrayBuffer>[];
  #keys: unknown[] | undefined;
  #keysPending: Promise<unknown[]> | undefined;
  readonly #toleranceSeconds: number;
  readonly #now: () => number | Date;

  constructor(options: WebhookOptions) {
    this.#engine = engineFor(new.target);
    this.#scheme = resolveWebhookScheme(options.scheme);
    this.#signedContent = compileSignedContent(this.#scheme.signedContent);
    this.#signsId = signs(this.#scheme, 'id');
    const secrets = secretList(options);
    const label = (i: number) => (secrets.length === 1 ? 'Webhook secret' : `Webhook secret #${i + 1}`);
    this.#keyBytes = secrets.map((s, i) => decodeSecret(s, this.#scheme.secretEncoding, label(i)));
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

  /** The signing scheme, complete. */
  get scheme(): WebhookScheme {
    return this.#scheme;
  }

  /**
   * Checks a delivery's headers, timestamp and signature and returns it uninterpreted: id, timestamp, bytes,
   * text and JSON. Pass the body exactly as received — raw bytes or the undecoded string, never a parsed
   * object.
   *
   * @throws {WebhookVerificationError} with a `reason` for every refusal.
   */
  async verifySignature(rawBody: RawBody, headers: WebhookRequestHeaders): Promise<VerifiedWebhook> {
    const { id, timestamp, index, body } = await this.#check(rawBody, headers);
    return new VerifiedWebhook({ webhookId: id, timestamp, secretIndex: index, body });
  }

  /**
   * Checks a delivery (as {@link verifySignature}) and interprets its body: a known or unknown event in the
   * `{ type, timestamp, data }` envelope, or an unrecognised one (another envelope, not JSON) with its text
   * and JSON. Only the signature and timestamp can make it throw.
   *
   * @throws {WebhookVerificationError} with a `reason` for every refusal.
   */
  async verify(rawBody: RawBody, headers: WebhookRequestHeaders): Promise<WebhookEvent> {
    const { id, index, body } = await this.#check(rawBody, headers);
    let text: string | undefined;
    let json: unknown;
    try {
      text = typeof body === 'string' ? body : decoder.decode(body);
      json = JSON.parse(text);
    } catch {
      // Not UTF-8 or not JSON: `json` stays undefined, and the event is unrecognised.
    }
    return interpret(json, () => text, id, index);
  }

  /**
   * Signs a payload as the service would, in this webhook's scheme — for your tests and local tooling. Uses
   * the first secret.
   *
   * @example
   * ```ts
   * const payload = JSON.stringify({ type: 'spv_request.created', timestamp: new Date().toISOString(), data });
   * const headers = await webhook.sign({ payload });
   * await fetch('http://localhost:3000/webhooks', { method: 'POST', headers, body: payload });
   * ```
   */
  async sign(input: {
    payload: RawBody;
    id?: string;
    timestamp?: number | Date;
  }): Promise<SignedWebhookHeaders> {
    const id = input.id ?? newMessageId();
    const timestamp = checkSignInput(id, input.timestamp ?? seconds(this.#now()));
    const keys = this.#keys ?? (await this.#importKeys());
    return signedHeaders(this.#engine, keys[0], this.#scheme, { id, timestamp, body: input.payload });
  }

  async #check(rawBody: RawBody, headers: WebhookRequestHeaders): Promise<Checked> {
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
    const scheme = this.#scheme;
    const delivery = readDeliveryHeaders(scheme, headers);
    const keys = this.#keys ?? (await this.#importKeys());
    // Stryker disable next-line StringLiteral: a template may only sign an id or timestamp its scheme requires
    const { prefix, suffix } = this.#signedContent(delivery.id ?? '', delivery.timestamp ?? '');
    let index = -1;
    for (let i = 0; i < keys.length && index < 0; i++) {
      const signed = this.#engine.sign(keys[i], prefix, body, suffix, scheme.signatureEncoding);
      // Stryker disable next-line StringLiteral: awaiting a string gives the string (it only skips a tick)
      const expected = typeof signed === 'string' ? signed : await signed;
      let matched = false;
      // Every candidate is compared (no early exit) so timing says nothing about which entry matched.
      for (const candidate of delivery.candidates)
        matched = constantTimeEqual(expected, candidate) || matched;
      if (matched) index = i;
    }
    const skew = delivery.seconds === undefined ? 0 : delivery.seconds - seconds(this.#now());
    const stale = Math.abs(skew) > this.#toleranceSeconds;
    if (index < 0) {
      const also = stale ? ` (its timestamp is also ${Math.abs(skew)} s ${skew < 0 ? 'old' : 'ahead'})` : '';
      throw new WebhookVerificationError(
        'no_matching_signature',
        `No webhook signature matches the configured secret(s)${also}.`,
      );
    }
    if (stale) throw this.#timestampError(skew);
    // An id outside the signature can be changed by anyone replaying a captured delivery, so the id to
    // de-duplicate on comes from the signed body instead (stable across re-signed retries and rotations).
    // A scheme that signs the id has an id header (the scheme check requires it).
    let id = this.#signsId ? delivery.id : undefined;
    if (id === undefined) {
      const digest = this.#engine.digest(body);
      id = `sha256:${typeof digest === 'string' ? digest : await digest}`;
    }
    return { id, timestamp: delivery.seconds, index, body };
  }

  #timestampError(skew: number): WebhookVerificationError {
    const tolerance = this.#toleranceSeconds;
    const details = { skewSeconds: skew, toleranceSeconds: tolerance, signatureMatched: true };
    if (skew < 0) {
      return new WebhookVerificationError(
        'timestamp_too_old',
        `Webhook timestamp is ${-skew} s old, beyond the ${tolerance} s tolerance; its signature is valid, so the ` +
          `sender signed it ${-skew} s ago. ${staleAdvice(tolerance)}`,
        details,
      );
    }
    return new WebhookVerificationError(
      'timestamp_too_new',
      `Webhook timestamp is ${skew} s ahead, beyond the ${tolerance} s tolerance; its signature is valid: ` +
        "check this server's clock (or the sender's).",
      details,
    );
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

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();
const UNSET = Symbol('unset');

/** What {@link VerifiedWebhook} is built from. */
export interface VerifiedWebhookInit {
  webhookId: string;
  timestamp: number | undefined;
  secretIndex: number;
  /** The body exactly as received. */
  body: string | Uint8Array;
}

/**
 * A delivery whose signature (and timestamp, where the scheme signs one) checked out, with no
 * interpretation of its body: what `Webhook#verifySignature` returns. The text and JSON are worked out on
 * first use. `parseWebhookEvent` turns it into a typed event.
 *
 * @example
 * ```ts
 * const delivery = await webhook.verifySignature(rawBody, headers);
 * delivery.webhookId; delivery.timestamp; // 'msg_2Lk…', 1750000000
 * delivery.json;                          // JSON.parse of the body, or undefined when it is not JSON
 * ```
 */
export class VerifiedWebhook {
  /**
   * The id to de-duplicate on: the message id header when the scheme signs it, otherwise (no id header, or
   * one the signature does not cover) `sha256:` + the hex SHA-256 of the body.
   */
  readonly webhookId: string;
  /** The signed timestamp in Unix seconds; `undefined` for schemes that sign none. */
  readonly timestamp: number | undefined;
  /** Index of the first configured secret that matched. */
  readonly secretIndex: number;
  readonly #raw: string | Uint8Array;
  #text: string | undefined | typeof UNSET = UNSET;
  #json: unknown = UNSET;

  constructor(init: VerifiedWebhookInit) {
    this.webhookId = init.webhookId;
    this.timestamp = init.timestamp;
    this.secretIndex = init.secretIndex;
    this.#raw = init.body;
  }

  /** The body's bytes, exactly as signed. */
  get body(): Uint8Array {
    return typeof this.#raw === 'string' ? encoder.encode(this.#raw) : this.#raw;
  }

  /** The body as UTF-8 text; `undefined` when the bytes are not valid UTF-8. */
  get text(): string | undefined {
    if (this.#text === UNSET) {
      if (typeof this.#raw === 'string') this.#text = this.#raw;
      else {
        try {
          this.#text = decoder.decode(this.#raw);
        } catch {
          this.#text = undefined;
        }
      }
    }
    return this.#text;
  }

  /** The body parsed as JSON (any JSON value, `null` included); `undefined` when it is not JSON. */
  get json(): unknown {
    if (this.#json === UNSET) {
      const text = this.text;
      try {
        this.#json = text === undefined ? undefined : JSON.parse(text);
      } catch {
        this.#json = undefined;
      }
    }
    return this.#json;
  }

  /** The id, timestamp, secret index, text and JSON (bytes are not JSON). */
  toJSON(): {
    webhookId: string;
    timestamp: number | undefined;
    secretIndex: number;
    text: string | undefined;
    json: unknown;
  } {
    return {
      webhookId: this.webhookId,
      timestamp: this.timestamp,
      secretIndex: this.secretIndex,
      text: this.text,
      json: this.json,
    };
  }
}

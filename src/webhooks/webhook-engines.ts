import type { HmacEngine } from './hmac-engine.js';
import { webCryptoEngine } from './web-crypto-engine.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

type AnyClass = abstract new (...args: never[]) => unknown;

// Which HMAC primitive a Webhook class uses: the `node` build registers its subclass here. Kept out of the
// class itself so no internal type shows up in the public declarations.
const engines = new WeakMap<AnyClass, HmacEngine>();

/** Makes instances of `webhookClass` (a subclass of `Webhook`) compute HMACs with `engine`. */
export function useHmacEngine(webhookClass: AnyClass, engine: HmacEngine): void {
  engines.set(webhookClass, engine);
}

/** The engine registered for `target` or its nearest ancestor, so partners' subclasses keep their build's. */
export function engineFor(target: unknown): HmacEngine {
  for (let cls = target; typeof cls === 'function'; cls = Object.getPrototypeOf(cls)) {
    const engine = engines.get(cls as AnyClass);
    if (engine) return engine;
  }
  return webCryptoEngine;
}

/** The configured secrets as a list, refusing none or both options. */
export function secretList(options: {
  secret?: string | readonly string[] | undefined;
  secrets?: readonly string[] | undefined;
}): readonly unknown[] {
  if (options.secrets !== undefined && options.secret !== undefined) {
    throw new TypeError('Give Webhook either `secret` or `secrets`, not both.');
  }
  const given = options.secrets ?? options.secret;
  const list = typeof given === 'string' ? [given] : given;
  if (!Array.isArray(list) || list.length === 0) {
    throw new WebhookVerificationError(
      'malformed_secret',
      'Webhook needs a `secret` (was it read from an unset variable?).',
    );
  }
  return list;
}

import { resolveWebhookScheme } from '../../webhooks/scheme/resolve-webhook-scheme.js';
import type { WebhookScheme, WebhookSchemeInput } from '../../webhooks/scheme/webhook-scheme.js';

/** How the fake signs and shapes the webhooks it sends: `new FakePartnerEquity({ webhooks: { … } })`. */
export interface FakeWebhookOptions {
  /**
   * The signing scheme of every delivery, as `Webhook` takes it; pass the same one to your `Webhook`.
   * @default 'standard-webhooks'
   */
  scheme?: WebhookSchemeInput | undefined;
  /**
   * What a retry sends. `'fresh'`: each attempt is signed anew with its own timestamp. `'original'`: every
   * retry re-sends the first attempt's bytes and headers, so its signed timestamp ages (a receiver with the
   * default 300 s tolerance refuses every retry after the first 5 minutes).
   * @default 'fresh'
   */
  retrySigning?: 'fresh' | 'original' | undefined;
  /**
   * `data` of each event. `'full'`: the resource the matching API call returns. `'minimal'`: only the
   * identifying fields (slugs, status, the partner's ids), `null` where one is unknown — a service that
   * sends less than the SDK's guessed types name.
   * @default 'full'
   */
  payloads?: 'full' | 'minimal' | undefined;
}

/** {@link FakeWebhookOptions} checked, with defaults. */
export interface FakeWebhookSettings {
  scheme: WebhookScheme;
  retrySigning: 'fresh' | 'original';
  payloads: 'full' | 'minimal';
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (value === undefined) return allowed[0]!;
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw new TypeError(
      `FakePartnerEquity: webhooks.${name} must be ${allowed.map((v) => `'${v}'`).join(' or ')}`,
    );
  }
  return value as T;
}

/** Applies defaults and checks values once, so a typo fails where the fake is built. */
export function resolveFakeWebhookOptions(options: FakeWebhookOptions = {}): FakeWebhookSettings {
  return {
    scheme: resolveWebhookScheme(options.scheme),
    retrySigning: oneOf('retrySigning', options.retrySigning, ['fresh', 'original'] as const),
    payloads: oneOf('payloads', options.payloads, ['full', 'minimal'] as const),
  };
}

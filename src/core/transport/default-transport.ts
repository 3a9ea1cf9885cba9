import type { Dispatcher } from 'undici';
import { type ClosableTransport, fetchTransport, type Transport, undiciTransport } from './transport.js';

/** The client options that pick its transport. */
export interface TransportChoice {
  fetch?: typeof globalThis.fetch | undefined;
  dispatcher?: Dispatcher | undefined;
  maxResponseBytes?: number | undefined;
}

// The variables undici's proxy agent reads (`NO_PROXY` alone asks for no proxy, so it picks nothing).
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

/**
 * The transport a client sends with: the `fetch` it was given; npm undici when its features are asked
 * for (a `dispatcher`: a proxy agent, HTTP/2, a tuned pool; or a proxy in the environment); otherwise
 * Node's built-in `fetch`, which a fresh process starts about 40 ms sooner than it imports npm undici
 * (bench scenario 12, "first answer").
 */
export function defaultTransport(
  options: TransportChoice,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Transport | ClosableTransport {
  const { fetch, dispatcher, maxResponseBytes } = options;
  if (fetch !== undefined) return fetchTransport(fetch, { maxResponseBytes });
  if (dispatcher !== undefined || PROXY_VARIABLES.some((name) => (env[name] ?? '') !== ''))
    return undiciTransport({ dispatcher, maxResponseBytes });
  return fetchTransport(globalThis.fetch, { maxResponseBytes });
}

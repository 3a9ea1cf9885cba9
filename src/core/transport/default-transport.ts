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

// The Fetch standard's "bad ports": `fetch` refuses them before connecting (a service or a mock there, or
// the doctor probing a closed one, would read "connection failed"); npm undici's own client connects.
const FETCH_BAD_PORTS = new Set(
  [
    1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
    109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
    526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
    3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
  ].map(String),
);

/**
 * The transport a client sends with: the `fetch` it was given; npm undici when its features are asked
 * for (a `dispatcher`: a proxy agent, HTTP/2, a tuned pool; or a proxy in the environment); otherwise
 * Node's built-in `fetch`, which a fresh process reaches its first answer with in about 0.77x the CPU of
 * importing npm undici (bench scenario 12, "first answer"). Uploads still stream through npm undici,
 * imported on the first one (the built-in `fetch` reads a file `Blob` into memory whole), and so do
 * requests to a port `fetch` refuses.
 */
export function defaultTransport(
  options: TransportChoice,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Transport | ClosableTransport {
  const { fetch, dispatcher, maxResponseBytes } = options;
  if (fetch !== undefined) return fetchTransport(fetch, { maxResponseBytes });
  const undici = undiciTransport({ dispatcher, maxResponseBytes });
  if (dispatcher !== undefined || PROXY_VARIABLES.some((name) => (env[name] ?? '') !== '')) return undici;
  const builtIn = fetchTransport(globalThis.fetch, { maxResponseBytes });
  const transport: Transport = (request) =>
    typeof request.body === 'object' || FETCH_BAD_PORTS.has(request.url.port)
      ? undici(request)
      : builtIn(request);
  return Object.assign(transport, { close: undici.close });
}

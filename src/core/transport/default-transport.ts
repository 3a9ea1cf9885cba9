import { nodeHttpTransport } from './node-http.js';
import { processEnv, proxyVariable } from './proxy.js';
import { type ClosableTransport, type UndiciTransportOptions, undiciTransport } from './transport.js';

/**
 * The transport a client builds when given no `fetch`: npm undici where its features are asked for (a
 * `dispatcher`, or HTTPS_PROXY/HTTP_PROXY set, which its `EnvHttpProxyAgent` honours with NO_PROXY), and
 * otherwise Node's own `http`/`https`, which loads no module at all (issue 48: a faster cold start).
 */
export function defaultTransport(options: UndiciTransportOptions = {}): ClosableTransport {
  const viaUndici = options.dispatcher !== undefined || proxyVariable(processEnv()) !== undefined;
  return viaUndici ? undiciTransport(options) : nodeHttpTransport(options);
}

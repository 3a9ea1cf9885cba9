/** How a route authenticates: with a bearer access token, or not at all. */
export type RouteAuth = 'bearer' | 'none';

// The one table of which routes need a token. Anything under /v1 that is not listed as public needs a
// bearer token, so a route added to the API later fails closed (it sends a token) rather than open.
const publicExact = new Set(['/', '/public/hc', '/openapi.json', '/docs', '/v1/oauth2/tokens']);
const publicPrefixes = ['/v1/contracts'];

/**
 * Which authentication `method path` needs. `path` is the API path without query string or base path.
 *
 * @example
 * ```ts
 * routeAuth('GET', '/v1/spv-requests'); // 'bearer'
 * routeAuth('POST', '/v1/oauth2/tokens'); // 'none'
 * ```
 */
export function routeAuth(_method: string, path: string): RouteAuth {
  if (publicExact.has(path)) return 'none';
  for (const prefix of publicPrefixes) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return 'none';
  }
  return 'bearer';
}

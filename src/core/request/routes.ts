/**
 * How a route authenticates: with a bearer access token (credentials required), with one whenever the
 * client has credentials (`optional`), or not at all.
 */
export type RouteAuth = 'bearer' | 'optional' | 'none';

// The one table of which routes need a token. Anything under /v1 that is not listed needs a bearer token, so
// a route added to the API later fails closed (it sends a token) rather than open. Contracts declare no
// security requirement, but a server may still want a token there: it is sent whenever the client has
// credentials (a server that does not need it ignores it), and a 401 renews it like on any bearer route.
const publicExact = new Set(['/', '/public/hc', '/openapi.json', '/docs', '/v1/oauth2/tokens']);
const optionalPrefixes = ['/v1/contracts'];

/**
 * Which authentication `method path` needs. `path` is the API path without query string or base path.
 *
 * @example
 * ```ts
 * routeAuth('GET', '/v1/spv-requests'); // 'bearer'
 * routeAuth('POST', '/v1/oauth2/tokens'); // 'none'
 * routeAuth('GET', '/v1/contracts'); // 'optional'
 * ```
 */
export function routeAuth(_method: string, path: string): RouteAuth {
  if (publicExact.has(path)) return 'none';
  for (const prefix of optionalPrefixes) {
    // `prefix` itself or anything under it (`/` next), without building a string per call.
    if (path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/')) {
      return 'optional';
    }
  }
  return 'bearer';
}

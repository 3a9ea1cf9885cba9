import { type HttpHandler, http } from 'msw/http';
import { serve } from './pipeline.js';
import type { Route } from './route.js';
import { compilePath } from './route-matcher.js';
import type { FakeServices } from './services.js';

const methods = { GET: http.get, POST: http.post, DELETE: http.delete } as const;

/**
 * The fake's behaviour as MSW request handlers: one handler per route, matching only the fake's own
 * origins, and a last catch-all that answers the spec's 404 envelope for unknown paths on those origins.
 * The loopback server runs these very handlers, so both ways of running the fake behave the same.
 */
export function createHandlers(routes: Route[], services: FakeServices): HttpHandler[] {
  const ours = (request: Request) => services.servesOrigin(new URL(request.url).origin);
  const matchers = routes.map((route) => ({ method: route.method, match: compilePath(route.path) }));
  const handlers = routes.map((route, i) => {
    const match = matchers[i]!.match;
    return methods[route.method](
      ({ request }) => {
        if (!ours(request)) return false;
        const params = match(new URL(request.url).pathname);
        return params === undefined ? false : { matches: true, params };
      },
      ({ request, params }) => serve({ route, params: params as Record<string, string> }, request, services),
    );
  });
  handlers.push(
    http.all(
      ({ request }) => ours(request),
      ({ request }) => {
        const path = new URL(request.url).pathname;
        const allowed = matchers.filter((m) => m.match(path) !== undefined).map((m) => m.method);
        return serve(undefined, request, services, [...new Set(allowed)]);
      },
    ),
  );
  return handlers;
}

/** A route of the fake, as faults are checked against it: method and `/v1/spvs/{spv_slug}/…` template. */
export interface FaultRoute {
  method: string;
  path: string;
}

/** Throws when no route (with the method, if given) can ever receive a request the match accepts. */
export function checkReachable(
  match: { method?: string; path?: string | RegExp; pathPrefix?: string } | undefined,
  routes: readonly FaultRoute[],
): void {
  const method = match?.method?.toUpperCase();
  const candidates = routes.filter((route) => method === undefined || route.method === method);
  if (candidates.length === 0) {
    throw new TypeError(`faults.inject: no route of the fake takes ${method} requests`);
  }
  const path = match?.path;
  const prefix = match?.pathPrefix;
  if (typeof path === 'string') {
    if (candidates.some((route) => templateMatches(route.path, path, false))) return;
    const near = candidates.filter((route) => route.path.startsWith(path)).map(({ path: p }) => p);
    const hint =
      near.length > 0
        ? ` (match.path is exact; for ${near.slice(0, 3).join(', ')} use match.pathPrefix '${path.endsWith('/') ? path : `${path}/`}' or a RegExp)`
        : ' (match.path is exact: the whole path, no query)';
    throw new TypeError(
      `faults.inject: no route of the fake matches ${method ?? 'any method'} ${path}${hint}`,
    );
  }
  if (prefix !== undefined && !candidates.some((route) => templateMatches(route.path, prefix, true))) {
    throw new TypeError(
      `faults.inject: no route of the fake has a path starting ${prefix}${method === undefined ? '' : ` for ${method}`}`,
    );
  }
}

/**
 * Whether a concrete `path` (or, with `partial`, the start of one) fits a route template segment by
 * segment; a `{param}` segment takes any non-empty text without `/`.
 */
function templateMatches(template: string, path: string, partial: boolean): boolean {
  const want = template.split('/');
  const have = path.split('/');
  if (have.length > want.length || (!partial && have.length !== want.length)) return false;
  return have.every((segment, index) => {
    const expected = want[index] ?? '';
    const last = partial && index === have.length - 1;
    if (/^\{\w+\}$/.test(expected)) return last || (segment !== '' && !segment.includes('/'));
    return last ? expected.startsWith(segment) : expected === segment;
  });
}

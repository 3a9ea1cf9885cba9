import type { Route } from './route.js';

/** A route that matched a request, with its decoded path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Compiles `/v1/spv-requests/{slug}` into a matcher of concrete paths returning the decoded parameters. */
export function compilePath(template: string): (pathname: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param === null) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  const pattern = new RegExp(`^${source}$`);
  return (pathname) => {
    const found = pattern.exec(pathname);
    if (found === null) return undefined;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      const raw = found[i + 1] ?? '';
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw; // malformed escapes fail parameter validation later (422)
      }
    });
    return params;
  };
}

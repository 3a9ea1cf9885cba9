/** The process environment, or a stand-in for it in tests. */
export type Environment = Readonly<Record<string, string | undefined>>;

// The variables undici's EnvHttpProxyAgent reads, in its order: lower case first, HTTP_PROXY for https too.
const VARIABLES = {
  'https:': ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'],
  'http:': ['http_proxy', 'HTTP_PROXY'],
} as const;

/** `process.env`, or nothing where reading it is refused (Deno without `--allow-env`). */
export function processEnv(): Environment {
  try {
    return { ...process.env };
  } catch {
    return {};
  }
}

/** The proxy variable `env` sets for requests to a URL of `protocol` (`https:` or `http:`), if any. */
export function proxyVariable(
  env: Environment,
  protocol = 'https:',
): { name: string; value: string } | undefined {
  const names = protocol === 'http:' ? VARIABLES['http:'] : VARIABLES['https:'];
  const name = names.find((candidate) => (env[candidate] ?? '') !== '');
  return name === undefined ? undefined : { name, value: env[name] as string };
}

/** How requests to `url` leave this process, in one line for the doctor (a proxy's credentials hidden). */
export function describeRoute(
  url: URL,
  env: Environment,
  options: { dispatcher?: unknown; fetch?: unknown },
): string {
  if (options.fetch !== undefined)
    return 'through the `fetch` option (proxy variables are its own to honour)';
  if (options.dispatcher !== undefined)
    return 'through the `dispatcher` option (proxy variables are its own to honour)';
  const proxy = proxyVariable(env, url.protocol);
  if (proxy === undefined) return 'direct: no HTTPS_PROXY or HTTP_PROXY is set';
  const exempt = env['no_proxy'] ?? env['NO_PROXY'] ?? '';
  return `through the proxy ${withoutCredentials(proxy.value)} (${proxy.name})${exempt === '' ? '' : `, except hosts in NO_PROXY=${exempt}`}`;
}

function withoutCredentials(value: string): string {
  if (!URL.canParse(value)) return '(not a URL)';
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') url.username = '***';
  url.password = '';
  return url.href.replace(/\/$/, '');
}

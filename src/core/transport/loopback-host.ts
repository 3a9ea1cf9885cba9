/**
 * Whether a URL's hostname (as `new URL(…).hostname` gives it) is this machine: `localhost`, an address in
 * `127.0.0.0/8` or `[::1]`. Traffic to it never leaves the host, so plain `http:` is acceptable there.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether `url` is plain `http:` to a host other than this machine (tokens would cross a network in cleartext). */
export function isCleartextToNetwork(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
}

import { inspect } from 'node:util';

/** A secret value and what it is, for the failure message. */
export interface Secret {
  kind: string;
  value: string;
}

/**
 * Everything a partner's process could print or ship about the SDK: log lines, error messages and stacks,
 * `util.inspect` (deep, hidden properties shown) and `JSON.stringify` of objects, causes included.
 */
export class Exposure {
  readonly #items: { where: string; text: string }[] = [];

  add(where: string, text: string): void {
    this.#items.push({ where, text });
  }

  /** `util.inspect` (deep, hidden) and `JSON.stringify` of `value`. */
  addObject(where: string, value: unknown): void {
    this.add(
      `${where} (inspect)`,
      inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true }),
    );
    try {
      this.add(`${where} (JSON)`, JSON.stringify(value) ?? '');
    } catch (error) {
      this.add(`${where} (JSON failed)`, String(error));
    }
  }

  /** An error and its whole cause chain: message, stack, inspect and JSON of each. */
  addError(where: string, error: unknown): void {
    let current: unknown = error;
    for (let depth = 0; current !== undefined && current !== null && depth < 10; depth += 1) {
      const label = `${where}${'.cause'.repeat(depth)}`;
      if (current instanceof Error) {
        this.add(`${label} (message)`, current.message);
        this.add(`${label} (stack)`, current.stack ?? '');
        this.add(`${label} (String)`, String(current));
      }
      this.addObject(label, current);
      current = (current as { cause?: unknown }).cause;
    }
  }

  get size(): number {
    return this.#items.length;
  }

  /**
   * Where each secret appears, whole or as any 16-character fragment (a truncated token is still a leak):
   * every run of token-like characters in the output is slid over a table of the secrets' fragments.
   */
  leaks(secrets: readonly Secret[]): string[] {
    const fragments = new Map<string, string>();
    for (const secret of secrets) {
      for (let i = 0; i + FRAGMENT <= secret.value.length; i += 1) {
        fragments.set(secret.value.slice(i, i + FRAGMENT), secret.kind);
      }
    }
    const found = new Set<string>();
    for (const item of this.#items) {
      for (const [run] of item.text.matchAll(/[A-Za-z0-9_\-+/=.~]{16,}/g)) {
        for (let i = 0; i + FRAGMENT <= run.length; i += 1) {
          const kind = fragments.get(run.slice(i, i + FRAGMENT));
          if (kind !== undefined) found.add(`${kind} in ${item.where}`);
        }
      }
    }
    return [...found];
  }
}

const FRAGMENT = 16;

/** The secret part of a compact JWT: its signature (header and claims are not secret). */
export function jwtSignature(jwt: string): string {
  return jwt.split('.')[2] ?? jwt;
}

/** Secrets that went over the wire: assertions, refresh and access tokens, in requests and answers. */
export function secretsOnWire(sent: string, received: string): Secret[] {
  const secrets: Secret[] = [];
  const all = (text: string, pattern: RegExp) =>
    [...text.matchAll(pattern)].map((m) => decodeURIComponent(m[1] ?? ''));
  for (const value of all(sent, /assertion=([^&\s]+)/g))
    secrets.push({ kind: 'assertion', value: jwtSignature(value) });
  for (const value of all(sent, /refresh_token=([^&\s]+)/g)) secrets.push({ kind: 'refresh token', value });
  for (const value of all(sent, /authorization: Bearer (\S+)/gi))
    secrets.push({ kind: 'access token', value });
  for (const value of all(received, /"accessToken":"([^"]+)"/g))
    secrets.push({ kind: 'access token', value });
  for (const value of all(received, /"refreshToken":"([^"]+)"/g))
    secrets.push({ kind: 'refresh token', value });
  return secrets.filter((secret) => secret.value.length >= 16);
}

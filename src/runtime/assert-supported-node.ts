/**
 * The oldest Node.js the SDK runs on, equal to `engines.node` in package.json: its transport (undici 8) and
 * retry loop (p-retry 9) use APIs that older Node lines lack, and fail there with errors that name neither
 * Node nor a version.
 */
export const MINIMUM_NODE_VERSION = '22.19.0';

/** What {@link unsupportedNodeMessage} reads: `globalThis` in a real process. */
export interface RuntimeGlobals {
  process?: { versions?: { node?: string; bun?: string } };
  Deno?: unknown;
}

/**
 * The one-line reason this runtime cannot run the SDK, or `undefined` when it can. Only Node.js itself is
 * judged: Bun and Deno report a Node version of their own (their compatibility level, not their release)
 * and run the SDK; a runtime without `process` (a browser, a worker) has no Node version to judge.
 */
export function unsupportedNodeMessage(runtime: RuntimeGlobals = globalThis): string | undefined {
  const versions = runtime.process?.versions;
  const found = versions?.node;
  if (found === undefined || versions?.bun !== undefined || runtime.Deno !== undefined) return undefined;
  if (compareVersions(found, MINIMUM_NODE_VERSION) >= 0) return undefined;
  return `@partner-equity/sdk needs Node.js >= ${MINIMUM_NODE_VERSION}; this is Node.js ${found}. Upgrade Node.js, or run on Bun or Deno.`;
}

/**
 * Throws when this runtime is an older Node.js than the SDK supports: an `Error` whose message is that one
 * line, with the code `ERR_UNSUPPORTED_NODE`.
 */
export function assertSupportedNode(runtime: RuntimeGlobals = globalThis): void {
  const message = unsupportedNodeMessage(runtime);
  if (message === undefined) return;
  const error = new Error(message) as Error & { code: string };
  error.code = 'ERR_UNSUPPORTED_NODE';
  throw error;
}

function compareVersions(a: string, b: string): number {
  // parseInt, not Number: a pre-release such as `23.0.0-nightly2025…` still compares by its numbers.
  const left = a.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const right = b.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < 3; i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

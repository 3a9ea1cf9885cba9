import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';
import type * as Sdk from '../../src/index.js';
import type * as Testing from '../../src/testing/index.js';

/** Where the bench's own build of the package goes (git-ignored; `dist/` is left to `npm run build`). */
export const BENCH_DIST = fileURLToPath(new URL('../../.bench-tmp/dist/', import.meta.url));

/**
 * Builds the package with the project's own tsup config (same entries, target, bundling and tree-shaking
 * as the published `dist/`), ESM only and without type declarations, into `.bench-tmp/dist`. The bench
 * measures that JavaScript, not the TypeScript sources, so figures match what partners install; it
 * builds its own copy so a run never races `npm run build` in another terminal.
 */
export async function buildSdk(): Promise<void> {
  // tsup reads the project's tsup.config.ts itself; these override each of its builds.
  await build({
    outDir: BENCH_DIST,
    format: ['esm'],
    dts: false,
    silent: true,
    // The config's hook wraps dist/testing (both formats) for partners without msw; the bench has msw, and
    // running that hook here renamed files of dist/ and failed every run after `npm run build`.
    onSuccess: async () => undefined,
  });
}

/** `file:` URL of a built entry, e.g. `index.js` or `webhooks/index.node.js`. */
export function distUrl(entry: string): string {
  return pathToFileURL(`${BENCH_DIST}${entry}`).href;
}

/** The built main entry, typed as the sources it was built from. */
export async function importSdk(): Promise<typeof Sdk> {
  return (await import(distUrl('index.js'))) as typeof Sdk;
}

/** The built `./testing` entry (the fake API). */
export async function importTesting(): Promise<typeof Testing> {
  return (await import(distUrl('testing/index.js'))) as typeof Testing;
}

import { dirname, relative, resolve } from 'node:path';
import { defineConfig, type Options } from 'tsup';
import { wrapTestingEntry } from './scripts/wrap-testing-entry.js';

type TsupPlugin = NonNullable<Options['plugins']>[number];

/** The Node.js version checks (src/runtime/check-node.ts, src/cli/check-node.ts), built as files of their own. */
const CHECKS: Record<string, string> = {
  'src/runtime/check-node.ts': 'runtime/check-node',
  'src/cli/check-node.ts': 'cli/check-node',
};
/** Loaded only where no `node` export condition matches (workers, edge): no Node.js version to judge. */
const WEB_ONLY = new Set(['src/webhooks/index.ts']);

/**
 * The relative specifier by which the chunk at `chunkPath` imports the built file `name` (`index`,
 * `runtime/check-node`), with the extension of the chunk's format.
 */
function builtSpecifier(
  build: { format: string; options: { outDir: string } },
  chunkPath: string,
  name: string,
): string {
  const target = resolve(build.options.outDir, `${name}${build.format === 'cjs' ? '.cjs' : '.js'}`);
  const specifier = relative(dirname(chunkPath), target).replaceAll('\\', '/');
  return specifier.startsWith('.') ? specifier : `./${specifier}`;
}

/**
 * Makes the first import of every built entry point the Node.js version check, so that on too old a Node
 * the import fails with one line naming both versions before undici or msw are evaluated (they crash there
 * with errors that name neither). ESM evaluates a module's imports in order and CJS `require`s in place, so
 * the first import runs first. It is added here rather than written in src/: esbuild's code splitting hoists
 * shared chunks above a module's own imports and does not keep the order of side effects across chunks.
 * New entries get the check without a change here. It goes in front of line 1 (or after the shebang) on
 * the same line, so the source map stays exact below that line.
 */
const checkNodeFirst: TsupPlugin = {
  name: 'check-node-first',
  renderChunk(code, info) {
    const entry = info.entryPoint;
    if (entry === undefined || entry in CHECKS || WEB_ONLY.has(entry)) return;
    const check = entry.startsWith('src/cli/') ? 'cli/check-node' : 'runtime/check-node';
    const line = `import ${JSON.stringify(builtSpecifier(this, info.path, check))};`;
    const shebang = code.startsWith('#!') ? code.slice(0, code.indexOf('\n') + 1) : '';
    return { code: `${shebang}${line}${code.slice(shebang.length)}` };
  },
};

/** The main entry, `@partner-equity/sdk`: the client, its errors and helpers. */
const MAIN_ENTRY = { index: 'src/index.ts' };
/** Every entry but the main one (see MAIN_ENTRY). */
const OTHER_ENTRIES = {
  // Webhooks: a Web Crypto build (default condition) and a node:crypto build (`node` condition).
  'webhooks/index': 'src/webhooks/index.ts',
  'webhooks/index.node': 'src/webhooks/index.node.ts',
  // The fake API for tests (`@partner-equity/sdk/testing`); needs the optional peer dependency msw.
  'testing/index': 'src/testing/index.ts',
  // Token and webhook-id stores on Redis (`@partner-equity/sdk/redis`); the partner brings redis or ioredis.
  'redis/index': 'src/redis/index.ts',
  // The `partner-equity` command (package.json `bin`); only its ESM file is used.
  'cli/index': 'src/cli/index.ts',
};

/** The Node.js version checks every entry imports first (see checkNodeFirst). */
const CHECK_ENTRIES = Object.fromEntries(Object.entries(CHECKS).map(([source, name]) => [name, source]));

/**
 * One build of every entry into one folder: the entries share chunks, so a process has one class of each
 * (`instanceof PartnerEquityError` holds for what `./redis` throws) and the CLI carries no copy of the client.
 */
export default defineConfig({
  entry: { ...MAIN_ENTRY, ...OTHER_ENTRIES, ...CHECK_ENTRIES },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  splitting: true,
  treeshake: true,
  // zod inside dist (issue 48): one module to load instead of 95 (its 60 locales among them), ~30 ms of a
  // cold start. It stays a dependency: the published .d.ts name its types.
  noExternal: ['zod'],
  plugins: [checkNodeFirst],
  // `@partner-equity/sdk/testing` without msw: one line with the install command (see the script).
  onSuccess: () => wrapTestingEntry('dist'),
});

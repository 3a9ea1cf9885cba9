import { dirname, relative, resolve } from 'node:path';
import { defineConfig, type Options } from 'tsup';

type TsupPlugin = NonNullable<Options['plugins']>[number];

/** The Node.js version checks (src/runtime/check-node.ts, src/cli/check-node.ts), built as files of their own. */
const CHECKS: Record<string, string> = {
  'src/runtime/check-node.ts': 'runtime/check-node',
  'src/cli/check-node.ts': 'cli/check-node',
};
/** Loaded only where no `node` export condition matches (workers, edge): no Node.js version to judge. */
const WEB_ONLY = new Set(['src/webhooks/index.ts']);

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
    const extension = this.format === 'cjs' ? '.cjs' : '.js';
    const target = resolve(this.options.outDir, `${check}${extension}`);
    const specifier = relative(dirname(info.path), target).replaceAll('\\', '/');
    const line = `import ${JSON.stringify(specifier.startsWith('.') ? specifier : `./${specifier}`)};`;
    const shebang = code.startsWith('#!') ? code.slice(0, code.indexOf('\n') + 1) : '';
    return { code: `${shebang}${line}${code.slice(shebang.length)}` };
  },
};

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // Webhooks: a Web Crypto build (default condition) and a node:crypto build (`node` condition).
    'webhooks/index': 'src/webhooks/index.ts',
    'webhooks/index.node': 'src/webhooks/index.node.ts',
    // The fake API for tests (`@partner-equity/sdk/testing`); needs the optional peer dependency msw.
    'testing/index': 'src/testing/index.ts',
    // Token and webhook-id stores on Redis (`@partner-equity/sdk/redis`); the partner brings redis or ioredis.
    'redis/index': 'src/redis/index.ts',
    // The `partner-equity` command (package.json `bin`); only its ESM file is used.
    'cli/index': 'src/cli/index.ts',
    // The Node.js version checks every entry above imports first (see checkNodeFirst).
    ...Object.fromEntries(Object.entries(CHECKS).map(([source, name]) => [name, source])),
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  splitting: true,
  treeshake: true,
  plugins: [checkNodeFirst],
});

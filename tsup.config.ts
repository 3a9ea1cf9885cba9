import { rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
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

const BUILTINS = new Set(builtinModules);

/**
 * In the ESM builds, named imports of Node.js built-ins become `process.getBuiltinModule()` lookups. An ESM
 * import of a built-in makes Node build that module's ESM facade, which reads every export and so loads
 * what Node otherwise loads on first use (util's parseArgs and diff, crypto's Web Crypto, fs streams):
 * about 1.5 ms of the main entry's import (issue 17, bench scenario 6). `process.getBuiltinModule` is in
 * every Node.js the package supports (>= 22.19), in Bun and in Deno; a CJS `require` builds no facade.
 * Each import is rewritten on its own line, so the source map stays exact below it.
 */
const builtinsWithoutFacade: TsupPlugin = {
  name: 'builtins-without-facade',
  renderChunk(code) {
    if (this.format !== 'esm') return;
    const rewritten = code.replace(
      /^import \{([^}]*)\} from "([a-z_/]+)";$/gm,
      (line, names: string, id: string) =>
        BUILTINS.has(id)
          ? `const {${names.replaceAll(' as ', ': ')}} = process.getBuiltinModule(${JSON.stringify(`node:${id}`)});`
          : line,
    );
    return rewritten === code ? undefined : { code: rewritten };
  },
};

/** The main entry, `@partner-equity/sdk`: the client, its errors and helpers. */
const MAIN_ENTRY = { index: 'src/index.ts' };
const MAIN_SOURCE = resolve('src/index.ts');
/** Stands for the built main entry in the other entries' output until `linkMainEntry` writes its path. */
const MAIN_PLACEHOLDER = '@partner-equity/sdk#main-entry';

/**
 * Where another entry needs the main entry's classes, its source imports them from the main entry's public
 * module (`src/redis` the error classes, the CLI's doctor and token commands the client), and the built
 * entry takes them from the built main entry: one class of each for a process, so `instanceof
 * PartnerEquityError` holds for what `./redis` throws, and the CLI carries no copy of the client. Here that
 * import becomes external; `linkMainEntry` turns it into the relative path of `index.js` (`index.cjs`).
 */
const externalMainEntry: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'external-main-entry',
  setup(build) {
    build.onResolve({ filter: /(^|\/)index\.js$/ }, (args) => {
      const target = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      return target === MAIN_SOURCE ? { path: MAIN_PLACEHOLDER, external: true } : undefined;
    });
  },
};

/** See `externalMainEntry`. */
const linkMainEntry: TsupPlugin = {
  name: 'link-main-entry',
  renderChunk(code, info) {
    if (!code.includes(MAIN_PLACEHOLDER)) return;
    return { code: code.replaceAll(MAIN_PLACEHOLDER, builtSpecifier(this, info.path, 'index')) };
  },
};

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

const shared: Options = {
  format: ['esm', 'cjs'],
  sourcemap: true,
  // The builds write into one folder at once: it is emptied once, before any starts (below).
  clean: false,
  target: 'node22',
  platform: 'node',
  splitting: true,
  treeshake: true,
};

/**
 * Three builds into one folder. The main entry is built alone, so its code loads as a handful of files (it
 * and the chunks it shares with its lazily loaded parts) instead of the many small chunks esbuild makes
 * for modules the other entries share in different combinations: the ESM loader's cost per file made that
 * a fifth of the main entry's import (issue 17, bench scenario 6). The Node.js version checks are one file
 * each. The other entries share chunks among themselves and take the main entry's classes from it (see
 * externalMainEntry). Type declarations are rolled up for all entries at once, as before.
 */
export default defineConfig((options) => {
  rmSync(resolve(options.outDir ?? 'dist'), { recursive: true, force: true });
  return [
    {
      ...shared,
      name: 'main',
      entry: MAIN_ENTRY,
      dts: false,
      plugins: [checkNodeFirst, builtinsWithoutFacade],
    },
    // Each check is one file of its own (no chunks): every import of an entry starts with it.
    { ...shared, name: 'checks', entry: CHECK_ENTRIES, splitting: false, dts: false },
    {
      ...shared,
      name: 'other entries',
      entry: OTHER_ENTRIES,
      dts: { entry: { ...MAIN_ENTRY, ...OTHER_ENTRIES, ...CHECK_ENTRIES } },
      esbuildPlugins: [externalMainEntry],
      plugins: [checkNodeFirst, linkMainEntry, builtinsWithoutFacade],
    },
  ];
});

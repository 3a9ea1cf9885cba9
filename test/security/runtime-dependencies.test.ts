import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Supply chain: what `npm install @partner-equity/sdk` brings into a partner's production tree.
 * DESIGN.md allows five runtime dependencies, each for its own job; anything else is a review decision,
 * not something a refactor slips in. `csv-parse` (no dependencies of its own, MIT) is the CSV reader of
 * `partner-equity import`, which DESIGN.md allows; only that command loads it, never the SDK's entries
 * (test/cli/import-loading.test.ts). `i18n-iso-countries` (MIT) is the country-name library DESIGN.md allows
 * for that command, loaded only when a file has a country column. `read-excel-file` and `write-excel-file`
 * (MIT) read an `.xlsx` input and write an `.xlsx` results file for it (issue 49), each loaded only then.
 */
const ALLOWED_RUNTIME = [
  'csv-parse',
  'form-data',
  'i18n-iso-countries',
  'jose',
  'p-retry',
  'read-excel-file',
  'undici',
  'write-excel-file',
  'zod',
];
// Transitive runtime packages that were reviewed (name → who pulls it in). A new one fails the test below.
const REVIEWED_TRANSITIVE: Record<string, string> = {
  'is-network-error': 'p-retry',
  // MIT, no dependencies or install script: folds accents when matching country names.
  diacritics: 'i18n-iso-countries',
  // MIT (graceful-fs BlueOak-1.0.0), no install scripts: unzip and parse an .xlsx for `import`, loaded only
  // when a workbook is read (test/cli/import-loading.test.ts). fflate also zips write-excel-file's workbook.
  fflate: 'read-excel-file',
  saxen: 'read-excel-file',
  'unzipper-esm': 'read-excel-file',
  'worker-f': 'read-excel-file',
  'graceful-fs': 'unzipper-esm',
  'node-int64': 'unzipper-esm',
};

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bundleDependencies?: unknown;
  bundledDependencies?: unknown;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<
    string,
    { version?: string; dev?: boolean; devOptional?: boolean; hasInstallScript?: boolean; license?: string }
  >;
};

const declared = Object.keys(pkg.dependencies ?? {});
const optionalPeers = Object.keys(pkg.peerDependencies ?? {}).filter(
  (name) => pkg.peerDependenciesMeta?.[name]?.optional === true,
);

/** Packages the lockfile installs in a production tree (`npm ci --omit=dev`). */
function productionTree(): [string, (typeof lock.packages)[string]][] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.dev !== true && entry.devOptional !== true)
    .map(([path, entry]) => [path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), entry]);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

/** Bare module specifiers a file loads at run time or names in its types (comments skipped). */
function bareSpecifiers(file: string): string[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const found = new Set<string>();
  const patterns = [
    /\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    // A side-effect import starts a statement; the word in a string (`['import', kind]`) is not one.
    /(?:^|;)\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.add(match[1] ?? '');
  return [...found].filter((spec) => !spec.startsWith('.') && !spec.startsWith('/'));
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

describe('runtime dependencies', () => {
  it('declares only the DESIGN.md names, nothing optional or bundled', () => {
    expect(declared.filter((name) => !ALLOWED_RUNTIME.includes(name))).toEqual([]);
    expect(pkg.optionalDependencies ?? {}).toEqual({});
    expect(pkg.bundleDependencies ?? pkg.bundledDependencies).toBeUndefined();
    // A required peer dependency would be a runtime dependency by another name.
    expect(Object.keys(pkg.peerDependencies ?? {}).filter((name) => !optionalPeers.includes(name))).toEqual(
      [],
    );
  });

  it('installs, transitively, only the declared packages and the reviewed ones — none with install scripts', () => {
    const tree = productionTree();
    const names = tree.map(([name]) => name).sort();
    const unexpected = names.filter((name) => !declared.includes(name) && !(name in REVIEWED_TRANSITIVE));
    expect(unexpected, 'new transitive runtime packages: review them and list them here').toEqual([]);
    for (const name of declared) expect(names, `${name} is declared but not in the lockfile`).toContain(name);
    expect(tree.filter(([, entry]) => entry.hasInstallScript === true).map(([name]) => name)).toEqual([]);
    expect(tree.filter(([, entry]) => !entry.license).map(([name]) => name)).toEqual([]);
  });

  it('loads nothing from src/ that a partner does not install', () => {
    const srcDir = join(root, 'src');
    const allowed = new Set([...declared, ...optionalPeers, '@partner-equity/sdk']);
    const strays: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      for (const specifier of bareSpecifiers(file)) {
        if (builtins.has(specifier) || allowed.has(packageName(specifier))) continue;
        strays.push(`${relative(root, file)}: ${specifier}`);
      }
    }
    expect(strays, 'imports of packages that are devDependencies or not declared at all').toEqual([]);
  });

  it('docs/security.md names every runtime dependency and every reviewed transitive one (issue 36, finding 11)', () => {
    const page = readFileSync(join(root, 'docs', 'security.md'), 'utf8');
    const supplyChain = page.slice(page.indexOf('**Supply chain**'));
    for (const name of [...declared, ...Object.keys(REVIEWED_TRANSITIVE)]) {
      expect(supplyChain, `${name} in the supply chain paragraph`).toContain(`\`${name}\``);
    }
  });

  it('the import scan sees real imports (guards the regexes above)', () => {
    const sample = join(root, 'src', 'core', 'transport', 'transport.ts');
    expect(bareSpecifiers(sample)).toEqual(expect.arrayContaining(['undici', 'node:stream']));
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLinks } from './markdown-links.js';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  repository: { url: string };
};
const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
}

// The package as a partner has it: `npm pack`, unpacked into a temporary folder.
const work = mkdtempSync(join(tmpdir(), 'pe-packed-links-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('links in the packed tarball', () => {
  it('resolve inside the package: every relative link lands on a shipped file, none goes to the repository', () => {
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
    });
    const tarball = join(work, out.trim().split('\n').at(-1)!);
    execFileSync('tar', ['-xzf', tarball, '-C', work]);
    const unpacked = join(work, 'package');
    const files = new Set(filesUnder(unpacked));
    const docs = new Map(
      [...files]
        .filter((path) => path.endsWith('.md'))
        .map((path) => [path, readFileSync(join(unpacked, path), 'utf8')] as const),
    );
    expect([...docs.keys()]).toEqual(expect.arrayContaining(['README.md', 'docs/testing-with-the-fake.md']));
    expect(files).toContain('examples/testing/deals.test.ts');
    expect(files).toContain('examples/import-investors-from-csv.ts');

    const problems = checkLinks({
      docs,
      shipped: files,
      repoFiles: files,
      repository,
      read: (path) => readFileSync(join(unpacked, path), 'utf8'),
    });
    expect(problems).toEqual([]);
    // Not even as text outside a link: the placeholder address leads nowhere.
    for (const [path, text] of docs) expect(`${path}: ${text}`).not.toContain(repository);
  });
});

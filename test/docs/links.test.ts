import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkLinks, type LinkContext, markdownAnchors, markdownLinks } from './markdown-links.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

const pkg = JSON.parse(read('package.json')) as { repository: { url: string } };
/** `git+https://github.com/owner/name.git` → `https://github.com/owner/name`. */
const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** What `npm pack` would put in the tarball (dist/ only when built; no document links into it). */
function shippedFiles(): Set<string> {
  const [report] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'])) as [
    { files: { path: string }[] },
  ];
  return new Set(report.files.map((file) => file.path));
}

/** Tracked files and new ones not ignored: the repository a clone of this commit has. */
function repositoryFiles(): Set<string> {
  return new Set(
    run('git', ['ls-files', '--cached', '--others', '--exclude-standard']).split('\n').filter(Boolean),
  );
}

describe('documentation links', () => {
  const shipped = shippedFiles();
  const repoFiles = repositoryFiles();
  // Every Markdown file of the repository: the shipped ones (README, CHANGELOG, docs/) and the rest.
  const docs = new Map(
    [...repoFiles]
      .filter((path) => path.endsWith('.md') && !path.includes('node_modules/'))
      .map((path) => [path, read(path)] as const),
  );

  it('ships the README, the changelog, the licence and every guide in docs/', () => {
    const guides = [...docs.keys()].filter((path) => /^docs\/[^/]+\.md$/.test(path));
    expect(guides.length).toBeGreaterThan(5);
    for (const path of ['README.md', 'CHANGELOG.md', 'LICENSE', ...guides]) expect(shipped).toContain(path);
    // The TypeDoc tooling package beside the guides is not for partners.
    expect([...shipped].filter((path) => path.startsWith('docs/') && !path.endsWith('.md'))).toEqual([]);
  });

  it('resolves every link and anchor of README.md and docs/ in the package, and of the others in the repository', () => {
    expect(checkLinks({ docs, shipped, repoFiles, repository, read })).toEqual([]);
  });

  it('links every guide from the README', () => {
    const linked = new Set(markdownLinks(read('README.md')).map((link) => link.target.split('#')[0]));
    const guides = [...docs.keys()].filter((path) => /^docs\/[^/]+\.md$/.test(path));
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
  });
});

describe('the link checker', () => {
  const context = (docs: Record<string, string>, extra: Partial<LinkContext> = {}): LinkContext => ({
    docs: new Map(Object.entries(docs)),
    shipped: new Set(['README.md', 'docs/guide.md', 'LICENSE']),
    repoFiles: new Set(['README.md', 'docs/guide.md', 'LICENSE', 'CONTRIBUTING.md', 'examples/a.ts']),
    repository: 'https://github.com/owner/repo',
    read: (path) => (path === 'CONTRIBUTING.md' ? '# Contributing\n\n## Set up\n' : ''),
    ...extra,
  });
  const guide =
    '# Guide\n\n## Keys: generate, register, `configure`\n\n## Keys: generate, register, `configure`\n';

  it('passes links that resolve', () => {
    const readme = [
      '[guide](docs/guide.md) [keys](docs/guide.md#keys-generate-register-configure)',
      '[again](docs/guide.md#keys-generate-register-configure-1) [licence](LICENSE) [top](#readme)',
      '[site](https://example.com/x)',
      '<a id="readme"></a>',
      '```md',
      '[in code](nowhere.md)',
      '```',
      'and `[a span](nowhere.md)`',
    ].join('\n');
    expect(checkLinks(context({ 'README.md': readme, 'docs/guide.md': guide }))).toEqual([]);
  });

  it('fails a relative link to a file the package does not ship, even when the repository has it', () => {
    const problems = checkLinks(context({ 'README.md': 'See [the examples](examples/a.ts).' }));
    expect(problems).toEqual([
      'README.md:1 (examples/a.ts): examples/a.ts is not in the package (npm pack): add it to "files", or name it as text',
    ]);
  });

  it('fails a missing file, a missing anchor and a link out of the package', () => {
    const problems = checkLinks(
      context({
        'docs/guide.md': `${guide}\n[a](missing.md) [b](../README.md#nope) [c](#keys) [d](../../outside.md)\n`,
        'README.md': '# Title\n',
      }),
    );
    expect(problems).toEqual([
      'docs/guide.md:7 (missing.md): the repository has no docs/missing.md',
      'docs/guide.md:7 (../README.md#nope): no heading #nope in README.md',
      'docs/guide.md:7 (#keys): no heading #keys in docs/guide.md',
      'docs/guide.md:7 (../../outside.md): leaves the package',
    ]);
  });

  it('fails any repository link in a shipped document: the address is a placeholder', () => {
    const problems = checkLinks(
      context({ 'README.md': '[example](https://github.com/owner/repo/blob/main/examples/a.ts)' }),
    );
    expect(problems).toEqual([
      'README.md:1 (https://github.com/owner/repo/blob/main/examples/a.ts): a shipped document links to the repository; link a shipped file relatively, or name the path as text',
    ]);
  });

  it('fails repository links to files it lacks, in another form, or under another address', () => {
    const problems = checkLinks(
      context({
        'CONTRIBUTING.md': [
          '[a](https://github.com/owner/repo/blob/main/bench/RESULTS.md)',
          '[b](https://github.com/owner/repo/examples/a.ts)',
          '[c](https://github.com/other/repo/blob/main/examples/a.ts)',
          '[d](https://github.com/owner/repo/blob/main/CONTRIBUTING.md#nope)',
        ].join('\n'),
      }),
    );
    expect(problems).toEqual([
      'CONTRIBUTING.md:1 (https://github.com/owner/repo/blob/main/bench/RESULTS.md): the repository has no bench/RESULTS.md',
      'CONTRIBUTING.md:2 (https://github.com/owner/repo/examples/a.ts): a repository link must be https://github.com/owner/repo/blob/main/<path> or tree/main/<path>',
      'CONTRIBUTING.md:3 (https://github.com/other/repo/blob/main/examples/a.ts): not the repository address of package.json (https://github.com/owner/repo)',
      'CONTRIBUTING.md:4 (https://github.com/owner/repo/blob/main/CONTRIBUTING.md#nope): no heading #nope in CONTRIBUTING.md',
    ]);
  });

  it('lets repository-only documents link to any repository file', () => {
    const problems = checkLinks(
      context({ 'CONTRIBUTING.md': '[a](examples/a.ts) [b](bench/missing.md)\n' }, { read: () => '' }),
    );
    expect(problems).toEqual([
      'CONTRIBUTING.md:1 (bench/missing.md): the repository has no bench/missing.md',
    ]);
  });

  it('reads anchors as GitHub and npm make them', () => {
    const anchors = markdownAnchors(
      "# Where the spec is silent: what the SDK requires, and `responseValidation`\n## Command line: `partner-equity`\n## The `default` profile's choices\n",
    );
    expect([...anchors]).toEqual([
      'where-the-spec-is-silent-what-the-sdk-requires-and-responsevalidation',
      'command-line-partner-equity',
      'the-default-profiles-choices',
    ]);
  });
});

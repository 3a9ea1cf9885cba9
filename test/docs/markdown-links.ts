import { posix } from 'node:path';

/** A link written in a Markdown document, with the line it is on. */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** What a link checker needs to know about the documents and where they are read. */
export interface LinkContext {
  /** Every document to check, by repository path (`README.md`, `docs/webhooks.md`), with its text. */
  docs: ReadonlyMap<string, string>;
  /** The files `npm pack` puts in the tarball, by repository path: what a partner has in node_modules. */
  shipped: ReadonlySet<string>;
  /** The files of the repository (tracked or about to be), by path. */
  repoFiles: ReadonlySet<string>;
  /** The repository's web address without a trailing slash (`https://github.com/owner/name`). */
  repository: string;
  /** Reads another Markdown file of the repository, to check an anchor into it. */
  read: (path: string) => string;
}

/** Fenced code blocks and inline code spans blanked out (same line count): links and headings in code are text. */
function withoutCode(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines
    .map((line) => {
      const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        if (
          opener !== undefined &&
          opener[0] === fence[0] &&
          opener.length >= fence.length &&
          line.trim() === opener
        )
          fence = undefined;
        return '';
      }
      if (opener !== undefined) {
        fence = opener;
        return '';
      }
      return line.replace(/(`+)[\s\S]*?\1/g, (span) => 'x'.repeat(span.length));
    })
    .join('\n');
}

/** Every link target in a document: inline links and images, reference definitions, HTML `href`/`src`. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((line, index) => {
      const add = (target: string | undefined) => {
        if (target !== undefined) links.push({ target, line: index + 1 });
      };
      for (const match of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+["'][^"']*["'])?\s*\)/g)) add(match[1]);
      add(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line)?.[1]);
      for (const match of line.matchAll(/\s(?:href|src)="([^"]*)"/g)) add(match[1]);
    });
  return links;
}

/** The text a heading renders to: code, links, images and emphasis reduced to their words. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*|~~)(.+?)\1/g, '$2');
}

/** GitHub's heading id (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(text: string): string {
  return headingText(text)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a document offers: heading ids (repeats get `-1`, `-2`…) and HTML `id`/`name` attributes. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const original = markdown.split('\n');
  withoutCode(markdown)
    .split('\n')
    .forEach((line, index) => {
      // Found on the code-blanked line (a `#` in a code block is no heading), read from the original one,
      // whose code spans are part of the heading's words.
      if (/^\s{0,3}#{1,6}\s/.test(line)) {
        const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(original[index]!)?.[1] ?? '';
        const base = slug(heading);
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        anchors.add(count === 0 ? base : `${base}-${count}`);
      }
      for (const match of line.matchAll(/\s(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
    });
  return anchors;
}

/** Whether `path` is a file of `files`, or a folder holding one. */
function holds(files: ReadonlySet<string>, path: string): boolean {
  if (files.has(path)) return true;
  const folder = path.endsWith('/') ? path : `${path}/`;
  for (const file of files) if (file.startsWith(folder)) return true;
  return false;
}

/**
 * Checks every link of every document; returns one line per problem (empty when all resolve). Links in a
 * shipped document must be relative and land on a shipped file, since a partner reads it in node_modules;
 * relative links in a repository-only document must land on a repository file; links to the repository
 * must use its address from package.json and name a file it has; anchors must exist.
 */
export function checkLinks(context: LinkContext): string[] {
  const problems: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    let found = anchorsOf.get(path);
    if (found === undefined) {
      found = markdownAnchors(context.docs.get(path) ?? context.read(path));
      anchorsOf.set(path, found);
    }
    return found;
  };
  const checkAnchor = (where: string, path: string, anchor: string | undefined) => {
    if (!anchor || !path.endsWith('.md')) return;
    if (!anchors(path).has(decodeURIComponent(anchor)))
      problems.push(`${where}: no heading #${anchor} in ${path}`);
  };
  const repoPrefix = `${context.repository}/`;
  const [host, owner, name] = context.repository.replace(/^https:\/\//, '').split('/');
  /** An address on the repository's host naming its owner or its name: this repository, perhaps gone stale. */
  const looksLikeRepository = (url: string) => {
    const [urlHost, urlOwner, urlName] = url.replace(/^https?:\/\//, '').split('/');
    return urlHost === host && (urlOwner === owner || urlName === name);
  };

  for (const [doc, text] of context.docs) {
    const shipped = context.shipped.has(doc);
    for (const { target, line } of markdownLinks(text)) {
      const where = `${doc}:${line} (${target})`;
      const [rawPath = '', anchor] = target.split('#', 2) as [string, string | undefined];
      if (target === '') {
        problems.push(`${where}: empty link`);
      } else if (target.startsWith('#')) {
        checkAnchor(where, doc, anchor);
      } else if (/^https?:\/\//.test(target)) {
        if (target === context.repository || target.startsWith(`${context.repository}#`)) continue;
        if (!target.startsWith(repoPrefix)) {
          // Another site. An address that looks like this repository under another name has gone stale.
          if (looksLikeRepository(target)) {
            problems.push(`${where}: not the repository address of package.json (${context.repository})`);
          }
          continue;
        }
        if (shipped) {
          // The package's documents are read in node_modules, and the repository address is a placeholder
          // until the public repository exists: they link only to what the package ships.
          problems.push(
            `${where}: a shipped document links to the repository; link a shipped file relatively, or name the path as text`,
          );
          continue;
        }
        const rest = rawPath.slice(repoPrefix.length);
        const file = /^(?:blob|tree)\/main\/(.+)$/.exec(rest)?.[1];
        if (rest === 'issues' || rest.startsWith('issues/')) continue;
        if (file === undefined) {
          problems.push(
            `${where}: a repository link must be ${repoPrefix}blob/main/<path> or tree/main/<path>`,
          );
        } else if (!holds(context.repoFiles, decodeURIComponent(file).replace(/\/$/, ''))) {
          problems.push(`${where}: the repository has no ${file}`);
        } else {
          checkAnchor(where, decodeURIComponent(file), anchor);
        }
      } else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        // mailto: and the like: nothing to resolve.
      } else if (target.startsWith('/')) {
        problems.push(`${where}: a site-absolute path resolves differently on npm, GitHub and disk`);
      } else {
        const path = posix.normalize(posix.join(posix.dirname(doc), decodeURIComponent(rawPath)));
        const inside = path.replace(/\/$/, '');
        if (inside.startsWith('..')) {
          problems.push(`${where}: leaves the package`);
        } else if (!holds(context.repoFiles, inside)) {
          problems.push(`${where}: the repository has no ${inside}`);
        } else if (shipped && !holds(context.shipped, inside)) {
          problems.push(
            `${where}: ${inside} is not in the package (npm pack): add it to "files", or name it as text`,
          );
        } else {
          checkAnchor(where, inside, anchor);
        }
      }
    }
  }
  return problems;
}

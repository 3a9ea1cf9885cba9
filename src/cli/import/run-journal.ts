import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BulkChunkReport } from '../../index.js';

/** Journals older than this are removed: the API keeps keys for 24 hours, a re-run comes sooner. */
const KEEP_MS = 7 * 24 * 3600 * 1000;

/**
 * What earlier runs of the same import (same client, kind, SPV, chunk size and input path) had answered: the
 * idempotency keys of their requests, and the chunks answered whole. A file of one line per answered
 * request in a private folder of the temporary directory (mode 0600; it holds keys, no row data). It tells
 * a row this run's request replayed from one it created, and a chunk an earlier run created whole that this
 * run split under new keys (a body cap that appeared between two runs: its subscriptions may now exist
 * twice, issue 46 finding 9).
 */
export class RunJournal {
  readonly #path: string;
  readonly #keys: ReadonlySet<string>;
  readonly #whole: ReadonlySet<number>;

  private constructor(path: string, keys: Set<string>, whole: Set<number>) {
    this.#path = path;
    this.#keys = keys;
    this.#whole = whole;
  }

  /** Opens the journal of this import (`identity`: what makes two runs the same import). */
  static async open(identity: readonly string[], file: string): Promise<RunJournal | undefined> {
    try {
      const dir = join(tmpdir(), `partner-equity-import-${process.getuid?.() ?? 'user'}`);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await prune(dir);
      const name = createHash('sha256')
        .update([...identity, resolve(file)].join('\u0000'))
        .digest('hex')
        .slice(0, 32);
      const path = join(dir, `${name}.log`);
      const keys = new Set<string>();
      const whole = new Set<number>();
      const text = await readFile(path, 'utf8').catch(() => '');
      for (const line of text.split('\n')) {
        const [kind, index, key] = line.split(' ');
        if (kind !== 'a' || key === undefined) continue;
        keys.add(key);
        if (index !== undefined && /^\d+$/.test(index)) whole.add(Number(index));
      }
      return new RunJournal(path, keys, whole);
    } catch {
      return undefined; // no journal: nothing is marked replayed, nothing warned about
    }
  }

  /** The report's request was answered in an earlier run: this answer is the API's replay of it. */
  replayed(report: BulkChunkReport): boolean {
    return this.#keys.has(report.idempotencyKey);
  }

  /** Chunk `index` was answered whole by an earlier run, and this run sent it split (under new keys). */
  splitSince(reports: readonly BulkChunkReport[]): boolean {
    const first = reports[0];
    return first !== undefined && this.#whole.has(first.index) && reports.some((r) => r.part !== undefined);
  }

  /** Records the chunk's answered requests. */
  async record(reports: readonly BulkChunkReport[]): Promise<void> {
    const lines = reports
      .filter((report) => report.status !== undefined && report.status < 300)
      .map((report) => `a ${report.part === undefined ? report.index : '-'} ${report.idempotencyKey}\n`);
    if (lines.length > 0) await appendFile(this.#path, lines.join(''), { mode: 0o600 }).catch(() => {});
  }
}

async function prune(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info !== undefined && now - info.mtimeMs > KEEP_MS) await rm(path, { force: true });
  }
}

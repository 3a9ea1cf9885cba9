import type { ImportIo } from './import-request.js';

/** Where an import stands. */
export interface ImportCounts {
  /** Rows answered (sent and answered, or refused by the local check). */
  done: number;
  total: number;
  failed: number;
  /** Set once chunks were split to fit the service's size limit: the rows per request that worked. */
  fittedRows?: number;
}

/** How progress is shown: one self-updating line, a plain line now and then, JSON lines, or nothing. */
export type ProgressMode = 'tty' | 'plain' | 'json' | 'quiet';

const TTY_EVERY_MS = 100;
const PLAIN_EVERY_MS = 5_000;

const number = (value: number) => value.toLocaleString('en');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  return s < 3600
    ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Reports progress after every chunk: on a TTY (stderr) one line rewritten in place, at most ten times a
 * second; off a TTY a plain line every five seconds; with `--json` one object per chunk on stdout.
 */
export class Progress {
  readonly #io: ImportIo;
  readonly #mode: ProgressMode;
  readonly #now: () => number;
  readonly #started: number;
  #shownAt: number;

  constructor(io: ImportIo, mode: ProgressMode, now: () => number = () => performance.now()) {
    this.#io = io;
    this.#mode = mode;
    this.#now = now;
    this.#started = now();
    // The first line comes one interval in: a short import shows only its last state.
    this.#shownAt = this.#started;
  }

  /** Seconds since the import started. */
  get seconds(): number {
    return (this.#now() - this.#started) / 1000;
  }

  update(counts: ImportCounts): void {
    const now = this.#now();
    if (this.#mode === 'json') {
      this.#io.stdout.write(
        `${JSON.stringify({ type: 'progress', ...counts, rowsPerSecond: this.#rate(counts) })}\n`,
      );
      return;
    }
    const every = this.#mode === 'tty' ? TTY_EVERY_MS : PLAIN_EVERY_MS;
    if (this.#mode === 'quiet' || now - this.#shownAt < every) return;
    this.#shownAt = now;
    this.#show(counts);
  }

  /** The last state, always shown (a TTY line is ended). */
  finish(counts: ImportCounts): void {
    if (this.#mode === 'quiet' || this.#mode === 'json') return;
    this.#show(counts);
    if (this.#mode === 'tty') this.#io.stderr.write('\n');
  }

  #rate(counts: ImportCounts): number {
    return Math.round(counts.done / Math.max(this.seconds, 0.001));
  }

  #show(counts: ImportCounts): void {
    const rate = this.#rate(counts);
    const percent = counts.total === 0 ? 100 : (counts.done * 100) / counts.total;
    const line = [
      `${number(counts.done)}/${number(counts.total)} rows (${percent.toFixed(1)}%)`,
      `${number(rate)} rows/s`,
      `ETA ${duration(rate === 0 ? Number.POSITIVE_INFINITY : (counts.total - counts.done) / rate)}`,
      `${number(counts.failed)} failed`,
      ...(counts.fittedRows === undefined ? [] : [`split to fit: ${number(counts.fittedRows)} rows/request`]),
    ].join(' · ');
    this.#io.stderr.write(this.#mode === 'tty' ? `\r\u001b[2K${line}` : `${line}\n`);
  }
}

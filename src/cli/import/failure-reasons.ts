import type { RowError } from './import-kind.js';

/** Lines listed per reason: enough to find the rows, the results file has every one. */
const LINES_SHOWN = 10;

// Row codes of a request that failed for a reason of the moment (after the SDK's own retries).
const TRANSIENT_CODES = new Set(['request_failed', 'not_sent', 'missing_result']);

interface Reason {
  code: string;
  field: string;
  /** The first row's message: the others of this reason say the same of their own value. */
  message: string;
  retryable: boolean;
  lines: number[];
  count: number;
}

/** Failed rows counted by reason (code and field), each with its first lines, for the import's summary. */
export class FailureReasons {
  readonly #reasons = new Map<string, Reason>();

  add(error: RowError, line: number): void {
    const field = error.field ?? '';
    const key = `${error.code}\u0000${field}`;
    let reason = this.#reasons.get(key);
    if (reason === undefined) {
      reason = {
        code: error.code,
        field,
        message: error.message,
        retryable: error.retryable,
        lines: [],
        count: 0,
      };
      this.#reasons.set(key, reason);
    }
    reason.count += 1;
    reason.retryable &&= error.retryable;
    if (reason.lines.length < LINES_SHOWN) reason.lines.push(line);
  }

  /** True when every failed row may succeed as it is on a later run: nothing in the file to fix. */
  allTransient(): boolean {
    return (
      this.#reasons.size > 0 &&
      [...this.#reasons.values()].every((reason) => reason.retryable && TRANSIENT_CODES.has(reason.code))
    );
  }

  /** `Failed rows by reason:` then `  ×31 invalid_field (Country), lines 4, 9, …: e.g. "Belgique" …`. */
  describe(): string {
    const lines = [...this.#reasons.values()]
      .sort((a, b) => b.count - a.count)
      .map((reason) => {
        const field = reason.field === '' ? '' : ` (${reason.field})`;
        const more = reason.count > reason.lines.length ? ', …' : '';
        const message = reason.message.length > 160 ? `${reason.message.slice(0, 159)}…` : reason.message;
        return `  ×${reason.count.toLocaleString('en')} ${reason.code}${field}, line${reason.count > 1 ? 's' : ''} ${reason.lines.join(', ')}${more}: ${message}`;
      });
    return `Failed rows by reason:\n${lines.join('\n')}\n`;
  }

  json(): { code: string; field: string; count: number; lines: number[] }[] {
    return [...this.#reasons.values()].map(({ code, field, count, lines }) => ({
      code,
      field,
      count,
      lines,
    }));
  }
}

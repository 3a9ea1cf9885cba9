// How the quickstart prints: numbered steps with indented details, and a logger that keeps the SDK's
// (already redacted) debug lines so a step can show what went over the wire.
import type { Logger } from '@partner-equity/sdk';

/** Numbered steps on stdout. */
export class Report {
  #step = 0;

  step(title: string): void {
    this.#step += 1;
    process.stdout.write(`\n${this.#step}. ${title}\n`);
  }

  line(text: string): void {
    process.stdout.write(`   ${text}\n`);
  }
}

/** One line the SDK logged. */
export interface LogLine {
  message: string;
  fields: Record<string, unknown> | undefined;
}

/** A {@link Logger} that records lines instead of printing them. */
export class RecordingLogger implements Logger {
  readonly lines: LogLine[] = [];

  debug(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ message, fields });
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ message, fields });
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ message, fields });
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ message, fields });
  }

  /** Lines about `path` (e.g. '/v1/oauth2/tokens'). */
  about(path: string): LogLine[] {
    return this.lines.filter((line) => line.fields?.['path'] === path);
  }
}

import type { LogLevel } from '../../core/logging/logger.js';
import type { CliIo } from '../command.js';
import type { readCredentials } from '../credentials.js';
import type { CheckedRow, RowSource } from './checked-rows.js';
import type { ImportKindName, RowOutcome } from './import-kind.js';
import type { IdSource } from './investor-id.js';
import type { RunJournal } from './run-journal.js';
import type { TextEncoding } from './text-encoding.js';
import type { DateFormat } from './value-formats.js';

/** Everything `partner-equity import <kind>` was asked to do, checked. */
export interface ImportRequest
  extends Pick<ImportJob, 'kindName' | 'check' | 'json' | 'quiet' | 'out' | 'chunkSize' | 'concurrency'> {
  source: RowSource;
  /** How the summary names what was imported (default: the file). */
  label?: string | undefined;
  /** Each row's outcome as its chunk finishes (the investors step of `--with-investors` keeps the ids). */
  onRow?: ((row: CheckedRow, outcome: RowOutcome) => void) | undefined;
  /** What earlier runs of this import had answered (replays, and chunks split since). */
  journal?: RunJournal | undefined;
  /** Prefix of every chunk's idempotency key. */
  namespace: string;
  stopRequested(): boolean;
  /** The signal that stopped the import, if one did. */
  signal(): string | undefined;
}

/** Everything the import's thread needs, as plain data (it crosses to a worker thread). */
export interface ImportJob {
  kindName: ImportKindName;
  file: string;
  delimiter: string | undefined;
  encoding: TextEncoding | undefined;
  sheet: string | undefined;
  idFrom: IdSource | undefined;
  maps: string[];
  dateFormat: DateFormat | undefined;
  decimalComma: boolean;
  /** An SPV slug, or an approved SPV request's slug (`spvr_…`). */
  spvSlug: string;
  people: string | undefined;
  /** `--currency`: fills a subscriptions file's missing currency. */
  currency?: string | undefined;
  /** `--share-class`: a slug or a name, fills a subscriptions file's missing share class. */
  shareClass?: string | undefined;
  /** `--with-investors`: the subscriptions file's rows make (or match) their investors first. */
  withInvestors?: boolean | undefined;
  check: boolean;
  json: boolean;
  quiet: boolean;
  out: string | undefined;
  chunkSize: number;
  concurrency: number;
  /** `undefined` with `--check`, which needs none. */
  credentials: Credentials | undefined;
  allowInsecureHttp: boolean;
  logLevel: LogLevel;
}

/** The credentials the command read. */
export type Credentials = Awaited<ReturnType<typeof readCredentials>>;

/** What the import writes to and listens on: the command's streams and its interrupt. */
export type ImportIo = Pick<CliIo, 'stdout' | 'stderr' | 'waitForInterrupt'>;

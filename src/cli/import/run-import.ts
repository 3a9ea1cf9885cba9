import { LOG_LEVEL_ENV, type LogLevel, resolveLogLevel } from '../../core/logging/logger.js';
import { isCleartextToNetwork } from '../../core/transport/loopback-host.js';
import { PartnerEquity } from '../../index.js';
import { DEFAULT_CHUNK_SIZE, DEFAULT_CONCURRENCY } from '../../resources/bulk-options.js';
import type { CliIo, OptionValues } from '../command.js';
import { readCredentials } from '../credentials.js';
import { formatError } from '../format-error.js';
import { flag, integerValue, stringList, stringValue } from '../parse-options.js';
import { stderrLogger } from '../stderr-logger.js';
import { UsageError } from '../usage-error.js';
import type { RowSource } from './checked-rows.js';
import { type ColumnMap, describeColumns } from './columns.js';
import { IMPORT_EXIT, ImportInputError } from './import-exit.js';
import type { ImportKindName } from './import-kind.js';
import { runInThread } from './import-thread.js';
import { investorsImport } from './investors-import.js';
import { readPeople } from './people-file.js';
import { delimiterOption } from './read-csv.js';
import { type ScanResult, scanRows } from './scan-rows.js';
import { sendFile } from './send-file.js';
import { isSpvRequestSlug, resolveSpvTarget } from './spv-target.js';
import { subscriptionsImport } from './subscriptions-import.js';
import { type DateFormat, dateFormatOption } from './value-formats.js';

/** Everything `partner-equity import <kind>` was asked to do, checked. */
export interface ImportRequest {
  kindName: ImportKindName;
  source: RowSource;
  check: boolean;
  json: boolean;
  quiet: boolean;
  out: string | undefined;
  chunkSize: number;
  concurrency: number;
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
  maps: string[];
  dateFormat: DateFormat;
  decimalComma: boolean;
  /** An SPV slug, or an approved SPV request's slug (`spvr_…`). */
  spvSlug: string;
  people: string | undefined;
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

type Credentials = Awaited<ReturnType<typeof readCredentials>>;

/** What the import writes to and listens on: the command's streams and its interrupt. */
export type ImportIo = Pick<CliIo, 'stdout' | 'stderr' | 'waitForInterrupt'>;

/**
 * `partner-equity import investors|subscriptions`: checks the options and credentials here, then runs
 * the import ({@link runImportJob}) in a worker thread whose heap is sized from the chunk size, so memory
 * follows the chunk size, not the file (see import-thread.ts).
 */
export async function runImport(kindName: ImportKindName, values: OptionValues, io: CliIo): Promise<number> {
  const json = flag(values, 'json');
  const quiet = flag(values, 'quiet');
  if (json && quiet) throw new UsageError('give --quiet or --json, not both');
  const check = flag(values, 'check');
  const out = stringValue(values, 'out');
  if (check && out !== undefined) throw new UsageError('--check sends nothing, so --out would stay empty');
  const chunkSize = integerValue(values, 'chunk-size', { min: 1, max: 10_000, fallback: DEFAULT_CHUNK_SIZE });
  const concurrency = integerValue(values, 'concurrency', { min: 1, max: 16, fallback: DEFAULT_CONCURRENCY });
  const delimiter = delimiterOption(stringValue(values, 'delimiter'));
  const dateFormat = dateFormatOption(stringValue(values, 'date-format'));
  const spvSlug = stringValue(values, 'spv-slug') ?? '';
  // Credentials first, so a missing one fails before a long check pass; --check needs none, unless it
  // must read an SPV request for its SPV and share classes.
  const credentials = check && !isSpvRequestSlug(spvSlug) ? undefined : await readCredentials(values, io);
  const allowInsecureHttp = flag(values, 'allow-insecure-http');
  if (credentials !== undefined && !allowInsecureHttp && isCleartextToNetwork(credentials.baseUrl)) {
    throw new UsageError(
      'the base URL is plain http to another host: use https, or pass --allow-insecure-http',
    );
  }
  const job: ImportJob = {
    kindName,
    file: stringValue(values, 'file') ?? '',
    delimiter,
    maps: stringList(values, 'map'),
    dateFormat,
    decimalComma: flag(values, 'decimal-comma'),
    spvSlug,
    people: stringValue(values, 'people'),
    check,
    json,
    quiet,
    out,
    chunkSize,
    concurrency,
    credentials,
    allowInsecureHttp,
    logLevel: resolveLogLevel(undefined, io.env[LOG_LEVEL_ENV]),
  };
  return runInThread(job, io);
}

/**
 * The import itself: pass 1 checks the whole file locally (all `--check` does); pass 2 sends it in keyed
 * chunks. A file that cannot be read or mapped sends nothing.
 */
export async function runImportJob(job: ImportJob, io: ImportIo): Promise<number> {
  const { kindName, check, json, quiet } = job;
  let signal: string | undefined;
  void io.waitForInterrupt().then((name) => {
    signal = name;
  });
  const name = `import ${kindName}`;
  let request: ImportRequest;
  let scan: ScanResult;
  const client =
    job.credentials === undefined
      ? undefined
      : new PartnerEquity({
          ...job.credentials,
          allowInsecureHttp: job.allowInsecureHttp,
          logger: stderrLogger(io.stderr),
          logLevel: job.logLevel,
        });
  try {
    const target =
      kindName === 'subscriptions' && client !== undefined
        ? await resolveSpvTarget(client, job.spvSlug)
        : { spvSlug: job.spvSlug };
    if (target.note !== undefined && !json) io.stderr.write(`${target.note}\n`);
    const people = job.people === undefined ? undefined : await readPeople(job.people);
    const kind = kindName === 'investors' ? investorsImport() : subscriptionsImport(target.spvSlug, people);
    const spv = kindName === 'subscriptions' ? `:${encodeURIComponent(target.spvSlug)}` : '';
    request = {
      kindName,
      source: {
        kind,
        file: job.file,
        delimiter: job.delimiter,
        maps: job.maps,
        formats: { dateFormat: job.dateFormat, decimalComma: job.decimalComma },
        shareClasses: target.shareClasses,
        onColumns: check && !quiet ? (columns) => reportColumns(job.file, columns, json, io) : undefined,
      },
      check,
      json,
      quiet,
      out: job.out,
      chunkSize: job.chunkSize,
      concurrency: job.concurrency,
      namespace: `partner-equity-import:${kindName}${spv}:${job.chunkSize}`,
      stopRequested: () => signal !== undefined,
      signal: () => signal,
    };
    scan = await scanRows({
      ...request.source,
      report: check ? { io, json } : undefined,
      stopRequested: request.stopRequested,
    });
  } catch (error) {
    await client?.close();
    if (!(error instanceof ImportInputError)) throw error;
    io.stderr.write(formatError(error, name));
    return IMPORT_EXIT.badInput;
  }
  if (scan.stopped) {
    await client?.close();
    io.stderr.write(`partner-equity ${name}: interrupted while checking the file; nothing was sent\n`);
    return IMPORT_EXIT.interrupted;
  }
  if (check || client === undefined) {
    await client?.close();
    return reportCheck(request, scan, io);
  }
  if (!quiet && !json && scan.bad > 0) {
    io.stderr.write(
      `${scan.bad.toLocaleString('en')} row(s) fail the local check and will not be sent (see --check)\n`,
    );
  }
  try {
    return await sendFile(request, scan, client, io);
  } finally {
    await client.close();
  }
}

/** `--check` says how it read the header: lines on stderr, or one `columns` JSON line with `--json`. */
function reportColumns(file: string, columns: ColumnMap, json: boolean, io: ImportIo): void {
  if (!json) {
    io.stderr.write(`${file}: columns read as\n${describeColumns(columns)}\n`);
    return;
  }
  const mapping = columns.header.map((header, index) => ({ header, field: columns.fields[index] ?? null }));
  io.stdout.write(`${JSON.stringify({ type: 'columns', file, columns: mapping })}\n`);
}

function reportCheck(request: ImportRequest, scan: ScanResult, io: ImportIo): number {
  const file = request.source.file;
  if (request.json) {
    io.stdout.write(
      `${JSON.stringify({ type: 'summary', file, total: scan.total, bad: scan.bad, sent: 0 })}\n`,
    );
  } else if (!request.quiet) {
    const verdict = scan.bad === 0 ? 'every row passes' : `${scan.bad.toLocaleString('en')} bad row(s)`;
    const trimmed =
      scan.trimmed > 0 ? `; spaces trimmed around ${scan.trimmed.toLocaleString('en')} value(s)` : '';
    io.stderr.write(
      `${file}: ${scan.total.toLocaleString('en')} rows, ${verdict}${trimmed}; nothing was sent\n`,
    );
  }
  return scan.bad > 0 ? IMPORT_EXIT.badInput : IMPORT_EXIT.done;
}

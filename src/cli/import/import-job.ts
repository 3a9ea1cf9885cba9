import { PartnerEquity } from '../../index.js';
import { formatError } from '../format-error.js';
import { stderrLogger } from '../stderr-logger.js';
import type { CheckedRow } from './checked-rows.js';
import { type ColumnMap, describeColumns } from './columns.js';
import { IMPORT_EXIT, ImportInputError } from './import-exit.js';
import type { ImportKind, RowOutcome } from './import-kind.js';
import type { ImportIo, ImportJob, ImportRequest } from './import-request.js';
import { investorsImport } from './investors-import.js';
import { readPeople } from './people-file.js';
import { RunJournal } from './run-journal.js';
import { type ScanResult, scanRows } from './scan-rows.js';
import { sendFile } from './send-file.js';
import { resolveSpvTarget } from './spv-target.js';
import { subscriptionColumns, subscriptionsImport } from './subscriptions-import.js';
import { convertValue, type ShareClass } from './value-formats.js';

/** One step of an import: what it sends, and what its check pass found. */
interface Step {
  request: ImportRequest;
  scan: ScanResult;
}

/**
 * The import itself: pass 1 checks the whole file locally (all `--check` does); pass 2 sends it in keyed
 * chunks. A file that cannot be read or mapped sends nothing. With `--with-investors`, the sheet's rows
 * first make (or match) their investors, then their subscriptions, each step with its own keys.
 */
export async function runImportJob(job: ImportJob, io: ImportIo): Promise<number> {
  const { kindName, check, json, quiet } = job;
  let signal: string | undefined;
  void io.waitForInterrupt().then((name) => {
    signal = name;
  });
  const name = `import ${kindName}`;
  const steps: Step[] = [];
  const client =
    job.credentials === undefined
      ? undefined
      : new PartnerEquity({
          ...job.credentials,
          allowInsecureHttp: job.allowInsecureHttp,
          logger: stderrLogger(io.stderr),
          logLevel: job.logLevel,
        });
  // --with-investors: resolved from what the investors step made; while checking, every id resolves.
  const made = new Map<string, string>();
  let checking = true;
  try {
    const target =
      kindName === 'subscriptions' && client !== undefined
        ? await resolveSpvTarget(client, job.spvSlug)
        : { spvSlug: job.spvSlug };
    if (target.note !== undefined && !json) io.stderr.write(`${target.note}\n`);
    if (kindName === 'subscriptions' && client === undefined && !json && !quiet) {
      io.stderr.write(
        'no credentials: the SPV is not read, so its currency and share classes are not checked\n',
      );
    }
    const step = async (kind: ImportKind, namespace: string, out: string | undefined, label?: string) => {
      const request: ImportRequest = {
        kindName: kind.name,
        source: {
          kind,
          file: job.file,
          delimiter: job.delimiter,
          encoding: job.encoding,
          sheet: job.sheet,
          idFrom: job.idFrom,
          maps: job.maps,
          formats: { dateFormat: job.dateFormat, decimalComma: job.decimalComma },
          shareClasses: target.shareClasses,
          checks: {},
          onColumns:
            check && !quiet
              ? (columns) => reportColumns(job.file, kind, columns, json, io, job.withInvestors === true)
              : undefined,
        },
        check,
        json,
        quiet,
        out,
        label,
        chunkSize: job.chunkSize,
        concurrency: job.concurrency,
        namespace: `partner-equity-import:${namespace}:${job.chunkSize}`,
        stopRequested: () => signal !== undefined,
        signal: () => signal,
      };
      const scan = await scanRows({
        ...request.source,
        report: check ? { io, json } : undefined,
        stopRequested: request.stopRequested,
      });
      steps.push({ request, scan });
      return scan.stopped;
    };
    if (kindName === 'investors') {
      await step(investorsImport(), 'investors', job.out);
    } else {
      const withInvestors = job.withInvestors === true;
      const label = `Investors of ${job.file}`;
      const stopped =
        withInvestors && (await step(investorsImport(subscriptionColumns), 'investors', undefined, label));
      const people =
        job.people !== undefined
          ? await readPeople(job.people)
          : withInvestors
            ? { get: (id: string) => (checking ? 'per_to_be_made' : made.get(id)) }
            : undefined;
      const kind = subscriptionsImport(target.spvSlug, people, {
        currency: job.currency,
        shareClassSlug: shareClassOption(job.shareClass, target.shareClasses),
        spvCurrency: target.currency,
        withInvestors,
      });
      if (!stopped) await step(kind, `subscriptions:${encodeURIComponent(target.spvSlug)}`, job.out);
    }
  } catch (error) {
    await client?.close();
    if (!(error instanceof ImportInputError)) throw error;
    io.stderr.write(formatError(error, name));
    return IMPORT_EXIT.badInput;
  }
  if (steps.some(({ scan }) => scan.stopped)) {
    await client?.close();
    io.stderr.write(`partner-equity ${name}: interrupted while checking the file; nothing was sent\n`);
    return IMPORT_EXIT.interrupted;
  }
  if (check || client === undefined) {
    await client?.close();
    const statuses = steps.map(({ request, scan }) => reportCheck(request, scan, io));
    return Math.max(...statuses);
  }
  try {
    let status: number = IMPORT_EXIT.done;
    for (const { request, scan } of steps) {
      if (!quiet && !json && scan.bad > 0) {
        io.stderr.write(
          `${scan.bad.toLocaleString('en')} row(s) fail the local check and will not be sent (see --check)\n`,
        );
      }
      if (!quiet && !json && scan.warned > 0) {
        io.stderr.write(`${scan.warned.toLocaleString('en')} row(s) pass with warnings (see --check)\n`);
      }
      checking = false;
      const onRow =
        request.kindName === 'investors' && steps.length > 1
          ? (row: CheckedRow, outcome: RowOutcome) => {
              const id = row.input?.['partnerInvestorId'];
              if (typeof id === 'string' && outcome.id !== undefined) made.set(id, outcome.id);
            }
          : undefined;
      const journal = await RunJournal.open(
        [request.namespace, job.credentials?.baseUrl ?? '', job.credentials?.clientId ?? ''],
        job.file,
      );
      const ended = await sendFile({ ...request, onRow, journal }, scan, client, io);
      // A step that stopped (an error every request would get, an interrupt) stops the import.
      if (ended !== IMPORT_EXIT.done && ended !== IMPORT_EXIT.rowsFailed) return ended;
      status = Math.max(status, ended);
    }
    return status;
  } finally {
    await client.close();
  }
}

/** `--check` says how it read the header: lines on stderr, or one `columns` JSON line with `--json`. */
function reportColumns(
  file: string,
  kind: ImportKind,
  columns: ColumnMap,
  json: boolean,
  io: ImportIo,
  withInvestors: boolean,
): void {
  const ignored = kind.ignoredColumns?.(columns.header) ?? [];
  if (!json) {
    const what =
      kind.name === 'investors'
        ? 'subscription columns left to the next step'
        : 'investor columns not read (--with-investors reads them)';
    const note =
      ignored.length === 0 || (withInvestors && kind.name === 'subscriptions')
        ? ''
        : `${what}: ${ignored.map((name) => `'${name}'`).join(', ')}\n`;
    io.stderr.write(`${file}: columns read as\n${describeColumns(columns)}\n${note}`);
    return;
  }
  const mapping = columns.header.map((header, index) => ({ header, field: columns.fields[index] ?? null }));
  io.stdout.write(`${JSON.stringify({ type: 'columns', file, columns: mapping })}\n`);
}

function reportCheck(request: ImportRequest, scan: ScanResult, io: ImportIo): number {
  const file = request.label ?? request.source.file;
  if (request.json) {
    io.stdout.write(
      `${JSON.stringify({ type: 'summary', file, total: scan.total, bad: scan.bad, warned: scan.warned, sent: 0 })}\n`,
    );
  } else if (!request.quiet) {
    const verdict = scan.bad === 0 ? 'every row passes' : `${scan.bad.toLocaleString('en')} bad row(s)`;
    const trimmed =
      scan.trimmed > 0 ? `; spaces trimmed around ${scan.trimmed.toLocaleString('en')} value(s)` : '';
    const warned =
      scan.warned > 0
        ? `; ${scan.warned.toLocaleString('en')} row(s) with warnings (the service may refuse them)`
        : '';
    io.stderr.write(
      `${file}: ${scan.total.toLocaleString('en')} rows, ${verdict}${warned}${trimmed}; nothing was sent\n`,
    );
  }
  return scan.bad > 0 ? IMPORT_EXIT.badInput : IMPORT_EXIT.done;
}

/** `--share-class` as a slug: a name or slug of the SPV's classes when they are known, else as given. */
function shareClassOption(value: string | undefined, classes: readonly ShareClass[] | undefined) {
  if (value === undefined) return undefined;
  const converted = convertValue('shareClass', value, {
    dateFormat: 'YYYY-MM-DD',
    decimalComma: false,
    shareClasses: classes,
  });
  if ('problem' in converted) throw new ImportInputError(`--share-class: ${converted.problem}`);
  return converted.value;
}

import { PartnerEquity } from '../../index.js';
import { formatError } from '../format-error.js';
import { stderrLogger } from '../stderr-logger.js';
import { IMPORT_EXIT, ImportInputError } from './import-exit.js';
import type { Credentials, ImportIo, ImportJob, ImportRequest } from './import-request.js';
import { investorsImport } from './investors-import.js';
import { readPeople } from './people-file.js';
import { type ScanResult, scanRows } from './scan-rows.js';
import { sendFile } from './send-file.js';
import { subscriptionsImport } from './subscriptions-import.js';

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
  try {
    const people = job.people === undefined ? undefined : await readPeople(job.people);
    const kind = kindName === 'investors' ? investorsImport() : subscriptionsImport(job.spvSlug, people);
    const spv = kindName === 'subscriptions' ? `:${encodeURIComponent(job.spvSlug)}` : '';
    request = {
      kindName,
      source: { kind, file: job.file, delimiter: job.delimiter, maps: job.maps },
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
    if (!(error instanceof ImportInputError)) throw error;
    io.stderr.write(formatError(error, name));
    return IMPORT_EXIT.badInput;
  }
  if (scan.stopped) {
    io.stderr.write(`partner-equity ${name}: interrupted while checking the file; nothing was sent\n`);
    return IMPORT_EXIT.interrupted;
  }
  if (check) return reportCheck(request, scan, io);
  if (!quiet && !json && scan.bad > 0) {
    io.stderr.write(`${scan.bad} row(s) fail the local check and will not be sent (see --check)\n`);
  }
  const client = new PartnerEquity({
    ...(job.credentials as Credentials),
    allowInsecureHttp: job.allowInsecureHttp,
    logger: stderrLogger(io.stderr),
    logLevel: job.logLevel,
  });
  try {
    return await sendFile(request, scan, client, io);
  } finally {
    await client.close();
  }
}

function reportCheck(request: ImportRequest, scan: ScanResult, io: ImportIo): number {
  const file = request.source.file;
  if (request.json) {
    io.stdout.write(
      `${JSON.stringify({ type: 'summary', file, total: scan.total, bad: scan.bad, sent: 0 })}\n`,
    );
  } else if (!request.quiet) {
    const verdict = scan.bad === 0 ? 'every row passes' : `${scan.bad} bad row(s)`;
    io.stderr.write(`${file}: ${scan.total.toLocaleString('en')} rows, ${verdict}; nothing was sent\n`);
  }
  return scan.bad > 0 ? IMPORT_EXIT.badInput : IMPORT_EXIT.done;
}

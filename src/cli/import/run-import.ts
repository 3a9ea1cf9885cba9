import { LOG_LEVEL_ENV, resolveLogLevel } from '../../core/logging/logger.js';
import { isCleartextToNetwork } from '../../core/transport/loopback-host.js';
import { DEFAULT_CHUNK_SIZE, DEFAULT_CONCURRENCY } from '../../resources/bulk-options.js';
import type { CliIo, OptionValues } from '../command.js';
import { readCredentials } from '../credentials.js';
import { flag, integerValue, stringList, stringValue } from '../parse-options.js';
import { UsageError } from '../usage-error.js';
import type { ImportKindName } from './import-kind.js';
import type { ImportJob } from './import-request.js';
import { runInThread } from './import-thread.js';
import { idFromOption } from './investor-id.js';
import { delimiterOption } from './read-csv.js';
import { isSpvRequestSlug } from './spv-target.js';
import { encodingOption } from './text-encoding.js';
import { dateFormatOption } from './value-formats.js';

/**
 * `partner-equity import investors|subscriptions`: checks the options and credentials here, then runs
 * the import (`runImportJob`, import-job.ts) in a worker thread whose heap is sized from the chunk size, so memory
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
  const currency = currencyOption(stringValue(values, 'currency'));
  if (flag(values, 'with-investors') && stringValue(values, 'people') !== undefined) {
    throw new UsageError('give --with-investors (the rows make their investors) or --people, not both');
  }
  // Credentials first, so a missing one fails before a long check pass. --check on investors needs none;
  // on subscriptions it reads the SPV (its currency and share classes) when it can, and must for spvr_….
  const credentials =
    check && (kindName === 'investors' || !isSpvRequestSlug(spvSlug))
      ? kindName === 'investors'
        ? undefined
        : await readCredentials(values, io).catch(() => undefined)
      : await readCredentials(values, io);
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
    encoding: encodingOption(stringValue(values, 'encoding')),
    sheet: stringValue(values, 'sheet'),
    idFrom: idFromOption(stringValue(values, 'id-from')),
    maps: stringList(values, 'map'),
    dateFormat,
    decimalComma: flag(values, 'decimal-comma'),
    spvSlug,
    people: stringValue(values, 'people'),
    currency,
    shareClass: stringValue(values, 'share-class'),
    withInvestors: flag(values, 'with-investors'),
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

/** `--currency`: an ISO 4217 code (any case). */
function currencyOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z]{3}$/.test(value))
    throw new UsageError(`--currency '${value}': expected a code such as EUR`);
  return value.toUpperCase();
}

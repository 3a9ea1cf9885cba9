import { BadRequestError } from '../../index.js';
import { SubscriptionInput } from '../../schemas/subscriptions.js';
import { UsageError } from '../usage-error.js';
import { fieldPaths } from './columns.js';
import { headerKey, headerKeys } from './header-names.js';
import type { ImportKind, RowOutcome } from './import-kind.js';

// `subscriptions[3].lumpSum.value` (or `subscriptions.3.lumpSum.value`): the row and field a 400 names.
const ATTRIBUTE = /^subscriptions(?:\[(\d+)\]|\.(\d+))\.?(.*)$/;

/** What flags and the SPV's own record add to a subscriptions import. */
export interface SubscriptionsOptions {
  /** `--currency`: fills `lumpSum.currency` where the file has no value. */
  currency?: string | undefined;
  /** `--share-class`, as a slug: fills `shareClassSlug` where the file has no value. */
  shareClassSlug?: string | undefined;
  /** The SPV's currency, when it was read: a row in another is refused before anything is sent. */
  spvCurrency?: string | undefined;
  /** `--with-investors`: the investor columns are read (the investors step resolves the rows' ids). */
  withInvestors?: boolean | undefined;
}

/** `partnerInvestorId → servicePersonId`: a `--people` file, or what the investors step made. */
export interface PeopleLookup {
  get(partnerInvestorId: string): string | undefined;
}

/** The investor fields a subscriptions sheet may carry beside its own (read with `--with-investors`). */
export const INVESTOR_FIELDS = ['email', 'firstName', 'lastName', 'dateOfBirth', 'countryOfResidence'];

/**
 * `import subscriptions <spv-slug>`: rows are `client.subscriptions.create` inputs. Investors are named by
 * `servicePersonId`, or by `partnerInvestorId` resolved through `people` (an investors results file, or the
 * investors step of `--with-investors`).
 */
export function subscriptionsImport(
  spvSlug: string,
  people: PeopleLookup | undefined,
  options: SubscriptionsOptions = {},
): ImportKind {
  const filled = [
    ...(options.currency === undefined ? [] : ['lumpSum.currency']),
    ...(options.shareClassSlug === undefined ? [] : ['shareClassSlug']),
  ];
  const investorKeys = investorHeaderKeys();
  return {
    name: 'subscriptions',
    schema: SubscriptionInput,
    aliases: {},
    extraFields: ['partnerInvestorId'],
    substitutes: { servicePersonId: 'partnerInvestorId' },
    filled,
    echoFields: ['partnerSubscriptionId', 'partnerInvestorId', 'servicePersonId'],
    idColumn: 'subscriptionSlug',
    // The investors step reads them with --with-investors; this step never does.
    ignoredColumns: (header) => header.filter((name) => investorKeys.has(headerKey(name))),
    checkColumns(columns) {
      if (people === undefined && columns.has('partnerInvestorId') && !columns.has('servicePersonId')) {
        throw new UsageError(
          'the file names investors by partnerInvestorId: pass --with-investors (the same rows make the investors) or --people <file> (an `import investors --out` file)',
        );
      }
    },
    resolve(row) {
      fill(row, options);
      const currency = (row['lumpSum'] as { currency?: unknown } | undefined)?.currency;
      if (options.spvCurrency !== undefined && typeof currency === 'string') {
        if (currency.toUpperCase() !== options.spvCurrency) {
          return {
            field: 'lumpSum.currency',
            reason: `'${currency}', but SPV ${spvSlug} takes ${options.spvCurrency} only`,
          };
        }
      }
      const partnerInvestorId = row['partnerInvestorId'];
      if (row['servicePersonId'] !== undefined || typeof partnerInvestorId !== 'string') return undefined;
      const field = 'partnerInvestorId';
      if (people === undefined)
        return { field, reason: 'no --people file to resolve this partnerInvestorId' };
      const personId = people.get(partnerInvestorId);
      if (personId === undefined) {
        const reason =
          options.withInvestors === true
            ? `investor '${partnerInvestorId}' was not created or matched (the investors step says why)`
            : `'${partnerInvestorId}' has no servicePersonId in the --people file`;
        return { field, reason };
      }
      row['servicePersonId'] = personId;
      return undefined;
    },
    async send(client, rows, { onChunk, ...options }) {
      await client.subscriptions.create(spvSlug, rows as AsyncIterable<SubscriptionInput>, {
        ...options,
        onChunk: ({ results, reports }) => {
          // A 400 naming rows of the one request: each named row gets its error, the others say why.
          const named = reports.length === 1 ? refused(reports[0]?.error, reports[0]?.rows ?? 0) : undefined;
          let sent = 0;
          const outcomes = results.map((row): RowOutcome => {
            if (row.error === undefined) return { status: row.status, id: row.subscriptionSlug };
            const answer = row.error.code === 'request_failed' ? named?.[sent++] : undefined;
            return answer ?? { status: 'failed', error: row.error };
          });
          return onChunk(outcomes, reports);
        },
      });
    },
  };
}

/** The outcome of each row of a request the API refused with a 400, or `undefined` if it cannot say. */
function refused(error: unknown, rowCount: number): RowOutcome[] | undefined {
  if (!(error instanceof BadRequestError)) return undefined;
  const named = new Map<number, { code: string; field: string; messages: string[] }>();
  for (const item of error.validationErrors) {
    const match = ATTRIBUTE.exec(item.attribute);
    const index = Number(match?.[1] ?? match?.[2]);
    if (match === null || !(index < rowCount)) return undefined;
    const field = match[3] ?? '';
    const entry = named.get(index) ?? { code: item.code, field, messages: [] };
    entry.messages.push(field === '' ? item.message : `${field}: ${item.message}`);
    named.set(index, entry);
  }
  if (named.size === 0) return undefined;
  const others = `Not created: the API refused this request whole for ${named.size} other row(s); fix them and run again`;
  return Array.from({ length: rowCount }, (_, index): RowOutcome => {
    const entry = named.get(index);
    return entry === undefined
      ? { status: 'failed', error: { code: 'chunk_refused', message: others, retryable: true } }
      : {
          status: 'failed',
          error: {
            code: entry.code,
            field: entry.field,
            message: entry.messages.join('; '),
            retryable: false,
          },
        };
  });
}

/** `--currency` and `--share-class` into a row that has no value of its own. */
function fill(row: Record<string, unknown>, options: SubscriptionsOptions): void {
  if (options.currency !== undefined) {
    row['lumpSum'] ??= {};
    (row['lumpSum'] as Record<string, unknown>)['currency'] ??= options.currency;
  }
  if (options.shareClassSlug !== undefined) row['shareClassSlug'] ??= options.shareClassSlug;
}

/** Every header key an investor column goes by, in any language the import reads: field names and names. */
function investorHeaderKeys(): Set<string> {
  const names = [...headerKeys()].filter(([, field]) => INVESTOR_FIELDS.includes(field)).map(([key]) => key);
  return new Set([...INVESTOR_FIELDS.map(headerKey), ...names]);
}

/** The header names of a sheet's subscription columns (ignored by its investors step). */
export function subscriptionColumns(header: readonly string[]): string[] {
  const fields = [...fieldPaths(SubscriptionInput).keys()];
  const own = new Set([
    ...fields.map(headerKey),
    ...[...headerKeys()]
      .filter(([, field]) => field !== 'partnerInvestorId' && fields.includes(field))
      .map(([key]) => key),
  ]);
  return header.filter((name) => own.has(headerKey(name)));
}

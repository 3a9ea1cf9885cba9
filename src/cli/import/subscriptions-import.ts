import { BadRequestError } from '../../index.js';
import { SubscriptionInput } from '../../schemas/subscriptions.js';
import { UsageError } from '../usage-error.js';
import type { ImportKind, RowOutcome } from './import-kind.js';

// `subscriptions[3].lumpSum.value` (or `subscriptions.3.lumpSum.value`): the row and field a 400 names.
const ATTRIBUTE = /^subscriptions(?:\[(\d+)\]|\.(\d+))\.?(.*)$/;

/**
 * `import subscriptions <spv-slug>`: rows are `client.subscriptions.create` inputs. Investors are named by
 * `servicePersonId`, or by `partnerInvestorId` resolved through `people` (an investors results file).
 */
export function subscriptionsImport(
  spvSlug: string,
  people: ReadonlyMap<string, string> | undefined,
): ImportKind {
  return {
    name: 'subscriptions',
    schema: SubscriptionInput,
    aliases: {},
    extraFields: ['partnerInvestorId'],
    substitutes: { servicePersonId: 'partnerInvestorId' },
    echoFields: ['partnerSubscriptionId', 'partnerInvestorId', 'servicePersonId'],
    idColumn: 'subscriptionSlug',
    checkColumns(columns) {
      if (people === undefined && columns.has('partnerInvestorId') && !columns.has('servicePersonId')) {
        throw new UsageError(
          'the file names investors by partnerInvestorId: pass --people <file> (an `import investors --out` file)',
        );
      }
    },
    resolve(row) {
      const partnerInvestorId = row['partnerInvestorId'];
      if (row['servicePersonId'] !== undefined || typeof partnerInvestorId !== 'string') return undefined;
      if (people === undefined) return 'no --people file to resolve this partnerInvestorId';
      const personId = people.get(partnerInvestorId);
      if (personId === undefined) return `'${partnerInvestorId}' has no servicePersonId in the --people file`;
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

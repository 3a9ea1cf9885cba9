import { InvestorInput } from '../../schemas/investors.js';
import type { ImportKind } from './import-kind.js';

/**
 * `import investors`: rows are `client.investors.create` inputs; bad rows fail alone, as in the API. As the
 * investors step of `import subscriptions --with-investors`, the sheet's subscription columns are ignored.
 */
export function investorsImport(ignoredColumns?: (header: readonly string[]) => string[]): ImportKind {
  return {
    name: 'investors',
    ...(ignoredColumns === undefined ? {} : { ignoredColumns }),
    schema: InvestorInput,
    aliases: { 'e-mail': 'email', dob: 'dateOfBirth' },
    extraFields: [],
    substitutes: {},
    echoFields: ['partnerInvestorId'],
    idColumn: 'servicePersonId',
    async send(client, rows, { onChunk, ...options }) {
      await client.investors.create(rows as AsyncIterable<InvestorInput>, {
        ...options,
        onChunk: ({ results, reports }) =>
          onChunk(
            results.map((row) =>
              row.error == null
                ? { status: row.status, id: row.servicePersonId }
                : { status: 'failed', error: row.error },
            ),
            reports,
          ),
      });
    },
  };
}

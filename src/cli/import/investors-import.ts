import { InvestorInput } from '../../schemas/investors.js';
import type { ImportKind } from './import-kind.js';

/** `import investors`: rows are `client.investors.create` inputs; bad rows fail alone, as in the API. */
export function investorsImport(): ImportKind {
  return {
    name: 'investors',
    schema: InvestorInput,
    aliases: { 'e-mail': 'email', dob: 'dateOfBirth' },
    extraFields: [],
    substitutes: {},
    echoFields: ['partnerInvestorId'],
    idColumn: 'servicePersonId',
    holdBackChunkWithBadRow: false,
    async send(client, rows, idempotencyKey) {
      // One SDK chunk per call: the SDK derives its key from `idempotencyKey` and these rows.
      const { results } = await client.investors.create(rows as unknown as InvestorInput[], {
        idempotencyKey,
        chunkSize: rows.length,
        concurrency: 1,
      });
      return results.map((row) =>
        row.error == null
          ? { status: row.status, id: row.servicePersonId }
          : { status: 'failed', error: row.error },
      );
    },
  };
}

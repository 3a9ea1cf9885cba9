// Import investors from a CSV file: chunked requests with progress, partial success per row, and a second
// pass over the rows whose failure was temporary. Re-running the import creates nobody twice: the API
// answers a known partnerInvestorId with `existing` and the same servicePersonId.
//
//   npm exec -- tsx examples/import-investors-from-csv.ts [file.csv]   (default: examples/data/investors.csv)
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { deriveIdempotencyKey } from '@partner-equity/sdk';
import { connect } from './support/connect.js';
import { parseCsv } from './support/parse-csv.js';

async function main(): Promise<void> {
  const file = process.argv[2] ?? fileURLToPath(new URL('./data/investors.csv', import.meta.url));
  const csv = await readFile(file, 'utf8');
  // Column names are the API's field names, so each row is an investor input as it stands.
  const rows = parseCsv(csv).map((row) => ({
    partnerInvestorId: row['partnerInvestorId'] ?? '',
    email: row['email'] ?? '',
    firstName: row['firstName'] ?? '',
    lastName: row['lastName'] ?? '',
    dateOfBirth: row['dateOfBirth'] ?? '',
    countryOfResidence: row['countryOfResidence'] ?? '',
  }));
  console.log(`read ${rows.length} investors from ${file}`);

  const { client, fake, close } = await connect();
  try {
    // Against the fake: make one row fail the way a busy service fails it (retryable), to show pass 2.
    fake?.faults.failInvestorRows({ partnerInvestorId: 'inv-007' });

    const result = await client.investors.create(rows, {
      chunkSize: 5, // small to show progress; the default is 500, the API's per-request maximum
      concurrency: 2,
      // One key per file content: a crashed import re-run replays, chunk by chunk, what was already sent.
      idempotencyKey: deriveIdempotencyKey('investor-import', csv),
      onProgress: ({ done, total, succeeded, failed }) =>
        console.log(`  ${done}/${total} rows answered (${succeeded} ok, ${failed} failed)`),
    });
    for (const row of result.failed) {
      const { code, field, message, retryable } = row.error ?? {};
      console.log(
        `  ${row.partnerInvestorId}: ${code} on ${field}${retryable ? ' (retryable)' : ''}: ${message}`,
      );
    }

    if (result.retryable.length > 0) {
      console.log(`retrying ${result.retryable.length} row(s) whose failure was temporary`);
      const retry = await client.investors.create(result.retryable, {
        idempotencyKey: deriveIdempotencyKey('investor-import-retry', result.retryable),
      });
      for (const row of retry.results) console.log(`  ${row.partnerInvestorId}: ${row.status}`);
      result.succeeded.push(...retry.succeeded);
    }
    console.log(`imported ${result.succeeded.length} of ${rows.length}; fix and re-run the others`);
    for (const row of result.succeeded) console.log(`  ${row.partnerInvestorId} → ${row.servicePersonId}`);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

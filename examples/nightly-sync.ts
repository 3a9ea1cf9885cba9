// A nightly sync of investors and their subscriptions that survives a kill and retries only what is worth
// retrying. Kill it at any moment and run it again the same night: every chunk already sent is replayed by
// the API (the same idempotencyKey, so the same chunk keys), nothing is created twice, and the run carries
// on where it stopped. Against the fake it runs with a rate limit (10 requests/s) and a 64 KiB body cap in
// front of the service: the SDK waits its turn and splits chunks to fit.
//
//   npm exec -- tsx examples/nightly-sync.ts [rows]   (default 1,200 investors)
//   (against a real environment, set PE_SPV_SLUG and PE_SHARE_CLASS to an approved SPV's share class)
import type { InvestorInput, PartnerEquity, SubscriptionInput } from '@partner-equity/sdk';
import type { FakePartnerEquity } from '@partner-equity/sdk/testing';
import { connect } from './support/connect.js';
import { dealRequest } from './support/deal.js';

// Tonight's run: one key for the night. A re-run tonight replays; tomorrow's run sends tomorrow's rows.
const NIGHT = process.env['NIGHTLY_DATE'] ?? new Date().toISOString().slice(0, 10);
const RETRY_PASSES = 3;

/** Your CRM's export: investors, each with one subscription (generated here). */
function crmExport(count: number): { investor: InvestorInput; amount: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const id = String(i + 1).padStart(6, '0');
    return {
      investor: {
        partnerInvestorId: `crm-${id}`,
        email: `investor.${id}@example.com`,
        firstName: 'Ada',
        lastName: `Investor ${id}`,
        dateOfBirth: '1985-02-28',
        countryOfResidence: 'DE',
      },
      amount: `${10_000 + (i % 50) * 500}.00`,
    };
  });
}

/**
 * Sends `rows`, then sends again only the rows whose failure was transient (`result.retryable`), each pass
 * under its own key derived from the night's: under the same key the API would replay the failures for 24 h.
 * A call stopped by an error every chunk would get (401, 403, a quota: `result.error`) ends the run.
 */
async function withRetries<Row, Result extends { error?: unknown }>(
  label: string,
  rows: Row[],
  send: (rows: Row[], key: string) => Promise<{ results: Result[]; retryable: Row[]; error?: unknown }>,
): Promise<{ row: Row; result: Result }[]> {
  const answered = new Map<Row, Result>();
  let pending = rows;
  for (let pass = 0; pending.length > 0 && pass <= RETRY_PASSES; pass += 1) {
    const key = pass === 0 ? `${label}-${NIGHT}` : `${label}-${NIGHT}-retry-${pass}`;
    const result = await send(pending, key);
    if (result.error !== undefined) throw result.error;
    for (const [i, row] of pending.entries()) answered.set(row, result.results[i] as Result);
    if (result.retryable.length > 0)
      console.log(`${label}: ${result.retryable.length} row(s) failed for a moment; sending them again`);
    pending = result.retryable;
  }
  return rows.map((row) => ({ row, result: answered.get(row) as Result }));
}

async function sync(client: PartnerEquity, spvSlug: string, shareClassSlug: string, count: number) {
  const crm = crmExport(count);
  const people = await withRetries(
    'investors',
    crm.map((c) => c.investor),
    (rows, key) =>
      client.investors.create(rows, {
        idempotencyKey: key,
        onChunk: ({ index, results }) =>
          console.log(`investors: chunk ${index} answered (${results.length} rows)`),
      }),
  );
  const personOf = new Map(people.map(({ row, result }) => [row.partnerInvestorId, result.servicePersonId]));
  const failedPeople = people.filter(({ result }) => result.error != null);

  // One subscription per investor the API took; your own partnerSubscriptionId keys each one as well.
  const subscriptions: SubscriptionInput[] = crm.flatMap(({ investor, amount }) => {
    const servicePersonId = personOf.get(investor.partnerInvestorId);
    if (!servicePersonId) return [];
    const partnerSubscriptionId = `sub-${investor.partnerInvestorId}-${NIGHT}`;
    return [
      { servicePersonId, shareClassSlug, lumpSum: { currency: 'EUR', value: amount }, partnerSubscriptionId },
    ];
  });
  const subscribed = await withRetries('subscriptions', subscriptions, (rows, key) =>
    client.subscriptions.create(spvSlug, rows, {
      idempotencyKey: key,
      onChunk: ({ index, results }) =>
        console.log(`subscriptions: chunk ${index} answered (${results.length} rows)`),
    }),
  );
  const failedSubscriptions = subscribed.filter(({ result }) => result.error != null);

  // What is left needs a person: a refused row (bad data) is reported, not retried.
  for (const { row, result } of failedPeople)
    console.log(`  investor ${row.partnerInvestorId}: ${describe(result)}`);
  for (const { row, result } of failedSubscriptions)
    console.log(`  subscription ${row.partnerSubscriptionId}: ${describe(result)}`);
  console.log(
    `synced ${count - failedPeople.length} of ${count} investors and ${subscribed.length - failedSubscriptions.length} of ${subscribed.length} subscriptions`,
  );
}

const describe = (result: { error?: { code?: string; message?: string } | null | undefined }) =>
  `${result.error?.code}: ${result.error?.message}`;

/** Against the fake: an approved SPV, and one investor made to fail for a moment (to show a retry). */
async function fakeSpv(client: PartnerEquity, fake: FakePartnerEquity) {
  const request = await client.spvRequests.create(dealRequest());
  const approved = fake.admin.approveSpvRequest(request.spvRequestSlug);
  fake.faults.failInvestorRows({ partnerInvestorId: 'crm-000007' });
  return {
    spvSlug: approved.materialisedRefs!.vehicleSlug,
    shareClassSlug: approved.feesAndCarry!.shareClasses[0]!.slug,
  };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 1200);
  // The SDK's warnings (a chunk split to fit, failures a replay repeats) go to the job's log with its output.
  const log = (message: string) => console.log(`log: ${message}`);
  const logger = { debug: () => {}, info: log, warn: log, error: log };
  const { client, fake, close } = await connect({ logger }, { rateLimit: '10/s', maxBodyBytes: 64 * 1024 });
  try {
    const { PE_SPV_SLUG, PE_SHARE_CLASS } = process.env;
    const spv =
      PE_SPV_SLUG && PE_SHARE_CLASS ? { spvSlug: PE_SPV_SLUG, shareClassSlug: PE_SHARE_CLASS } : undefined;
    if (spv === undefined && fake === undefined) throw new Error('Set PE_SPV_SLUG and PE_SHARE_CLASS.');
    const { spvSlug, shareClassSlug } = spv ?? (await fakeSpv(client, fake as FakePartnerEquity));
    await sync(client, spvSlug, shareClassSlug, count);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

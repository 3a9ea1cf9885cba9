// Upload a subscription's documents: first the investor's signed subscription form, then the funding (wire)
// receipt with the amount, currency and wire reference. Files on disk are streamed, never read whole; the
// SDK checks size (10 MB) and type (PDF, JPEG, PNG, WEBP, judged by the first bytes) before sending.
//
//   npm exec -- tsx examples/upload-documents.ts
//   (against a real environment, set PE_SPV_SLUG and PE_PERSON_ID to a subscription of yours)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConflictError, InputValidationError, type PartnerEquity } from '@partner-equity/sdk';
import type { FakePartnerEquity } from '@partner-equity/sdk/testing';
import { connect } from './support/connect.js';
import { dealRequest } from './support/deal.js';
import { tinyPdf } from './support/tiny-pdf.js';

/** Against the fake: an approved SPV with one subscribed investor. Elsewhere: PE_SPV_SLUG / PE_PERSON_ID. */
async function subscription(client: PartnerEquity, fake: FakePartnerEquity | undefined) {
  if (fake === undefined) {
    const { PE_SPV_SLUG: spvSlug, PE_PERSON_ID: personId } = process.env;
    if (!spvSlug || !personId)
      throw new Error('Set PE_SPV_SLUG and PE_PERSON_ID to a subscription of yours.');
    return { spvSlug, personId };
  }
  const request = await client.spvRequests.create(dealRequest());
  const approved = fake.admin.approveSpvRequest(request.spvRequestSlug);
  const spvSlug = approved.materialisedRefs!.vehicleSlug;
  const { succeeded } = await client.investors.create([
    {
      partnerInvestorId: 'inv-ada',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1985-12-10',
      countryOfResidence: 'GB',
    },
  ]);
  const personId = succeeded[0]!.servicePersonId!;
  await client.subscriptions.create(spvSlug, [
    {
      servicePersonId: personId,
      shareClassSlug: approved.feesAndCarry!.shareClasses[0]!.slug,
      lumpSum: { currency: 'EUR', value: '25000.00' },
    },
  ]);
  return { spvSlug, personId };
}

async function main(): Promise<void> {
  const { client, fake, close } = await connect();
  const dir = await mkdtemp(join(tmpdir(), 'partner-equity-uploads-'));
  try {
    const { spvSlug, personId } = await subscription(client, fake);
    const formPath = join(dir, 'signed-form.pdf');
    await writeFile(formPath, tinyPdf('Subscription form, signed by Ada Lovelace'));
    const receipt = { amount: '25000.00', currency: 'EUR', wireReference: 'WIRE-2025-0042' };

    // A file the API would refuse costs no request: the SDK reads its first bytes and stops.
    const notes = join(dir, 'notes.txt');
    await writeFile(notes, 'not a scan');
    try {
      await client.subscriptions.uploadSignedForm(spvSlug, personId, { path: notes });
    } catch (error) {
      if (!(error instanceof InputValidationError)) throw error;
      console.log(`refused before sending: ${error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    }

    // Order matters: a receipt before the signed form is a 409 from the API.
    try {
      await client.subscriptions.uploadFundingReceipt(spvSlug, personId, {
        file: { path: formPath },
        ...receipt,
      });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      console.log(`receipt before form: ${error.status} ${error.code}: ${error.detail}`);
    }

    const form = await client.subscriptions.uploadSignedForm(spvSlug, personId, { path: formPath });
    console.log(`signed form on record: ${form.subscriptionFormUrl}`);

    // Bytes, Blobs and streams work too: here, a receipt generated in memory.
    const funded = await client.subscriptions.uploadFundingReceipt(spvSlug, personId, {
      file: tinyPdf('Wire receipt WIRE-2025-0042'),
      filename: 'wire-receipt.pdf',
      ...receipt,
    });
    console.log(`funding receipt on record: ${funded.amount} ${funded.currency} (${funded.wireReference})`);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

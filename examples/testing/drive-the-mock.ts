// Drive the fake API from another process, as a CI job drives `partner-equity mock`: review requests, list
// investors, read a snapshot and move the webhooks, with the typed admin client. The fake here is started
// in-process with its admin API on, so the example runs alone; against a running mock, pass its PE_BASE_URL
// and PE_ADMIN_TOKEN (if it printed one) to fakeAdminClient instead.
//
//   npm exec -- tsx examples/testing/drive-the-mock.ts
import { PartnerEquity } from '@partner-equity/sdk';
import { FakePartnerEquity, fakeAdminClient } from '@partner-equity/sdk/testing';
import { dealRequest } from '../support/deal.js';

const fake = new FakePartnerEquity({ adminApi: true });
const { baseUrl } = await fake.listen();
const client = new PartnerEquity(await fake.createPartner());
try {
  const admin = fakeAdminClient({ baseUrl, adminToken: process.env.PE_ADMIN_TOKEN });

  // The partner's side: an SPV request and two investors.
  const created = await client.spvRequests.create(dealRequest());
  await client.investors.create([
    {
      partnerInvestorId: 'inv-1',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1985-12-10',
      countryOfResidence: 'GB',
    },
    {
      partnerInvestorId: 'inv-2',
      email: 'alan@example.com',
      firstName: 'Alan',
      lastName: 'Turing',
      dateOfBirth: '1982-06-23',
      countryOfResidence: 'GB',
    },
  ]);

  // The reviewer's side, over HTTP.
  const pending = await admin.listSpvRequests({ status: 'pending-review' });
  console.log(`pending review: ${pending.items.map((r) => r.spvRequestSlug).join(', ')}`);
  const approved = await admin.approveSpvRequest(created.spvRequestSlug);
  console.log(`approved ${approved.spvRequestSlug}: SPV ${approved.materialisedRefs?.vehicleSlug}`);

  const persons = await admin.listPersons();
  for (const person of persons.items) {
    console.log(`investor ${person.partnerInvestorId} → ${person.id}, created ${person.createdAt}`);
  }

  // Webhooks to a receiver of yours, with a secret you hold (generated here when none is given).
  const target = await admin.setWebhookTarget({ url: 'http://127.0.0.1:9/webhooks' });
  console.log(
    `webhooks go to ${target.endpoints[0]?.url} (${target.scheme}); secret shown once: ${target.secret !== undefined}`,
  );
  await admin.setWebhookTarget({ url: null });

  const snapshot = await admin.snapshot();
  console.log(
    `snapshot: ${snapshot.spvRequests.length} SPV request(s), ${snapshot.spvs.length} SPV(s), ${snapshot.persons.length} person(s)`,
  );
} finally {
  await client.close();
  await fake.close();
}

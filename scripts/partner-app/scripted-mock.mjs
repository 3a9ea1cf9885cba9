// A partner's CI script, written against the installed package only: start `partner-equity mock` as a child
// process with no terminal (stdin ignored) and PE_WEBHOOK_SECRET set, register a key generated here, create
// an SPV request that the mock approves by itself, import investors, subscribe one, upload the signed form,
// and check the result over the mock's admin API with the typed client: investors listed, a snapshot read,
// the webhook target and secret changed while it runs. Node's assert; exits non-zero on the first surprise.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKeyPair, PartnerEquity } from '@partner-equity/sdk';
import { fakeAdminClient } from '@partner-equity/sdk/testing';
import { Webhook } from '@partner-equity/sdk/webhooks';

const app = dirname(fileURLToPath(import.meta.url));
const bin = join(app, 'node_modules', '.bin', 'partner-equity');
const keys = await generateKeyPair();
const FIRST_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SECOND_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';

/** A webhook receiver on a free port that keeps every delivery; `until(n)` resolves at the n-th. */
async function receiver() {
  const received = [];
  const waiters = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
      for (const waiter of waiters) if (received.length >= waiter.count) waiter.resolve();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/webhooks`,
    received,
    until: (count) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
const firstHooks = await receiver();
const secondHooks = await receiver();

// The bin's `#!/usr/bin/env node` finds the Node running this script first on PATH, as `npx` would.
const mock = spawn(
  bin,
  [
    'mock',
    '--port',
    '0',
    '--client-id',
    'client_app',
    '--issuer',
    'https://app.example',
    '--public-key',
    JSON.stringify(keys.publicKeyJwk),
    '--auto-approve',
    '--webhook-url',
    firstHooks.url,
  ],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
      PE_WEBHOOK_SECRET: FIRST_SECRET,
    },
  },
);
let stdout = '';
let stderr = '';
mock.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
mock.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
const exited = new Promise((resolve) => mock.once('close', resolve));

try {
  const baseUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`mock not ready in 20 s:\n${stdout}\n${stderr}`)),
      20_000,
    );
    const check = () => {
      const match = /^export PE_BASE_URL=(\S+)$/m.exec(stdout);
      if (match && stdout.includes('Admin API')) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    mock.stdout.on('data', check);
    exited.then((code) => reject(new Error(`mock exited (${code}):\n${stdout}\n${stderr}`)));
  });
  assert.match(stdout, /^export PE_CLIENT_ID=client_app$/m);
  assert.doesNotMatch(stdout, /^export PE_PRIVATE_KEY_FILE=/m); // it never saw our private key
  assert.ok(!stdout.includes(FIRST_SECRET), 'a secret we gave is not printed back');
  const admin = fakeAdminClient({ baseUrl });

  const client = new PartnerEquity({
    baseUrl,
    clientId: 'client_app',
    issuer: 'https://app.example',
    privateKey: keys.privateKeyPem,
    logLevel: 'off',
  });
  const { latest } = await client.contracts.versions();
  const sample = await client.contracts.samples.get(latest, 'spv-standard-minimal');
  const created = await client.spvRequests.create({
    templateId: sample.templateId,
    attributes: sample.payload.attributes,
  });
  assert.equal(created.status, 'pending-review');
  const approved = await client.spvRequests.get(created.spvRequestSlug);
  assert.equal(approved.status, 'approved', 'auto-approved by the mock');
  const spvSlug = approved.materialisedRefs.vehicleSlug;

  const imported = await client.investors.create(
    ['ada', 'grace', 'edsger'].map((name, i) => ({
      partnerInvestorId: `app-${name}`,
      email: `${name}@example.com`,
      firstName: name,
      lastName: 'Investor',
      dateOfBirth: `198${i}-01-15`,
      countryOfResidence: 'GB',
    })),
  );
  assert.equal(imported.succeeded.length, 3);
  const personId = imported.succeeded[0].servicePersonId;
  await client.subscriptions.create(spvSlug, [
    {
      servicePersonId: personId,
      shareClassSlug: approved.feesAndCarry.shareClasses[0].slug,
      lumpSum: { currency: 'EUR', value: '25000.00' },
      partnerSubscriptionId: 'app-sub-1',
    },
  ]);
  const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
  const form = await client.subscriptions.uploadSignedForm(spvSlug, personId, pdf, {
    filename: 'signed-form.pdf',
  });
  assert.equal(form.personId, personId);
  assert.match(form.subscriptionFormUrl, /^http:\/\/127\.0\.0\.1:\d+\//);

  // The back office's view, over HTTP, typed.
  const requests = await admin.listSpvRequests({ clientId: 'client_app' });
  assert.equal(requests.total, 1);
  assert.deepEqual(requests.byStatus, { approved: 1 });
  const subscriptions = await admin.listSubscriptions({ spvSlug });
  assert.equal(subscriptions.total, 1);
  assert.equal(subscriptions.items[0].status, 'awaiting-funding');
  assert.match(subscriptions.items[0].form.uploadedAt, /^\d{4}-\d\d-\d\dT/, 'the signed form, ISO-dated');
  const investors = await admin.listPersons({ clientId: 'client_app' });
  assert.deepEqual(investors.items.map((person) => person.partnerInvestorId).sort(), [
    'app-ada',
    'app-edsger',
    'app-grace',
  ]);
  const snapshot = await admin.snapshot();
  assert.equal(snapshot.persons.length, 3);
  assert.equal(snapshot.subscriptions[0].personId, personId);
  assert.match(snapshot.persons[0].createdAt, /^\d{4}-\d\d-\d\dT.*Z$/);

  // Webhooks: the first receiver got the events, signed with PE_WEBHOOK_SECRET; then target and secret move.
  // Each delivery is a request of its own, so they may arrive in any order: every one up to the
  // `spv_request.created` event must verify with the first secret.
  const firstVerifier = new Webhook({ secret: FIRST_SECRET });
  for (let n = 1; ; n += 1) {
    await firstHooks.until(n);
    const delivery = firstHooks.received[n - 1];
    if ((await firstVerifier.verify(delivery.body, delivery.headers)).type === 'spv_request.created') break;
  }
  const moved = await admin.setWebhookTarget({ url: secondHooks.url, secret: SECOND_SECRET });
  assert.deepEqual(
    moved.endpoints.map((endpoint) => endpoint.url),
    [secondHooks.url],
  );
  assert.equal(moved.secret, undefined, 'a secret we gave is not echoed');
  await client.spvRequests.create({ templateId: sample.templateId, attributes: sample.payload.attributes });
  await secondHooks.until(2); // spv_request.created, then the auto-approval's spv_request.completed
  for (const delivery of secondHooks.received) {
    await new Webhook({ secret: SECOND_SECRET }).verify(delivery.body, delivery.headers);
  }

  // A second key, registered over the admin API, gets a token too.
  const second = await generateKeyPair();
  const registered = await admin.registerClient({
    clientId: 'client_app_2',
    issuer: 'https://two.example',
    publicKey: second.publicKeyPem,
  });
  assert.equal(registered.provisioned, true);
  const other = new PartnerEquity({
    baseUrl,
    clientId: 'client_app_2',
    issuer: 'https://two.example',
    privateKey: second.privateKeyPem,
    logLevel: 'off',
  });
  assert.equal((await other.oauth.info()).clientId, 'client_app_2');
  await Promise.all([client.close(), other.close()]);
} finally {
  mock.kill('SIGTERM');
  await Promise.all([firstHooks.close(), secondHooks.close()]);
}
assert.equal(await exited, 0, `the mock ends cleanly on SIGTERM:\n${stderr}`);
assert.equal(stderr, '');
console.log(
  `ok partner app on Node ${process.version}: mock scripted without a TTY (key, auto-approve, investors, form; typed admin client: investors, snapshot, webhook target and secret moved)`,
);

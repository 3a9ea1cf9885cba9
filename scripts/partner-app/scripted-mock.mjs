// A partner's CI script, written against the installed package only: start `partner-equity mock` as a child
// process with no terminal (stdin ignored), register a key generated here, create an SPV request that the
// mock approves by itself, import investors, subscribe one, upload the signed form, and check the result
// over the mock's admin API. Node's assert; exits non-zero on the first surprise.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKeyPair, PartnerEquity } from '@partner-equity/sdk';

const app = dirname(fileURLToPath(import.meta.url));
const bin = join(app, 'node_modules', '.bin', 'partner-equity');
const keys = await generateKeyPair();

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
  ],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
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
  const admin = async (path, init) => {
    const response = await fetch(`${baseUrl}/__admin${path}`, init);
    return { status: response.status, body: await response.json() };
  };

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

  // The back office's view, over HTTP.
  const requests = await admin('/spv-requests?clientId=client_app');
  assert.equal(requests.body.total, 1);
  assert.deepEqual(requests.body.byStatus, { approved: 1 });
  const subscriptions = await admin(`/subscriptions?spvSlug=${spvSlug}`);
  assert.equal(subscriptions.body.total, 1);
  assert.equal(subscriptions.body.items[0].status, 'awaiting-funding');
  assert.ok(subscriptions.body.items[0].form, 'the signed form is on record');

  // A second key, registered over the admin API, gets a token too.
  const second = await generateKeyPair();
  const registered = await admin('/clients', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      clientId: 'client_app_2',
      issuer: 'https://two.example',
      publicKey: second.publicKeyPem,
    }),
  });
  assert.equal(registered.status, 201);
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
}
assert.equal(await exited, 0, `the mock ends cleanly on SIGTERM:\n${stderr}`);
assert.equal(stderr, '');
console.log(
  `ok partner app on Node ${process.version}: mock scripted without a TTY (key, auto-approve, investors, form)`,
);

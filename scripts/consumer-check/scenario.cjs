// What a partner's first script does, run against a tiny loopback API: generate a key, build a client,
// exchange an EdDSA assertion for a token (jose + undici + zod from the installed tree), call a bearer
// route and a public one, map an error status to its typed error, upload a file from disk (through the
// default transport and through `fetch`: the bytes that arrive are compared), and sign + verify a webhook.
// Shared by esm.mjs and cjs.cjs, which pass in the modules as their module system loaded them.
const assert = require('node:assert/strict');
const { createServer } = require('node:http');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

async function run(sdk, webhooks, testing, label) {
  const { PartnerEquity, generateKeyPair, NotFoundError, InputValidationError, VERSION } = sdk;
  const seen = [];
  const uploads = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => {
      chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1');
      seen.push(`${req.method} ${req.url}`);
      const json = (status, value) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url === '/v1/oauth2/tokens') {
        const form = new URLSearchParams(body);
        assert.equal(form.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
        assert.equal(form.get('assertion')?.split('.').length, 3);
        return json(201, {
          accessToken: 'consumer-access',
          refreshToken: 'consumer-refresh',
          tokenType: 'Bearer',
          expiresIn: 3600,
          refreshExpiresIn: 2592000,
        });
      }
      if (req.url === '/v1/oauth2/info') {
        assert.equal(req.headers.authorization, 'Bearer consumer-access');
        const now = Date.now();
        return json(200, {
          clientId: 'client_consumer',
          clientType: 'partner',
          applicationName: 'Consumer check',
          issuedAt: new Date(now).toISOString(),
          expiresAt: new Date(now + 3_600_000).toISOString(),
        });
      }
      if (req.url === '/public/hc') return json(200, { status: 'ok', checkedAt: new Date().toISOString() });
      if (req.url === '/v1/spvs/spv_1/subscription/per_1/forms') {
        uploads.push({ length: Number(req.headers['content-length']), body });
        return json(201, {
          subscriptionSlug: 'sub_1',
          spvSlug: 'spv_1',
          personId: 'per_1',
          subscriptionFormUrl: '/files/form.pdf',
          uploadedAt: new Date().toISOString(),
        });
      }
      return json(404, { code: 'not_found', detail: 'nothing here', errorId: 'err_1', validationErrors: [] });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  try {
    assert.match(VERSION, /^\d+\.\d+\.\d+/);
    const keys = await generateKeyPair();
    const options = {
      baseUrl,
      clientId: 'client_consumer',
      issuer: 'https://partner.example',
      privateKey: keys.privateKeyPem,
      maxRetries: 0,
      logLevel: 'off',
    };
    const client = new PartnerEquity(options);
    const info = await client.oauth.info();
    assert.equal(info.clientId, 'client_consumer');
    const health = await client.system.health();
    assert.equal(health.status, 'ok');
    await assert.rejects(
      client.system.openapi(),
      (error) => error instanceof NotFoundError && error.status === 404,
    );
    assert.throws(() => new PartnerEquity({ baseUrl: 42 }), InputValidationError);
    // A signed form from disk, through the default transport and through `fetch`: every byte must arrive
    // (Bun 1.4's Blob once dropped a file read with fs.openAsBlob, and fetch sent an empty file part).
    const dir = mkdtempSync(join(tmpdir(), 'consumer-upload-'));
    try {
      const form = Buffer.concat([
        Buffer.from('%PDF-1.7\n'),
        Buffer.alloc(40_000, 0x2e),
        Buffer.from('%%EOF'),
      ]);
      const path = join(dir, 'signed.pdf');
      writeFileSync(path, form);
      const viaFetch = new PartnerEquity({ ...options, fetch: globalThis.fetch });
      for (const uploader of [client, viaFetch]) {
        await uploader.subscriptions.uploadSignedForm('spv_1', 'per_1', { path });
      }
      await viaFetch.close();
      assert.equal(uploads.length, 2);
      for (const upload of uploads) {
        assert.ok(upload.body.includes(form.toString('latin1')), 'the file arrived whole');
        assert.equal(upload.body.length, upload.length);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await client.close();

    const secret = `whsec_${Buffer.from('consumer-check-secret-32-bytes!!').toString('base64')}`;
    const webhook = new webhooks.Webhook({ secret });
    const payload = JSON.stringify({
      type: 'consumer.checked',
      timestamp: new Date().toISOString(),
      data: {},
    });
    const event = await webhook.verify(payload, await webhook.sign({ payload }));
    assert.equal(event.type, 'consumer.checked');
    assert.deepEqual(seen, [
      'POST /v1/oauth2/tokens',
      'GET /v1/oauth2/info',
      'GET /public/hc',
      'GET /openapi.json',
      'POST /v1/spvs/spv_1/subscription/per_1/forms',
      'POST /v1/oauth2/tokens',
      'POST /v1/spvs/spv_1/subscription/per_1/forms',
    ]);
  } finally {
    server.close();
  }

  // A partner's own test: the fake API from the testing entry (msw is its optional peer dependency).
  const fake = new testing.FakePartnerEquity();
  await fake.listen();
  const partner = await fake.createPartner();
  const client = new PartnerEquity({ ...partner, logLevel: 'off' });
  try {
    assert.equal((await client.oauth.info()).clientId, partner.clientId);
    const { latest } = await client.contracts.versions();
    assert.equal(typeof latest, 'string');
    assert.ok(!JSON.stringify(partner).includes('PRIVATE KEY'));
    // The doctor's code is a chunk of its own, loaded on first use: it must load from this build as well.
    const report = await client.doctor();
    assert.ok(report.ok, report.checks.map((check) => `${check.status} ${check.title}`).join('\n'));
  } finally {
    await client.close();
    await fake.close();
  }
  console.log(`ok ${label} on ${runtimeName()}`);
}

/** The runtime running this script (Bun and Deno also answer `process.version`, with a Node version). */
function runtimeName() {
  if (process.versions.bun) return `Bun ${process.versions.bun}`;
  if (globalThis.Deno) return `Deno ${globalThis.Deno.version.deno}`;
  return `Node ${process.version}`;
}

module.exports = { run, runtimeName };

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followWallClock } from '../../src/cli/follow-wall-clock.js';
import { sdkOpenApiDocument } from '../../src/doctor/openapi/sdk-openapi-document.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { createNodeHandler, Webhook, WebhookReceiver } from '../../src/webhooks/index.node.js';
import { runCli } from './cli-process.js';

let fake: FakePartnerEquity;
let dir: string;
let env: Record<string, string>;
let stopClock: () => void;
beforeAll(async () => {
  fake = new FakePartnerEquity();
  // As `partner-equity mock` runs it: the fake's clock follows the wall clock the command's process reads.
  await fake.clock.advance(Date.now() - fake.clock.now());
  stopClock = followWallClock(fake.clock);
  await fake.listen();
  const partner = await fake.createPartner();
  dir = await mkdtemp(join(tmpdir(), 'pe-doctor-'));
  const keyFile = join(dir, 'key.pem');
  await writeFile(keyFile, partner.privateKey, { mode: 0o600 });
  env = {
    // The test runner's own mode must not decide what the command prints.
    PARTNER_EQUITY_RESPONSE_VALIDATION: '',
    PE_BASE_URL: partner.baseUrl,
    PE_CLIENT_ID: partner.clientId,
    PE_ISSUER: partner.issuer,
    PE_PRIVATE_KEY_FILE: keyFile,
  };
});
afterAll(async () => {
  stopClock();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe.concurrent('partner-equity doctor', () => {
  it('against the fake: every check ok, exit 0, the report on stdout and nothing on stderr', async () => {
    const { status, stdout, stderr } = await runCli(['doctor'], { env });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toMatch(
      new RegExp(`^Partner Equity doctor: ${env['PE_BASE_URL']} \\(responseValidation: warn\\)\\n`),
    );
    for (const group of ['Connection', 'Authentication', 'Contracts', 'OpenAPI description', 'Webhooks']) {
      expect(stdout).toContain(`\n${group}\n`);
    }
    expect(stdout).not.toContain('\u001b['); // no colours off a TTY
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(
      'Nothing would fail: 8 ok, 1 skipped. Nothing was written on the service.',
    );
  });

  it('--json: the report as JSON', async () => {
    const { status, stdout } = await runCli(
      ['doctor', '--json', '--only', 'connection', '--only', 'openapi'],
      { env },
    );
    expect(status).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      ok: true,
      status: 'ok',
      baseUrl: env['PE_BASE_URL'],
      responseValidation: 'warn',
    });
    expect(report.checks.map((c: { id: string; status: string }) => `${c.status} ${c.id}`)).toEqual([
      'ok reachability',
      'ok tls',
      'ok server-clock',
      'ok openapi',
    ]);
  });

  it('exit 1 when something would fail: the wrong aud is explained', async () => {
    const { status, stdout } = await runCli(['doctor', '--base-url', `${env['PE_BASE_URL']}/`], { env });
    expect(status).toBe(1);
    expect(stdout).toContain(
      `  FAILS    Token exchange: wrong aud: the service takes aud "${env['PE_BASE_URL']}"`,
    );
    expect(stdout).toContain(
      `           fix: Set baseUrl to ${env['PE_BASE_URL']} (exactly: the SDK sends it as the JWT aud)`,
    );
    expect(stdout).toMatch(/Something would fail: 1 failing, .*\. Nothing was written on the service\.\n$/);
  });

  it('exit 1 for a planted --openapi-file; --response-validation strict makes a nullable field fail', async ({
    onTestFinished,
  }) => {
    const doc = sdkOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const get = doc.paths['/v1/spv-requests/{slug}'] as Record<string, unknown>;
    doc.paths['/v1/spv-request/{slug}'] = get;
    delete doc.paths['/v1/spv-requests/{slug}'];
    const file = join(dir, `planted-${randomBytes(4).toString('hex')}.json`);
    await writeFile(file, JSON.stringify(doc));
    onTestFinished(() => rm(file));
    const { status, stdout } = await runCli(['doctor', '--only', 'openapi', '--openapi-file', file], { env });
    expect(status).toBe(1);
    expect(stdout).toContain('           GET /v1/spv-requests/{slug}  (client.spvRequests.get())');
    expect(stdout).toContain(
      '             fails     operation: this service does not describe GET /v1/spv-requests/{slug}: client.spvRequests.get() would get 404 or 405 (it describes GET /v1/spv-request/{slug}: renamed?)',
    );
  });

  it('--webhook-url with the secret from the environment: the endpoint is probed', async ({
    onTestFinished,
  }) => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const handler = createNodeHandler(
      new WebhookReceiver(new Webhook({ secret }), { logger: { warn() {}, error() {} } }),
    );
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    const { status, stdout } = await runCli(['doctor', '--only', 'webhooks', '--webhook-url', url], {
      env: { PE_WEBHOOK_SECRET: secret, PARTNER_EQUITY_RESPONSE_VALIDATION: '' },
    });
    expect(stdout).toMatch(
      /^Partner Equity doctor: webhook endpoint\n\nWebhooks\n {2}ok {7}Webhook endpoint: 127\.0\.0\.1:\d+ acknowledged/,
    );
    expect(stdout).not.toContain(secret);
    expect(status).toBe(0);
  });

  it('usage errors exit 2 in one line: unknown group or mode, a secret on argv, a missing base URL or key', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ['doctor', '--only', 'nonsense'],
        env,
        /--only 'nonsense': expected one of connection, authentication/,
      ],
      [['doctor', '--response-validation', 'maybe'], env, /expected strict, warn or off/],
      [['doctor', '--secret', 'whsec_x'], env, /unknown option '--secret'/],
      [['doctor'], {}, /missing --base-url \(PE_BASE_URL\)/],
      [
        ['doctor'],
        { PE_BASE_URL: 'http://127.0.0.1:9', PE_CLIENT_ID: 'c' },
        /missing --issuer \(PE_ISSUER\), --private-key-file/,
      ],
    ];
    for (const [args, withEnv, pattern] of cases) {
      const { status, stdout, stderr } = await runCli(args, { env: withEnv });
      expect(status, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(pattern);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('--help says that nothing is written on the service', async () => {
    const { status, stdout } = await runCli(['doctor', '--help']);
    expect(status).toBe(0);
    expect(stdout).toContain('Nothing the doctor does writes data on the service');
    expect(stdout).toContain(
      'Exit status: 0 when nothing would fail, 1 when something would, 2 for a usage error.',
    );
    expect(stdout).not.toContain('--secret <');
  });

  it('--help lists every environment variable the doctor reads (PE_WEBHOOK_SECRET was missing)', async () => {
    const { stdout } = await runCli(['doctor', '--help']);
    const listed = stdout.slice(stdout.indexOf('\nEnvironment:\n'));
    for (const name of [
      'PE_BASE_URL',
      'PE_CLIENT_ID',
      'PE_ISSUER',
      'PE_PRIVATE_KEY_FILE',
      'PE_KEY_ID',
      'PE_WEBHOOK_URL',
      'PE_WEBHOOK_SECRET',
      'PE_WEBHOOK_SECRET_FILE',
      'PE_WEBHOOK_SCHEME',
      'PARTNER_EQUITY_RESPONSE_VALIDATION',
      'PARTNER_EQUITY_LOG',
      'NO_COLOR',
    ]) {
      expect(listed, name).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    }
  });

  it('a malformed $ref in --openapi-file: exit 1 with the report, not a crash', async ({
    onTestFinished,
  }) => {
    const doc = sdkOpenApiDocument() as { paths: Record<string, Record<string, { responses: unknown }>> };
    doc.paths['/v1/spv-requests']!['get']!.responses = { '200': { $ref: '#/components/responses/%E0%A4%A' } };
    const file = join(dir, `malformed-${randomBytes(4).toString('hex')}.json`);
    await writeFile(file, JSON.stringify(doc));
    onTestFinished(() => rm(file));
    const { status, stdout, stderr } = await runCli(['doctor', '--only', 'openapi', '--openapi-file', file], {
      env,
    });
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(stdout).toContain('is not a valid JSON pointer; nothing compared');
  });
});

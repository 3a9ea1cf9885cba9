// Issue 16 #4: the secret never has to be on argv (--secret-file, PE_WEBHOOK_SECRET_FILE). Issue 13: the
// webhook commands take the same scheme as Webhook and the fake (--scheme preset, JSON or file).
import { createHash, createHmac } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedEvent } from '../webhooks/fixtures.js';
import { REFERENCE_SIGNERS } from '../webhooks/reference-signers.js';
import { runCli } from './cli-process.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_c2Vjb25kLXNlY3JldC1mb3Itcm90YXRpb24tdGVzdHM=';
const RAW = 'pe-raw-secret-0123456789abcdef';
const body = JSON.stringify(completedEvent);
const now = () => Math.floor(Date.now() / 1000);
let dir: string;

async function secretFile(name: string, content: string, mode = 0o600): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, content);
  await chmod(file, mode);
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pe-webhook-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.concurrent('--secret-file and PE_WEBHOOK_SECRET_FILE', () => {
  it('signs with the secret read from a 0600 file, saying nothing on stderr', async () => {
    const file = await secretFile('one', `${SECRET}\n`);
    const { status, stdout, stderr } = await runCli(['webhooks', 'sign', '--secret-file', file, '--json'], {
      input: body,
    });
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(new StandardWebhook(SECRET).verify(body, JSON.parse(stdout))).toMatchObject({
      type: completedEvent.type,
    });
  });

  it('reads one secret per line for a rotation, from the file PE_WEBHOOK_SECRET_FILE names', async () => {
    const file = await secretFile('rotation', `  ${OTHER}\r\n\n${SECRET}  \n`);
    const id = 'msg_rotation';
    const timestamp = now();
    const signature = new StandardWebhook(SECRET).sign(id, new Date(timestamp * 1000), body);
    const { status, stderr } = await runCli(
      ['webhooks', 'verify', '--id', id, '--timestamp', String(timestamp), '--signature', signature],
      { input: body, env: { PE_WEBHOOK_SECRET_FILE: file } },
    );
    expect(stderr).toBe(`Valid: spv_request.completed (id ${id}, secret #2 matched)\n`);
    expect(status).toBe(0);
  });

  it('warns about a file other users can read, and refuses a missing, empty or doubled source', async () => {
    const open = await secretFile('open', SECRET, 0o644);
    const warned = await runCli(['webhooks', 'sign', '--secret-file', open, '--body', '{}']);
    expect(warned.status).toBe(0);
    expect(warned.stderr).toBe(
      `warning: the secret file '${open}' is readable by other users (mode 0644): chmod 600 it\n`,
    );
    const missing = await runCli(['webhooks', 'sign', '--secret-file', join(dir, 'nope'), '--body', '{}']);
    expect(missing).toMatchObject({ status: 1 });
    expect(missing.stderr).toMatch(
      /^partner-equity webhooks sign: cannot read the secret file '.*nope' \(ENOENT\)\n$/,
    );
    const empty = await secretFile('empty', '\n\n');
    const none = await runCli(['webhooks', 'sign', '--secret-file', empty, '--body', '{}']);
    expect(none.stderr).toMatch(/holds no secret\n$/);
    const both = await runCli([
      'webhooks',
      'sign',
      '--secret',
      SECRET,
      '--secret-file',
      open,
      '--body',
      '{}',
    ]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/give --secret or --secret-file, not both/);
  });
});

describe.concurrent('--scheme', () => {
  it('signs in a preset exactly as its reference signer, and verifies what it signed', async () => {
    const file = await secretFile('raw', RAW);
    const timestamp = String(now());
    const signed = await runCli(
      ['webhooks', 'sign', '--scheme', 'stripe', '--secret-file', file, '--timestamp', timestamp, '--json'],
      { input: body },
    );
    expect(signed.status).toBe(0);
    const headers = JSON.parse(signed.stdout) as Record<string, string>;
    expect(headers).toEqual(
      REFERENCE_SIGNERS.stripe({ secret: RAW, id: '', timestamp: Number(timestamp), body }),
    );
    const verified = await runCli(
      ['webhooks', 'verify', '--secret-file', file, '--signature', headers['stripe-signature']!],
      { input: body, env: { PE_WEBHOOK_SCHEME: 'stripe' } },
    );
    expect(verified.stderr).toMatch(
      /^Valid: spv_request\.completed \(id sha256:[0-9a-f]{64}, secret #1 matched\)\n$/,
    );
    const noId = await runCli(['webhooks', 'verify', '--scheme', 'stripe', '--id', 'x', '--signature', 'y'], {
      input: body,
      env: { PE_WEBHOOK_SECRET: RAW },
    });
    expect(noId.status).toBe(2);
    expect(noId.stderr).toMatch(/the stripe scheme has no id header/);
  });

  it('takes a JSON description inline or from a file; its headers are what --signature fills', async () => {
    const description = JSON.stringify({ preset: 'github', signatureHeader: 'X-PE-Signature' });
    const schemeFile = join(dir, 'scheme.json');
    await writeFile(schemeFile, description);
    const env = { PE_WEBHOOK_SECRET: RAW };
    const signed = await runCli(
      ['webhooks', 'sign', '--scheme', description, '--id', 'gh-1', '--body', body],
      { env },
    );
    expect(signed.stdout).toBe(
      `x-github-delivery: gh-1\nx-pe-signature: ${REFERENCE_SIGNERS.github({ secret: RAW, id: 'gh-1', timestamp: 0, body })['x-hub-signature-256']}\n`,
    );
    const signature = signed.stdout.split('\n')[1]!.slice('x-pe-signature: '.length);
    const verified = await runCli(
      [
        'webhooks',
        'verify',
        '--scheme',
        schemeFile,
        '--id',
        'gh-1',
        '--signature',
        signature,
        '--body',
        body,
      ],
      { env },
    );
    expect(verified.status).toBe(0);
    // GitHub signs no id, so the id to de-duplicate on is the signed body's SHA-256.
    expect(verified.stderr).toBe(
      `Valid: spv_request.completed (id sha256:${createHash('sha256').update(body).digest('hex')}, secret #1 matched)\n`,
    );
  });

  it('takes a signed-content template in a description, and refuses one without {body}', async () => {
    // Slack's published example: "v0=" + hex HMAC-SHA256 of "v0:{timestamp}:{body}" with the raw secret.
    const slack = { preset: 'github', idHeader: null, timestampHeader: 'x-slack-request-timestamp' };
    const scheme = (signedContent: string) =>
      JSON.stringify({
        ...slack,
        signatureHeader: 'x-slack-signature',
        signaturePrefix: 'v0=',
        signedContent,
      });
    const env = { PE_WEBHOOK_SECRET: '8f742231b10e8888abcd99yyyzzz85a5' };
    const args = ['--timestamp', '1531420618', '--body', 'token=x&text=', '--json'];
    const signed = await runCli(['webhooks', 'sign', '--scheme', scheme('v0:{timestamp}:{body}'), ...args], {
      env,
    });
    expect(signed.stderr).toBe('');
    expect(JSON.parse(signed.stdout)).toEqual({
      'x-slack-request-timestamp': '1531420618',
      'x-slack-signature': `v0=${createHmac('sha256', env.PE_WEBHOOK_SECRET).update('v0:1531420618:token=x&text=').digest('hex')}`,
    });
    const refused = await runCli(['webhooks', 'sign', '--scheme', scheme('v0:{timestamp}'), ...args], {
      env,
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /--scheme: Invalid webhook scheme: signedContent 'v0:\{timestamp\}' names no \{body\}/,
    );
  });

  it('refuses an unknown preset, bad JSON and a bad description as usage errors naming the problem', async () => {
    const env = { PE_WEBHOOK_SECRET: SECRET };
    const cases: [string, RegExp][] = [
      [
        'stripey',
        /--scheme 'stripey' is neither a preset \(standard-webhooks, stripe, github, shopify\) nor a readable JSON file/,
      ],
      ['{"preset":', /the --scheme JSON is not valid JSON/],
      [
        '{"preset":"stripe","signatureEncoding":"b32"}',
        /--scheme: Invalid webhook scheme: signatureEncoding must be one of 'base64', 'hex'/,
      ],
    ];
    for (const [scheme, message] of cases) {
      const { status, stderr } = await runCli(['webhooks', 'sign', '--scheme', scheme, '--body', '{}'], {
        env,
      });
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
    }
  });

  it('verifies a body outside the envelope and says how it read it', async () => {
    const id = 'msg_text';
    const timestamp = now();
    const text = 'not json at all';
    const signature = new StandardWebhook(SECRET).sign(id, new Date(timestamp * 1000), text);
    const { status, stdout, stderr } = await runCli(
      [
        'webhooks',
        'verify',
        '--id',
        id,
        '--timestamp',
        String(timestamp),
        '--signature',
        signature,
        '--body',
        text,
      ],
      { env: { PE_WEBHOOK_SECRET: SECRET } },
    );
    expect(status).toBe(0);
    expect(stderr).toBe(
      `Valid: a body outside the envelope (the body is not JSON) (id ${id}, secret #1 matched)\n`,
    );
    expect(JSON.parse(stdout)).toMatchObject({ recognised: false, text, webhookId: id });
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { completedEvent } from '../webhooks/fixtures.js';
import { REFERENCE_SIGNERS } from '../webhooks/reference-signers.js';
import { startCli } from './cli-process.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const RAW = 'pe-raw-secret-0123456789abcdef';

async function deliver(url: string, payload: string, secret = SECRET, id = `msg_${crypto.randomUUID()}`) {
  const headers = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': new StandardWebhook(secret).sign(id, new Date(), payload),
  };
  const response = await fetch(url, { method: 'POST', headers, body: payload });
  return { status: response.status, id };
}

describe('partner-equity webhooks listen', () => {
  it('answers 204 to verified deliveries (each one printed as a JSON line), 400 to forged ones, stops on SIGTERM', async ({
    onTestFinished,
  }) => {
    const cli = startCli(['webhooks', 'listen', '--port', '0', '--path', '/hooks'], {
      env: { PE_WEBHOOK_SECRET: SECRET },
    });
    onTestFinished(async () => {
      await cli.stop();
    });
    const [, origin] = await cli.waitFor(/Listening for webhooks on (http:\/\/127\.0\.0\.1:\d+)\/hooks/);
    const payload = JSON.stringify(completedEvent);

    const first = await deliver(`${origin}/hooks`, payload);
    expect(first.status).toBe(204);
    // A retry of the same message is shown again: a debugging receiver de-duplicates nothing.
    expect((await deliver(`${origin}/hooks`, payload, SECRET, first.id)).status).toBe(204);
    await cli.waitFor(new RegExp(`(.*${first.id}.*\\n){2}`), 'stdout');
    const lines = cli
      .stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      type: 'spv_request.completed',
      webhookId: first.id,
      data: completedEvent.data,
    });
    expect(cli.stderr()).toMatch(new RegExp(`spv_request\\.completed  ${first.id}`));

    const forged = await deliver(
      `${origin}/hooks`,
      payload,
      'whsec_c2Vjb25kLXNlY3JldC1mb3Itcm90YXRpb24tdGVzdHM=',
    );
    expect(forged.status).toBe(400);
    await cli.waitFor(/refused \(no_matching_signature\): No webhook signature matches/);
    expect((await fetch(`${origin}/elsewhere`, { method: 'POST', body: payload })).status).toBe(404);
    expect(cli.stdout().trimEnd().split('\n')).toHaveLength(2);

    expect(await cli.stop()).toBe(0);
  });

  it('takes --secret-file and --scheme, acknowledges a body outside the envelope, explains a stale authentic one', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pe-listen-'));
    const secretFile = join(dir, 'secret');
    await writeFile(secretFile, `${RAW}\n`, { mode: 0o600 });
    const cli = startCli([
      'webhooks',
      'listen',
      '--port',
      '0',
      '--scheme',
      'stripe',
      '--secret-file',
      secretFile,
    ]);
    onTestFinished(async () => {
      await cli.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const [, origin] = await cli.waitFor(/Listening for webhooks on (http:\/\/127\.0\.0\.1:\d+)\//);
    const send = async (payload: string, timestamp: number) => {
      const headers = REFERENCE_SIGNERS.stripe({ secret: RAW, id: '', timestamp, body: payload });
      return (await fetch(`${origin}/`, { method: 'POST', headers, body: payload })).status;
    };
    const nowS = Math.floor(Date.now() / 1000);
    expect(await send('plain text, signed', nowS)).toBe(204);
    await cli.waitFor(/"recognised":false/, 'stdout');
    expect(JSON.parse(cli.stdout().trimEnd())).toMatchObject({
      text: 'plain text, signed',
      problem: 'the body is not JSON',
    });
    await cli.waitFor(/is not a \{ type, timestamp, data \} envelope \(the body is not JSON\)/, 'stderr');
    expect(await send(JSON.stringify(completedEvent), nowS - 400)).toBe(400);
    await cli.waitFor(
      /Refused an authentic webhook \(timestamp_too_old\): Webhook timestamp is 40\d s old/,
      'stderr',
    );
    expect(cli.stderr()).not.toContain('refused (timestamp_too_old)'); // told once, by the receiver's warning
    expect(cli.stderr()).not.toContain(RAW);
    expect(await cli.stop()).toBe(0);
  });

  it('reports a port in use in one line, exit 1', async ({ onTestFinished }) => {
    const first = startCli(['webhooks', 'listen', '--port', '0'], { env: { PE_WEBHOOK_SECRET: SECRET } });
    onTestFinished(async () => {
      await first.stop();
    });
    const [, port] = await first.waitFor(/http:\/\/127\.0\.0\.1:(\d+)/);
    const second = startCli(['webhooks', 'listen', '--port', port!], { env: { PE_WEBHOOK_SECRET: SECRET } });
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(
      /^partner-equity webhooks listen: port \d+ on 127\.0\.0\.1 is in use \(EADDRINUSE\): choose another with --port <port>, or --port 0 for a free one\n$/,
    );
  });
});

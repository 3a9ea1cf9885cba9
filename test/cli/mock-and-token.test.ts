import { createPrivateKey } from 'node:crypto';
import { access, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from './cli-process.js';

/** `export NAME=value` lines of the mock's output. */
function exportedEnv(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('partner-equity mock + token', () => {
  it('serves the fake with a registered partner whose printed credentials get a token that the API accepts', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pe-mock-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const mock = startCli(['mock', '--port', '0', '--env-out', join(dir, 'mock.env')]);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    const env = exportedEnv(mock.stdout());
    expect(Object.keys(env)).toEqual(['PE_BASE_URL', 'PE_CLIENT_ID', 'PE_ISSUER', 'PE_PRIVATE_KEY_FILE']);
    expect(env['PE_BASE_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const keyFile = env['PE_PRIVATE_KEY_FILE']!;
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect(createPrivateKey(await readFile(keyFile, 'utf8')).asymmetricKeyType).toBe('ed25519');
    expect(await readFile(join(dir, 'mock.env'), 'utf8')).toBe(
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
    );

    const issued = await runCli(['token'], { env });
    expect(issued.stderr).toBe('');
    expect(issued.status).toBe(0);
    const token = issued.stdout.trimEnd();
    expect(token).toMatch(/^\S{20,}$/);
    const info = await fetch(`${env['PE_BASE_URL']}/v1/oauth2/info`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ clientId: env['PE_CLIENT_ID'] });
    const anonymous = await fetch(`${env['PE_BASE_URL']}/v1/oauth2/info`);
    expect(anonymous.status).toBe(401);

    // Flags win over the environment: a wrong --client-id is refused by the fake, in one line.
    const wrong = await runCli(['token', '--client-id', 'client_unknown'], { env });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/^partner-equity token: .*401/);

    expect(await mock.stop()).toBe(0);
    // The key the mock wrote to the temp directory goes with it.
    await expect(access(keyFile)).rejects.toThrow();
  });

  it('delivers events to --webhook-url, signed with the printed secret, and takes admin commands on stdin', async ({
    onTestFinished,
  }) => {
    const listener = startCli(['webhooks', 'listen', '--port', '0'], {
      env: { PE_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    });
    onTestFinished(async () => {
      await listener.stop();
    });
    const [, receiverUrl] = await listener.waitFor(/Listening for webhooks on (\S+)/);
    const mock = startCli(['mock', '--port', '0', '--webhook-url', receiverUrl!], { keepStdinOpen: true });
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_WEBHOOK_SECRET=whsec_\S+$/m);
    const env = exportedEnv(mock.stdout());

    // The listener was started with another secret: restart it with the mock's.
    await listener.stop();
    const port = new URL(receiverUrl!).port;
    const receiver = startCli(['webhooks', 'listen', '--port', port], { env });
    onTestFinished(async () => {
      await receiver.stop();
    });
    await receiver.waitFor(/Listening for webhooks/);

    const token = (await runCli(['token'], { env })).stdout.trimEnd();
    const created = await fetch(`${env['PE_BASE_URL']}/v1/spv-requests`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': 'k-1',
      },
      body: JSON.stringify({
        templateId: 'spv-club-deal',
        attributes: {
          name: 'Founders Club',
          currency: 'EUR',
          targetRaise: '500000',
          maxInvestors: 20,
          carryPercent: '20',
        },
      }),
    });
    expect(created.status).toBe(201);
    const { spvRequestSlug } = (await created.json()) as { spvRequestSlug: string };

    mock.child.stdin.write(`requests\napprove ${spvRequestSlug}\n`);
    await mock.waitFor(new RegExp(`approved ${spvRequestSlug}: SPV \\S+`));
    expect(mock.stdout()).toContain(`${spvRequestSlug}  pending-review  spv-club-deal@`);

    await receiver.waitFor(/"type":"spv_request\.completed"/);
    const events = receiver
      .stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: { spvRequestSlug: string } });
    expect(events.map((event) => event.type)).toEqual(['spv_request.created', 'spv_request.completed']);
    expect(events.every((event) => event.data.spvRequestSlug === spvRequestSlug)).toBe(true);

    mock.child.stdin.write('approve nope\n');
    await mock.waitFor(/^error: Cannot approve: no SPV request nope$/m);
  });
});

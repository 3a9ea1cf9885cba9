import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { completedEvent } from '../webhooks/fixtures.js';
import { runCli } from './cli-process.js';

// Independent of the SDK: the standardwebhooks reference library signs and verifies the other side.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_c2Vjb25kLXNlY3JldC1mb3Itcm90YXRpb24tdGVzdHM=';
// The webhooks suite's own `spv_request.completed` fixture, plus multibyte text and a trailing newline.
const body = `${JSON.stringify({ ...completedEvent, data: { ...completedEvent.data, note: 'Zoë 🚀' } })}\n`;
const env = { PE_WEBHOOK_SECRET: SECRET };
const now = () => Math.floor(Date.now() / 1000);

function parseHeaderLines(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(': ') as [string, string]),
  );
}

describe.concurrent('partner-equity webhooks sign', () => {
  it('prints headers that standardwebhooks accepts for the exact bytes piped in', async () => {
    const { status, stdout } = await runCli(['webhooks', 'sign'], { input: body, env });
    expect(status).toBe(0);
    const headers = parseHeaderLines(stdout);
    expect(Object.keys(headers)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Math.abs(Number(headers['webhook-timestamp']) - now())).toBeLessThan(30);
    expect(new StandardWebhook(SECRET).verify(body, headers)).toMatchObject({
      type: 'spv_request.completed',
    });
    // The trailing newline was signed too: without it the signature no longer holds.
    expect(() => new StandardWebhook(SECRET).verify(body.trimEnd(), headers)).toThrow();
  });

  it('signs the reference vector byte for byte with a given id and timestamp, as JSON', async () => {
    const { status, stdout } = await runCli([
      'webhooks',
      'sign',
      '--secret',
      SECRET,
      '--id',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      '--timestamp',
      '1614265330',
      '--body',
      '{"test": 2432232314}',
      '--json',
    ]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('refuses a malformed or short secret in one line, never echoing it', async () => {
    for (const [secret, echo] of [
      ['not-a-secret', 'not-a-secret'],
      ['whsec_AAAA', 'AAAA'],
    ]) {
      const { status, stderr } = await runCli(['webhooks', 'sign', '--body', '{}'], {
        env: { PE_WEBHOOK_SECRET: secret },
      });
      expect(status).toBe(1);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(
        /^partner-equity webhooks sign: Webhook secret (must start with "whsec_"|is 3 bytes)/,
      );
      expect(stderr).not.toContain(echo);
    }
  });
});

describe.concurrent('partner-equity webhooks verify', () => {
  const signed = () => {
    const id = `msg_${crypto.randomUUID()}`;
    const timestamp = now();
    const signature = new StandardWebhook(SECRET).sign(id, new Date(timestamp * 1000), body);
    return { id, timestamp: String(timestamp), signature };
  };

  it('accepts a delivery signed by standardwebhooks given as -H lines and prints its event', async () => {
    const { id, timestamp, signature } = signed();
    const { status, stdout, stderr } = await runCli(
      [
        'webhooks',
        'verify',
        '-H',
        `webhook-id: ${id}`,
        '-H',
        `Webhook-Timestamp: ${timestamp}`,
        '-H',
        `webhook-signature: ${signature}`,
      ],
      { input: body, env },
    );
    expect(stderr).toBe(`Valid: spv_request.completed (id ${id}, secret #1 matched)\n`);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      type: 'spv_request.completed',
      known: true,
      webhookId: id,
      data: { spvRequestSlug: completedEvent.data.spvRequestSlug, note: 'Zoë 🚀' },
    });
  });

  it('tries every --secret during a rotation and says which matched, warning that argv is visible', async () => {
    const { id, timestamp, signature } = signed();
    const { status, stderr } = await runCli(
      [
        'webhooks',
        'verify',
        '--secret',
        OTHER,
        '--secret',
        SECRET,
        '--id',
        id,
        '--timestamp',
        timestamp,
        '--signature',
        signature,
      ],
      { input: body },
    );
    expect(status).toBe(0);
    expect(stderr).toContain('secret #2 matched');
    expect(stderr).toMatch(
      /^warning: --secret is visible to other users in the process list; use --secret-file or PE_WEBHOOK_SECRET\n/,
    );
  });

  it('refuses a body changed by one byte with the reason, exit 1', async () => {
    const { id, timestamp, signature } = signed();
    const { status, stdout, stderr } = await runCli(
      [
        'webhooks',
        'verify',
        '--id',
        id,
        '--timestamp',
        timestamp,
        '--signature',
        signature,
        '--body',
        body.trimEnd(),
      ],
      { env },
    );
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'partner-equity webhooks verify: invalid webhook (no_matching_signature): No webhook signature matches the configured secret(s).\n',
    );
  });

  it('says whether the signature of a stale delivery was right, and honours --tolerance', async () => {
    // Issue 13: a wrong signature with an old timestamp was called "valid for that timestamp".
    const timestamp = now() - 3600;
    const signature = new StandardWebhook(SECRET).sign('msg_old', new Date(timestamp * 1000), body);
    const args = [
      'webhooks',
      'verify',
      '--id',
      'msg_old',
      '--timestamp',
      String(timestamp),
      '--signature',
      signature,
    ];
    const stale = await runCli(args, { input: body, env });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toMatch(
      /^partner-equity webhooks verify: invalid webhook \(timestamp_too_old\): Webhook timestamp is 36\d\d s old, beyond the 300 s tolerance; its signature is valid, so the sender signed it 36\d\d s ago\. If the sender re-sends the original signed delivery on retries, set toleranceSeconds to at least 52830/,
    );

    const forged = await runCli([...args.slice(0, -1), `v1,${'A'.repeat(43)}=`], { input: body, env });
    expect(forged.stderr).toMatch(
      /^partner-equity webhooks verify: invalid webhook \(no_matching_signature\): No webhook signature matches the configured secret\(s\) \(its timestamp is also 36\d\d s old\)\.\n$/,
    );
    // Issue 13: a malformed signature was said to be "no v1 signature".
    const malformed = await runCli([...args.slice(0, -1), 'v1,short'], { input: body, env });
    expect(malformed.stderr).toBe(
      'partner-equity webhooks verify: invalid webhook (malformed_signature): Header webhook-signature has no well-formed signature: expected "v1," followed by 44 base64 characters; its one entry is not of that form.\n',
    );

    const tolerant = await runCli([...args, '--tolerance', '7200'], { input: body, env });
    expect(tolerant.status).toBe(0);
  });

  it('names a missing header as a usage error', async () => {
    const { status, stderr } = await runCli(['webhooks', 'verify', '--id', 'msg_1', '--timestamp', '1'], {
      input: body,
      env,
    });
    expect(status).toBe(2);
    expect(stderr).toMatch(
      /missing the webhook-signature header: pass --signature or -H 'webhook-signature: …'/,
    );
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { spvBody, startReceiver } from '../fake/helpers.js';
import { startCli } from './cli-process.js';

const GIVEN = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const LATER = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';

/** `export NAME=value` lines of the mock's output. */
const exported = (stdout: string) =>
  Object.fromEntries([...stdout.matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));

describe('partner-equity mock: the webhook target', () => {
  it('signs with PE_WEBHOOK_SECRET from the start, never prints it, and moves target and secret from its console', async ({
    onTestFinished,
  }) => {
    const first = await startReceiver();
    const second = await startReceiver();
    onTestFinished(first.close);
    onTestFinished(second.close);
    const mock = startCli(['mock', '--port', '0', '--webhook-url', first.url], {
      env: { PE_WEBHOOK_SECRET: GIVEN },
      keepStdinOpen: true,
    });
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^Admin API/m);
    const env = exported(mock.stdout());
    expect(env['PE_WEBHOOK_SECRET']).toBeUndefined();
    expect(mock.stdout()).toContain(
      `Events are delivered to ${first.url}, signed standard-webhooks with the secret you gave.`,
    );
    expect(mock.stdout() + mock.stderr()).not.toContain(GIVEN);

    const client = new PartnerEquity({
      baseUrl: env['PE_BASE_URL']!,
      clientId: env['PE_CLIENT_ID']!,
      issuer: env['PE_ISSUER']!,
      privateKey: readFileSync(env['PE_PRIVATE_KEY_FILE']!, 'utf8'),
      logLevel: 'off',
    });
    onTestFinished(() => client.close());
    await client.spvRequests.create(spvBody());
    await first.until(1);
    const [delivery] = first.received;
    const event = await new Webhook({ secret: GIVEN }).verify(delivery!.body, delivery!.headers);
    expect(event.type).toBe('spv_request.created');

    mock.child.stdin.write(`webhook ${second.url} secret=${LATER}\n`);
    await mock.waitFor(
      new RegExp(`^events go to ${second.url.replaceAll('/', '\\/')}, signed standard-webhooks$`, 'm'),
    );
    await client.spvRequests.create(spvBody({ name: 'Second' }));
    await second.until(1);
    mock.child.stdin.write('deliveries\n');
    await mock.waitFor(/^2 deliveries /m);
    expect(first.received).toHaveLength(1);
    const moved = await new Webhook({ secret: LATER }).verify(
      second.received[0]!.body,
      second.received[0]!.headers,
    );
    expect(moved.type).toBe('spv_request.created');
    expect(mock.stdout()).not.toContain(LATER); // a secret given on the console is not echoed

    mock.child.stdin.write('webhook scheme=stripe\n');
    // The old secret fits the stripe preset too, so it is kept and nothing new is shown.
    await mock.waitFor(/^events go to \S+, signed stripe$/m);
    mock.child.stdin.write('persons\n');
    await mock.waitFor(/^0 persons$/m);
  });
});

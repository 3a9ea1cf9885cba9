import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '../command.js';
import { CREDENTIAL_ENV } from '../credentials.js';
import { followWallClock } from '../follow-wall-clock.js';
import { serverOptions, startServer } from '../listen.js';
import { CONSOLE_HELP, startMockConsole } from '../mock-console.js';
import { integerValue, stringValue } from '../parse-options.js';
import { nodeListener } from '../serve-fetch-handler.js';
import { CommandError } from '../usage-error.js';
import { WEBHOOK_SECRET_ENV } from '../webhook-secrets.js';
import { writeSecretFile } from '../write-secret-file.js';

const DEFAULT_PORT = 4010;

/** `partner-equity mock`: the fake Partner Equity API on a local port, with a registered partner. */
export const mock: Command = {
  path: ['mock'],
  summary: 'Run the fake Partner Equity API locally and print ready-to-use credentials',
  synopsis: '[--port <port>] [--host <host>] [--key-out <file>] [--env-out <file>] [--webhook-url <url>]',
  details: [
    "Starts the SDK's stateful fake API (the one `@partner-equity/sdk/testing` exports), registers a partner",
    'client with a fresh Ed25519 key, writes the key to a 0600 file and prints `export PE_…=…` lines for',
    '`partner-equity token`, `npm run quickstart` and your own code. With --webhook-url, every event is',
    'delivered there, signed with the printed PE_WEBHOOK_SECRET (try `partner-equity webhooks listen`).',
    'Time runs at wall-clock speed. Type `help` for admin commands (approve a request…). Ctrl-C stops it.',
  ].join('\n'),
  options: {
    ...serverOptions(DEFAULT_PORT),
    'key-out': {
      type: 'string',
      valueName: '<file>',
      description: "Where to write the partner's private key (default: a file in the temp directory)",
    },
    'env-out': {
      type: 'string',
      valueName: '<file>',
      description: 'Also write the PE_* variables to this file (for node --env-file)',
    },
    'webhook-url': {
      type: 'string',
      valueName: '<url>',
      description: 'Deliver every event to this URL, signed Standard Webhooks style',
    },
  },
  async run(values, io) {
    const port = integerValue(values, 'port', { min: 0, max: 65_535, fallback: DEFAULT_PORT });
    const host = stringValue(values, 'host') ?? '127.0.0.1';
    const webhookUrl = stringValue(values, 'webhook-url');
    if (webhookUrl !== undefined && !URL.canParse(webhookUrl)) {
      throw new CommandError(`--webhook-url '${webhookUrl}' is not a URL`);
    }
    const { FakePartnerEquity, getResponse } = await loadFake();

    let fake: InstanceType<typeof FakePartnerEquity> | undefined;
    const started = await startServer(
      nodeListener(
        () => started.origin,
        async (request) =>
          (await getResponse(fake!.handlers, request)) ??
          Response.json({ code: 'not_found' }, { status: 404 }),
      ),
      host,
      port,
    );
    fake = new FakePartnerEquity({ baseUrl: started.origin });
    const stopClock = followWallClock(fake.clock);
    const cleanup: (() => Promise<void>)[] = [];
    try {
      const partner = await fake.createPartner({ applicationName: 'partner-equity mock' });
      const keyOut = stringValue(values, 'key-out');
      // A key in the temp directory is the mock's own and goes when it stops; a --key-out file is the user's.
      const keyFile = keyOut ?? join(tmpdir(), `partner-equity-mock-${partner.clientId}.pem`);
      if (keyOut === undefined) cleanup.push(() => rm(keyFile, { force: true }));
      const env: [string, string][] = [
        [CREDENTIAL_ENV.baseUrl, started.origin],
        [CREDENTIAL_ENV.clientId, partner.clientId],
        [CREDENTIAL_ENV.issuer, partner.issuer],
        [CREDENTIAL_ENV.privateKeyFile, await writeSecretFile(keyFile, partner.privateKey, true)],
      ];
      if (webhookUrl !== undefined) {
        env.push([WEBHOOK_SECRET_ENV, fake.webhooks.register({ url: webhookUrl }).secret]);
      }
      const envFile = stringValue(values, 'env-out');
      if (envFile !== undefined) {
        // Holds the webhook secret: 0600 even when the file existed (it is replaced, never followed).
        await writeSecretFile(envFile, env.map(([name, value]) => `${name}=${value}\n`).join(''), true);
      }
      io.stdout.write(
        [
          `Fake Partner Equity API listening on ${started.origin}`,
          `Partner client ${partner.clientId} registered; its private key is in ${env[3]![1]} (mode 0600).`,
          ...(webhookUrl === undefined ? [] : [`Events are delivered to ${webhookUrl}.`]),
          '',
          ...env.map(([name, value]) => `export ${name}=${value}`),
          '',
          'Then:  partner-equity token',
          '       curl -H "Authorization: Bearer $(partner-equity token)" "$PE_BASE_URL/v1/oauth2/info"',
          '       npm run quickstart        # the read-only tour, against this mock',
          '',
          CONSOLE_HELP,
          '',
        ].join('\n'),
      );
      const stopConsole = startMockConsole(fake.admin, io);
      await io.waitForInterrupt();
      stopConsole();
      return 0;
    } finally {
      stopClock();
      await fake.close();
      await started.close();
      for (const step of cleanup) await step();
    }
  },
};

/** The fake API needs the optional peer dependency msw; without it, say so in one line. */
async function loadFake() {
  try {
    const [{ FakePartnerEquity }, { getResponse }] = await Promise.all([
      import('../../testing/index.js'),
      import('msw'),
    ]);
    return { FakePartnerEquity, getResponse };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes("'msw'")) {
      throw new CommandError('the fake API needs the msw package: npm install --save-dev msw');
    }
    throw error;
  }
}

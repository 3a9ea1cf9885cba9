import { randomBytes } from 'node:crypto';
import { isLoopbackHost } from '../../core/transport/loopback-host.js';
import { type FakeRateLimitOption, parseRateLimit } from '../../testing/fake-rate-limit.js';
import type { FakeWebhooks } from '../../testing/fake-webhooks.js';
import type { FaultInjector, FaultSpec } from '../../testing/fault-injector.js';
import { cliSecrets } from '../cli-secrets.js';
import type { CliIo, Command, OptionValues } from '../command.js';
import { CREDENTIAL_ENV } from '../credentials.js';
import { followWallClock } from '../follow-wall-clock.js';
import { serverOptions, startServer } from '../listen.js';
import {
  ADMIN_API_PREFIX,
  adminApiHelp,
  approvalLine,
  CONSOLE_HELP,
  inForceLines,
  startMockConsole,
} from '../mock-console.js';
import { mockPartnerOptions, registerMockPartner } from '../mock-partner.js';
import { flag, integerValue, stringList, stringValue } from '../parse-options.js';
import { nodeListener } from '../serve-fetch-handler.js';
import { CommandError, UsageError } from '../usage-error.js';
import { schemeOption, webhookScheme } from '../webhook-scheme-option.js';
import { WEBHOOK_SECRET_ENV } from '../webhook-secrets.js';
import { writeSecretFile } from '../write-secret-file.js';

const DEFAULT_PORT = 4010;
/** The variable the mock prints its generated admin token as. */
export const ADMIN_TOKEN_ENV = 'PE_ADMIN_TOKEN';

/** `partner-equity mock`: the fake Partner Equity API on a local port, with a registered partner. */
export const mock: Command = {
  path: ['mock'],
  summary: 'Run the fake Partner Equity API locally and print ready-to-use credentials',
  synopsis:
    '[--port <port>] [--host <host>] [--allow-host <name>]… [--admin-token] [--client-id <id>] [--issuer <url>] [--public-key <file|JWK> | --key-out <file>] [--auto-approve] [--env-out <file>] [--webhook-url <url>] [--webhook-secret <secret>] [--scheme <scheme>] [--fault <fault>]… [--rate-limit <n/s>] [--max-body <size>] [--spv <currency:class>]…',
  details: [
    "Starts the SDK's stateful fake API (the one `@partner-equity/sdk/testing` exports), registers a partner",
    'client with a fresh Ed25519 key, writes the key to a 0600 file and prints `export PE_…=…` lines for',
    '`partner-equity token`, the README quickstart and your own code. With --webhook-url, every event is',
    'delivered there, signed with the printed PE_WEBHOOK_SECRET (try `partner-equity webhooks listen`), or with',
    'the one PE_WEBHOOK_SECRET / --webhook-secret gives, in the --scheme / PE_WEBHOOK_SCHEME scheme. The',
    'target, secret and scheme can change while it runs (console `webhook`, or PUT /__admin/webhooks).',
    'With --public-key, your own key is registered instead (`partner-equity keys generate` makes one).',
    `Time runs at wall-clock speed. Review requests on its console (type \`help\`), or script it through the`,
    `admin API at ${ADMIN_API_PREFIX} (JSON over HTTP; GET it for the list). --auto-approve approves each SPV`,
    'request as it is created; the mock prints the SPV slug of each approval. Ctrl-C stops it.',
    '--spv EUR:"Class A" starts the partner with an approved SPV in EUR with that share class (several',
    'classes: EUR:"Class A,Class B"; repeat --spv for more SPVs); the mock prints each SPV slug.',
    `--fault 'POST /v1/investors 503 x2' makes the next two such requests fail (a path is exact; '/v1/spvs/*'`,
    `is a prefix, 're:<RegExp>' a pattern; or JSON); ${ADMIN_API_PREFIX}/faults lists, adds and clears them.`,
    '--rate-limit and --max-body put the limits of a real deployment in front of it (429s with Retry-After',
    'and RateLimit headers; 413s with an HTML page), to rehearse against.',
    "The admin API answers requests addressed to this machine's names only (localhost, 127.0.0.1, [::1];",
    '--allow-host adds one), from no web page of another origin, with JSON bodies. With --admin-token, or',
    `a --host that is not loopback, it also needs the token the mock generates and prints (${ADMIN_TOKEN_ENV}).`,
  ].join('\n'),
  options: {
    ...serverOptions(DEFAULT_PORT),
    'allow-host': {
      type: 'string',
      multiple: true,
      valueName: '<name>',
      description: "Also answer the admin API for this Host name (default: this machine's loopback names)",
    },
    'admin-token': {
      type: 'boolean',
      description: `Require a generated admin token (printed as ${ADMIN_TOKEN_ENV}); always on for a non-loopback --host`,
    },
    ...mockPartnerOptions,
    'auto-approve': {
      type: 'boolean',
      description: 'Approve every SPV request as soon as it is created (off by default)',
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
    'webhook-secret': {
      type: 'string',
      valueName: '<secret>',
      env: WEBHOOK_SECRET_ENV,
      description:
        'Sign deliveries with this secret instead of a generated one (visible in ps: prefer the variable)',
    },
    scheme: schemeOption,
    'rate-limit': {
      type: 'string',
      valueName: '<n/s>',
      description:
        'Limit each partner client to this many requests (e.g. 10/s, 600/min): 429s with Retry-After and RateLimit headers',
    },
    'max-body': {
      type: 'string',
      valueName: '<size>',
      description:
        'Answer a JSON request body over this size (e.g. 64k, 1m) 413 with an HTML page, as a proxy would',
    },
    spv: {
      type: 'string',
      multiple: true,
      valueName: '<currency:class>',
      description:
        'Start with an approved SPV in this currency and share class, e.g. EUR:"Class A"; repeatable',
    },
    fault: {
      type: 'string',
      multiple: true,
      valueName: '<fault>',
      description:
        "Inject a fault: 'POST /v1/investors 503 x2' (path exact, '/v1/spvs/*' a prefix) or JSON; repeatable",
    },
  },
  async run(values, io) {
    const port = integerValue(values, 'port', { min: 0, max: 65_535, fallback: DEFAULT_PORT });
    const host = stringValue(values, 'host') ?? '127.0.0.1';
    const webhookUrl = stringValue(values, 'webhook-url');
    if (webhookUrl !== undefined && !URL.canParse(webhookUrl)) {
      throw new CommandError(`--webhook-url '${webhookUrl}' is not a URL`);
    }
    const fakeLimits = limits(values);
    const seedSpvs = stringList(values, 'spv').map(spvOption);
    const scheme = await webhookScheme(values, io);
    const webhookSecret = givenWebhookSecret(values, io);
    const { FakePartnerEquity, getResponse, parseFault } = await loadFake();
    const exposed = !isLoopbackHost(host.includes(':') ? `[${host}]` : host);
    // Printed once at start (and in --env-out): the one place the token is shown.
    const adminToken =
      exposed || flag(values, 'admin-token') ? randomBytes(32).toString('base64url') : undefined;
    if (exposed) {
      io.stderr.write(
        `warning: --host ${host} serves the fake API beyond this machine: anyone who reaches it can call it as the partners registered here; its admin API needs ${ADMIN_TOKEN_ENV}\n`,
      );
    }

    let fake: InstanceType<typeof FakePartnerEquity> | undefined;
    // Approval lines wait for the banner: the bannerShown SPVs are listed in it.
    let bannerShown = false;
    const started = await startServer(
      nodeListener(
        () => started.origin,
        () => fake?.maxRequestBytes ?? 0,
        async (request) =>
          (await getResponse(fake!.handlers, request)) ??
          Response.json({ code: 'not_found' }, { status: 404 }),
      ),
      host,
      port,
    );
    fake = new FakePartnerEquity({
      baseUrl: started.origin,
      adminApi: {
        prefix: ADMIN_API_PREFIX,
        allowHosts: stringList(values, 'allow-host'),
        ...(adminToken === undefined ? {} : { token: adminToken }),
      },
      autoApproveSpvRequests: flag(values, 'auto-approve'),
      webhooks: { scheme },
      ...fakeLimits,
      seed: { spvs: seedSpvs },
      // However a request is approved (console, admin API, --auto-approve), say which SPV it made.
      onEvent: (event) => {
        if (event.type !== 'spv_request.completed' || !bannerShown) return;
        const slug = (event.data as { spvRequestSlug?: unknown }).spvRequestSlug;
        const request = fake?.admin.snapshot().spvRequests.find((r) => r.spvRequestSlug === slug);
        if (request !== undefined) io.stdout.write(`${approvalLine(request)}\n`);
      },
    });
    const stopClock = followWallClock(fake.clock);
    const cleanup: (() => Promise<void>)[] = [];
    try {
      const faults = injectFaults(fake, stringList(values, 'fault'), parseFault);
      const partner = await registerMockPartner(fake.admin, values, cleanup);
      const spvs = fake.admin.snapshot().spvs.filter((spv) => spv.clientId === partner.clientId);
      const env: [string, string][] = [
        [CREDENTIAL_ENV.baseUrl, started.origin],
        [CREDENTIAL_ENV.clientId, partner.clientId],
        [CREDENTIAL_ENV.issuer, partner.issuer],
      ];
      // Without the private key (--public-key with a public key), say which variable the caller must set.
      const keyHint = `# ${CREDENTIAL_ENV.privateKeyFile}=<the private key file of the public key you gave>`;
      if (partner.privateKeyFile !== undefined)
        env.push([CREDENTIAL_ENV.privateKeyFile, partner.privateKeyFile]);
      if (adminToken !== undefined) env.push([ADMIN_TOKEN_ENV, adminToken]);
      const target = startWebhooks(fake.webhooks, webhookUrl, webhookSecret);
      if (target !== undefined) env.push([WEBHOOK_SECRET_ENV, target.secret]);
      // A secret the caller gave is not printed back; --env-out still holds it for `node --env-file`.
      const shown = env.filter(([name]) => name !== WEBHOOK_SECRET_ENV || webhookSecret === undefined);
      const lines = (prefix: string, list: [string, string][]) =>
        [
          ...list.map(([name, value]) => `${prefix}${name}=${value}`),
          ...(partner.privateKeyFile === undefined ? [keyHint] : []),
        ].join('\n');
      // Listening for Ctrl-C / SIGTERM before anything is printed: a script that stops the mock as soon as it
      // reads the banner still gets a clean exit (and the generated key removed).
      const interrupted = io.waitForInterrupt();
      const envFile = stringValue(values, 'env-out');
      if (envFile !== undefined) {
        // Holds the webhook secret: 0600 even when the file existed (it is replaced, never followed).
        await writeSecretFile(envFile, `${lines('', env)}\n`, true);
      }
      io.stdout.write(
        [
          `Fake Partner Equity API listening on ${started.origin}`,
          `Partner client ${partner.clientId} registered${partner.keyNote}`,
          ...(webhookUrl === undefined
            ? []
            : [
                `Events are delivered to ${webhookUrl}, signed ${fake.webhooks.scheme.name}${webhookSecret === undefined ? '' : ' with the secret you gave'}.`,
              ]),
          ...(flag(values, 'auto-approve') ? ['SPV requests are approved as soon as they are created.'] : []),
          ...inForceLines(fakeLimits, faults),
          ...spvs.map(
            (spv) =>
              `SPV ${spv.slug} (${spv.currency}, request ${spv.spvRequestSlug}), share classes ${spv.shareClasses.map(({ slug, name }) => `${slug} "${name}"`).join(', ')}`,
          ),
          '',
          lines('export ', shown),
          '',
          'Then:  partner-equity token',
          '       curl -H "Authorization: Bearer $(partner-equity token)" "$PE_BASE_URL/v1/oauth2/info"',
          '       node --env-file=.env quickstart.mts   # the README quickstart (start the mock with --env-out .env)',
          '',
          CONSOLE_HELP,
          '',
          adminApiHelp(
            adminOrigin(host, started.origin),
            adminToken === undefined ? undefined : ADMIN_TOKEN_ENV,
          ),
          '',
        ].join('\n'),
      );
      bannerShown = true;
      const stopConsole = startMockConsole(fake.admin, io);
      await interrupted;
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

/** `--spv EUR:Class A,Class B` as a bannerShown SPV: a currency code, then share class names (default `Class A`). */
function spvOption(text: string): { currency: string; shareClasses: string[] } {
  const at = text.indexOf(':');
  const currency = (at === -1 ? text : text.slice(0, at)).trim().toUpperCase();
  const names =
    at === -1
      ? ['Class A']
      : text
          .slice(at + 1)
          .split(',')
          .map((name) => name.trim());
  const unique = new Set(names.map((name) => name.toLowerCase()));
  if (!/^[A-Z]{3}$/.test(currency) || unique.has('') || unique.size !== names.length) {
    throw new UsageError(
      `--spv '${text}': expected a currency code and share class names, e.g. EUR:"Class A" or USD:"Class A,Class B"`,
    );
  }
  return { currency, shareClasses: names };
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1 << 20,
  mb: 1 << 20,
  mib: 1 << 20,
};

/** The fake's `rateLimit` and `maxBodyBytes` from --rate-limit and --max-body. */
function limits(values: OptionValues): { rateLimit?: FakeRateLimitOption; maxBodyBytes?: number } {
  const out: { rateLimit?: FakeRateLimitOption; maxBodyBytes?: number } = {};
  const rate = stringValue(values, 'rate-limit');
  if (rate !== undefined) {
    try {
      out.rateLimit = parseRateLimit(rate);
    } catch {
      throw new CommandError(`--rate-limit '${rate}' is not a rate such as 10/s or 600/min`);
    }
  }
  const size = stringValue(values, 'max-body');
  if (size !== undefined) {
    const found = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(size);
    const unit = found === null ? undefined : SIZE_UNITS[found[2]!.toLowerCase()];
    if (found === null || unit === undefined || Number(found[1]) === 0)
      throw new CommandError(`--max-body '${size}' is not a size such as 65536, 64k or 1m`);
    out.maxBodyBytes = Number(found[1]) * unit;
  }
  return out;
}

/** Injects each `--fault`; a fault that cannot be read, or can never fire, is a usage error. */
function injectFaults(
  fake: { faults: FaultInjector },
  texts: readonly string[],
  parseFault: (text: string) => FaultSpec,
): string[] {
  return texts.map((text) => {
    try {
      fake.faults.inject(parseFault(text));
    } catch (error) {
      throw new UsageError(
        `--fault '${text}': ${(error as Error).message.replace(/^faults?(\.inject)?: /, '')}`,
      );
    }
    return fake.faults.pending().at(-1)?.description ?? text;
  });
}

/** The webhook secret from --webhook-secret (warned about: argv shows in ps) or PE_WEBHOOK_SECRET. */
function givenWebhookSecret(values: OptionValues, io: CliIo): string | undefined {
  const flagged = stringValue(values, 'webhook-secret');
  if (flagged !== undefined) {
    io.stderr.write(
      `warning: --webhook-secret is visible to other users in the process list; prefer ${WEBHOOK_SECRET_ENV}\n`,
    );
  }
  const secret = flagged ?? (io.env[WEBHOOK_SECRET_ENV] || undefined);
  if (secret !== undefined) cliSecrets.add(secret);
  return secret;
}

/** The start target: --webhook-url with the given secret; a secret alone is kept for a target set later. */
function startWebhooks(webhooks: FakeWebhooks, url: string | undefined, secret: string | undefined) {
  if (url === undefined && secret === undefined) return undefined;
  try {
    return webhooks.setTarget({ url: url ?? null, secret }).endpoint;
  } catch (error) {
    const message = (error as Error).message;
    const source = message.startsWith('secret:')
      ? `--webhook-secret / ${WEBHOOK_SECRET_ENV}`
      : '--webhook-url';
    throw new CommandError(`${source}: ${message.replace(/^secret: /, '')}`);
  }
}

/** Where this machine reaches the admin API: a wildcard bind is reached at 127.0.0.1 (its Host is loopback). */
function adminOrigin(host: string, origin: string): string {
  return host === '0.0.0.0' || host === '::' ? `http://127.0.0.1:${new URL(origin).port}` : origin;
}

/** The fake API needs the optional peer dependency msw; without it, say so in one line. */
async function loadFake() {
  try {
    const [{ FakePartnerEquity, parseFault }, { getResponse }] = await Promise.all([
      import('../../testing/index.js'),
      import('msw/utils/get-response'),
    ]);
    return { FakePartnerEquity, getResponse, parseFault };
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    // ERR_MSW_MISSING: the built testing entry's own refusal (scripts/wrap-testing-entry.ts).
    if (code === 'ERR_MSW_MISSING' || (code === 'ERR_MODULE_NOT_FOUND' && String(error).includes("'msw'"))) {
      throw new CommandError('the fake API needs the msw package: npm install --save-dev msw');
    }
    throw error;
  }
}

import { readFile } from 'node:fs/promises';
import { LOG_LEVEL_ENV, resolveLogLevel } from '../../core/logging/logger.js';
import { isCleartextToNetwork } from '../../core/transport/loopback-host.js';
import type { CliIo, Command, OptionValues } from '../command.js';
import { CREDENTIAL_ENV, credentialOptions, readCredentials } from '../credentials.js';
import { flag, stringList, stringValue } from '../parse-options.js';
import { stderrLogger } from '../stderr-logger.js';
import { UsageError } from '../usage-error.js';
import { schemeOption, webhookScheme } from '../webhook-scheme-option.js';
import { secretOptions, WEBHOOK_SECRET_ENV, webhookSecrets } from '../webhook-secrets.js';

const GROUPS = ['connection', 'authentication', 'contracts', 'openapi', 'webhooks'] as const;
const MODES = ['strict', 'warn', 'off'] as const;
/** Environment variable naming the partner's webhook endpoint for `doctor`. */
export const WEBHOOK_URL_ENV = 'PE_WEBHOOK_URL';

async function credentialsOf(values: OptionValues, io: CliIo) {
  const given = (flagName: string, env: string) =>
    (stringValue(values, flagName) ?? io.env[env] ?? '') !== '';
  const any =
    given('client-id', CREDENTIAL_ENV.clientId) ||
    given('issuer', CREDENTIAL_ENV.issuer) ||
    given('private-key-file', CREDENTIAL_ENV.privateKeyFile);
  if (any) return readCredentials(values, io);
  const baseUrl = stringValue(values, 'base-url') ?? (io.env[CREDENTIAL_ENV.baseUrl] || undefined);
  if (baseUrl === undefined) throw new UsageError(`missing --base-url (${CREDENTIAL_ENV.baseUrl})`);
  return { baseUrl };
}

async function openApiFile(values: OptionValues): Promise<unknown> {
  const file = stringValue(values, 'openapi-file');
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read --openapi-file '${file}'`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--openapi-file '${file}' is not JSON`);
  }
}

/** `partner-equity doctor`: the environment in front of you, checked against what the SDK expects. */
export const doctor: Command = {
  path: ['doctor'],
  summary: 'Check an environment (and your webhook endpoint) against what the SDK expects, before go-live',
  synopsis:
    '[--base-url <url>] [--client-id <id>] [--issuer <url>] [--private-key-file <file>] [--key-id <kid>] [--webhook-url <url> --secret-file <file> [--scheme <scheme>]] [--openapi-file <file>] [--only <group>]… [--response-validation <mode>] [--json]',
  details: [
    'Checks, each ok / DIFFERS / FAILS with one line of explanation and the fix:',
    '  connection      reachability (/public/hc), TLS, the clock offset from the Date header',
    '  authentication  the token exchange with your key (a 401 explained: aud, sub/client_id, clock, key),',
    '                  oauth.info, and one read of a partner endpoint (403: not provisioned)',
    '  contracts       /v1/contracts with and without a token',
    "  openapi         the service's /openapi.json against what the SDK reads and sends",
    '  webhooks        with --webhook-url: signed test events POSTed to your endpoint, its answers explained',
    'Nothing the doctor does writes data on the service: it only reads (/public/hc, /openapi.json,',
    '/v1/contracts, /v1/oauth2/info, /v1/spv-requests?perPage=1) and exchanges tokens. The webhook probes go',
    'to your endpoint only (event type partner_equity.doctor_probe). Credentials are optional (without them',
    'the token checks are skipped); secrets come from files or the environment, never the command line.',
    'Exit status: 0 when nothing would fail, 1 when something would, 2 for a usage error.',
  ].join('\n'),
  options: {
    ...credentialOptions,
    'webhook-url': {
      type: 'string',
      valueName: '<url>',
      env: WEBHOOK_URL_ENV,
      description: 'Your webhook endpoint: probe it with signed test events',
    },
    'secret-file': secretOptions['secret-file'],
    scheme: schemeOption,
    'openapi-file': {
      type: 'string',
      valueName: '<file>',
      description: 'Compare this OpenAPI JSON document instead of GET /openapi.json',
    },
    only: {
      type: 'string',
      multiple: true,
      valueName: '<group>',
      description: `Run only this group: ${GROUPS.join(', ')}`,
    },
    'response-validation': {
      type: 'string',
      valueName: '<mode>',
      env: 'PARTNER_EQUITY_RESPONSE_VALIDATION',
      description:
        'The mode your client runs with (strict, warn, off): it decides what would fail. Default warn',
    },
    'allow-insecure-http': {
      type: 'boolean',
      description: 'Allow a plain http base URL to another host (tokens then travel in cleartext)',
    },
    json: { type: 'boolean', description: 'Print the report as JSON' },
  },
  environment: {
    [WEBHOOK_SECRET_ENV]: 'The webhook signing secret, when no secret file is named',
    [LOG_LEVEL_ENV]: 'Log level of the lines on stderr (debug, info, warn, error, off)',
    NO_COLOR: 'Any value: no colours in the report on a terminal',
  },
  async run(values, io) {
    const only = stringList(values, 'only');
    const unknown = only.filter((group) => !(GROUPS as readonly string[]).includes(group));
    if (unknown.length > 0)
      throw new UsageError(`--only '${unknown[0]}': expected one of ${GROUPS.join(', ')}`);
    const mode =
      stringValue(values, 'response-validation') ??
      (io.env['PARTNER_EQUITY_RESPONSE_VALIDATION'] || undefined);
    if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) {
      throw new UsageError(`--response-validation '${mode}': expected strict, warn or off`);
    }
    const webhookUrl = stringValue(values, 'webhook-url') ?? (io.env[WEBHOOK_URL_ENV] || undefined);
    if (webhookUrl !== undefined && !/^https?:\/\//.test(webhookUrl)) {
      throw new UsageError(`--webhook-url '${webhookUrl}' is not an http(s) URL`);
    }
    const onlyWebhooks = only.length > 0 && only.every((group) => group === 'webhooks');
    // Only the webhook probes: the service is not called, and its base URL is not needed.
    const credentials = onlyWebhooks
      ? { baseUrl: stringValue(values, 'base-url') ?? (io.env[CREDENTIAL_ENV.baseUrl] || 'http://127.0.0.1') }
      : await credentialsOf(values, io);
    const allowInsecureHttp = flag(values, 'allow-insecure-http');
    if (!allowInsecureHttp && isCleartextToNetwork(credentials.baseUrl)) {
      throw new UsageError(
        'the base URL is plain http to another host: use https, or pass --allow-insecure-http',
      );
    }
    const webhook =
      webhookUrl === undefined
        ? undefined
        : {
            url: webhookUrl,
            secret: await webhookSecrets(values, io),
            scheme: await webhookScheme(values, io),
          };
    const openapi = await openApiFile(values);
    // Loaded here, not at startup: `--help` and usage errors stay fast without the HTTP client and zod. From
    // the main entry's module, so the built command uses the built main entry instead of a copy of it.
    const { PartnerEquity, formatDoctorReport } = await import('../../index.js');
    const client = new PartnerEquity({
      ...credentials,
      maxRetries: 0,
      allowInsecureHttp,
      responseValidation: (mode as (typeof MODES)[number] | undefined) ?? 'warn',
      logger: stderrLogger(io.stderr),
      logLevel: resolveLogLevel(undefined, io.env[LOG_LEVEL_ENV]),
    });
    try {
      const report = await client.doctor({
        webhook,
        openapi,
        only: only.length === 0 ? undefined : (only as (typeof GROUPS)[number][]),
      });
      const color = (io.stdout as { isTTY?: boolean }).isTTY === true && (io.env['NO_COLOR'] ?? '') === '';
      io.stdout.write(
        flag(values, 'json') ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report, { color }),
      );
      return report.ok ? 0 : 1;
    } finally {
      await client.close();
    }
  },
};

import { Webhook } from '../../webhooks/index.node.js';
import type { WebhookScheme } from '../../webhooks/scheme/webhook-scheme.js';
import { WebhookVerificationError } from '../../webhooks/webhook-verification-error.js';
import type { Command, OptionValues } from '../command.js';
import { integerValue, stringList, stringValue } from '../parse-options.js';
import { bodyOptions, readBodyInput } from '../read-body-input.js';
import { CommandError, UsageError } from '../usage-error.js';
import { schemeOption, webhookScheme } from '../webhook-scheme-option.js';
import { secretOptions, webhookSecrets } from '../webhook-secrets.js';

/** `partner-equity webhooks verify`: checks one delivery the way the SDK's `Webhook#verify` does. */
export const webhooksVerify: Command = {
  path: ['webhooks', 'verify'],
  summary: 'Verify a webhook delivery (body + signature headers) and print its event',
  synopsis:
    "[--secret-file <file>] [--scheme <scheme>] [--body-file <file> | --body <text>] (--id … --timestamp … --signature … | -H 'name: value' …)",
  details: [
    'For debugging a delivery: give the raw body exactly as received and its headers. Prints the event as',
    'JSON and exits 0 when the signature and timestamp hold (whatever the body says), or says why it was',
    'refused and exits 1. A refusal for the timestamp alone says that the signature itself is valid.',
  ].join('\n'),
  options: {
    ...secretOptions,
    scheme: schemeOption,
    ...bodyOptions,
    id: { type: 'string', valueName: '<id>', description: "The message id header (the scheme's)" },
    timestamp: { type: 'string', valueName: '<seconds>', description: "The timestamp header (the scheme's)" },
    signature: { type: 'string', valueName: '<value>', description: "The signature header (the scheme's)" },
    header: {
      type: 'string',
      short: 'H',
      multiple: true,
      valueName: "'name: value'",
      description: 'A header as copied from a log; repeatable',
    },
    tolerance: {
      type: 'string',
      valueName: '<seconds>',
      description: 'Allowed distance of the timestamp from now (default: 300)',
    },
  },
  async run(values, io) {
    const toleranceSeconds = integerValue(values, 'tolerance', { min: 0, max: 2 ** 31, fallback: 300 });
    const scheme = await webhookScheme(values, io);
    const headers = collectHeaders(values, scheme);
    const secrets = await webhookSecrets(values, io);
    const body = await readBodyInput(values, io);
    const webhook = new Webhook({ secrets, toleranceSeconds, scheme });
    try {
      const event = await webhook.verify(body, headers);
      const what = event.recognised ? event.type : `a body outside the envelope (${event.problem})`;
      io.stderr.write(`Valid: ${what} (id ${event.webhookId}, secret #${event.secretIndex + 1} matched)\n`);
      io.stdout.write(`${JSON.stringify(event, null, 2)}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      throw new CommandError(`invalid webhook (${error.reason}): ${error.message}`);
    }
  },
};

/** Headers from `-H 'name: value'` lines, then `--id/--timestamp/--signature` (flags win). */
function collectHeaders(values: OptionValues, scheme: WebhookScheme): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of stringList(values, 'header')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`header '${line}' is not 'name: value'`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const flags = [
    ['id', scheme.idHeader],
    ['timestamp', scheme.timestampHeader],
    ['signature', scheme.signatureHeader],
  ] as const;
  for (const [option, name] of flags) {
    const value = stringValue(values, option);
    if (value === undefined) continue;
    if (name === null) {
      const where =
        option === 'timestamp' && scheme.timestampPrefix !== null ? ': it is inside --signature' : '';
      throw new UsageError(`the ${scheme.name} scheme has no ${option} header${where}`);
    }
    headers[name] = value;
  }
  for (const [option, name] of flags) {
    if (name !== null && headers[name] === undefined) {
      throw new UsageError(`missing the ${name} header: pass --${option} or -H '${name}: …'`);
    }
  }
  return headers;
}

import { Webhook } from '../../webhooks/index.node.js';
import { WebhookVerificationError } from '../../webhooks/webhook-verification-error.js';
import type { Command, OptionValues } from '../command.js';
import { integerValue, stringList, stringValue } from '../parse-options.js';
import { bodyOptions, readBodyInput } from '../read-body-input.js';
import { CommandError, UsageError } from '../usage-error.js';
import { secretOption, webhookSecrets } from '../webhook-secrets.js';

/** `partner-equity webhooks verify`: checks one delivery the way the SDK's `Webhook#verify` does. */
export const webhooksVerify: Command = {
  path: ['webhooks', 'verify'],
  summary: 'Verify a webhook delivery (body + webhook-* headers) and print its event',
  synopsis:
    "[--secret <whsec_…>] [--body-file <file> | --body <text>] (--id … --timestamp … --signature … | -H 'name: value' …)",
  details: [
    'For debugging a delivery: give the raw body exactly as received and its three headers. Prints the',
    'verified event as JSON and exits 0, or says why it was refused and exits 1. When only the timestamp is',
    'outside the tolerance, it also tells you whether the signature itself is right.',
  ].join('\n'),
  options: {
    secret: secretOption,
    ...bodyOptions,
    id: { type: 'string', valueName: '<id>', description: 'The webhook-id header' },
    timestamp: { type: 'string', valueName: '<seconds>', description: 'The webhook-timestamp header' },
    signature: { type: 'string', valueName: '<v1,…>', description: 'The webhook-signature header' },
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
    const secrets = webhookSecrets(values, io);
    const toleranceSeconds = integerValue(values, 'tolerance', { min: 0, max: 2 ** 31, fallback: 300 });
    const headers = collectHeaders(values);
    const body = await readBodyInput(values, io);
    const webhook = new Webhook({ secrets, toleranceSeconds });
    try {
      const event = await webhook.verify(body, headers);
      io.stderr.write(
        `Valid: ${event.type} (webhook-id ${event.webhookId}, secret #${event.secretIndex + 1} matched)\n`,
      );
      io.stdout.write(`${JSON.stringify(event, null, 2)}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      throw new CommandError(
        `invalid webhook (${error.reason}): ${error.message}${await hint(error, body, headers, secrets)}`,
      );
    }
  },
};

/** Headers from `-H 'name: value'` lines, then `--id/--timestamp/--signature` (flags win). */
function collectHeaders(values: OptionValues): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of stringList(values, 'header')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`header '${line}' is not 'name: value'`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  for (const [option, name] of [
    ['id', 'webhook-id'],
    ['timestamp', 'webhook-timestamp'],
    ['signature', 'webhook-signature'],
  ] as const) {
    const value = stringValue(values, option);
    if (value !== undefined) headers[name] = value;
  }
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    if (headers[name] === undefined) {
      throw new UsageError(`missing the ${name} header: pass --${name.slice(8)} or -H '${name}: …'`);
    }
  }
  return headers;
}

/** For a stale or future timestamp: would the signature verify at the time it claims? */
async function hint(
  error: WebhookVerificationError,
  body: Uint8Array,
  headers: Record<string, string>,
  secrets: string[],
): Promise<string> {
  if (error.reason !== 'timestamp_too_old' && error.reason !== 'timestamp_too_new') return '';
  const claimed = Number(headers['webhook-timestamp']) * 1000;
  try {
    await new Webhook({ secrets, now: () => claimed }).verify(body, headers);
  } catch (retry) {
    // Only a signature mismatch means the signature is wrong; a later check (the payload) means it was right.
    if (retry instanceof WebhookVerificationError && retry.reason === 'no_matching_signature') {
      return ' The signature does not match either.';
    }
  }
  return ' The signature itself is valid for that timestamp.';
}

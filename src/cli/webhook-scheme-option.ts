import { readFile } from 'node:fs/promises';
import { WEBHOOK_SCHEMES } from '../webhooks/scheme/presets.js';
import { resolveWebhookScheme } from '../webhooks/scheme/resolve-webhook-scheme.js';
import type { WebhookScheme } from '../webhooks/scheme/webhook-scheme.js';
import { WebhookVerificationError } from '../webhooks/webhook-verification-error.js';
import type { CliIo, OptionSpec, OptionValues } from './command.js';
import { stringValue } from './parse-options.js';
import { UsageError } from './usage-error.js';

/** Environment variable holding the webhook scheme (preset name, JSON, or a JSON file). */
export const WEBHOOK_SCHEME_ENV = 'PE_WEBHOOK_SCHEME';

/** The `--scheme` option shared by the webhook commands. */
export const schemeOption: OptionSpec = {
  type: 'string',
  valueName: '<scheme>',
  env: WEBHOOK_SCHEME_ENV,
  description:
    'Signing scheme: standard-webhooks (default), stripe, github, shopify, JSON such as \'{"preset":"stripe","signatureHeader":"x-pe-signature"}\', or a JSON file',
};

/** The scheme from `--scheme` or PE_WEBHOOK_SCHEME: a preset name, inline JSON or a JSON file's path. */
export async function webhookScheme(values: OptionValues, io: CliIo): Promise<WebhookScheme> {
  const text = stringValue(values, 'scheme') ?? (io.env[WEBHOOK_SCHEME_ENV] || undefined);
  if (text === undefined) return resolveWebhookScheme(undefined);
  let input: unknown = text;
  if (text.trimStart().startsWith('{')) {
    input = parseJson(text, 'the --scheme JSON');
  } else if (!Object.hasOwn(WEBHOOK_SCHEMES, text)) {
    let content: string;
    try {
      content = await readFile(text, 'utf8');
    } catch {
      const presets = Object.keys(WEBHOOK_SCHEMES).join(', ');
      throw new UsageError(`--scheme '${text}' is neither a preset (${presets}) nor a readable JSON file`);
    }
    input = parseJson(content, `the scheme file '${text}'`);
  }
  try {
    return resolveWebhookScheme(input as Parameters<typeof resolveWebhookScheme>[0]);
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new UsageError(`--scheme: ${error.message}`);
    throw error;
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${what} is not valid JSON`);
  }
}

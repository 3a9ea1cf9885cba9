import { randomUUID } from 'node:crypto';
import { signWebhook } from '../../webhooks/sign.js';
import type { Command } from '../command.js';
import { flag, integerValue, stringValue } from '../parse-options.js';
import { bodyOptions, readBodyInput } from '../read-body-input.js';
import { schemeOption, webhookScheme } from '../webhook-scheme-option.js';
import { secretOptions, webhookSecrets } from '../webhook-secrets.js';

/** `partner-equity webhooks sign`: the headers the service would send with a body, in any scheme. */
export const webhooksSign: Command = {
  path: ['webhooks', 'sign'],
  summary: 'Sign a webhook body as the service would and print the signature headers',
  synopsis:
    '[--secret-file <file>] [--scheme <scheme>] [--body-file <file> | --body <text>] [--id <id>] [--timestamp <s>] [--json]',
  details: [
    'Signs the body with HMAC-SHA256 in the scheme (Standard Webhooks by default: `<id>.<timestamp>.<body>`)',
    'and prints the headers, one `name: value` per line (or a JSON object with --json). Use it to replay a',
    'delivery to your own receiver, e.g. with curl -H for each line and --data-binary @body.json.',
  ].join('\n'),
  options: {
    ...secretOptions,
    scheme: schemeOption,
    ...bodyOptions,
    id: { type: 'string', valueName: '<id>', description: 'Message id to use (default: a new msg_… id)' },
    timestamp: {
      type: 'string',
      valueName: '<seconds>',
      description: 'Timestamp in Unix seconds (default: now)',
    },
    json: { type: 'boolean', description: 'Print the headers as a JSON object' },
  },
  async run(values, io) {
    const timestamp = integerValue(values, 'timestamp', {
      min: 1,
      max: 9_999_999_999,
      fallback: Math.floor(Date.now() / 1000),
    });
    const scheme = await webhookScheme(values, io);
    const [secret] = await webhookSecrets(values, io);
    const payload = await readBodyInput(values, io);
    const headers = await signWebhook({
      secret: secret!,
      id: stringValue(values, 'id') ?? `msg_${randomUUID().replaceAll('-', '')}`,
      timestamp,
      payload,
      scheme,
    });
    io.stdout.write(
      flag(values, 'json')
        ? `${JSON.stringify(headers, null, 2)}\n`
        : Object.entries(headers)
            .map(([name, value]) => `${name}: ${value}\n`)
            .join(''),
    );
    return 0;
  },
};

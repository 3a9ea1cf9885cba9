import { createNodeHandler, Webhook, WebhookReceiver } from '../../webhooks/index.node.js';
import { WebhookVerificationError } from '../../webhooks/webhook-verification-error.js';
import type { Command } from '../command.js';
import { serverOptions, startServer } from '../listen.js';
import { integerValue, stringValue } from '../parse-options.js';
import { secretOption, webhookSecrets } from '../webhook-secrets.js';

const DEFAULT_PORT = 4000;

/** `partner-equity webhooks listen`: a local receiver that verifies deliveries and prints their events. */
export const webhooksListen: Command = {
  path: ['webhooks', 'listen'],
  summary: 'Run a local webhook receiver that verifies each delivery and prints its event',
  synopsis: '[--port <port>] [--host <host>] [--path <path>] [--secret <whsec_…>]',
  details: [
    'Answers 204 to every verified delivery (retries included: nothing is de-duplicated, so you see each',
    'one) and 400 to anything that fails verification. Each verified event is printed to stdout as one',
    'JSON line; a summary line and every refusal reason go to stderr. Stop with Ctrl-C.',
  ].join('\n'),
  options: {
    ...serverOptions(DEFAULT_PORT),
    path: {
      type: 'string',
      valueName: '<path>',
      description: 'Only this path receives webhooks (default: every path)',
    },
    secret: secretOption,
  },
  async run(values, io) {
    const webhook = new Webhook({ secrets: webhookSecrets(values, io) });
    const port = integerValue(values, 'port', { min: 0, max: 65_535, fallback: DEFAULT_PORT });
    const host = stringValue(values, 'host') ?? '127.0.0.1';
    const path = stringValue(values, 'path');
    const receiver = new WebhookReceiver(webhook, { idStore: false })
      .onAny((event) => {
        io.stderr.write(`${new Date().toISOString()}  ${event.type}  ${event.webhookId}\n`);
        io.stdout.write(`${JSON.stringify(event)}\n`);
      })
      .onError((error) => {
        const reason = error instanceof WebhookVerificationError ? ` (${error.reason})` : '';
        const message = error instanceof Error ? error.message : String(error);
        io.stderr.write(`${new Date().toISOString()}  refused${reason}: ${message.split('\n')[0]}\n`);
      });
    const handle = createNodeHandler(receiver);
    const started = await startServer(
      (req, res) => {
        if (path !== undefined && new URL(req.url ?? '/', 'http://localhost').pathname !== path) {
          res.statusCode = 404;
          res.end('Not Found');
          return;
        }
        handle(req, res).catch(() => {
          res.statusCode = 500;
          res.end();
        });
      },
      host,
      port,
    );
    io.stderr.write(`Listening for webhooks on ${started.origin}${path ?? '/'} (Ctrl-C to stop)\n`);
    await io.waitForInterrupt();
    await started.close();
    return 0;
  },
};

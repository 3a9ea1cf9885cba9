import { createNodeHandler, Webhook, WebhookReceiver } from '../../webhooks/index.node.js';
import { WebhookVerificationError } from '../../webhooks/webhook-verification-error.js';
import type { Command } from '../command.js';
import { serverOptions, startServer } from '../listen.js';
import { integerValue, stringValue } from '../parse-options.js';
import { schemeOption, webhookScheme } from '../webhook-scheme-option.js';
import { secretOptions, webhookSecrets } from '../webhook-secrets.js';

const DEFAULT_PORT = 4000;

/** `partner-equity webhooks listen`: a local receiver that verifies deliveries and prints their events. */
export const webhooksListen: Command = {
  path: ['webhooks', 'listen'],
  summary: 'Run a local webhook receiver that verifies each delivery and prints its event',
  synopsis:
    '[--port <port>] [--host <host>] [--path <path>] [--secret-file <file>] [--scheme <scheme>] [--tolerance <s>]',
  details: [
    'Answers 204 to every verified delivery, whatever its body (retries included: nothing is de-duplicated,',
    'so you see each one), and 400 to anything whose signature or timestamp fails. Each verified event is',
    'printed to stdout as one JSON line; a summary line, every refusal reason and every unexpected body',
    'shape go to stderr. Stop with Ctrl-C.',
  ].join('\n'),
  options: {
    ...serverOptions(DEFAULT_PORT),
    path: {
      type: 'string',
      valueName: '<path>',
      description: 'Only this path receives webhooks (default: every path)',
    },
    ...secretOptions,
    scheme: schemeOption,
    tolerance: {
      type: 'string',
      valueName: '<seconds>',
      description: 'Allowed distance of the timestamp from now (default: 300)',
    },
  },
  async run(values, io) {
    const toleranceSeconds = integerValue(values, 'tolerance', { min: 0, max: 2 ** 31, fallback: 300 });
    const port = integerValue(values, 'port', { min: 0, max: 65_535, fallback: DEFAULT_PORT });
    const host = stringValue(values, 'host') ?? '127.0.0.1';
    const path = stringValue(values, 'path');
    const scheme = await webhookScheme(values, io);
    const webhook = new Webhook({ secrets: await webhookSecrets(values, io), scheme, toleranceSeconds });
    const line = (text: string) => io.stderr.write(`${new Date().toISOString()}  ${text.split('\n')[0]}\n`);
    const receiver = new WebhookReceiver(webhook, { idStore: false, logger: { warn: line, error: line } })
      .onAny((event) => {
        line(`${event.type ?? 'unrecognised'}  ${event.webhookId}`);
        io.stdout.write(`${JSON.stringify(event)}\n`);
      })
      .onError((error) => {
        // An authentic delivery refused for its timestamp is told by the receiver's own warning.
        if (error instanceof WebhookVerificationError && error.signatureMatched) return;
        const reason = error instanceof WebhookVerificationError ? ` (${error.reason})` : '';
        line(`refused${reason}: ${error instanceof Error ? error.message : String(error)}`);
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
    const interrupted = io.waitForInterrupt();
    io.stderr.write(`Listening for webhooks on ${started.origin}${path ?? '/'} (Ctrl-C to stop)\n`);
    await interrupted;
    await started.close();
    return 0;
  },
};

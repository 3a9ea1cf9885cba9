/**
 * Where `WebhookReceiver` writes its operator lines: `console` fits, and so do the SDK's `Logger`, pino and
 * winston. Lines never contain a secret or a signature.
 */
export interface WebhookLogger {
  /** Unexpected body shapes (once per kind), authentic deliveries refused for their timestamp. */
  warn(message: string, fields?: Record<string, unknown>): unknown;
  /** The id store is unavailable; without `onError` handlers, also handler failures and developer mistakes. */
  error(message: string, fields?: Record<string, unknown>): unknown;
}

const PREFIX = '[partner-equity webhooks] ';
// Distinct shapes are few in practice (the sender's event types); the cap only bounds a misbehaving sender.
const MAX_REMEMBERED = 1000;

/** A {@link WebhookLogger} with the SDK's prefix and a memory of what was already said once. */
export class ReceiverLog {
  readonly #logger: WebhookLogger;
  readonly #said = new Set<string>();

  constructor(logger: WebhookLogger) {
    this.#logger = logger;
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.#write('warn', message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.#write('error', message, fields);
  }

  /** Warns the first time `key` comes up, then stays quiet about it. */
  warnOnce(key: string, message: string, fields?: Record<string, unknown>): void {
    if (this.#said.has(key) || this.#said.size >= MAX_REMEMBERED) return;
    this.#said.add(key);
    this.warn(message, fields);
  }

  #write(level: 'warn' | 'error', message: string, fields: Record<string, unknown> | undefined): void {
    try {
      if (fields === undefined) this.#logger[level](PREFIX + message);
      else this.#logger[level](PREFIX + message, fields);
    } catch {
      // A broken logger must not turn an answer into a crash of the adapter.
    }
  }
}
